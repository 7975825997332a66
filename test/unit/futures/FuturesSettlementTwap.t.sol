// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSecuritySetup} from "./FuturesSecuritySetup.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../../contracts/interfaces/markets/IFuturesEvents.sol";
import {IFuturesMarket} from "../../../contracts/interfaces/markets/IFuturesMarket.sol";
import {IComputePriceOracleErrors} from "../../../contracts/interfaces/oracle/IComputePriceOracleErrors.sol";

/// @notice The settlement price is the index TWAP over the hour before expiry (issue 19 item 2), fixed from rounds
///         the caller names and the oracle proves: attacks on the hints (a skipped round, rounds outside the window,
///         moved change times, too many rounds), a spike's weight, a late fixing, a fix-then-dispute reorder and the
///         oracle's new-risk pause next door.
///         Rounds: 10 from before the window, 12 from start + 10 min, 8 from start + 40 min, 50 after expiry.
contract FuturesSettlementTwapTest is FuturesSecuritySetup {
    uint256 internal constant WINDOW = 1 hours;
    uint256 internal start;
    /// (10 × 600 + 12 × 1,800 + 8 × 1,200) / 3,600
    uint256 internal constant TWAP = uint256(37_200e18) / 3_600;

    function _rounds() internal {
        start = expiry - WINDOW;
        vm.warp(start - 10 minutes);
        _setPrice(10e18); // round 2
        vm.warp(start + 10 minutes);
        _setPrice(12e18); // round 3
        vm.warp(start + 40 minutes);
        _setPrice(8e18); // round 4
        vm.warp(expiry + 5 minutes);
        _setPrice(50e18); // round 5: after the window, never read
    }

    function _changes(uint256 a, uint256 b) internal pure returns (uint64[] memory c) {
        c = new uint64[](2);
        c[0] = uint64(a);
        c[1] = uint64(b);
    }

    function test_twap_weightsEachRoundByItsSecondsInTheWindow() public {
        _rounds();
        (uint80 first, uint64[] memory changes) = futures.settlementTwapHints(id);
        assertEq(first, 2);
        assertEq(changes.length, 2);
        assertEq(changes[0], start + 10 minutes);
        assertEq(changes[1], start + 40 minutes);
        vm.expectEmit(address(futures));
        emit IFuturesEvents.SettlementTwap(id, uint64(start), expiry, 2, 3, TWAP);
        assertEq(futures.fixSettlementPriceAt(id, first, changes), TWAP);
        assertEq(futures.seriesInfo(id).settlementPriceWad, TWAP);
    }

    function test_twap_hintlessFixEqualsHintedFix() public {
        _rounds();
        uint256 snap = vm.snapshotState();
        uint256 found = futures.fixSettlementPrice(id);
        vm.revertToState(snap);
        assertEq(found, futures.fixSettlementPriceAt(id, 2, _changes(start + 10 minutes, start + 40 minutes)));
        assertEq(found, TWAP);
    }

    function test_twap_fixedLateEqualsFixedAtExpiry() public {
        _rounds();
        uint256 snap = vm.snapshotState();
        uint256 atExpiry = futures.fixSettlementPrice(id);
        vm.revertToState(snap);
        for (uint256 i; i < 20; ++i) {
            vm.warp(block.timestamp + 1 days);
            _setPrice((i + 1) * 3e18);
        }
        assertEq(futures.fixSettlementPriceAt(id, 2, _changes(start + 10 minutes, start + 40 minutes)), atExpiry);
    }

    function test_twap_skippingTheLowRound_reverts() public {
        _rounds();
        // round 4 (8) left out: round 3 claimed in force to the expiry
        uint64[] memory one = new uint64[](1);
        one[0] = uint64(start + 10 minutes);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleRoundNotInForce.selector,
                uint80(3),
                start + 40 minutes,
                expiry - 1
            )
        );
        futures.fixSettlementPriceAt(id, 2, one);
        // the window's first round left out: round 3 claimed in force from the window start
        one[0] = uint64(start + 40 minutes);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleRoundNotInForce.selector,
                uint80(3),
                start + 10 minutes,
                start
            )
        );
        futures.fixSettlementPriceAt(id, 3, one);
    }

    function test_twap_movedChangeTimes_revert() public {
        _rounds();
        // the high round (12) stretched over the low one's time
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleRoundNotInForce.selector,
                uint80(3),
                start + 40 minutes,
                start + 50 minutes - 1
            )
        );
        futures.fixSettlementPriceAt(id, 2, _changes(start + 10 minutes, start + 50 minutes));
        // the low round started early
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleRoundNotInForce.selector,
                uint80(4),
                start + 40 minutes,
                start + 30 minutes
            )
        );
        futures.fixSettlementPriceAt(id, 2, _changes(start + 10 minutes, start + 30 minutes));
    }

    function test_twap_roundsOutsideTheWindow_revert() public {
        _rounds();
        // round 1 (before round 2) is not in force at the window start
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleRoundNotInForce.selector,
                uint80(1),
                start - 10 minutes,
                start
            )
        );
        futures.fixSettlementPriceAt(id, 1, _changes(start + 10 minutes, start + 40 minutes));
        // the post-expiry round (50) appended
        uint64[] memory c = new uint64[](3);
        (c[0], c[1], c[2]) = (uint64(start + 10 minutes), uint64(start + 40 minutes), uint64(expiry + 5 minutes));
        vm.expectRevert(
            abi.encodeWithSelector(
                IFuturesErrors.FuturesTwapChangeTime.selector,
                uint256(2),
                expiry + 5 minutes,
                start,
                expiry
            )
        );
        futures.fixSettlementPriceAt(id, 2, c);
        // a change time before the window start, one going backwards, one at the expiry (empty last segment)
        vm.expectRevert(
            abi.encodeWithSelector(IFuturesErrors.FuturesTwapChangeTime.selector, uint256(0), start - 1, start, expiry)
        );
        futures.fixSettlementPriceAt(id, 2, _changes(start - 1, start + 40 minutes));
        vm.expectRevert(
            abi.encodeWithSelector(
                IFuturesErrors.FuturesTwapChangeTime.selector,
                uint256(1),
                start + 5 minutes,
                start,
                expiry
            )
        );
        futures.fixSettlementPriceAt(id, 2, _changes(start + 10 minutes, start + 5 minutes));
        (c[0], c[1], c[2]) = (uint64(start + 10 minutes), uint64(start + 40 minutes), uint64(expiry));
        vm.expectRevert(
            abi.encodeWithSelector(IFuturesErrors.FuturesTwapChangeTime.selector, uint256(3), expiry, start, expiry)
        );
        futures.fixSettlementPriceAt(id, 2, c);
    }

    function test_twap_boundedHints() public {
        _rounds();
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesTwapRounds.selector, 0, 48));
        futures.fixSettlementPriceAt(id, 0, _changes(start + 10 minutes, start + 40 minutes));
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesTwapRounds.selector, 49, 48));
        futures.fixSettlementPriceAt(id, 2, new uint64[](48));
    }

    function test_twap_spikeRoundWeighsOnlyItsSeconds() public {
        start = expiry - WINDOW;
        vm.warp(start - 1);
        _setPrice(10e18);
        vm.warp(start + 30 minutes);
        _setPrice(1_000e18); // a one-minute spike to 100 × the index
        vm.warp(start + 31 minutes);
        _setPrice(10e18);
        vm.warp(expiry);
        uint256 price = futures.fixSettlementPrice(id);
        // 10 + 990 × 60 / 3,600 = 26.5: the spike moves the price by its size × its share of the window, no more
        assertEq(price, 26.5e18);
    }

    function test_twap_twoRoundsInOneSecond_theReplacedOneWeighsNothing() public {
        start = expiry - WINDOW;
        vm.warp(start - 1);
        _setPrice(10e18); // round 2
        vm.warp(start + 30 minutes);
        _setPrice(1_000e18); // round 3, replaced in the same second
        _setPrice(20e18); // round 4
        vm.warp(expiry);
        (uint80 first, uint64[] memory changes) = futures.settlementTwapHints(id);
        assertEq(first, 2);
        assertEq(changes.length, 2);
        assertEq(changes[0], changes[1]);
        assertEq(futures.fixSettlementPriceAt(id, first, changes), 15e18);
    }

    function test_twap_fixThenDispute_reorder() public {
        _rounds();
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesPriceNotFixed.selector, id));
        futures.disputeSettlementPrice(id, 10e18);
        futures.fixSettlementPrice(id);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesAlreadyDone.selector, id, address(0)));
        futures.fixSettlementPriceAt(id, 2, _changes(start + 10 minutes, start + 40 minutes));
        // the guardian's correction starts from the TWAP (≤ maxCorrectionBps of it), not from the index now (50)
        vm.expectRevert(
            abi.encodeWithSelector(IFuturesErrors.FuturesCorrectionTooLarge.selector, id, TWAP, 50e18, 1_000)
        );
        futures.disputeSettlementPrice(id, 50e18);
        futures.disputeSettlementPrice(id, 10e18);
        assertEq(futures.seriesInfo(id).settlementPriceWad, 10e18);
    }

    function test_twap_beforeExpiry_reverts() public {
        vm.warp(expiry - 1);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesSeriesNotExpired.selector, id, expiry));
        futures.fixSettlementPrice(id);
    }

    function test_twap_oracleRiskPauseNextDoor_doesNotBlockFixing() public {
        _rounds();
        fIndex.setRiskBlocked(true);
        assertEq(futures.fixSettlementPrice(id), TWAP);
    }

    function test_twap_keeperPayloadCarriesTheHints() public {
        _rounds();
        (bool can, bytes memory payload) = futures.checker();
        assertTrue(can);
        assertEq(
            payload,
            abi.encodeCall(
                IFuturesMarket.fixSettlementPriceAt,
                (id, uint80(2), _changes(start + 10 minutes, start + 40 minutes))
            )
        );
        vm.prank(keeper);
        futures.performUpkeep(payload);
        assertEq(futures.seriesInfo(id).settlementPriceWad, TWAP);
    }
}
