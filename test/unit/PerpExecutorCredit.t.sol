// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../helpers/PerpSolBase.sol";
import {PerpOrderSteps} from "../helpers/PerpOrderSteps.sol";
import {IPerpMarket, IPerpMarketErrors} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {IDelayedOrders, IDelayedOrderErrors} from "../../contracts/interfaces/markets/IDelayedOrders.sol";
import {IComputePriceOracleErrors} from "../../contracts/interfaces/oracle/IComputePriceOracleErrors.sol";

/// @notice The executor's fee as a keeper credit inside the market (issue 18 item 4, docs/perps.md "Orders" step 3):
///         an execution or an expiry cancellation moves the order's fee from the book's Σ order fees to
///         `keeperOwedUsdc` and credits the caller, who claims it with `claimKeeperBounty` like a poke bounty.
///         Attacks: claiming twice, front-running a cancel, a stale round between order and execution, a funding
///         poke in between (ACC-01 conservation: the pool pays each fee once; LP equity never counts it).
contract PerpExecutorCreditTest is PerpSolBase {
    address internal lp = makeAddr("lp");
    address internal trader = makeAddr("trader");
    address internal executor = makeAddr("executor");
    address internal executor2 = makeAddr("executor2");
    uint256 internal constant FEE = 0.5e6;

    function setUp() public {
        _deployPerps();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(trader, guarantor, 20_000e6);
        _fundPerpPool(lp, 500_000e6, 300_000e6);
    }

    function _commit(int256 sizeCh) internal returns (uint256 priceTime) {
        vm.prank(trader);
        return perp.commitOrder(sizeCh, 0);
    }

    function _execute(address by, uint256 priceTime) internal {
        if (block.timestamp <= priceTime) vm.warp(priceTime + 1);
        uint80 roundId = index.roundAt(priceTime);
        vm.prank(by);
        perp.executeOrder(trader, roundId);
    }

    function _pool() internal view returns (int256 pool) {
        (, pool) = chouse.marketInfo(address(perp));
    }

    /// ACC-01: the executor's credit is paid once. A second claim reverts; the pool pays exactly the fee, the
    /// executor's ClearingHouse collateral is not touched by the execution, and the reserve goes back to 0.
    function test_executorClaimsCreditTwice_paidOnce() public {
        uint256 pt = _commit(100e18);
        assertEq(perp.marketState().orderFeesUsdc, FEE);
        _execute(executor, pt);
        assertEq(chouse.positionOf(trader, address(perp)).sizeCh, 100e18);
        assertEq(chouse.collateralOf(executor), 0, "no ClearingHouse credit any more");
        assertEq(perp.keeperBountyOf(executor), FEE);
        IPerpMarket.MarketState memory s = perp.marketState();
        assertEq(s.orderFeesUsdc, 0);
        assertEq(s.keeperOwedUsdc, FEE, "moved from the order fees to the keeper credits");
        int256 poolBefore = _pool();
        uint256 balBefore = usdc.balanceOf(executor);
        vm.prank(executor);
        assertEq(perp.claimKeeperBounty(), FEE);
        assertEq(usdc.balanceOf(executor) - balBefore, FEE);
        assertEq(poolBefore - _pool(), int256(FEE));
        assertEq(perp.marketState().keeperOwedUsdc, 0);
        vm.prank(executor);
        vm.expectRevert(abi.encodeWithSelector(IPerpMarketErrors.PerpNothingToSettle.selector, executor));
        perp.claimKeeperBounty();
        // another keeper has nothing to claim from the executor's credit
        vm.prank(executor2);
        vm.expectRevert(abi.encodeWithSelector(IPerpMarketErrors.PerpNothingToSettle.selector, executor2));
        perp.claimKeeperBounty();
        assertEq(poolBefore - _pool(), int256(FEE));
    }

    /// A keeper front-running a cancel: before the expiry nobody can cancel (no credit); after it the first caller
    /// is credited and the racer gets DelayedOrderAlreadyDone with nothing credited. The cancellation moves the fee
    /// between two reserves, so LP equity (the vault's assets) does not move.
    function test_keeperFrontRunsCancel_onlyFirstCredited_lpEquityUnchanged() public {
        _commit(100e18);
        IDelayedOrders.OrderView memory o = perp.pendingOrder(trader);
        vm.prank(executor2);
        vm.expectRevert(
            abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderNotExpired.selector, trader, o.expiresAt)
        );
        perp.cancelOrder(trader);
        assertEq(perp.keeperBountyOf(executor2), 0);
        vm.warp(o.expiresAt + 1);
        uint256 assetsBefore = vault.totalAssets();
        vm.prank(executor2); // the front-runner
        perp.cancelOrder(trader);
        vm.prank(executor);
        vm.expectRevert(abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderAlreadyDone.selector, trader));
        perp.cancelOrder(trader);
        assertEq(perp.keeperBountyOf(executor2), FEE);
        assertEq(perp.keeperBountyOf(executor), 0);
        assertEq(perp.marketState().keeperOwedUsdc, FEE);
        assertEq(perp.marketState().orderFeesUsdc, 0);
        assertEq(vault.totalAssets(), assetsBefore, "the fee was never LP capital");
        // the trader's next order holds a fresh fee; the old credit is not counted twice
        uint256 pt = _commit(100e18);
        assertEq(perp.marketState().orderFeesUsdc, FEE);
        _execute(executor, pt);
        assertEq(perp.marketState().keeperOwedUsdc, 2 * FEE);
        assertEq(perp.keeperBountyOf(executor), FEE);
    }

    /// A stale round between the order and its execution: the execution reverts (the oracle's staleness check stays)
    /// and credits nothing; the order stays pending and its fee reserved until it executes or expires.
    function test_staleRoundBetweenOrderAndExecution_noCredit() public {
        uint256 pt = _commit(100e18);
        vm.warp(pt + 1);
        index.setStale(true);
        uint80 roundId = index.roundAt(pt);
        vm.prank(executor);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleStalePrice.selector, 0, 0, pt + 1));
        perp.executeOrder(trader, roundId);
        assertEq(perp.keeperBountyOf(executor), 0);
        assertEq(perp.marketState().keeperOwedUsdc, 0);
        assertEq(perp.marketState().orderFeesUsdc, FEE);
        assertEq(perp.pendingOrder(trader).feeUsdc, FEE);
        index.setStale(false);
        _execute(executor, pt);
        assertEq(perp.keeperBountyOf(executor), FEE);
    }

    /// MKT-03 / ACC-01: a funding poke between commit and execution. The poke's bounty and the execution's fee land in
    /// the same keeper balance and the same reserve; the fill's funding write keeps the poke's bounty (the credit is
    /// added after it), and one claim pays both, once.
    function test_fundingPokeBetweenCommitAndExecution_bothCreditsKept() public {
        address other = makeAddr("other");
        _setupTrader(other, guarantor, 20_000e6);
        PerpOrderSteps.mustTrade(perp, other, 1e18); // open interest: pokes pay
        uint256 owed0 = perp.marketState().keeperOwedUsdc; // the helper's execution credited the test contract
        vm.warp(block.timestamp + 1 hours);
        uint256 pt = _commit(100e18);
        vm.prank(executor);
        uint256 bounty = perp.pokeFunding();
        assertGt(bounty, 0);
        vm.warp(pt + 1);
        _execute(executor, pt);
        assertEq(perp.keeperBountyOf(executor), bounty + FEE);
        assertEq(perp.marketState().keeperOwedUsdc, owed0 + bounty + FEE);
        int256 poolBefore = _pool();
        vm.prank(executor);
        assertEq(perp.claimKeeperBounty(), bounty + FEE);
        assertEq(poolBefore - _pool(), int256(bounty + FEE));
        assertEq(perp.marketState().keeperOwedUsdc, owed0);
        vm.prank(executor);
        vm.expectRevert(abi.encodeWithSelector(IPerpMarketErrors.PerpNothingToSettle.selector, executor));
        perp.claimKeeperBounty();
    }

    /// A fill cancelled for a user-caused reason (pause) still credits the executor, through performUpkeep as well.
    function test_cancelledFillViaUpkeep_creditsExecutor() public {
        uint256 pt = _commit(100e18);
        _pause(address(perp), "perp.trade");
        vm.warp(pt + 1);
        (bool due, bytes memory payload) = perp.checker();
        assertTrue(due);
        vm.prank(executor);
        perp.performUpkeep(payload);
        assertEq(chouse.positionOf(trader, address(perp)).sizeCh, 0);
        assertEq(perp.keeperBountyOf(executor), FEE);
        assertEq(perp.marketState().keeperOwedUsdc, FEE);
    }
}
