// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {OracleReconfig} from "../helpers/OracleReconfig.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IComputePriceOracleErrors} from "../../contracts/interfaces/oracle/IComputePriceOracleErrors.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {MockAggregatorV3} from "../../contracts/mocks/MockAggregatorV3.sol";
import {MockSequencerUptimeFeed} from "../../contracts/mocks/MockSequencerUptimeFeed.sol";
import {MockSpotPriceSource} from "../../contracts/mocks/MockSpotPriceSource.sol";

/// @notice Issue 17 item 24 on the ClearingHouse side, against the real ComputePriceOracle (an L2 sequencer feed with
///         a one-hour grace period, a spot TWAP): a withdrawal with open positions is a risk-increasing action and
///         reads the gated price (ORC-01); liquidations wait out the grace period after the sequencer returns unless
///         the account is already insolvent (Aave's PriceOracleSentinel rule).
contract ClearingOracleGatesTest is ClearingUnitBase, OracleReconfig {
    uint256 internal constant T0 = 1_700_000_000;
    uint32 internal constant GRACE = 3600;
    IComputePriceOracle internal real;
    MockAggregatorV3 internal feed;
    MockSequencerUptimeFeed internal seq;

    function setUp() public override {
        vm.warp(T0);
        super.setUp();
        feed = MockAggregatorV3(deployCode("MockAggregatorV3.sol:MockAggregatorV3", abi.encode(uint8(8), "CH", 10e8)));
        seq = MockSequencerUptimeFeed(
            deployCode("MockSequencerUptimeFeed.sol:MockSequencerUptimeFeed", abi.encode(true, T0 - 1 days))
        );
        IComputePriceOracle.Config memory c;
        (c.feed, c.heartbeatSec, c.minPriceWad, c.maxPriceWad) = (address(feed), 1 days, 0.01e18, 1_000e18);
        (c.sequencerFeed, c.gracePeriodSec) = (address(seq), GRACE);
        real = IComputePriceOracle(
            _proxy(_deployOracleImpl(c), abi.encodeWithSignature("initialize(address)", address(manager)))
        );
        chouse.setModules(address(real), address(risk), address(pool), address(insurance), address(liq));
    }

    /// Sequencer down, then back up at T0 + 100: inside the grace period until T0 + 3700 inclusive.
    function _sequencerOutage() internal {
        seq.setStatus(false);
        vm.warp(T0 + 100);
        seq.setStatus(true);
        feed.setAnswer(10e8);
    }

    function _price(int256 answer8) internal {
        feed.setAnswer(answer8);
        oracle.setPrice(uint256(answer8) * 1e10); // the RiskEngine's mock index follows
    }

    /// A withdrawal with open positions used the plain index even inside the sequencer grace period, when prices may
    /// be stale and users cannot react (ORC-01): it must read the gated price like every risk-increasing action.
    function test_withdrawWithPositions_insideSequencerGrace_reverts_ORC01() public {
        _setupTrader(alice, guarantor, 100e6);
        market.tradeAt(alice, 50e18, 10e18); // IM 50
        _sequencerOutage();
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleSequencerGracePeriod.selector,
                T0 + 100,
                T0 + 100 + GRACE
            )
        );
        chouse.withdraw(10e6, alice);
        // without positions an account withdraws at any time (SEC-05)
        _depositFor(bob, 50e6);
        vm.prank(bob);
        chouse.withdraw(50e6, bob);
        vm.warp(T0 + 101 + GRACE);
        feed.setAnswer(10e8);
        vm.prank(alice);
        chouse.withdraw(10e6, alice);
    }

    /// The spot-deviation gate applies to a withdrawal with open positions too.
    function test_withdrawWithPositions_spotDeviation_reverts_ORC01() public {
        _setupTrader(alice, guarantor, 100e6);
        market.tradeAt(alice, 50e18, 10e18);
        MockSpotPriceSource spot = MockSpotPriceSource(deployCode("MockSpotPriceSource.sol:MockSpotPriceSource"));
        spot.set(12e18, T0 - 1 days); // +20 %
        _oracleSetSpot(address(real), address(spot), 1800, 1000);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleDeviationTooHigh.selector, 10e18, 12e18, 2000, 1000)
        );
        chouse.withdraw(10e6, alice);
    }

    /// ORC-01 with the configuration as oracle immutables: a stale or out-of-bounds feed still blocks a withdrawal
    /// with open positions, and a configuration change (an upgrade) binds the very next withdrawal; without positions
    /// the oracle is not read and the withdrawal goes through (SEC-05).
    function test_withdrawWithPositions_staleOrOutOfBounds_reverts_ORC01() public {
        _setupTrader(alice, guarantor, 100e6);
        market.tradeAt(alice, 50e18, 10e18);
        _depositFor(bob, 50e6);
        vm.warp(T0 + 1 days + 1); // the round of T0 is older than the 1-day heartbeat
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleStalePrice.selector, T0, 1 days, T0 + 1 days + 1)
        );
        chouse.withdraw(1e6, alice);
        vm.prank(bob);
        chouse.withdraw(10e6, bob);
        feed.setAnswer(10e8);
        vm.prank(alice);
        chouse.withdraw(1e6, alice);
        // governance tightens the bounds above the price: the next withdrawal with positions sees it
        _oracleSetBounds(address(real), 11e18, 1_000e18);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OraclePriceOutOfBounds.selector, 10e18, 11e18, 1_000e18)
        );
        chouse.withdraw(1e6, alice);
        vm.prank(bob);
        chouse.withdraw(10e6, bob);
    }

    /// Liquidations resumed the instant the sequencer came back, before users could top up at the fresh price.
    /// A solvent account gets the grace period; an insolvent one is liquidated at once (waiting grows the bad debt).
    function test_liquidation_waitsOutSequencerGrace_unlessInsolvent() public {
        _setupTrader(alice, guarantor, 100e6);
        _setupTrader(bob, guarantor, 100e6);
        market.tradeAt(alice, 50e18, 10e18);
        market.tradeAt(bob, 100e18, 10e18);
        _sequencerOutage();
        _price(8.3e8); // alice: equity 100 − 85 = 15 < MM 20.75 (solvent); bob: 100 − 170 = −70 (insolvent)
        vm.prank(keeper);
        vm.expectRevert(
            abi.encodeWithSelector(
                ILiquidationEngine.LiquidationSequencerGracePeriod.selector,
                alice,
                T0 + 100,
                T0 + 100 + GRACE,
                int256(15e6)
            )
        );
        liq.liquidate(alice);
        vm.prank(keeper);
        liq.liquidate(bob); // insolvent: no grace
        assertEq(chouse.marketsOf(bob).length, 0);
        vm.warp(T0 + 101 + GRACE);
        feed.setAnswer(8.3e8);
        vm.prank(keeper);
        liq.liquidate(alice);
        assertLt(chouse.positionOf(alice, address(market)).sizeCh, 50e18);
    }
}
