// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OracleInsuranceBase} from "../helpers/OracleInsuranceBase.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IComputePriceOracleErrors} from "../../contracts/interfaces/oracle/IComputePriceOracleErrors.sol";
import {IComputePriceOracleEvents} from "../../contracts/interfaces/oracle/IComputePriceOracleEvents.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {MockAggregatorV3} from "../../contracts/mocks/MockAggregatorV3.sol";
import {MockSequencerUptimeFeed} from "../../contracts/mocks/MockSequencerUptimeFeed.sol";
import {MockSpotPriceSource} from "../../contracts/mocks/MockSpotPriceSource.sol";

/// @notice Reads the oracle twice around a feed update inside ONE call frame chain (one transaction): ORC-02.
contract OracleReader {
    /// @notice Pins (optionally), updates the feed to `newAnswer`, and returns the index before and after.
    function readAroundUpdate(
        IComputePriceOracle oracle,
        MockAggregatorV3 feed,
        int256 newAnswer,
        bool pin
    ) external returns (uint256 before, uint256 afterIndex, uint256 afterRisk) {
        if (pin) oracle.pinIndexPrice();
        before = oracle.indexPrice();
        feed.setAnswer(newAnswer);
        afterIndex = oracle.indexPrice();
        afterRisk = oracle.riskPrice();
    }
}

/// @notice ComputePriceOracle: ORC-02 (one price per transaction), governance setters and access control.
contract ComputePriceOracleAdminTest is OracleInsuranceBase {
    MockSequencerUptimeFeed internal seq;
    MockSpotPriceSource internal spot;

    function setUp() public {
        _deployOracleAndFund();
        seq = new MockSequencerUptimeFeed(true, T0 - 1 days);
        spot = new MockSpotPriceSource();
    }

    // ---------------------------------------------------------------- ORC-02

    function test_ORC02_pinnedPriceHoldsForTheWholeTransaction() public {
        OracleReader reader = new OracleReader();
        vm.expectEmit(address(oracle));
        emit IComputePriceOracleEvents.OraclePricePinned(2e18, address(reader));
        (uint256 before, uint256 afterIndex, uint256 afterRisk) = reader.readAroundUpdate(oracle, feed, 3e8, true);
        assertEq(before, 2e18);
        assertEq(afterIndex, 2e18);
        assertEq(afterRisk, 2e18);
        // A second pin in the same transaction returns the same value without re-reading.
        assertEq(oracle.pinIndexPrice(), 2e18);
    }

    function testFuzz_ORC02_everyReadAfterPinIsEqual(int64 newAnswer) public {
        vm.assume(newAnswer > 0);
        OracleReader reader = new OracleReader();
        (uint256 before, uint256 afterIndex, uint256 afterRisk) = reader.readAroundUpdate(
            oracle,
            feed,
            newAnswer,
            true
        );
        assertEq(before, afterIndex);
        assertEq(before, afterRisk);
    }

    // ---------------------------------------------------------------- governance and access

    function test_setters_emitAndStore() public {
        vm.expectEmit(address(oracle));
        emit IComputePriceOracleEvents.OracleBoundsSet(1e18, 5e18);
        oracle.setPriceBounds(1e18, 5e18);
        (uint256 lo, uint256 hi) = oracle.priceBounds();
        assertEq(lo, 1e18);
        assertEq(hi, 5e18);

        vm.expectEmit(address(oracle));
        emit IComputePriceOracleEvents.OracleSequencerFeedSet(address(seq), 1800);
        oracle.setSequencerFeed(address(seq), 1800);
        assertEq(oracle.sequencerConfig().gracePeriodSec, 1800);

        vm.expectEmit(address(oracle));
        emit IComputePriceOracleEvents.OracleSpotSourceSet(address(spot), 900, 500);
        oracle.setSpotSource(address(spot), 900, 500);
        IComputePriceOracle.DeviationConfig memory d = oracle.deviationConfig();
        assertEq(d.source, address(spot));
        assertEq(d.windowSec, 900);
        assertEq(d.maxDeviationBps, 500);

        (uint80 id, int256 ans, uint256 at) = oracle.latestRound();
        assertEq(id, 1);
        assertEq(ans, 2e8);
        assertEq(at, T0);
    }

    function test_setters_rejectInvalidConfig() public {
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleInvalidConfig.selector, "bounds"));
        oracle.setPriceBounds(0, 1e18);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleInvalidConfig.selector, "bounds"));
        oracle.setPriceBounds(2e18, 2e18);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleInvalidConfig.selector, "heartbeatSec"));
        oracle.setFeed(address(feed), 0);
        vm.expectRevert(IChxModule.ChxZeroAddress.selector);
        oracle.setFeed(address(0), 60);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleInvalidConfig.selector, "windowSec"));
        oracle.setSpotSource(address(spot), 0, 100);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleInvalidConfig.selector, "maxDeviationBps")
        );
        oracle.setSpotSource(address(spot), 60, 0);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleInvalidConfig.selector, "maxDeviationBps")
        );
        oracle.setSpotSource(address(spot), 60, 10_001);
    }

    function test_SEC01_settersAreGovernanceOnly() public {
        address stranger = address(0xBAD);
        vm.startPrank(stranger);
        vm.expectRevert(_unauthorized(stranger));
        oracle.setFeed(address(feed), 60);
        vm.expectRevert(_unauthorized(stranger));
        oracle.setPriceBounds(1, 2);
        vm.expectRevert(_unauthorized(stranger));
        oracle.setSequencerFeed(address(seq), 60);
        vm.expectRevert(_unauthorized(stranger));
        oracle.setSpotSource(address(spot), 60, 100);
        vm.expectRevert(_unauthorized(stranger));
        oracle.pauseFeature(keccak256("oracle.risk"));
        vm.stopPrank();
    }
}
