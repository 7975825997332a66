// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OracleInsuranceBase} from "../helpers/OracleInsuranceBase.sol";
import {OracleReconfig} from "../helpers/OracleReconfig.sol";
import {ComputePriceOracle} from "../../contracts/core/oracle/ComputePriceOracle.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";
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

/// @notice ComputePriceOracle: ORC-02 (one price per transaction), configuration by upgrade and access control.
contract ComputePriceOracleAdminTest is OracleInsuranceBase, OracleReconfig {
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

    /// The configuration changes by upgrade only; the upgrade's announceConfig emits the new values from the proxy.
    function test_reconfigure_emitsAndReads() public {
        vm.expectEmit(address(oracle));
        emit IComputePriceOracleEvents.OracleBoundsSet(1e18, 5e18);
        _oracleSetBounds(address(oracle), 1e18, 5e18);
        (uint256 lo, uint256 hi) = oracle.priceBounds();
        assertEq(lo, 1e18);
        assertEq(hi, 5e18);

        vm.expectEmit(address(oracle));
        emit IComputePriceOracleEvents.OracleSequencerFeedSet(address(seq), 1800);
        _oracleSetSequencer(address(oracle), address(seq), 1800);
        assertEq(oracle.sequencerConfig().gracePeriodSec, 1800);
        assertEq(oracle.sequencerConfig().feed, address(seq));

        vm.expectEmit(address(oracle));
        emit IComputePriceOracleEvents.OracleSpotSourceSet(address(spot), 900, 500);
        _oracleSetSpot(address(oracle), address(spot), 900, 500);
        IComputePriceOracle.DeviationConfig memory d = oracle.deviationConfig();
        assertEq(d.source, address(spot));
        assertEq(d.windowSec, 900);
        assertEq(d.maxDeviationBps, 500);
        // the earlier changes survive the later upgrades
        (lo, hi) = oracle.priceBounds();
        assertEq(lo, 1e18);
        assertEq(oracle.feedConfig().feed, address(feed));
        assertEq(oracle.feedConfig().decimals, 8);

        (uint80 id, int256 ans, uint256 at) = oracle.latestRound();
        assertEq(id, 1);
        assertEq(ans, 2e8);
        assertEq(at, T0);
    }

    function _badConfig(IComputePriceOracle.Config memory c, bytes memory err) internal {
        vm.expectRevert(err);
        new ComputePriceOracle(c);
    }

    function _invalid(string memory what) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(IComputePriceOracleErrors.OracleInvalidConfig.selector, what);
    }

    /// The constructor validates what the setters validated: no implementation with an invalid configuration exists.
    function test_constructor_rejectsInvalidConfig() public {
        IComputePriceOracle.Config memory c = oracle.config();
        (c.minPriceWad, c.maxPriceWad) = (0, 1e18);
        _badConfig(c, _invalid("bounds"));
        (c.minPriceWad, c.maxPriceWad) = (2e18, 2e18);
        _badConfig(c, _invalid("bounds"));
        (c.minPriceWad, c.maxPriceWad) = (1, uint256(type(uint128).max) + 1);
        _badConfig(c, _invalid("bounds"));
        c = oracle.config();
        c.heartbeatSec = 0;
        _badConfig(c, _invalid("heartbeatSec"));
        c = oracle.config();
        c.feed = address(0);
        _badConfig(c, abi.encodeWithSelector(IChxModule.ChxZeroAddress.selector));
        c = oracle.config();
        (c.spotSource, c.spotWindowSec, c.maxDeviationBps) = (address(spot), 0, 100);
        _badConfig(c, _invalid("windowSec"));
        (c.spotWindowSec, c.maxDeviationBps) = (60, 0);
        _badConfig(c, _invalid("maxDeviationBps"));
        c.maxDeviationBps = 10_001;
        _badConfig(c, _invalid("maxDeviationBps"));
    }

    /// SEC-01: only governance changes the configuration (the upgrade and its announcement are restricted).
    function test_SEC01_configurationIsGovernanceOnly() public {
        address stranger = address(0xBAD);
        IComputePriceOracle.Config memory c = oracle.config();
        (c.minPriceWad, c.maxPriceWad) = (1, 2);
        address impl = _deployOracleImpl(c);
        vm.startPrank(stranger);
        vm.expectRevert(_unauthorized(stranger));
        UUPSUpgradeable(address(oracle)).upgradeToAndCall(impl, "");
        vm.expectRevert(_unauthorized(stranger));
        oracle.announceConfig();
        vm.expectRevert(_unauthorized(stranger));
        oracle.pauseFeature(keccak256("oracle.risk"));
        vm.stopPrank();
        (uint256 lo, ) = oracle.priceBounds();
        assertEq(lo, MIN_PRICE);
    }
}
