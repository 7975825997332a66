// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {PerpOrderSteps} from "../../helpers/PerpOrderSteps.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {ILiquidationEngine} from "../../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IPerpMarket} from "../../../contracts/interfaces/markets/IPerpMarket.sol";
import {ILiquidityVault} from "../../../contracts/interfaces/markets/ILiquidityVault.sol";
import {MockRiskPriceIndex} from "../../../contracts/mocks/MockRiskPriceIndex.sol";
import {MockERC20} from "../../../contracts/mocks/MockERC20.sol";

/// @notice Trader, LP and keeper handlers with price moves and time, against the PerpMarket and its vault. Counts
///         the violations it can only observe around a call (funding direction over an interval, round trips).
contract PerpHandler is CommonBase, StdCheats, StdUtils {
    IClearingHouse internal ch;
    IPerpMarket internal perp;
    ILiquidityVault internal vault;
    ILiquidationEngine internal liq;
    MockRiskPriceIndex internal index;
    MockERC20 internal usdc;

    address[3] public traders;
    address[2] public lps = [address(0x1A01), address(0x1A02)];
    address public keeper = address(0xEE01);

    // ghosts
    int256 public ghostFundingSettled; // Σ funding settled from traders to the pool (+ paid by traders)
    uint256 public ghostFundingOps;
    uint256 public ghostBountyClaimed;
    uint256 public ghostBurnFlushed;
    uint256 public trades;
    uint256 public violationsMKT02;
    uint256 public violationsACC03;

    constructor(address[6] memory m, address[3] memory traders_) {
        ch = IClearingHouse(m[0]);
        perp = IPerpMarket(m[1]);
        vault = ILiquidityVault(m[2]);
        liq = ILiquidationEngine(m[3]);
        index = MockRiskPriceIndex(m[4]);
        usdc = MockERC20(m[5]);
        traders = traders_;
        for (uint256 i; i < 2; ++i) {
            usdc.mint(lps[i], 10_000_000e6);
            vm.prank(lps[i]);
            usdc.approve(address(vault), type(uint256).max);
        }
    }

    function _trader(uint256 seed) internal view returns (address) {
        return traders[seed % 3];
    }

    /// @dev Funding the trader owes now is exactly what a settlement in this block moves (same time, same price).
    function _owed(address t) internal view returns (int256) {
        return perp.fundingOwedUsdc(t);
    }

    // ───────── traders ─────────

    function trade(uint256 seed, int256 size) external {
        address t = _trader(seed);
        size = bound(size, -800e18, 800e18);
        if (size > -0.01e18 && size < 0.01e18) size = 0.01e18;
        vm.prank(t);
        try perp.commitOrder(size, 0) returns (uint256 priceTime) {
            if (_execute(t, priceTime)) ++trades;
        } catch {}
    }

    function close(uint256 seed) external {
        address t = _trader(seed);
        vm.prank(t);
        try perp.closePosition(0) returns (uint256 priceTime) {
            _execute(t, priceTime);
        } catch {}
    }

    /// @dev Executes (as the keeper-handler) once the order is ready; the funding a fill settles is what is owed then.
    function _execute(address t, uint256 priceTime) internal returns (bool filled) {
        vm.warp(priceTime + 1);
        int256 owed = _owed(t);
        (filled, ) = PerpOrderSteps.execute(perp, t, priceTime);
        if (filled) {
            ghostFundingSettled += owed;
            ++ghostFundingOps;
        }
    }

    function settleFunding(uint256 seed) external {
        address t = _trader(seed);
        int256 owed = _owed(t);
        try perp.settleFunding(t) returns (int256 credited) {
            ghostFundingSettled += owed;
            ++ghostFundingOps;
            if (credited != -owed) ++violationsMKT02; // the settled amount must be what was owed (never recomputed)
        } catch {}
    }

    function liquidate(uint256 seed) external {
        try liq.liquidate(_trader(seed)) {} catch {}
    }

    // ───────── market: price and time ─────────

    function movePrice(uint256 moveBps, bool up) external {
        moveBps = bound(moveBps, 1, 600);
        uint256 p = index.priceWad();
        p = up ? (p * (10_000 + moveBps)) / 10_000 : (p * (10_000 - moveBps)) / 10_000;
        if (p < 5e18) p = 5e18;
        if (p > 20e18) p = 20e18;
        index.setPrice(p);
    }

    /// @dev MKT-02 over the interval: with longs ahead the index can only rise (longs pay), and the reverse.
    function warp(uint256 dt) external {
        dt = bound(dt, 1, 2 days);
        IPerpMarket.MarketState memory s = perp.marketState();
        int256 skew = int256(s.longOiCh) - int256(s.shortOiCh);
        (int256 before, ) = perp.currentFunding();
        vm.warp(block.timestamp + dt);
        (int256 after_, ) = perp.currentFunding();
        if (skew > 0 && after_ < before) ++violationsMKT02;
        if (skew < 0 && after_ > before) ++violationsMKT02;
        if (skew == 0 && after_ != before) ++violationsMKT02;
    }

    // ───────── keeper ─────────

    function poke() external {
        vm.prank(keeper);
        try perp.pokeFunding() {} catch {}
    }

    function claimBounty() external {
        uint256 owed = perp.keeperBountyOf(keeper);
        vm.prank(keeper);
        try perp.claimKeeperBounty() returns (uint256 paid) {
            ghostBountyClaimed += paid;
            if (paid != owed) ++violationsACC03;
        } catch {}
    }

    function flushBurn() external {
        try perp.flushBurnReserve() returns (uint256 amount) {
            ghostBurnFlushed += amount;
        } catch {}
    }

    function allocate(uint256 amount) external {
        amount = bound(amount, 1, 1_000_000e6);
        try vault.allocate(address(perp), amount) {} catch {}
    }

    function deallocate(uint256 amount) external {
        amount = bound(amount, 1, 1_000_000e6);
        try vault.deallocate(address(perp), amount) {} catch {}
    }

    // ───────── LPs ─────────

    function lpDeposit(uint256 seed, uint256 amount) external {
        address lp = lps[seed % 2];
        amount = bound(amount, 1, 500_000e6);
        vm.prank(lp);
        try vault.deposit(amount, lp) {} catch {}
    }

    function lpWithdraw(uint256 seed, uint256 amount) external {
        address lp = lps[seed % 2];
        amount = bound(amount, 1, 500_000e6);
        vm.prank(lp);
        try vault.withdraw(amount, lp, lp) {} catch {}
    }

    /// @dev ACC-03: deposit then immediate full redemption of those shares returns ≤ the deposit.
    function lpRoundTrip(uint256 seed, uint256 amount) external {
        address lp = lps[seed % 2];
        amount = bound(amount, 1, 100_000e6);
        uint256 before = usdc.balanceOf(lp);
        vm.startPrank(lp);
        try vault.deposit(amount, lp) returns (uint256 shares) {
            try vault.redeem(shares, lp, lp) {} catch {}
        } catch {}
        vm.stopPrank();
        if (usdc.balanceOf(lp) > before) ++violationsACC03;
    }
}
