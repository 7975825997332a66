// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IRiskEngine} from "../../../contracts/interfaces/clearing/IRiskEngine.sol";
import {ILiquidationEngine} from "../../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {MockPriceIndex} from "../../../contracts/mocks/MockPriceIndex.sol";
import {MockInsuranceFund} from "../../../contracts/mocks/MockInsuranceFund.sol";
import {MockClearingMarket} from "../../../contracts/mocks/MockClearingMarket.sol";
import {MockERC20} from "../../../contracts/mocks/MockERC20.sol";

/// @notice Drives traders, guarantors, an outside staker, a liquidator and price moves against the clearing
///         layer, and counts every violation of a property it can only observe inside a call.
contract ClearingHandler is CommonBase, StdCheats, StdUtils {
    IClearingHouse internal ch;
    IGuarantorPool internal pool;
    IRiskEngine internal risk;
    ILiquidationEngine internal liq;
    MockPriceIndex internal oracle;
    MockInsuranceFund internal insurance;
    MockClearingMarket internal market;
    MockERC20 internal usdc;

    address[3] public traders;
    address public g1;
    address public g2;
    address public staker = address(0x57A4E5);
    address public liquidator = address(0x11C1D);
    uint256 public immutable maxBounty;

    // ghosts
    int256 public ghostCapitalFlows; // deposits − withdrawals + income − losses covered, Σ over g1, g2
    uint256 public ghostFeesFlushed;
    uint256 public liquidations;
    uint256 public violationsLIQ01;
    uint256 public violationsLIQ02;
    uint256 public violationsLIQ03;
    uint256 public violationsLIQ04;
    uint256 public violationsLIQ05;
    uint256 public violationsACC03;
    uint256 public violationsSEC05;

    constructor(
        address[8] memory m, // ch, pool, risk, liq, oracle, insurance, market, usdc
        address[3] memory traders_,
        address g1_,
        address g2_,
        uint256 maxBounty_
    ) {
        ch = IClearingHouse(m[0]);
        pool = IGuarantorPool(m[1]);
        risk = IRiskEngine(m[2]);
        liq = ILiquidationEngine(m[3]);
        oracle = MockPriceIndex(m[4]);
        insurance = MockInsuranceFund(m[5]);
        market = MockClearingMarket(m[6]);
        usdc = MockERC20(m[7]);
        traders = traders_;
        g1 = g1_;
        g2 = g2_;
        maxBounty = maxBounty_;
    }

    function _trader(uint256 seed) internal view returns (address) {
        return traders[seed % 3];
    }

    // ───────────── trader ─────────────

    function deposit(uint256 seed, uint256 amount) external {
        address t = _trader(seed);
        amount = bound(amount, 1, 2_000e6);
        usdc.mint(t, amount);
        vm.startPrank(t);
        usdc.approve(address(ch), amount);
        ch.deposit(amount);
        vm.stopPrank();
    }

    function withdraw(uint256 seed, uint256 amount) external {
        address t = _trader(seed);
        int256 c = ch.collateralOf(t);
        if (c <= 0) return;
        amount = bound(amount, 1, uint256(c));
        vm.prank(t);
        try ch.withdraw(amount, t) {
            if (ch.marketsOf(t).length > 0) {
                IClearingHouse.MarginState memory s = ch.marginState(t);
                if (s.equityUsdc < int256(s.initialMarginUsdc)) ++violationsLIQ01;
            }
        } catch {}
    }

    function trade(uint256 seed, int256 size) external {
        address t = _trader(seed);
        size = bound(size, -300e18, 300e18);
        if (size == 0) return;
        int256 before = ch.positionOf(t, address(market)).sizeCh;
        vm.prank(t);
        try market.trade(size) {
            int256 afterSize = before + size;
            bool increasing = _abs(afterSize) > _abs(before) || (before != 0 && (before > 0) != (afterSize > 0));
            if (increasing) {
                IClearingHouse.MarginState memory s = ch.marginState(t);
                if (s.equityUsdc < int256(s.initialMarginUsdc)) ++violationsLIQ01;
            }
        } catch {}
    }

    function settleFunding(uint256 seed, int256 amount) external {
        amount = bound(amount, -20e6, 20e6);
        market.settleFunding(_trader(seed), amount);
    }

    /// SEC-05: an account without positions can always withdraw all of its margin.
    function exitAll(uint256 seed) external {
        address t = _trader(seed);
        int256 c = ch.collateralOf(t);
        if (c <= 0 || ch.marketsOf(t).length != 0) return;
        vm.prank(t);
        try ch.withdraw(uint256(c), t) {} catch {
            ++violationsSEC05;
        }
    }

    /// ACC-03: deposit then immediate full withdrawal returns exactly the deposit, never more.
    function roundTrip(uint256 seed, uint256 amount) external {
        address t = _trader(seed);
        amount = bound(amount, 1, 1_000e6);
        usdc.mint(t, amount);
        uint256 balBefore = usdc.balanceOf(t);
        int256 collBefore = ch.collateralOf(t);
        vm.startPrank(t);
        usdc.approve(address(ch), amount);
        ch.deposit(amount);
        bool ok;
        try ch.withdraw(amount, t) {
            ok = true;
        } catch {
            // without positions and with the collateral there, a withdrawal is never refused (SEC-05)
            if (ch.marketsOf(t).length == 0 && ch.collateralOf(t) >= int256(amount)) ++violationsSEC05;
        }
        vm.stopPrank();
        if (usdc.balanceOf(t) > balBefore || (ok && ch.collateralOf(t) != collBefore)) ++violationsACC03;
    }

    // ───────────── price / keeper ─────────────

    function movePrice(uint256 moveBps) external {
        uint256 p = oracle.priceWad();
        moveBps = bound(moveBps, 7_000, 13_000);
        p = (p * moveBps) / 10_000;
        if (p < 1e18) p = 1e18;
        if (p > 100e18) p = 100e18;
        oracle.setPrice(p);
    }

    function updateVolatility(uint256 dt) external {
        vm.warp(block.timestamp + bound(dt, 1 hours, 2 days));
        risk.updateVolatility();
    }

    function toggleNewRisk(bool paused) external {
        bytes32 f = keccak256("clearing.newRisk");
        if (paused) IChxModule(address(ch)).pauseFeature(f);
        else IChxModule(address(ch)).unpauseFeature(f);
    }

    function flushFees() external {
        (uint256 fees, ) = ch.totals();
        if (fees == 0) return;
        ch.flushFees();
        ghostFeesFlushed += fees;
    }

    // ───────────── liquidator ─────────────

    struct Snap {
        uint256 gCapital;
        uint256 insurance;
        uint256 socialised;
        bool due;
    }

    function liquidate(uint256 seed) external {
        address t = _trader(seed);
        address g = pool.guarantorOf(t);
        IClearingHouse.MarginState memory s = ch.marginState(t);
        Snap memory b;
        b.due = s.equityUsdc < int256(s.maintenanceMarginUsdc);
        b.gCapital = pool.guarantorInfo(g).capitalUsdc;
        b.insurance = insurance.totalAssets();
        (, b.socialised) = ch.totals();
        uint256 liqBalBefore = usdc.balanceOf(liquidator);
        vm.prank(liquidator);
        try liq.liquidate(t) returns (uint256, uint256 bounty) {
            ++liquidations;
            if (!b.due) ++violationsLIQ01;
            // LIQ-02: healthy again or fully closed, and never an open position with margin ≤ 0
            IClearingHouse.MarginState memory a = ch.marginState(t);
            if (a.positionCount > 0 && (a.equityUsdc < int256(a.maintenanceMarginUsdc) || a.equityUsdc <= 0)) {
                ++violationsLIQ02;
            }
            // (CLR-03: a deficit may stay only when the guarantor and the insurance fund are both exhausted — it
            // waits for auto-deleveraging)
            if (
                a.positionCount == 0 &&
                a.collateralUsdc < 0 &&
                (pool.guarantorInfo(g).capitalUsdc != 0 || insurance.totalAssets() != 0)
            ) ++violationsLIQ02;
            // LIQ-04: bounded by the configured cap and by the margin seized (never pushes collateral below 0)
            if (bounty > maxBounty || usdc.balanceOf(liquidator) - liqBalBefore != bounty) ++violationsLIQ04;
            if (bounty > 0 && a.collateralUsdc < 0) ++violationsLIQ04;
            // LIQ-03: a layer is touched only when the one before is exhausted
            uint256 gAfter = pool.guarantorInfo(g).capitalUsdc;
            (, uint256 socialisedAfter) = ch.totals();
            if (gAfter < b.gCapital) ghostCapitalFlows -= int256(b.gCapital - gAfter);
            if (insurance.totalAssets() < b.insurance && gAfter != 0) ++violationsLIQ03;
            if (socialisedAfter > b.socialised && (gAfter != 0 || insurance.totalAssets() != 0)) ++violationsLIQ03;
        } catch {
            // LIQ-05: a due liquidation never reverts while the index is valid (pauses included)
            if (b.due) ++violationsLIQ05;
        }
    }

    // ───────────── guarantor / staker ─────────────

    function stakerDeposit(uint256 amount) external {
        amount = bound(amount, 1, 5_000e6);
        usdc.mint(staker, amount);
        vm.startPrank(staker);
        usdc.approve(address(pool), amount);
        try pool.depositCapital(g2, amount) {
            ghostCapitalFlows += int256(amount);
        } catch {}
        vm.stopPrank();
    }

    function stakerWithdraw(uint256 shares) external {
        uint256 held = pool.sharesOf(g2, staker);
        if (held == 0) return;
        shares = bound(shares, 1, held);
        vm.prank(staker);
        try pool.withdrawCapital(g2, shares, staker) returns (uint256 out) {
            ghostCapitalFlows -= int256(out);
        } catch {}
    }

    function guarantorTopUp(bool first, uint256 amount) external {
        address g = first ? g1 : g2;
        amount = bound(amount, 1, 2_000e6);
        usdc.mint(g, amount);
        vm.startPrank(g);
        usdc.approve(address(pool), amount);
        pool.depositCapital(g, amount);
        vm.stopPrank();
        ghostCapitalFlows += int256(amount);
    }

    function creditIncome(uint256 amount) external {
        amount = bound(amount, 1, 100e6);
        usdc.mint(staker, amount);
        vm.startPrank(staker);
        usdc.approve(address(pool), amount);
        pool.creditIncome(g2, amount);
        vm.stopPrank();
        ghostCapitalFlows += int256(amount);
    }

    function _abs(int256 x) internal pure returns (uint256) {
        return x >= 0 ? uint256(x) : uint256(-x);
    }
}
