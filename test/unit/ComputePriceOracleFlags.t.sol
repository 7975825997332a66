// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OracleInsuranceBase} from "../helpers/OracleInsuranceBase.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IComputePriceOracleErrors} from "../../contracts/interfaces/oracle/IComputePriceOracleErrors.sol";
import {MockAggregatorV3} from "../../contracts/mocks/MockAggregatorV3.sol";
import {MockSequencerUptimeFeed} from "../../contracts/mocks/MockSequencerUptimeFeed.sol";
import {MockSpotPriceSource} from "../../contracts/mocks/MockSpotPriceSource.sol";

/// @notice ComputePriceOracle keeps "no sequencer feed" and "no spot source" in the feed's word (issue 18: a price read
///         skips the cold slots of what is not configured). Every order of configuration calls must keep the flags in
///         step with the configuration itself, or a check would be skipped (ORC-01).
contract ComputePriceOracleFlagsTest is OracleInsuranceBase {
    MockSequencerUptimeFeed internal seq;
    MockSpotPriceSource internal spot;

    function setUp() public {
        _deployOracleAndFund();
        seq = new MockSequencerUptimeFeed(true, T0 - 1 days);
        spot = new MockSpotPriceSource();
    }

    /// @dev A new primary feed must not clear the sequencer / spot flags set before it.
    function test_replaceFeedAfterSequencerAndSpot_keepsTheirChecks() public {
        oracle.setSequencerFeed(address(seq), 3600);
        oracle.setSpotSource(address(spot), 1800, 1000);
        MockAggregatorV3 next = new MockAggregatorV3(8, "CH / USD", 2e8);
        oracle.setFeed(address(next), 3600);
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
        oracle.setSequencerFeed(address(seq), 3600);
        seq.setStatus(false);
        oracle.setSequencerFeed(address(0), 0);
        assertEq(oracle.indexPrice(), 2e18);
        oracle.setSequencerFeed(address(seq), 3600);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleSequencerDown.selector, T0));
        oracle.indexPrice();
        oracle.setSequencerFeed(address(0), 0);

        spot.set(2.3e18, T0 - 1 days);
        oracle.setSpotSource(address(spot), 1800, 1000);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleDeviationTooHigh.selector, 2e18, 2.3e18, 1500, 1000)
        );
        oracle.riskPrice();
        oracle.setSpotSource(address(0), 0, 0);
        assertEq(oracle.riskPrice(), 2e18);
        oracle.setSpotSource(address(spot), 1800, 1000);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleDeviationTooHigh.selector, 2e18, 2.3e18, 1500, 1000)
        );
        oracle.checkRiskAt(2e18, T0);
    }

    /// @dev The grace period after the sequencer comes back still gates new risk with the flag in the feed word.
    function test_sequencerGrace_stillGatesNewRisk() public {
        seq.setStatusSince(true, T0 - 10);
        oracle.setSequencerFeed(address(seq), 3600);
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

    /// @dev A feed word written by an implementation without the flags (upgraded proxy) reads "not known unset": every
    ///      check reads its slot as before. Simulated by clearing the two flag bytes of the word.
    function test_wordWithoutFlags_failsSafe_readsEverySlot() public {
        bytes32 slot = 0x542db62239ede27da56685d11a03fc14db201e010e39ff8dff85aeee5f11b100; // erc7201 base: the feed word
        uint256 flags = uint256(0xffff) << 200;
        assertTrue(uint256(vm.load(address(oracle), slot)) & flags != 0, "fresh oracle: no spot source, no sequencer");
        vm.store(address(oracle), slot, bytes32(uint256(vm.load(address(oracle), slot)) & ~flags));
        assertEq(oracle.indexPrice(), 2e18); // zero sequencer feed and spot source: read, and nothing to check
        assertEq(oracle.riskPrice(), 2e18);

        oracle.setSequencerFeed(address(seq), 3600);
        oracle.setSpotSource(address(spot), 1800, 1000);
        vm.store(address(oracle), slot, bytes32(uint256(vm.load(address(oracle), slot)) & ~flags));
        spot.set(2.3e18, T0 - 1 days);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleDeviationTooHigh.selector, 2e18, 2.3e18, 1500, 1000)
        );
        oracle.riskPrice();
        seq.setStatus(false);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleSequencerDown.selector, T0));
        oracle.indexPrice();
    }
}
