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

/// @notice ComputePriceOracle: the one decimal conversion and the ORC-01 rejections of the price itself (stale,
///         zero/negative, out of bounds, incomplete rounds), each by error name.
contract ComputePriceOracleTest is OracleInsuranceBase, OracleReconfig {
    MockSequencerUptimeFeed internal seq;
    MockSpotPriceSource internal spot;

    function setUp() public {
        _deployOracleAndFund();
        seq = new MockSequencerUptimeFeed(true, T0 - 1 days);
        spot = new MockSpotPriceSource();
    }

    // ---------------------------------------------------------------- happy path and conversion

    function test_indexPrice_convertsEightDecimalsToWad() public view {
        assertEq(oracle.indexPrice(), 2e18);
        assertEq(oracle.riskPrice(), 2e18);
        (bool ok, bytes4 reason) = oracle.riskIncreaseAllowed();
        assertTrue(ok);
        assertEq(reason, bytes4(0));
    }

    function test_toWad_workedNumbers() public view {
        assertEq(oracle.toWad(2e8, 8), 2e18);
        assertEq(oracle.toWad(1_234_567, 6), 1.234567e18);
        assertEq(oracle.toWad(5e17, 18), 5e17);
        // 20 decimals: 1.23456789012345678912 → truncated to 18 decimals (rounded down).
        assertEq(oracle.toWad(123456789012345678912, 20), 1234567890123456789);
        assertEq(oracle.toWad(7, 0), 7e18);
    }

    function test_toWad_revertsOnNonPositive() public {
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleNonPositivePrice.selector, int256(-5)));
        oracle.toWad(-5, 8);
    }

    function test_indexPrice_readsFeedWithOtherDecimals() public {
        MockAggregatorV3 f18 = new MockAggregatorV3(18, "CH / USD 18", 3.5e18);
        _oracleSetFeed(address(oracle), address(f18), 600);
        assertEq(oracle.indexPrice(), 3.5e18);
        IComputePriceOracle.FeedConfig memory cfg = oracle.feedConfig();
        assertEq(cfg.decimals, 18);
        assertEq(cfg.heartbeatSec, 600);
    }

    /// Round 42: a validated read scales by the power of ten the constructor computed (`WAD_SCALE`); at every
    /// decimals it equals the one conversion `toWad` (multiplied up to 18 decimals, rounded down above).
    function test_indexPrice_constructorScale_equalsToWad_atEveryDecimals() public {
        uint8[5] memory decs = [uint8(0), 6, 18, 20, 36];
        int256[5] memory answers = [int256(3), 3_456_789, 3.5e18, 345_678_901_234_567_890_123, 3.456789e36 + 7];
        for (uint256 i; i < decs.length; ++i) {
            MockAggregatorV3 f = new MockAggregatorV3(decs[i], "CH / USD", answers[i]);
            _oracleSetFeed(address(oracle), address(f), 600);
            uint256 expected = oracle.toWad(answers[i], decs[i]);
            assertEq(oracle.indexPrice(), expected);
            assertEq(oracle.riskPrice(), expected);
        }
    }

    // ---------------------------------------------------------------- ORC-01: staleness

    function test_ORC01_staleRoundReverts() public {
        vm.warp(T0 + HEARTBEAT); // exactly one heartbeat old: still fresh
        assertEq(oracle.indexPrice(), 2e18);
        vm.warp(T0 + HEARTBEAT + 1);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleStalePrice.selector,
                T0,
                HEARTBEAT,
                T0 + HEARTBEAT + 1
            )
        );
        oracle.indexPrice();
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleStalePrice.selector,
                T0,
                HEARTBEAT,
                T0 + HEARTBEAT + 1
            )
        );
        oracle.riskPrice();
        (bool ok, bytes4 reason) = oracle.riskIncreaseAllowed();
        assertFalse(ok);
        assertEq(reason, IComputePriceOracleErrors.OracleStalePrice.selector);
    }

    // ---------------------------------------------------------------- ORC-01: zero / negative

    function test_ORC01_zeroAnswerReverts() public {
        feed.setAnswer(0);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleNonPositivePrice.selector, int256(0)));
        oracle.indexPrice();
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleNonPositivePrice.selector, int256(0)));
        oracle.riskPrice();
    }

    function test_ORC01_negativeAnswerReverts() public {
        feed.setAnswer(-1e8);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleNonPositivePrice.selector, int256(-1e8))
        );
        oracle.riskPrice();
    }

    // ---------------------------------------------------------------- ORC-01: bounds

    function test_ORC01_aboveMaxReverts() public {
        feed.setAnswer(1000e8); // exactly the max: accepted
        assertEq(oracle.indexPrice(), 1000e18);
        feed.setAnswer(1000e8 + 1);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OraclePriceOutOfBounds.selector,
                1000e18 + 1e10,
                MIN_PRICE,
                MAX_PRICE
            )
        );
        oracle.riskPrice();
    }

    function test_ORC01_belowMinReverts() public {
        feed.setAnswer(0.01e8); // exactly the min: accepted
        assertEq(oracle.indexPrice(), 0.01e18);
        feed.setAnswer(0.01e8 - 1);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OraclePriceOutOfBounds.selector,
                0.01e18 - 1e10,
                MIN_PRICE,
                MAX_PRICE
            )
        );
        oracle.indexPrice();
    }

    // ---------------------------------------------------------------- ORC-01: incomplete rounds

    function test_ORC01_answeredInEarlierRoundReverts() public {
        feed.setIncompleteRound(3e8, 1);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleRoundIncomplete.selector, 2, 1, T0));
        oracle.indexPrice();
    }

    function test_ORC01_neverUpdatedRoundReverts() public {
        feed.setRound(3e8, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleRoundIncomplete.selector, 2, 2, 0));
        oracle.riskPrice();
    }

    function test_ORC01_futureRoundReverts() public {
        feed.setRound(3e8, T0 + 10, T0 + 10);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleRoundIncomplete.selector, 2, 2, T0 + 10)
        );
        oracle.indexPrice();
    }

    function test_indexPrice_revertsWithoutFeedRounds() public {
        MockAggregatorV3 empty = new MockAggregatorV3(8, "empty", 0);
        _oracleSetFeed(address(oracle), address(empty), HEARTBEAT);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleRoundIncomplete.selector, 0, 0, 0));
        oracle.indexPrice();
    }
}
