// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSecuritySetup} from "./futures/FuturesSecuritySetup.sol";
import {IFuturesTypes} from "../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../contracts/interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../contracts/interfaces/markets/IFuturesEvents.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {Vm} from "forge-std/Vm.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";

/// @notice `roll(from, to, size)` (issue 19 item 2): one call closes a leg in one series and opens it in another,
///         one margin check at the end. Attacks first: an expired or unlisted target, more than held, a paused
///         market, a roll whose cost would leave the account below initial margin, a full series set.
///         Index 10, IM 10 %, fee 5 bps, skew scale 100,000 CH, premium horizon 30 days (FuturesSolBase).
contract FuturesRollTest is FuturesSecuritySetup {
    address internal carol = makeAddr("carol");
    uint256 internal far;

    function _setUpRoll() internal {
        far = futures.listSeries(uint64(expiry + 30 days), 1_000_000e18);
        _setupTrader(carol, guarantor, 5_100e6);
        _trade(bob, id, -5_000e18);
        _trade(carol, id, 5_000e18);
    }

    function _roll(address who, uint256 from, uint256 to, uint256 size) internal {
        vm.prank(who);
        futures.roll(from, to, size);
    }

    // ───────────────────────────── attacks ─────────────────────────────

    function test_rollIntoExpiredSeries_reverts_FuturesSeriesNotTrading() public {
        _setUpRoll();
        uint64 nearExpiry = uint64(block.timestamp + 2 hours);
        uint256 near = futures.listSeries(nearExpiry, 0);
        vm.warp(nearExpiry);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesSeriesNotTrading.selector, near, nearExpiry));
        _roll(carol, id, near, 1_000e18);
        // and out of an expired series: trading stopped, settlement closes it
        vm.warp(expiry);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesSeriesNotTrading.selector, id, expiry));
        _roll(carol, id, far, 1_000e18);
    }

    function test_rollIntoUnlistedSeries_reverts_FuturesSeriesUnknown() public {
        _setUpRoll();
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesSeriesUnknown.selector, 99));
        _roll(carol, id, 99, 1_000e18);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesRollSameSeries.selector, id));
        _roll(carol, id, id, 1_000e18);
        vm.expectRevert(IFuturesErrors.FuturesZeroAmount.selector);
        _roll(carol, id, far, 0);
    }

    function test_rollMoreThanHeld_reverts_FuturesRollExceedsPosition() public {
        _setUpRoll();
        vm.expectRevert(
            abi.encodeWithSelector(IFuturesErrors.FuturesRollExceedsPosition.selector, id, carol, 5_001e18, 5_000e18)
        );
        _roll(carol, id, far, 5_001e18);
        // nothing held: nothing to roll (alice never traded)
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesRollExceedsPosition.selector, id, alice, 1, 0));
        _roll(alice, id, far, 1);
    }

    function test_rollWhileTradingPaused_reverts_closeStillCommits() public {
        _setUpRoll();
        bytes32 feature = keccak256("futures.trade");
        IChxModule(address(futures)).pauseFeature(feature);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, feature));
        _roll(carol, id, far, 1_000e18);
        vm.prank(carol);
        futures.closePosition(id, 0); // the way out stays open (SEC-05)
    }

    /// The roll's ClearingHouse call moves no net size, so the ClearingHouse's own new-risk gates (the global pause,
    /// the per-market freeze) would not run for it: the roll checks them itself, since it opens a leg in the target.
    function test_rollWhileClearingHouseNewRiskPaused_reverts() public {
        _setUpRoll();
        bytes32 newRisk = keccak256("clearing.newRisk");
        IChxModule(address(chouse)).pauseFeature(newRisk);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, newRisk));
        _roll(carol, id, far, 1_000e18);
        IChxModule(address(chouse)).unpauseFeature(newRisk);
        bytes32 frozen = keccak256(abi.encode(keccak256("clearing.market"), address(futures)));
        IChxModule(address(chouse)).pauseFeature(frozen);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, frozen));
        _roll(carol, id, far, 1_000e18);
        IChxModule(address(chouse)).unpauseFeature(frozen);
        _roll(carol, id, far, 1_000e18);
    }

    /// The roll's cost (both fees, selling the near leg below the index, buying the far one above it) would leave
    /// carol under initial margin: the whole roll reverts, positions, open interest and collateral untouched.
    function test_rollThatBreachesMargin_revertsWholeRoll_leavesPositionsAndCollateral() public {
        _setUpRoll();
        int256 collateralBefore = chouse.collateralOf(carol);
        IFuturesTypes.Series memory nearBefore = futures.seriesInfo(id);
        IClearingHouse.MarginState memory m = chouse.marginState(carol);
        assertGe(m.equityUsdc, int256(m.initialMarginUsdc), "carol starts above initial margin");
        vm.prank(carol);
        vm.expectPartialRevert(IFuturesErrors.FuturesInsufficientMargin.selector);
        futures.roll(id, far, 5_000e18);
        assertEq(futures.positionOf(id, carol).sizeCh, 5_000e18);
        assertEq(futures.positionOf(far, carol).sizeCh, 0);
        assertEq(futures.seriesInfo(id).longOiCh, nearBefore.longOiCh);
        assertEq(futures.seriesInfo(far).longOiCh, 0);
        assertEq(chouse.collateralOf(carol), collateralBefore);
        assertEq(futures.accountSeries(carol).length, 1);
    }

    // ───────────────────────────── behaviour ─────────────────────────────

    /// A roll moves the leg between series, leaves the ClearingHouse net position at the index unchanged, and moves
    /// the collateral by exactly both legs' basis cash and fees (each FuturesTraded, then one PositionRolled).
    function test_roll_movesLeg_netUnchanged_cashIsBasisAndFees() public {
        _setUpRoll();
        int256 netBefore = chouse.positionOf(carol, address(futures)).sizeCh;
        int256 collateralBefore = chouse.collateralOf(carol);
        vm.recordLogs();
        _roll(carol, id, far, 500e18);
        (uint256 fromPrice, uint256 toPrice, uint256 fee) = _rolledEvent();
        assertEq(futures.positionOf(id, carol).sizeCh, 4_500e18);
        assertEq(futures.positionOf(far, carol).sizeCh, 500e18);
        assertEq(futures.positionOf(far, carol).entryPriceWad, toPrice);
        assertEq(chouse.positionOf(carol, address(futures)).sizeCh, netBefore, "net at the index unchanged");
        assertEq(futures.seriesInfo(far).longOiCh, 500e18);
        assertEq(futures.seriesInfo(id).longOiCh, 4_500e18);
        assertLt(fromPrice, 10e18, "sold the near leg below the index (long skew 0 -> short)");
        assertGt(toPrice, 10e18, "bought the far leg above the index");
        // cash: sell 500 at fromPrice (credited (price − index) × 500, rounded down), buy 500 at toPrice
        int256 expected =
            -int256(((10e18 - fromPrice) * 500) / 1e12) - int256(((toPrice - 10e18) * 500) / 1e12) - int256(fee);
        assertApproxEqAbs(chouse.collateralOf(carol) - collateralBefore, expected, 2);
        assertEq(futures.accountSeries(carol).length, 2);
    }

    /// The account holds the most series it may in one 28-day expiry bucket (8): rolling a whole leg into a ninth
    /// of the same bucket still works (the closing leg is booked first, so the series bound never trips and the
    /// account is never released in between).
    function test_rollWholeLegWithFullSeriesSet_intoAFifthSeries() public {
        uint256[] memory ids = new uint256[](9);
        ids[0] = id;
        int256 dir = (uint256(expiry) + 8 hours) / 28 days == uint256(expiry) / 28 days ? int256(1) : -1;
        for (uint256 k = 1; k < 9; ++k) {
            ids[k] = futures.listSeries(uint64(uint256(int256(uint256(expiry)) + dir * int256(k * 1 hours))), 0);
        }
        for (uint256 k = 0; k < 8; ++k) _trade(alice, ids[k], 100e18);
        assertEq(futures.accountSeries(alice).length, 8);
        _roll(alice, id, ids[8], 100e18);
        // the near leg's record is gone, the fifth series holds it
        assertEq(futures.positionOf(id, alice).sizeCh, 0);
        assertEq(futures.positionOf(ids[8], alice).sizeCh, 100e18);
        uint256[] memory held = futures.accountSeries(alice);
        assertEq(held.length, 8);
        bool hasNinth;
        for (uint256 k; k < held.length; ++k) if (held[k] == ids[8]) hasNinth = true;
        assertTrue(hasNinth);
        assertEq(chouse.positionOf(alice, address(futures)).sizeCh, 800e18);
        // a partial roll into a ninth series of the bucket would need a ninth record there: refused
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesTooManySeries.selector, alice, uint256(8)));
        _roll(alice, ids[1], id, 50e18);
    }

    /// A short rolled out of a series in full gets back the CH it escrowed there for delivery.
    function test_rollShortOutInFull_returnsItsDeliveryEscrow() public {
        _setUpRoll();
        _mintCh(bob, 100e18);
        vm.startPrank(bob);
        chToken.approve(address(futures), 100e18);
        futures.deliver(id, 100e18);
        vm.stopPrank();
        assertEq(chToken.balanceOf(bob), 0);
        _roll(bob, id, far, 5_000e18);
        assertEq(futures.positionOf(id, bob).sizeCh, 0);
        assertEq(futures.positionOf(id, bob).escrowCh, 0);
        assertEq(futures.positionOf(far, bob).sizeCh, -5_000e18);
        assertEq(chToken.balanceOf(bob), 100e18, "escrow back");
        assertEq(futures.seriesInfo(far).shortOiCh, 5_000e18);
    }

    function _rolledEvent() internal returns (uint256 fromPrice, uint256 toPrice, uint256 fee) {
        Vm.Log[] memory logs = vm.getRecordedLogs();
        uint256 traded;
        bool found;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter != address(futures)) continue;
            if (logs[i].topics[0] == IFuturesEvents.FuturesTraded.selector) ++traded;
            if (logs[i].topics[0] == IFuturesEvents.PositionRolled.selector) {
                (, fromPrice, toPrice, fee, , ) = abi.decode(
                    logs[i].data,
                    (int256, uint256, uint256, uint256, int256, int256)
                );
                found = true;
            }
        }
        assertTrue(found, "PositionRolled");
        assertEq(traded, 2, "one FuturesTraded per leg");
    }

    /// Elect, then roll (MKT-08: the long's payment is held from election to settlement). After the cut-off the
    /// election is locked: rolling the elected long out would strand the shorts' escrowed CH and the delivery it backs,
    /// so the whole roll reverts FuturesElectionLocked and nothing moves.
    function test_electThenRollAfterCutoff_revertsElectionLocked_nothingMoves() public {
        _setUpRoll();
        _depositFor(carol, 40_000e6); // the payment held for 3,000 CH at about 10
        vm.prank(carol);
        futures.electDelivery(id, 3_000e18);
        vm.warp(expiry - futures.params().electionCutoffSec);
        int256 collateral = chouse.collateralOf(carol);
        vm.expectRevert(
            abi.encodeWithSelector(IFuturesErrors.FuturesElectionLocked.selector, id, carol, 3_000e18, int256(2_500e18))
        );
        _roll(carol, id, far, 2_500e18);
        assertEq(futures.positionOf(id, carol).sizeCh, 5_000e18, "the leg stays");
        assertEq(futures.positionOf(id, carol).electedCh, 3_000e18, "the election stays");
        assertEq(futures.positionOf(far, carol).sizeCh, 0, "nothing opened");
        assertEq(futures.seriesInfo(id).electedCh, 3_000e18, "the series' elections stay");
        assertEq(chouse.collateralOf(carol), collateral, "no fee, no basis cash");
    }

    /// Elect, then roll before the cut-off: the election follows the long size left in the series (capped, with the
    /// series total), and does not travel to the series rolled into (a delivery there is elected there).
    function test_electThenRollBeforeCutoff_capsTheElection_newSeriesUnelected() public {
        _setUpRoll();
        _depositFor(carol, 40_000e6); // the payment held for 3,000 CH at about 10
        vm.prank(carol);
        futures.electDelivery(id, 3_000e18);
        _roll(carol, id, far, 2_500e18);
        assertEq(futures.positionOf(id, carol).sizeCh, 2_500e18);
        assertEq(futures.positionOf(id, carol).electedCh, 2_500e18, "capped at the long size left");
        assertEq(futures.seriesInfo(id).electedCh, 2_500e18, "the series total follows");
        assertEq(futures.positionOf(far, carol).electedCh, 0, "no election travels to the new series");
        assertEq(futures.seriesInfo(far).electedCh, 0);
    }
}
