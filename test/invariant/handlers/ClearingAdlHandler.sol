// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {ILiquidationEngine} from "../../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {MockPriceIndex} from "../../../contracts/mocks/MockPriceIndex.sol";
import {MockInsuranceFund} from "../../../contracts/mocks/MockInsuranceFund.sol";
import {MockClearingMarket} from "../../../contracts/mocks/MockClearingMarket.sol";
import {MockERC20} from "../../../contracts/mocks/MockERC20.sol";

/// @notice Drives leveraged traders under thin guarantors with a small insurance fund through price moves,
///         liquidations and auto-deleveraging rounds (nominate any trader, wait, execute), and counts every violation
///         of CLR-03 and CLR-05 it observes inside a call (issue 20 item 4).
contract ClearingAdlHandler is CommonBase, StdCheats, StdUtils {
    IClearingHouse internal ch;
    IGuarantorPool internal pool;
    ILiquidationEngine internal liq;
    MockPriceIndex internal oracle;
    MockInsuranceFund internal insurance;
    MockClearingMarket internal market;
    MockERC20 internal usdc;

    address[4] public traders;
    address public keeper = address(0xADC0);

    uint256 public adlSteps;
    uint256 public claimsOpened;
    uint256 public violationsCLR03;
    uint256 public violationsCLR05;

    constructor(address[7] memory m, address[4] memory traders_) {
        ch = IClearingHouse(m[0]);
        pool = IGuarantorPool(m[1]);
        liq = ILiquidationEngine(m[2]);
        oracle = MockPriceIndex(m[3]);
        insurance = MockInsuranceFund(m[4]);
        market = MockClearingMarket(m[5]);
        usdc = MockERC20(m[6]);
        traders = traders_;
    }

    function _trader(uint256 seed) internal view returns (address) {
        return traders[seed % 4];
    }

    function trade(uint256 seed, int256 size) external {
        size = bound(size, -400e18, 400e18);
        if (size == 0) return;
        vm.prank(_trader(seed));
        try market.trade(size) {} catch {}
    }

    function movePrice(uint256 moveBps) external {
        moveBps = bound(moveBps, 5_000, 15_000);
        uint256 p = (oracle.indexPrice() * moveBps) / 10_000;
        oracle.setPrice(bound(p, 1e18, 100e18));
    }

    function fundInsurance(uint256 amount) external {
        usdc.mint(address(insurance), bound(amount, 0, 200e6));
    }

    function liquidate(uint256 seed) external {
        address t = _trader(seed);
        // A claim opened by an earlier liquidation stays until `executeAdl` (which retries the guarantor and the fund
        // first, so a fund refilled since pays before anyone is deleveraged): only a claim opened by this call counts.
        bool existed = liq.adlClaim(t).market != address(0);
        try liq.liquidate(t) {
            if (!existed && liq.adlClaim(t).market != address(0)) {
                ++claimsOpened;
                // CLR-03: a claim opens only once the guarantor and the insurance fund are exhausted
                if (insurance.totalAssets() != 0 || pool.guarantorInfo(pool.guarantorOf(t)).capitalUsdc != 0) {
                    ++violationsCLR03;
                }
            }
        } catch {}
    }

    struct Before {
        int256[4] sizes;
        int256[4] collateral;
        int256 pool;
        uint256 keeper;
        uint256 socialised;
        uint256 backstops;
    }

    /// @dev The insurance fund's assets and both guarantors' capital: the retry before ADL may draw on them.
    function _backstops() internal view returns (uint256) {
        return
            insurance.totalAssets() +
            pool.guarantorInfo(pool.guarantorOf(traders[0])).capitalUsdc +
            pool.guarantorInfo(pool.guarantorOf(traders[2])).capitalUsdc;
    }

    /// Nominates every trader that is a candidate (best first by the engine's own score), waits for the window and
    /// executes the round.
    function adl(uint256 seed) external {
        address b = _trader(seed);
        ILiquidationEngine.AdlClaim memory c = liq.adlClaim(b);
        if (c.market == address(0)) return;
        for (uint256 i; i < 4; ++i) {
            try liq.nominateAdl(b, traders[i]) {} catch {}
        }
        vm.warp(block.timestamp + liq.adlWindow());
        Before memory s;
        for (uint256 i; i < 4; ++i) {
            s.sizes[i] = ch.positionOf(traders[i], address(market)).sizeCh;
            s.collateral[i] = ch.collateralOf(traders[i]);
        }
        (, s.pool) = ch.marketInfo(address(market));
        s.keeper = usdc.balanceOf(keeper);
        (, s.socialised) = ch.totals();
        s.backstops = _backstops();
        vm.prank(keeper);
        (uint256 steps, uint256 recovered) = liq.executeAdl(b);
        adlSteps += steps;
        _check(b, c, s, steps, recovered);
    }

    function _check(
        address b,
        ILiquidationEngine.AdlClaim memory c,
        Before memory s,
        uint256 steps,
        uint256 recovered
    ) internal {
        // CLR-03: a step only after the insurance fund is exhausted (execution retries it first)
        if (steps > 0 && insurance.totalAssets() != 0) ++violationsCLR03;
        uint256 reducedCh;
        int256 moved;
        for (uint256 i; i < 4; ++i) {
            int256 before = s.sizes[i];
            int256 after_ = ch.positionOf(traders[i], address(market)).sizeCh;
            moved += ch.collateralOf(traders[i]) - s.collateral[i];
            if (after_ == before) continue;
            // CLR-03: only positions on the opposite side are touched, and only reduced (never flipped or grown)
            bool opposite = c.bankruptLong ? before < 0 : before > 0;
            bool reduced = (before > 0 ? after_ >= 0 && after_ < before : after_ <= 0 && after_ > before);
            if (!opposite || !reduced || traders[i] == b) ++violationsCLR03;
            reducedCh += uint256(before > 0 ? before - after_ : after_ - before);
        }
        // CLR-03 at the bankruptcy price: the deficit recovered never exceeds the distance on the size reduced
        if (recovered > (reducedCh * c.perChWad + 1e18 - 1) / 1e18 + steps) ++violationsCLR03;
        // CLR-05: no loss lands anywhere else — the pool pays the PnL at the index and the money only moves among
        // the pool, the accounts and the keeper, plus what the guarantor and the insurance fund paid in first;
        // nothing is socialised
        (, int256 poolAfter) = ch.marketInfo(address(market));
        int256 keeperGain = int256(usdc.balanceOf(keeper) - s.keeper);
        int256 paidIn = int256(s.backstops) - int256(_backstops());
        if ((poolAfter - s.pool) + moved + keeperGain != paidIn) ++violationsCLR05;
        (, uint256 socialisedAfter) = ch.totals();
        if (socialisedAfter != s.socialised) ++violationsCLR05;
    }
}
