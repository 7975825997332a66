// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../helpers/PerpSolBase.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {IPerpMarket, IPerpMarketErrors} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {IDelayedOrders, IDelayedOrderErrors} from "../../contracts/interfaces/markets/IDelayedOrders.sol";

/// @notice Σ pending order fees across several accounts (issue 18 item 4, lever 3; docs/perps.md "Orders"): the
///         commit adds an order's fee to the book's Σ, its execution (now run by PerpTrading) or cancellation moves
///         it to `keeperOwedUsdc`. Attacks: several accounts' orders ending three different ways, a pause in
///         between, a double claim, a double cancel (ACC-01 conservation: every fee is held once, paid once; LP
///         equity never counts it).
contract PerpOrderFeesTest is PerpSolBase {
    address internal lp = makeAddr("lp");
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    address internal carol = makeAddr("carol");
    address internal keeper1 = makeAddr("keeper1");
    address internal keeper2 = makeAddr("keeper2");
    uint256 internal constant FEE = 0.5e6;

    function setUp() public {
        _deployPerps();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(alice, guarantor, 20_000e6);
        _setupTrader(bob, guarantor, 20_000e6);
        _setupTrader(carol, guarantor, 20_000e6);
        _fundPerpPool(lp, 500_000e6, 300_000e6);
    }

    function _commit(address t, int256 sizeCh, uint256 limit) internal returns (uint256) {
        vm.prank(t);
        return perp.commitOrder(sizeCh, limit);
    }

    function _execute(address by, address t, uint256 priceTime) internal {
        if (block.timestamp <= priceTime) vm.warp(priceTime + 1);
        uint80 roundId = index.roundAt(priceTime);
        vm.prank(by);
        perp.executeOrder(t, roundId);
    }

    function _pool() internal view returns (int256 pool) {
        (, pool) = chouse.marketInfo(address(perp));
    }

    /// ACC-01: three accounts with pending orders — alice's executed, bob's cancelled by its fill (price limit),
    /// carol's expired and cancelled. Σ order fees moves by exactly one fee per step, the pool holds each fee once,
    /// bob and carol pay exactly the fee and nothing else, LP equity never counts a fee, both keepers are paid
    /// exactly what they earned.
    function test_threeOrders_executedCancelledExpired_feesExact() public {
        int256 pool0 = _pool();
        int256 lpEquity0 = perp.vaultEquityUsdc();
        int256 bob0 = chouse.collateralOf(bob);
        int256 carol0 = chouse.collateralOf(carol);
        uint256 ptA = _commit(alice, 100e18, 0);
        _commit(bob, 50e18, 1); // a buy limited to 1 wei: its fill reverts with a reason, the order is cancelled
        _commit(carol, -40e18, 0);
        IPerpMarket.MarketState memory s = perp.marketState();
        assertEq(s.orderFeesUsdc, 3 * FEE);
        assertEq(s.pendingOrders, 3);
        assertEq(_pool() - pool0, int256(3 * FEE), "each fee in the pool once");
        assertEq(perp.vaultEquityUsdc(), lpEquity0, "LP equity does not count pending fees");

        _execute(keeper1, alice, ptA);
        assertEq(chouse.positionOf(alice, address(perp)).sizeCh, 100e18);
        assertEq(perp.marketState().orderFeesUsdc, 2 * FEE);

        _execute(keeper2, bob, ptA);
        assertEq(chouse.positionOf(bob, address(perp)).sizeCh, 0, "bob's fill was refused by its limit");
        assertEq(perp.marketState().orderFeesUsdc, FEE);

        vm.warp(perp.pendingOrder(carol).expiresAt + 1);
        vm.prank(keeper2);
        perp.cancelOrder(carol);
        s = perp.marketState();
        assertEq(s.orderFeesUsdc, 0);
        assertEq(s.pendingOrders, 0);
        assertEq(s.keeperOwedUsdc, 3 * FEE, "every fee moved to the keeper credits once");
        assertEq(perp.keeperBountyOf(keeper1), FEE);
        assertEq(perp.keeperBountyOf(keeper2), 2 * FEE);
        assertEq(bob0 - chouse.collateralOf(bob), int256(FEE), "bob paid exactly the fee");
        assertEq(carol0 - chouse.collateralOf(carol), int256(FEE), "carol paid exactly the fee");

        int256 poolBefore = _pool();
        vm.prank(keeper1);
        perp.claimKeeperBounty();
        vm.prank(keeper2);
        perp.claimKeeperBounty();
        assertEq(poolBefore - _pool(), int256(3 * FEE));
        assertEq(usdc.balanceOf(keeper1), FEE);
        assertEq(usdc.balanceOf(keeper2), 2 * FEE);
        assertEq(perp.marketState().keeperOwedUsdc, 0);
    }

    /// An order committed, the trade feature paused, then unpaused before the execution: it fills normally and its
    /// fee leaves Σ order fees exactly once.
    function test_pausedThenUnpaused_executesAfterUnpause() public {
        uint256 pt = _commit(alice, 100e18, 0);
        _pause(address(perp), "perp.trade");
        IChxModule(address(perp)).unpauseFeature(keccak256("perp.trade"));
        _execute(keeper1, alice, pt);
        assertEq(chouse.positionOf(alice, address(perp)).sizeCh, 100e18);
        IPerpMarket.MarketState memory s = perp.marketState();
        assertEq(s.orderFeesUsdc, 0);
        assertEq(s.keeperOwedUsdc, FEE);
        assertEq(s.longOiCh, 100e18);
    }

    /// A keeper claims twice, another keeper's credit in between: the second claim reverts, the other credit is
    /// untouched (ACC-01).
    function test_keeperClaimsTwice_secondReverts_otherCreditKept() public {
        uint256 ptA = _commit(alice, 100e18, 0);
        uint256 ptB = _commit(bob, -60e18, 0);
        _execute(keeper1, alice, ptA);
        _execute(keeper2, bob, ptB);
        vm.prank(keeper1);
        assertEq(perp.claimKeeperBounty(), FEE);
        vm.prank(keeper1);
        vm.expectRevert(abi.encodeWithSelector(IPerpMarketErrors.PerpNothingToSettle.selector, keeper1));
        perp.claimKeeperBounty();
        assertEq(perp.keeperBountyOf(keeper2), FEE);
        assertEq(perp.marketState().keeperOwedUsdc, FEE);
        assertEq(perp.marketState().orderFeesUsdc, 0);
    }

    /// A cancelled order's fee leaves Σ order fees exactly once: a second cancel and an execution after it revert
    /// with DelayedOrderAlreadyDone; a new order of the same account holds exactly one fee again.
    function test_cancelledOrderFee_releasedOnce() public {
        _commit(alice, 100e18, 0);
        uint256 pt2 = _commit(bob, 100e18, 0);
        vm.warp(perp.pendingOrder(alice).expiresAt + 1);
        vm.prank(keeper1);
        perp.cancelOrder(alice);
        assertEq(perp.marketState().orderFeesUsdc, FEE, "bob's fee still held");
        vm.prank(keeper2);
        vm.expectRevert(abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderAlreadyDone.selector, alice));
        perp.cancelOrder(alice);
        uint80 roundId = index.roundAt(pt2);
        vm.prank(keeper2);
        vm.expectRevert(abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderAlreadyDone.selector, alice));
        perp.executeOrder(alice, roundId);
        assertEq(perp.marketState().orderFeesUsdc, FEE);
        assertEq(perp.keeperBountyOf(keeper1), FEE);
        assertEq(perp.keeperBountyOf(keeper2), 0);
        _commit(alice, 100e18, 0);
        assertEq(perp.marketState().orderFeesUsdc, 2 * FEE);
    }
}
