// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OracleInsuranceBase} from "../helpers/OracleInsuranceBase.sol";
import {OracleReconfig} from "../helpers/OracleReconfig.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IComputePriceOracleErrors} from "../../contracts/interfaces/oracle/IComputePriceOracleErrors.sol";
import {MockAggregatorV3} from "../../contracts/mocks/MockAggregatorV3.sol";
import {MockSequencerUptimeFeed} from "../../contracts/mocks/MockSequencerUptimeFeed.sol";
import {MockSpotPriceSource} from "../../contracts/mocks/MockSpotPriceSource.sol";

/// @notice ComputePriceOracle's configuration is implementation immutables (issue 18: a price read loads no
///         configuration slot). Governance changes it by upgrade; every order of upgrades must keep each check in step
///         with the configuration the proxy runs, and the next read must see it (ORC-01).
contract ComputePriceOracleFlagsTest is OracleInsuranceBase, OracleReconfig {
    MockSequencerUptimeFeed internal seq;
    MockSpotPriceSource internal spot;

    function setUp() public {
        _deployOracleAndFund();
        seq = new MockSequencerUptimeFeed(true, T0 - 1 days);
        spot = new MockSpotPriceSource();
    }

    /// @dev A new primary feed must not clear the sequencer / spot flags set before it.
    function test_replaceFeedAfterSequencerAndSpot_keepsTheirChecks() public {
        _oracleSetSequencer(address(oracle), address(seq), 3600);
        _oracleSetSpot(address(oracle), address(spot), 1800, 1000);
        MockAggregatorV3 next = new MockAggregatorV3(8, "CH / USD", 2e8);
        _oracleSetFeed(address(oracle), address(next), 3600);
        IComputePriceOracle.FeedConfig memory cfg = oracle.feedConfig();
        assertEq(cfg.feed, address(next));
        assertEq(cfg.heartbeatSec, 3600);
        assertEq(cfg.decimals, 8);

        spot.set(2.3e18, T0 - 1 days); // +15 %, mature: the deviation gate still runs
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleDeviationTooHigh.selector, 2e18, 2.3e18, 1500, 1000)
        );
        oracle.riskPrice();

        seq.setStatus(false); // the sequencer check still runs, on every read
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleSequencerDown.selector, T0));
        oracle.indexPrice();
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleSequencerDown.selector, T0));
        oracle.priceAtRound(1, T0 - 1);
    }

    /// @dev Clearing the sequencer feed or the spot source turns its check off; setting it again turns it back on.
    function test_clearAndResetSequencerAndSpot_followTheConfiguration() public {
        _oracleSetSequencer(address(oracle), address(seq), 3600);
        seq.setStatus(false);
        _oracleSetSequencer(address(oracle), address(0), 0);
        assertEq(oracle.indexPrice(), 2e18);
        _oracleSetSequencer(address(oracle), address(seq), 3600);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleSequencerDown.selector, T0));
        oracle.indexPrice();
        _oracleSetSequencer(address(oracle), address(0), 0);

        spot.set(2.3e18, T0 - 1 days);
        _oracleSetSpot(address(oracle), address(spot), 1800, 1000);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleDeviationTooHigh.selector, 2e18, 2.3e18, 1500, 1000)
        );
        oracle.riskPrice();
        _oracleSetSpot(address(oracle), address(0), 0, 0);
        assertEq(oracle.riskPrice(), 2e18);
        _oracleSetSpot(address(oracle), address(spot), 1800, 1000);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleDeviationTooHigh.selector, 2e18, 2.3e18, 1500, 1000)
        );
        oracle.checkRiskAt(2e18, T0);
    }

    /// @dev The grace period after the sequencer comes back still gates new risk.
    function test_sequencerGrace_stillGatesNewRisk() public {
        seq.setStatusSince(true, T0 - 10);
        _oracleSetSequencer(address(oracle), address(seq), 3600);
        assertEq(oracle.indexPrice(), 2e18);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleSequencerGracePeriod.selector,
                T0 - 10,
                T0 - 10 + 3600
            )
        );
        oracle.riskPrice();
    }

    /// @dev The attack on immutables: a configuration change that the next read does not see. Tightened bounds, a
    ///      shorter heartbeat and a new feed each bite on the very next read after the upgrade (ORC-01).
    function test_ORC01_upgradedConfigurationIsSeenByTheNextRead() public {
        assertEq(oracle.riskPrice(), 2e18);
        _oracleSetBounds(address(oracle), 2.5e18, 10e18);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OraclePriceOutOfBounds.selector, 2e18, 2.5e18, 10e18)
        );
        oracle.riskPrice();
        _oracleSetBounds(address(oracle), MIN_PRICE, MAX_PRICE);
        vm.warp(T0 + 600);
        assertEq(oracle.indexPrice(), 2e18);
        _oracleSetFeed(address(oracle), address(feed), 300); // heartbeat 1 h → 5 min: the round is now stale
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleStalePrice.selector, T0, 300, T0 + 600));
        oracle.indexPrice();
        MockAggregatorV3 next = new MockAggregatorV3(8, "CH / USD", 3e8);
        _oracleSetFeed(address(oracle), address(next), 3600);
        assertEq(oracle.indexPrice(), 3e18);
    }

    /// @dev The proxy holds no configuration: a value written where the configuration lived before (the ERC-7201 base
    ///      of "chx.storage.ComputePriceOracle") changes nothing, and nothing there is written any more.
    function test_proxyHoldsNoConfiguration() public {
        bytes32 slot = 0x542db62239ede27da56685d11a03fc14db201e010e39ff8dff85aeee5f11b100;
        for (uint256 i; i < 5; ++i) assertEq(vm.load(address(oracle), bytes32(uint256(slot) + i)), bytes32(0));
        vm.store(address(oracle), slot, bytes32(uint256(uint160(address(0xdead)))));
        vm.store(address(oracle), bytes32(uint256(slot) + 4), bytes32(uint256(1)));
        assertEq(oracle.indexPrice(), 2e18);
        assertEq(oracle.feedConfig().feed, address(feed));
        (uint256 lo, uint256 hi) = oracle.priceBounds();
        assertEq(lo, MIN_PRICE);
        assertEq(hi, MAX_PRICE);
    }
}
