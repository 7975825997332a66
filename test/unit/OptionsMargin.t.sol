// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OptionsMarginBase} from "./options/OptionsMarginBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {IOptionsMarketErrors} from "../../contracts/interfaces/markets/IOptionsMarketErrors.sol";
import {IOptionsMarketTypes} from "../../contracts/interfaces/markets/IOptionsMarketTypes.sol";

/// @notice Margined option writing on the real OptionsMarket (issue 20 item 3): the market answers the ClearingHouse's
///         scenario grid (CLR-04), margined writers are liquidated by the same engine (their shorts prepaid at value),
///         holders are paid in full and a writer's shortfall goes down the waterfall only (CLR-05).
contract OptionsMarginTest is OptionsMarginBase {
    /// The margined uncapped call is in the account's margin at its worst grid loss (CLR-04): IM = the +R move's value.
    function test_marginedUncappedCall_requirementIsWorstGridLoss_CLR04() public {
        _setupTrader(alice, guarantor, 150e6);
        vm.prank(alice);
        options.writeMargined(uncappedCall, 100e18);
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        assertEq(s.initialMarginUsdc, _worstLoss(alice, 10e18, 0.1e18));
        assertApproxEqAbs(s.initialMarginUsdc, 100e6, 1); // +10 %: 100 CH × 1
        assertGe(s.maintenanceMarginUsdc, _worstLoss(alice, 10e18, 0.05e18));
        assertEq(options.marginedOf(uncappedCall, alice).shortCh, 100e18);
        assertEq(options.positionOf(uncappedCall, alice).longCh, 100e18, "the writer gets the long");
        assertEq(options.positionOf(uncappedCall, alice).collateralUsdc, 0, "no collateral posted");
        assertEq(chouse.marketsOf(alice).length, 1, "held by the options market");
        (, uint256 reserved) = options.poolClaims();
        assertEq(reserved, 0);
    }

    /// A writer whose margin does not cover the new short cannot write it (the ClearingHouse's checkRiskIncrease: the
    /// grid's +R loss exactly, against the collateral exactly — no 1-wei trade in the figures any more).
    function test_writeMargined_beyondMargin_reverts() public {
        _setupTrader(alice, guarantor, 50e6);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingInsufficientMargin.selector, alice, 100e6, 50e6)
        );
        options.writeMargined(uncappedCall, 100e18);
    }

    /// A naked margined short call, then the index triples: the writer is liquidated by the same engine (its short
    /// prepaid at value), the holder is paid in full at expiry, and the writer's deficit is absorbed by the waterfall
    /// (guarantor, insurance) — the options pool keeps fees + reserve (CLR-05: no stray losses).
    function test_nakedShortCall_indexTriples_liquidatedHolderPaid_badDebtThroughWaterfallOnly_CLR05() public {
        _setupTrader(alice, guarantor, 150e6);
        vm.startPrank(alice);
        options.writeMargined(uncappedCall, 100e18);
        options.transferLong(uncappedCall, bob, 100e18);
        vm.stopPrank();
        _fundInsurance(5_000e6);
        oracle.setPrice(30e18); // 3×: the call is worth 2,000
        (bool liquidatable, , ) = liq.isLiquidatable(alice);
        assertTrue(liquidatable);
        uint256 guarantorBefore = pool.guarantorInfo(guarantor).capitalUsdc;
        liq.liquidate(alice);
        assertEq(chouse.collateralOf(alice), 0, "deficit absorbed");
        assertEq(chouse.marketsOf(alice).length, 0, "released");
        IOptionsMarketTypes.MarginedShort memory m = options.marginedOf(uncappedCall, alice);
        assertEq(m.shortCh, 0);
        assertEq(m.prepaidCh, 100e18);
        assertEq(m.prepaidUsdc, 2_000e6);
        assertLt(pool.guarantorInfo(guarantor).capitalUsdc, guarantorBefore, "the guarantor paid first");
        (, uint256 reserved) = options.poolClaims();
        assertEq(reserved, 2_000e6, "the prepaid value is reserved for the holders");
        _expireAt(uncappedCall, 30e18);
        int256 bobBefore = chouse.collateralOf(bob);
        options.exercise(uncappedCall, bob);
        assertEq(chouse.collateralOf(bob) - bobBefore, 2_000e6, "holder paid in full");
        options.exercise(uncappedCall, alice);
        assertEq(chouse.collateralOf(alice), 0, "prepaid = owed: nothing moves");
        _assertPoolCovers();
    }

    /// Same jump but the index falls back before expiry: the liquidated writer's prepaid value beyond what it owes
    /// comes back to its account at settlement.
    function test_liquidatedWriter_priceFallsBack_prepaidExcessReturned() public {
        _setupTrader(alice, guarantor, 150e6);
        vm.startPrank(alice);
        options.writeMargined(uncappedCall, 100e18);
        options.transferLong(uncappedCall, bob, 100e18);
        vm.stopPrank();
        _fundInsurance(5_000e6);
        oracle.setPrice(13e18);
        liq.liquidate(alice); // value 300 prepaid; −150 deficit absorbed
        assertEq(chouse.collateralOf(alice), 0);
        _expireAt(uncappedCall, 11e18);
        options.settleSeries(uncappedCall, 10);
        assertEq(chouse.collateralOf(alice), 200e6, "300 prepaid, 100 owed");
        _assertPoolCovers();
    }

    /// The writer cannot withdraw the margin its margined short needs right after writing.
    function test_writerWithdrawsRightAfterMarginedWriting_reverts() public {
        _setupTrader(alice, guarantor, 150e6);
        vm.prank(alice);
        options.writeMargined(uncappedCall, 100e18);
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingInsufficientMargin.selector,
                alice,
                s.initialMarginUsdc,
                s.equityUsdc - 100e6
            )
        );
        chouse.withdraw(100e6, alice);
        vm.prank(alice);
        chouse.withdraw(uint256(s.equityUsdc) - s.initialMarginUsdc, alice);
    }

    /// A short straddle (margined call + put) hedged by a long perp after the index moved: the offset is recognised
    /// (less than the two stand-alone) but the grid's worst loss and the 25 % basis floor hold (CLR-04).
    function test_shortStraddleHedgedByPerps_offsetRecognisedNotOverCredited_CLR04() public {
        _setupTrader(alice, guarantor, 1_000e6);
        vm.startPrank(alice);
        options.writeMargined(uncappedCall, 100e18);
        options.writeMargined(put10, 100e18);
        vm.stopPrank();
        oracle.setPrice(11e18);
        uint256 naked = chouse.marginState(alice).initialMarginUsdc;
        assertApproxEqAbs(naked, _worstLoss(alice, 11e18, 0.1e18), 1);
        vm.prank(alice);
        market.trade(50e18); // half the call's delta: the −2R stress (put + perp) then binds at 65
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        assertApproxEqAbs(s.initialMarginUsdc, _worstLoss(alice, 11e18, 0.1e18), 2);
        assertApproxEqAbs(s.initialMarginUsdc, 65e6, 2);
        (uint256 imRate, ) = risk.marginRates(address(market));
        uint256 perpAlone = (((50e18 * 11e18) / 1e30) * imRate + 1e18 - 1) / 1e18;
        assertGe(s.initialMarginUsdc, (perpAlone + 3) / 4, "basis floor");
        assertLt(s.initialMarginUsdc, naked + perpAlone, "offset recognised");
        assertLt(s.initialMarginUsdc, naked, "the long perp hedges the short call");
    }

    /// The holder exercises first while the margined writer is insolvent at expiry (no liquidation in between): the
    /// holder is paid in full from the booked claim, the writer's settlement leaves a deficit, and the liquidation
    /// engine takes it down the waterfall — the options pool is whole afterwards (CLR-05).
    function test_holderExercises_writerInsolvent_paidInFull_deficitThroughWaterfall_CLR05() public {
        _setupTrader(alice, guarantor, 150e6);
        vm.startPrank(alice);
        options.writeMargined(put10, 100e18);
        options.transferLong(put10, bob, 100e18);
        vm.stopPrank();
        _fundInsurance(5_000e6);
        _expireAt(put10, 5e18); // the put pays 5 per CH: 500, the writer holds 150
        int256 bobBefore = chouse.collateralOf(bob);
        options.exercise(put10, bob);
        assertEq(chouse.collateralOf(bob) - bobBefore, 500e6, "holder paid in full");
        assertEq(options.marginedSeries(put10).dueLeftUsdc, 500e6, "still owed by the writer");
        options.exercise(put10, alice);
        assertApproxEqAbs(chouse.collateralOf(alice), 150e6 - 500e6, 1);
        assertEq(chouse.marketsOf(alice).length, 0, "released after its last margined series settled");
        liq.liquidate(alice);
        assertEq(chouse.collateralOf(alice), 0, "deficit absorbed by guarantor / insurance");
        _assertPoolCovers();
    }

    /// A paused options market (writing paused, its ClearingHouse market paused) is still counted in margin.
    function test_pausedOptionsMarket_stillCountedInMargin() public {
        _setupTrader(alice, guarantor, 150e6);
        vm.prank(alice);
        options.writeMargined(uncappedCall, 100e18);
        uint256 before = chouse.marginState(alice).initialMarginUsdc;
        IChxModule(address(options)).pauseFeature(keccak256("options.write"));
        IChxModule(address(chouse)).pauseFeature(keccak256(abi.encode(keccak256("clearing.market"), address(options))));
        assertEq(chouse.marginState(alice).initialMarginUsdc, before);
        vm.prank(alice);
        vm.expectRevert();
        chouse.withdraw(100e6, alice);
        vm.prank(alice);
        vm.expectRevert();
        options.writeMargined(uncappedCall, 1e18);
    }

    /// A second account front-running the writer's top-up: pushing longs onto the writer changes nothing in its
    /// margin (longs give no credit), the liquidation it races reverts while the writer is above maintenance, and the
    /// top-up then restores initial margin.
    function test_secondAccountFrontRunsWriterTopUp_cannotLiquidateOrShift() public {
        _setupTrader(alice, guarantor, 150e6);
        _setupTrader(carol, guarantor, 500e6);
        vm.prank(alice);
        options.writeMargined(uncappedCall, 100e18);
        oracle.setPrice(10.7e18); // equity 80 < IM 107, > MM 53.5
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        assertLt(s.equityUsdc, int256(s.initialMarginUsdc));
        vm.startPrank(carol);
        options.writeMargined(uncappedCall, 10e18);
        options.transferLong(uncappedCall, alice, 10e18);
        vm.stopPrank();
        IClearingHouse.MarginState memory t = chouse.marginState(alice);
        assertEq(t.initialMarginUsdc, s.initialMarginUsdc, "no credit for pushed longs");
        assertEq(t.equityUsdc, s.equityUsdc);
        vm.prank(carol);
        vm.expectRevert(
            abi.encodeWithSelector(
                ILiquidationEngine.LiquidationAccountHealthy.selector,
                alice,
                s.equityUsdc,
                s.maintenanceMarginUsdc
            )
        );
        liq.liquidate(alice);
        _depositFor(alice, 50e6);
        s = chouse.marginState(alice);
        assertGe(s.equityUsdc, int256(s.initialMarginUsdc));
    }

    /// A cap-less call cannot be written fully collateralised: a clear error, nothing moves.
    function test_uncappedCall_writtenCollateralised_revertsUncapped() public {
        _setupTrader(alice, guarantor, 1_000e6);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsUncappedCall.selector, uncappedCall));
        options.write(uncappedCall, 1e18);
        assertEq(chouse.collateralOf(alice), 1_000e6);
    }

    /// Fully collateralised writing stays the default and unchanged: collateral posted, no ClearingHouse hold.
    function test_collateralisedWriting_unchanged() public {
        _setupTrader(alice, guarantor, 1_000e6);
        vm.prank(alice);
        assertEq(options.write(cappedCall, 100e18), 500e6);
        assertEq(chouse.collateralOf(alice), 500e6);
        assertEq(chouse.marketsOf(alice).length, 0);
        assertEq(options.marginedSeriesOf(alice).length, 0);
    }

    /// Closing margined shorts against the writer's longs frees its margin and releases the account; collateralised
    /// shorts close first.
    function test_closeMargined_releasesAccount() public {
        _setupTrader(alice, guarantor, 1_000e6);
        vm.startPrank(alice);
        options.write(cappedCall, 10e18);
        options.writeMargined(cappedCall, 20e18);
        assertEq(options.close(cappedCall, 15e18), 50e6, "the collateralised 10 first");
        assertEq(options.marginedOf(cappedCall, alice).shortCh, 15e18);
        options.close(cappedCall, 15e18);
        vm.stopPrank();
        assertEq(options.marginedSeriesOf(alice).length, 0);
        assertEq(chouse.marketsOf(alice).length, 0);
        assertEq(options.series(cappedCall).openInterestCh, 0);
        assertApproxEqAbs(chouse.collateralOf(alice), 1_000e6, 1);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsInsufficientLong.selector, cappedCall, alice, 1e18, 0)
        );
        options.close(cappedCall, 1e18);
    }

    /// More than MAX_MARGINED_SERIES series, a futures series, and the hook from anyone but the ClearingHouse revert.
    function test_marginedBounds_revert() public {
        _setupTrader(alice, guarantor, 100_000e6);
        vm.startPrank(alice);
        for (uint256 i; i < 8; ++i) {
            uint256 id = _listAs(uint128(11e18 + i * 1e18));
            options.writeMargined(id, 1e18);
        }
        uint256 ninth = _listAs(30e18);
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsTooManyMarginedSeries.selector, alice, 8));
        options.writeMargined(ninth, 1e18);
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsOnlyClearingHouse.selector, alice));
        options.onPositionLiquidated(alice, 0, 10e18, 0);
        vm.stopPrank();
        vm.prank(address(chouse));
        options.onPositionLiquidated(alice, 1, 10e18, 0); // a non-zero Δ is not ours: nothing happens
        assertEq(options.marginedSeriesOf(alice).length, 8);
    }

    /// Out of the money at expiry: the margined writer owes nothing, keeps its collateral and is released; the scenario
    /// hook values a fixed series flat (no PnL) and an empty account at zero.
    function test_marginedExpiresWorthless_writerReleased() public {
        _setupTrader(alice, guarantor, 150e6);
        vm.prank(alice);
        options.writeMargined(uncappedCall, 100e18);
        _expireAt(uncappedCall, 9e18);
        uint256[] memory prices = new uint256[](2);
        prices[0] = 20e18;
        prices[1] = 5e18;
        int256[] memory pnl = options.scenarioPnl(alice, 9e18, prices);
        assertEq(pnl[0], 0);
        assertEq(pnl[1], 0);
        (int256 eq, , ) = options.accountRisk(bob, 9e18);
        assertEq(eq, 0);
        (, bool done) = options.settleSeries(uncappedCall, 10);
        assertTrue(done);
        // the 1-wei hold trade rounds one unit against the writer
        assertApproxEqAbs(chouse.collateralOf(alice), 150e6, 1);
        assertEq(chouse.marketsOf(alice).length, 0);
        assertEq(options.marginedSeries(uncappedCall).openCh, 0);
        _assertPoolCovers();
    }

    function _listAs(uint128 strike) internal returns (uint256 id) {
        vm.stopPrank();
        id = _list(IOptionsMarketTypes.OptionKind.Put, strike, 0);
        vm.startPrank(alice);
    }

    /// ACC-01 on the real pool: the options market's ClearingHouse pool holds its fees and reserve.
    function _assertPoolCovers() internal view {
        (uint256 fees, uint256 reserved) = options.poolClaims();
        (, int256 poolUsdc) = chouse.marketInfo(address(options));
        assertGe(poolUsdc, int256(fees + reserved), "pool >= fees + reserve");
    }
}
