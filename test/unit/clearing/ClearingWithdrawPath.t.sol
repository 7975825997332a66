// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../../helpers/ClearingUnitBase.sol";
import {OracleReconfig} from "../../helpers/OracleReconfig.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {IComputePriceOracle} from "../../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IComputePriceOracleErrors} from "../../../contracts/interfaces/oracle/IComputePriceOracleErrors.sol";
import {MockAggregatorV3} from "../../../contracts/mocks/MockAggregatorV3.sol";

/// @notice `withdraw` with a position against the real ComputePriceOracle (issue 18 item 4, round 42: the margin
///         arithmetic's one-product fast path): every gate still refuses, nothing moves on a refusal, the margin
///         boundary is exact to the unit, and nothing read in one call survives into a later call of the same
///         transaction (a Solidity test function is one transaction: transient storage is not cleared between calls).
contract ClearingWithdrawPathTest is ClearingUnitBase, OracleReconfig {
    uint256 internal constant T0 = 1_700_000_000;
    bytes32 internal constant RISK = keccak256("oracle.risk");
    IComputePriceOracle internal real;
    MockAggregatorV3 internal feed;

    function setUp() public override {
        vm.warp(T0);
        super.setUp();
        feed = MockAggregatorV3(deployCode("MockAggregatorV3.sol:MockAggregatorV3", abi.encode(uint8(8), "CH", 10e8)));
        IComputePriceOracle.Config memory c;
        (c.feed, c.heartbeatSec, c.minPriceWad, c.maxPriceWad) = (address(feed), 1 days, 0.01e18, 1_000e18);
        real = IComputePriceOracle(
            _proxy(_deployOracleImpl(c), abi.encodeWithSignature("initialize(address)", address(manager)))
        );
        chouse.setModules(address(real), address(risk), address(pool), address(insurance), address(liq));
        // alice: 100 USDC, long 50 CH at 10 (notional 500, initial margin 50 at the 10 % floor)
        _setupTrader(alice, guarantor, 100e6);
        market.tradeAt(alice, 50e18, 10e18);
    }

    function _expectPaused(bytes32 f) internal {
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, f));
    }

    /// @dev What the account could still withdraw: equity above initial margin (the view rounds as withdraw does).
    function _free(address account) internal view returns (uint256) {
        IClearingHouse.MarginState memory s = chouse.marginState(account);
        return uint256(s.equityUsdc) - s.initialMarginUsdc;
    }

    function _withdraw(address account, uint256 amountUsdc) internal {
        vm.prank(account);
        chouse.withdraw(amountUsdc, account);
    }

    /// The oracle's `oracle.risk` pause refuses a withdrawal with a position, moves nothing, and lifts on unpause.
    function test_withdrawWithPosition_oracleRiskPaused_refused_thenUnpausedAllowed() public {
        IChxModule(address(real)).pauseFeature(RISK);
        uint256 before = usdc.balanceOf(alice);
        vm.prank(alice);
        _expectPaused(RISK);
        chouse.withdraw(1e6, alice);
        assertEq(chouse.collateralOf(alice), 100e6);
        assertEq(usdc.balanceOf(alice), before);
        // an account without a position never reads the oracle (SEC-05)
        _depositFor(bob, 10e6);
        _withdraw(bob, 10e6);
        IChxModule(address(real)).unpauseFeature(RISK);
        _withdraw(alice, 1e6);
        assertEq(chouse.collateralOf(alice), 99e6);
        assertEq(usdc.balanceOf(alice), before + 1e6);
    }

    /// A stale index refuses the withdrawal (ORC-01) and moves nothing; a fresh round allows it again.
    function test_withdrawWithPosition_stale_refused_nothingMoved() public {
        vm.warp(T0 + 1 days + 1);
        uint256 before = usdc.balanceOf(address(chouse));
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OracleStalePrice.selector, T0, 1 days, T0 + 1 days + 1)
        );
        chouse.withdraw(1e6, alice);
        assertEq(chouse.collateralOf(alice), 100e6);
        assertEq(usdc.balanceOf(address(chouse)), before);
        feed.setAnswer(10e8);
        _withdraw(alice, 1e6);
        assertEq(chouse.collateralOf(alice), 99e6);
    }

    /// The margin boundary to the unit: exactly the free equity passes, one unit more is refused with the requirement
    /// and the equity it would have left, and nothing moves (the fast path rounds as Math.mulDiv did).
    function test_withdrawWithPosition_marginBoundary_exactToTheUnit() public {
        feed.setAnswer(10.37e8); // a price with remainders: notional 518.5, requirement rounded up
        uint256 free = _free(alice);
        assertGt(free, 0);
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        uint256 before = usdc.balanceOf(alice);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingInsufficientMargin.selector,
                alice,
                s.initialMarginUsdc,
                s.equityUsdc - int256(free + 1)
            )
        );
        chouse.withdraw(free + 1, alice);
        assertEq(chouse.collateralOf(alice), 100e6);
        assertEq(usdc.balanceOf(alice), before);
        _withdraw(alice, free);
        assertEq(usdc.balanceOf(alice), before + free);
        assertEq(_free(alice), 0);
        vm.prank(alice);
        vm.expectRevert();
        chouse.withdraw(1, alice);
    }

    /// A withdrawal that would break initial margin is refused outright (ClearingInsufficientMargin), nothing moved.
    function test_withdrawWithPosition_breakingMargin_refused_nothingMoved() public {
        uint256 chBefore = usdc.balanceOf(address(chouse));
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingInsufficientMargin.selector, alice, 50e6, int256(40e6))
        );
        chouse.withdraw(60e6, alice);
        assertEq(chouse.collateralOf(alice), 100e6);
        assertEq(usdc.balanceOf(address(chouse)), chBefore);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 50e18);
    }

    /// Trade, withdraw, trade, withdraw in one block: each withdrawal sees the position the trade before it left.
    function test_withdrawBetweenTwoTrades_sameBlock() public {
        _withdraw(alice, 30e6); // IM 50, equity 70
        market.tradeAt(alice, 10e18, 10e18); // 60 CH: IM 60, equity 70
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingInsufficientMargin.selector, alice, 60e6, int256(59e6))
        );
        chouse.withdraw(11e6, alice);
        _withdraw(alice, 10e6);
        market.tradeAt(alice, -30e18, 10e18); // 30 CH: IM 30, equity 60
        _withdraw(alice, 30e6);
        assertEq(chouse.collateralOf(alice), 30e6);
        assertEq(_free(alice), 0);
    }

    /// A second account's withdrawal moves only its own collateral.
    function test_secondAccountWithdraw_leavesFirstUntouched() public {
        _setupTrader(bob, guarantor, 80e6);
        market.tradeAt(bob, -20e18, 10e18);
        IClearingHouse.MarginState memory a = chouse.marginState(alice);
        _withdraw(bob, 60e6);
        assertEq(chouse.collateralOf(bob), 20e6);
        IClearingHouse.MarginState memory a2 = chouse.marginState(alice);
        assertEq(a2.collateralUsdc, a.collateralUsdc);
        assertEq(a2.initialMarginUsdc, a.initialMarginUsdc);
        assertEq(a2.equityUsdc, a.equityUsdc);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 50e18);
    }

    /// One transaction: a withdrawal passes, the guardian then pauses `oracle.risk`, the next withdrawal in the same
    /// transaction is refused; the price moves within the transaction and the next withdrawal uses the new one.
    function test_sameTransaction_stateChangeBetweenWithdrawals_isSeen() public {
        _withdraw(alice, 10e6);
        IChxModule(address(real)).pauseFeature(RISK);
        vm.prank(alice);
        _expectPaused(RISK);
        chouse.withdraw(1e6, alice);
        IChxModule(address(real)).unpauseFeature(RISK);
        _withdraw(alice, 1e6);
        // the feed falls in the same transaction: 50 CH at 9 → equity 89 − 50 = 39, IM 45
        feed.setAnswer(9e8);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingInsufficientMargin.selector, alice, 45e6, int256(38e6))
        );
        chouse.withdraw(1e6, alice);
        // and a governance change of the bounds binds the next withdrawal of the same transaction
        feed.setAnswer(10e8);
        _oracleSetBounds(address(real), 11e18, 1_000e18);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IComputePriceOracleErrors.OraclePriceOutOfBounds.selector, 10e18, 11e18, 1_000e18)
        );
        chouse.withdraw(1e6, alice);
        assertEq(chouse.collateralOf(alice), 89e6);
    }

    /// An odd size at an odd price (every product has a remainder): the boundary is still exact to the unit.
    function test_withdrawWithPosition_oddSize_marginExact() public {
        _setupTrader(bob, guarantor, 500e6);
        market.tradeAt(bob, -33_333_333_333_333_333_333, 10e18); // short 33.33… CH at 10
        feed.setAnswer(9.87654321e8);
        uint256 free = _free(bob);
        vm.prank(bob);
        vm.expectRevert();
        chouse.withdraw(free + 1, bob);
        _withdraw(bob, free);
        assertEq(_free(bob), 0);
    }
}
