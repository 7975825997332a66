// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OracleInsuranceBase} from "../helpers/OracleInsuranceBase.sol";
import {OracleReconfig} from "../helpers/OracleReconfig.sol";
import {ComputePriceOracle} from "../../contracts/core/oracle/ComputePriceOracle.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IComputePriceOracleErrors} from "../../contracts/interfaces/oracle/IComputePriceOracleErrors.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {MockSequencerUptimeFeed} from "../../contracts/mocks/MockSequencerUptimeFeed.sol";
import {MockSpotPriceSource} from "../../contracts/mocks/MockSpotPriceSource.sol";

/// @notice A feed right after a phase change (Chainlink proxies: round id = phase << 64 | aggregator round): the round
///         before the latest id does not exist.
contract PhasedFeed {
    uint80 internal constant FIRST = (uint80(2) << 64) | 1;
    uint256 internal immutable at;

    constructor(uint256 at_) {
        at = at_;
    }

    function decimals() external pure returns (uint8) {
        return 8;
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return (FIRST, 2e8, at, at, FIRST);
    }

    function getRoundData(uint80 id) external view returns (uint80, int256, uint256, uint256, uint80) {
        require(id == FIRST, "No data present");
        return (FIRST, 2e8, at, at, FIRST);
    }
}

/// @notice ComputePriceOracle's round reads for delayed orders (issue 17 item 15): `priceAtRound` accepts exactly the
///         round in force at a past time, with the ORC-01 checks; `checkRiskAt` applies the new-risk gates for that
///         time; `roundAt` finds the round.
contract ComputePriceOracleRoundsTest is OracleInsuranceBase, OracleReconfig {
    function setUp() public {
        _deployOracleAndFund();
        // rounds: 1 at T0 (2.0), 2 at T0 + 10 (2.2), 3 at T0 + 20 (2.4)
        vm.warp(T0 + 10);
        feed.setAnswer(2.2e8);
        vm.warp(T0 + 20);
        feed.setAnswer(2.4e8);
        vm.warp(T0 + 30);
    }

    function _notInForce(uint80 roundId, uint256 boundary, uint256 time) internal pure returns (bytes memory) {
        return
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleRoundNotInForce.selector, roundId, boundary, time);
    }

    /// Only one round passes for a given time: neither an earlier nor a later one.
    function test_priceAtRound_onlyTheRoundInForce() public {
        assertEq(oracle.priceAtRound(2, T0 + 15), 2.2e18);
        assertEq(oracle.priceAtRound(2, T0 + 10), 2.2e18); // published exactly then
        assertEq(oracle.priceAtRound(3, T0 + 25), 2.4e18); // the latest round: no next one
        vm.expectRevert(_notInForce(1, T0 + 10, T0 + 15)); // superseded by round 2 at T0 + 10
        oracle.priceAtRound(1, T0 + 15);
        vm.expectRevert(_notInForce(3, T0 + 20, T0 + 15)); // published after the time
        oracle.priceAtRound(3, T0 + 15);
        vm.expectRevert(_notInForce(3, 0, T0 + 30)); // the time is not in the past
        oracle.priceAtRound(3, T0 + 30);
        vm.expectRevert(_notInForce(9, 0, 0)); // no such round
        oracle.priceAtRound(9, T0 + 25);
    }

    function test_roundAt_findsTheRoundInForce() public view {
        assertEq(oracle.roundAt(T0 + 29), 3);
        assertEq(oracle.roundAt(T0 + 19), 2);
        assertEq(oracle.roundAt(T0 + 10), 2);
        assertEq(oracle.roundAt(T0 + 9), 1);
        assertEq(oracle.roundAt(T0 - 1), 0); // before the first round
    }

    /// ORC-01 at the round: stale at that time, out of bounds, incomplete, sequencer down now.
    function test_priceAtRound_validatesTheRound() public {
        vm.warp(T0 + HEARTBEAT + 100);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleStalePrice.selector,
                T0 + 20,
                HEARTBEAT,
                T0 + HEARTBEAT + 21
            )
        );
        oracle.priceAtRound(3, T0 + HEARTBEAT + 21);
        feed.setIncompleteRound(2.5e8, 3);
        vm.warp(block.timestamp + 5);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleRoundIncomplete.selector, 4, 3, block.timestamp - 5)
        );
        oracle.priceAtRound(4, block.timestamp - 1);
        feed.setAnswer(int256(MAX_PRICE / 1e10) * 2);
        vm.warp(block.timestamp + 5);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OraclePriceOutOfBounds.selector,
                MAX_PRICE * 2,
                MIN_PRICE,
                MAX_PRICE
            )
        );
        oracle.priceAtRound(5, block.timestamp - 1);
        MockSequencerUptimeFeed seq = new MockSequencerUptimeFeed(false, block.timestamp);
        _oracleSetSequencer(address(oracle), address(seq), 3600);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleSequencerDown.selector, block.timestamp)
        );
        oracle.priceAtRound(5, block.timestamp - 1);
    }

    /// The new-risk gates are judged at the order's time: the sequencer must have been up for the grace period then.
    function test_checkRiskAt_gatesAtThatTime() public {
        oracle.checkRiskAt(2.4e18, T0 + 25);
        MockSequencerUptimeFeed seq = new MockSequencerUptimeFeed(true, T0 + 22);
        _oracleSetSequencer(address(oracle), address(seq), 100);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleSequencerGracePeriod.selector, T0 + 22, T0 + 122)
        );
        oracle.checkRiskAt(2.4e18, T0 + 25);
        oracle.checkRiskAt(2.4e18, T0 + 123);
        _oracleSetSequencer(address(oracle), address(0), 0);
        MockSpotPriceSource spot = new MockSpotPriceSource();
        _oracleSetSpot(address(oracle), address(spot), 1800, 1000);
        spot.set(3e18, T0 - 1 days); // +25 % against 2.4
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleDeviationTooHigh.selector, 2.4e18, 3e18, 2500, 1000)
        );
        oracle.checkRiskAt(2.4e18, T0 + 25);
        _oracleSetSpot(address(oracle), address(0), 0, 0);
        bytes32 risk = oracle.RISK_FEATURE();
        vm.prank(guardian);
        oracle.pauseFeature(risk);
        vm.expectRevert(abi.encodeWithSignature("ChxFeaturePaused(bytes32)", risk));
        oracle.checkRiskAt(2.4e18, T0 + 25);
    }

    /// roundAt looks back a bounded number of rounds, and stops at a round it cannot read (a phase change).
    function test_roundAt_boundedAndStopsAtAMissingRound() public {
        for (uint256 i; i < 40; ++i) {
            vm.warp(block.timestamp + 1);
            feed.setAnswer(2e8);
        }
        assertEq(oracle.roundAt(T0 + 25), 0); // the round in force then is more than 32 rounds back
        PhasedFeed phased = new PhasedFeed(block.timestamp);
        _oracleSetFeed(address(oracle), address(phased), HEARTBEAT);
        vm.warp(block.timestamp + 10);
        assertEq(oracle.roundAt(block.timestamp - 20), 0); // before the phase's first round: cannot be shown
        assertEq(oracle.roundAt(block.timestamp - 1), (uint80(2) << 64) | 1);
        assertEq(oracle.priceAtRound((uint80(2) << 64) | 1, block.timestamp - 1), 2e18);
    }

    /// An implementation without a feed cannot be built (the configuration is immutable, checked by the constructor):
    /// no read can meet an unset feed.
    function test_withoutFeed_implementationRefused() public {
        IComputePriceOracle.Config memory c = oracle.config();
        c.feed = address(0);
        vm.expectRevert(IChxModule.ChxZeroAddress.selector);
        new ComputePriceOracle(c);
    }
}
