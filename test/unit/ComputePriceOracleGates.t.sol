// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OracleInsuranceBase} from "../helpers/OracleInsuranceBase.sol";
import {OracleReconfig} from "../helpers/OracleReconfig.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IComputePriceOracleErrors} from "../../contracts/interfaces/oracle/IComputePriceOracleErrors.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {MockAggregatorV3} from "../../contracts/mocks/MockAggregatorV3.sol";
import {MockSequencerUptimeFeed} from "../../contracts/mocks/MockSequencerUptimeFeed.sol";
import {MockSpotPriceSource} from "../../contracts/mocks/MockSpotPriceSource.sol";

/// @notice ComputePriceOracle: ORC-01 gates on new risk — sequencer down / grace period, spot-TWAP deviation,
///         guardian pause — and the ORC-01 property fuzzed.
contract ComputePriceOracleGatesTest is OracleInsuranceBase, OracleReconfig {
    MockSequencerUptimeFeed internal seq;
    MockSpotPriceSource internal spot;

    function setUp() public {
        _deployOracleAndFund();
        seq = new MockSequencerUptimeFeed(true, T0 - 1 days);
        spot = new MockSpotPriceSource();
    }

    // ---------------------------------------------------------------- ORC-01: sequencer

    function test_ORC01_sequencerDownReverts() public {
        _oracleSetSequencer(address(oracle), address(seq), 3600);
        assertEq(oracle.riskPrice(), 2e18);
        seq.setStatus(false);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleSequencerDown.selector, T0));
        oracle.indexPrice();
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleSequencerDown.selector, T0));
        oracle.riskPrice();
        (bool ok, bytes4 reason) = oracle.riskIncreaseAllowed();
        assertFalse(ok);
        assertEq(reason, IComputePriceOracleErrors.OracleSequencerDown.selector);
    }

    function test_ORC01_uninitialisedSequencerFeedCountsAsDown() public {
        MockSequencerUptimeFeed fresh = new MockSequencerUptimeFeed(true, 0);
        _oracleSetSequencer(address(oracle), address(fresh), 3600);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleSequencerDown.selector, 0));
        oracle.indexPrice();
    }

    function test_ORC01_insideGracePeriodBlocksRiskButNotIndex() public {
        _oracleSetSequencer(address(oracle), address(seq), 3600);
        seq.setStatus(false);
        vm.warp(T0 + 100);
        seq.setStatus(true); // back up at T0 + 100
        feed.setAnswer(2e8);
        // Closing / liquidation read: valid.
        assertEq(oracle.indexPrice(), 2e18);
        // New risk: blocked until T0 + 100 + 3600 inclusive.
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleSequencerGracePeriod.selector, T0 + 100, T0 + 3700)
        );
        oracle.riskPrice();
        vm.warp(T0 + 3700);
        feed.setAnswer(2e8);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleSequencerGracePeriod.selector, T0 + 100, T0 + 3700)
        );
        oracle.riskPrice();
        vm.warp(T0 + 3701);
        assertEq(oracle.riskPrice(), 2e18);
    }

    // ---------------------------------------------------------------- ORC-01: deviation from the spot TWAP

    function test_ORC01_deviationBeyondBoundBlocksRiskButNotIndex() public {
        _oracleSetSpot(address(oracle), address(spot), 1800, 1000); // 30-minute TWAP, 10 % bound
        spot.set(2.3e18, T0 - 1 days); // +15 %, mature
        assertEq(oracle.indexPrice(), 2e18);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleDeviationTooHigh.selector, 2e18, 2.3e18, 1500, 1000)
        );
        oracle.riskPrice();
        (bool ok, bytes4 reason) = oracle.riskIncreaseAllowed();
        assertFalse(ok);
        assertEq(reason, IComputePriceOracleErrors.OracleDeviationTooHigh.selector);
        spot.set(1.7e18, T0 - 1 days); // −15 %
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleDeviationTooHigh.selector, 2e18, 1.7e18, 1500, 1000)
        );
        oracle.riskPrice();
    }

    function test_deviation_exactlyAtBoundIsAllowed_andJustAboveRoundsUp() public {
        _oracleSetSpot(address(oracle), address(spot), 1800, 1000);
        spot.set(2.2e18, T0 - 1 days); // exactly 10 %
        assertEq(oracle.riskPrice(), 2e18);
        spot.set(2.2e18 + 1, T0 - 1 days); // 10 % + 1 wei: deviation rounds UP to 1001 bps
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleDeviationTooHigh.selector,
                2e18,
                2.2e18 + 1,
                1001,
                1000
            )
        );
        oracle.riskPrice();
    }

    function test_deviation_immatureOrEmptyTwapIsNotCompared() public {
        _oracleSetSpot(address(oracle), address(spot), 1800, 1000);
        spot.set(5e18, T0 - 1799); // less history than the window
        assertEq(oracle.riskPrice(), 2e18);
        spot.set(0, T0 - 1 days); // no trades
        assertEq(oracle.riskPrice(), 2e18);
        spot.set(5e18, T0 - 1800); // mature now: compared
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleDeviationTooHigh.selector, 2e18, 5e18, 15000, 1000)
        );
        oracle.riskPrice();
    }

    function test_deviation_brokenSourceBlocksRisk() public {
        _oracleSetSpot(address(oracle), address(spot), 1800, 1000);
        spot.setBroken(true);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleSpotSourceUnavailable.selector, spot));
        oracle.riskPrice();
        assertEq(oracle.indexPrice(), 2e18);
        _oracleSetSpot(address(oracle), address(0), 0, 0); // governance removes the source
        assertEq(oracle.riskPrice(), 2e18);
    }

    function test_guardianPauseBlocksRiskButNotIndex() public {
        bytes32 feature = oracle.RISK_FEATURE();
        vm.prank(guardian);
        oracle.pauseFeature(feature);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, feature));
        oracle.riskPrice();
        assertEq(oracle.indexPrice(), 2e18);
        (bool ok, bytes4 reason) = oracle.riskIncreaseAllowed();
        assertFalse(ok);
        assertEq(reason, IChxModule.ChxFeaturePaused.selector);
    }

    /// @notice ORC-01 as a property: whatever the feed and sequencer say, riskPrice either reverts or returns a
    ///         price that is fresh, positive, in bounds, with the sequencer up past its grace period.
    function testFuzz_ORC01_riskPriceOnlyReturnsValidPrices(
        int96 answer,
        uint32 age,
        bool seqUp,
        uint32 seqAge,
        uint16 devBps
    ) public {
        vm.warp(T0 + 10 days);
        age = uint32(bound(age, 0, 2 * HEARTBEAT));
        feed.setRound(answer, block.timestamp - age, block.timestamp - age);
        seq.setStatusSince(seqUp, block.timestamp - (uint256(seqAge) % 10 days));
        _oracleSetSequencer(address(oracle), address(seq), 3600);
        uint256 spotWad = answer > 0 ? (uint256(int256(answer)) * 1e10 * (10_000 + (devBps % 3000))) / 10_000 : 1;
        spot.set(spotWad, 0);
        _oracleSetSpot(address(oracle), address(spot), 1800, 1000);
        try oracle.riskPrice() returns (uint256 p) {
            assertGt(answer, 0);
            assertLe(age, HEARTBEAT);
            assertTrue(seqUp);
            assertGt(block.timestamp, block.timestamp - (uint256(seqAge) % 10 days) + 3600);
            assertGe(p, MIN_PRICE);
            assertLe(p, MAX_PRICE);
            assertLe(devBps % 3000, 1000);
        } catch {}
    }
}
