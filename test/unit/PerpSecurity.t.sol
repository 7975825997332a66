// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../helpers/PerpSolBase.sol";
import {PerpOrderSteps} from "../helpers/PerpOrderSteps.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {ILiquidityVault} from "../../contracts/interfaces/markets/ILiquidityVault.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IPerpMarket, IPerpMarketErrors} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {IDelayedOrders, IDelayedOrderErrors} from "../../contracts/interfaces/markets/IDelayedOrders.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IComputePriceOracleErrors} from "../../contracts/interfaces/oracle/IComputePriceOracleErrors.sol";

/// @notice PerpMarket security regressions (issue 17): LP equity and open-skew premium (item 2), unsettled funding in
///         margin (item 11), delayed orders against oracle front-running (item 15).
contract PerpSecurityTest is PerpSolBase {
    address internal victim = makeAddr("victimLp");
    address internal attacker = makeAddr("attackerLp");
    address[5] internal accounts;

    function setUp() public {
        _deployPerps();
        _setRole(address(vault), ILiquidityVault.allocate.selector, Roles.KEEPER);
        _grant(Roles.KEEPER, address(this));
        _setupGuarantor(guarantor, false, 1_000_000e6);
        for (uint256 i; i < 5; ++i) {
            accounts[i] = makeAddr(string.concat("attackerTrader", vm.toString(i)));
            _setupTrader(accounts[i], guarantor, 20_000e6);
        }
    }

    function _lpDeposit(address lp, uint256 amountUsdc) internal returns (uint256 shares) {
        _mintUsdc(lp, amountUsdc);
        vm.startPrank(lp);
        usdcApprove(address(vault), amountUsdc);
        shares = vault.deposit(amountUsdc, lp);
        vm.stopPrank();
    }

    function _trade(address account, int256 sizeCh) internal {
        PerpOrderSteps.mustTrade(perp, account, sizeCh);
    }

    /// Issue 17 item 2: a 50 % LP opens skew-increasing positions (their premium counted as LP equity at the index),
    /// redeems at the inflated share price, then closes (the premium comes back). The other LP must not pay for it.
    function test_lpOpensSkewRedeemsCloses_cannotTakeOtherLpsValue() public {
        _lpDeposit(victim, 500_000e6);
        uint256 attackerShares = _lpDeposit(attacker, 500_000e6);
        vault.allocate(address(perp), 300_000e6);
        uint256 victimBefore = vault.convertToAssets(vault.balanceOf(victim));
        int256 tradersBefore;
        for (uint256 i; i < 5; ++i) tradersBefore += chouse.collateralOf(accounts[i]);

        for (uint256 i; i < 5; ++i) _trade(accounts[i], 10_000e18); // skew 0 → 50,000: 2.5 % average premium
        vm.prank(attacker);
        uint256 redeemed = vault.redeem(attackerShares, attacker, attacker);
        for (uint256 i; i < 5; ++i) _trade(accounts[i], -10_000e18);

        int256 tradersAfter;
        for (uint256 i; i < 5; ++i) tradersAfter += chouse.collateralOf(accounts[i]);
        int256 attackerGain = int256(redeemed) - 500_000e6 + tradersAfter - tradersBefore;
        assertLe(attackerGain, 0, "the round trip must not pay");
        assertGe(vault.convertToAssets(vault.balanceOf(victim)), victimBefore, "the other LP keeps its value");
    }
    /// @dev accountRisk through a low-level call (so the scenario also runs against a market without the hook).
    function _accountRisk(address account) internal view returns (bool ok, int256 equityAdj, uint256 im, uint256 mm) {
        bytes memory ret;
        (ok, ret) = address(perp).staticcall(
            abi.encodeWithSignature("accountRisk(address,uint256)", account, index.priceWad())
        );
        if (ok) (equityAdj, im, mm) = abi.decode(ret, (int256, uint256, uint256));
    }

    /// Issue 17 item 11 (market side): an account opened at its initial margin accrues funding it has not settled;
    /// the ClearingHouse asks the market (IMarketAccountRisk) and must see that debt in the account's equity.
    function test_accountAtInitialMargin_accruesFunding_accountRiskShowsTheDebt() public {
        address trader = makeAddr("atInitialMargin");
        _setupTrader(trader, guarantor, 1_011e6);
        _lpDeposit(victim, 500_000e6);
        vault.allocate(address(perp), 300_000e6);
        // 1,000 CH long at 10.005: IM 10 % of 10,000 = 1,000; equity after the 5 USDC fee and 5 of impact ≈ 1,001
        _trade(trader, 1_000e18); // the only skew: longs pay funding
        vm.warp(block.timestamp + 30 days);
        int256 owed = perp.fundingOwedUsdc(trader);
        assertGt(owed, 0);
        (bool ok, int256 equityAdj, uint256 im, uint256 mm) = _accountRisk(trader);
        assertTrue(ok, "PerpMarket implements IMarketAccountRisk");
        assertEq(equityAdj, -owed);
        // the debt is what takes the account below its initial margin: the ClearingHouse adds it (sec-mkt wiring)
        IClearingHouse.MarginState memory m = chouse.marginState(trader);
        assertLt(m.equityUsdc + equityAdj, int256(m.initialMarginUsdc));
        assertEq(im, 0);
        assertEq(mm, 0);
        // an account that holds nothing: no adjustment, no revert
        (ok, equityAdj, im, mm) = _accountRisk(makeAddr("nobody"));
        assertTrue(ok);
        assertEq(equityAdj, 0);
    }

    // ───────────────────────────── item 15: delayed orders ─────────────────────────────

    address internal executor = makeAddr("executor");
    address internal executor2 = makeAddr("executor2");

    function _fund() internal {
        _lpDeposit(victim, 500_000e6);
        vault.allocate(address(perp), 300_000e6);
    }

    function _commit(address account, int256 sizeCh) internal returns (uint256 priceTime) {
        vm.prank(account);
        return perp.commitOrder(sizeCh, 0);
    }

    function _execute(address by, address account, uint256 priceTime) internal {
        uint80 roundId = index.roundAt(priceTime);
        vm.prank(by);
        perp.executeOrder(account, roundId);
    }

    /// Issue 17 item 15: the index update to 10.2 is visible before it lands; the trader commits a buy, the update
    /// lands, the order executes (at the round in force 30 s after the commit: 10.2), the trader closes. It must not
    /// pay (on the instant-fill market it earned 1,939 USDC).
    function test_knownNextPriceTrade_doesNotProfit() public {
        _fund();
        address t = accounts[0];
        int256 before = chouse.collateralOf(t);
        uint256 priceTime = _commit(t, 10_000e18);
        vm.warp(block.timestamp + 1);
        index.setPrice(10.2e18); // the pending update lands right after the commit
        vm.warp(priceTime + 1);
        _execute(executor, t, priceTime);
        assertEq(chouse.positionOf(t, address(perp)).openNotionalUsdc, 102_510e6); // 10,000 × 10.2 × 1.005
        vm.prank(t);
        priceTime = perp.closePosition(0);
        vm.warp(priceTime + 1);
        _execute(executor, t, priceTime);
        assertEq(chouse.positionOf(t, address(perp)).sizeCh, 0);
        assertLe(chouse.collateralOf(t), before, "trading ahead of a known index update must not pay");
    }

    /// The executor names the round, the oracle proves it: a later or an earlier round than the one in force at the
    /// price time reverts (the executor cannot choose the price either), the right one fills.
    function test_executeAtAnotherRound_reverts() public {
        _fund();
        address t = accounts[0];
        uint256 priceTime = _commit(t, 100e18);
        vm.warp(priceTime - 10);
        index.setPrice(10.1e18); // in force at the price time
        uint80 inForce = index.latestRoundId();
        vm.warp(priceTime + 5);
        index.setPrice(11e18); // after it
        vm.prank(executor);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleRoundNotInForce.selector,
                inForce + 1,
                priceTime + 5,
                priceTime
            )
        );
        perp.executeOrder(t, inForce + 1);
        vm.prank(executor);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleRoundNotInForce.selector,
                inForce - 1,
                priceTime - 10,
                priceTime
            )
        );
        perp.executeOrder(t, inForce - 1);
        vm.prank(executor);
        perp.executeOrder(t, inForce);
        assertEq(chouse.positionOf(t, address(perp)).sizeCh, 100e18);
        assertEq(chouse.positionOf(t, address(perp)).openNotionalUsdc, 1_010_050_500); // 100 × 10.1 × 1.00005
    }

    /// Nobody, the trader included, can cancel a committed order before its expiry; after it anyone can, for the fee.
    function test_traderCannotCancelCommittedOrderBeforeExpiry() public {
        _fund();
        address t = accounts[0];
        _commit(t, 100e18);
        IDelayedOrders.OrderView memory o = perp.pendingOrder(t);
        vm.prank(t);
        vm.expectRevert(abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderNotExpired.selector, t, o.expiresAt));
        perp.cancelOrder(t);
        // nor can it execute before the price time
        uint80 latest = index.latestRoundId();
        vm.prank(t);
        vm.expectRevert(abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderNotReady.selector, t, o.priceTime + 1));
        perp.executeOrder(t, latest);
        // nor commit a second order
        vm.prank(t);
        vm.expectRevert(abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderPending.selector, t, o.commitTime));
        perp.commitOrder(-100e18, 0);
        vm.warp(o.expiresAt + 1);
        vm.prank(executor);
        vm.expectRevert(abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderExpired.selector, t, o.expiresAt));
        perp.executeOrder(t, latest);
        bytes memory reason = abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderExpired.selector, t, o.expiresAt);
        vm.expectEmit(address(perp));
        emit IDelayedOrders.OrderCancelled(t, executor, 0.5e6, reason, 0);
        vm.prank(executor);
        perp.cancelOrder(t);
        assertEq(perp.keeperBountyOf(executor), 0.5e6); // a keeper credit (issue 18 item 4)
        assertEq(perp.marketState().pendingOrders, 0);
        vm.prank(executor2);
        vm.expectRevert(abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderAlreadyDone.selector, t));
        perp.cancelOrder(t);
    }

    /// Two executors race: one fills and is paid, the other gets DelayedOrderAlreadyDone (OPS-01).
    function test_twoExecutorsRace_oneFill() public {
        _fund();
        address t = accounts[0];
        uint256 priceTime = _commit(t, 100e18);
        vm.warp(priceTime + 1);
        _execute(executor, t, priceTime);
        uint80 roundId = index.roundAt(priceTime);
        vm.prank(executor2);
        vm.expectRevert(abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderAlreadyDone.selector, t));
        perp.executeOrder(t, roundId);
        assertEq(chouse.positionOf(t, address(perp)).sizeCh, 100e18);
        assertEq(perp.keeperBountyOf(executor), 0.5e6);
        assertEq(perp.keeperBountyOf(executor2), 0);
    }

    /// SEC-05: a close is committed and filled while new risk is paused, and even when the account's collateral
    /// cannot pay the execution fee (the fee is then what the collateral holds).
    function test_closesAlwaysPossible_pausedAndWithoutCollateralForTheFee() public {
        _fund();
        address t = makeAddr("thin");
        _setupTrader(t, guarantor, 1_100e6);
        PerpOrderSteps.mustTrade(perp, t, 1_000e18);
        _pause(address(perp), "perp.trade");
        vm.prank(t);
        vm.expectRevert(abi.encodeWithSignature("ChxFeaturePaused(bytes32)", keccak256("perp.trade")));
        perp.commitOrder(1e18, 0);
        // a reduction while paused realises a loss larger than the collateral
        index.setPrice(8.9e18);
        PerpOrderSteps.mustTrade(perp, t, -999e18);
        assertLt(chouse.collateralOf(t), 0);
        vm.prank(t);
        perp.closePosition(0);
        assertEq(perp.pendingOrder(t).feeUsdc, 0);
        IDelayedOrders.OrderView memory o = perp.pendingOrder(t);
        PerpOrderSteps.execute(perp, t, o.priceTime);
        assertEq(chouse.positionOf(t, address(perp)).sizeCh, 0);
    }

    /// A pause between commit and execution cancels the order with the reason; the executor is paid.
    function test_pausedAfterCommit_cancelsWithReason() public {
        _fund();
        address t = accounts[0];
        uint256 priceTime = _commit(t, 100e18);
        _pause(address(perp), "perp.trade");
        vm.warp(priceTime + 1);
        bytes memory reason = abi.encodeWithSignature("ChxFeaturePaused(bytes32)", keccak256("perp.trade"));
        vm.expectEmit(address(perp));
        emit IDelayedOrders.OrderCancelled(t, executor, 0.5e6, reason, 0);
        _execute(executor, t, priceTime);
        assertEq(chouse.positionOf(t, address(perp)).sizeCh, 0);
        assertEq(perp.keeperBountyOf(executor), 0.5e6);
    }

    /// An executor cannot starve the fill to turn it into a cancellation: too little gas reverts everything.
    function test_starvedExecution_revertsInsteadOfCancelling() public {
        _fund();
        address t = accounts[0];
        uint256 priceTime = _commit(t, 100e18);
        vm.warp(priceTime + 1);
        uint80 roundId = index.roundAt(priceTime);
        vm.prank(executor);
        (bool ok, bytes memory err) = address(perp).call{gas: 600_000}(
            abi.encodeCall(IPerpMarket.executeOrder, (t, roundId))
        );
        assertFalse(ok);
        assertEq(bytes4(err), IDelayedOrderErrors.DelayedOrderGasTooLow.selector);
        assertEq(perp.pendingOrder(t).commitTime, priceTime - 30); // still pending
        vm.expectRevert(abi.encodeWithSelector(IPerpMarketErrors.PerpOnlySelf.selector, address(this)));
        perp.fillOrder(t, 100e18, 0, 10e18, priceTime);
    }

    /// A risk-increasing order is checked at commit against the account's margin and holds its initial margin
    /// (accountRisk) until executed; a trader who withdraws meanwhile gets the order cancelled for margin.
    function test_commitChecksMargin_andOrderHoldsItsMargin() public {
        _fund();
        address poor = makeAddr("poor");
        _setupTrader(poor, guarantor, 100e6);
        vm.prank(poor);
        vm.expectRevert(abi.encodeWithSelector(IPerpMarketErrors.PerpInsufficientMargin.selector, poor, 200e6, 99.5e6));
        perp.commitOrder(200e18, 0); // 2,000 notional: IM 10 % = 200
        address broke = makeAddr("broke");
        _setupTrader(broke, guarantor, 0.1e6);
        vm.prank(broke);
        vm.expectRevert(
            abi.encodeWithSelector(IPerpMarketErrors.PerpInsufficientCollateral.selector, broke, 0.5e6, 0.1e6)
        );
        perp.commitOrder(1e18, 0);
        uint256 priceTime = _commit(poor, 90e18); // IM 90
        (, uint256 held, ) = perp.accountRisk(poor, 10e18);
        assertEq(held, 90e6);
        assertEq(perp.pendingOrder(poor).marginUsdc, 90e6);
        vm.prank(poor);
        chouse.withdraw(99e6, poor); // possible until the ClearingHouse counts accountRisk (sec-mkt)
        vm.warp(priceTime + 1);
        _execute(executor, poor, priceTime);
        assertEq(chouse.positionOf(poor, address(perp)).sizeCh, 0, "cancelled: the margin left");
        (, held, ) = perp.accountRisk(poor, 10e18);
        assertEq(held, 0);
    }

    /// The keepers' view: checker() (and checkUpkeep) return executeOrder at the round in force for a ready order,
    /// cancelOrder for an expired one, then the funding poke; performUpkeep runs each; the book is enumerable.
    function test_checkerDrivesOrders() public {
        _fund();
        address t = accounts[0];
        address u = accounts[1];
        uint256 pt = _commit(t, 100e18);
        _commit(u, -50e18);
        assertEq(perp.marketState().pendingOrders, 2);
        assertEq(perp.marketState().orderFeesUsdc, 1e6);
        assertEq(perp.pendingOrderAt(0), t);
        assertEq(perp.pendingOrderAt(1), u);
        (bool due, ) = perp.checker();
        assertFalse(due);
        vm.warp(pt + 1);
        bytes memory payload;
        (due, payload) = perp.checkUpkeep("");
        assertTrue(due);
        assertEq(payload, abi.encodeCall(IPerpMarket.executeOrder, (t, index.roundAt(pt))));
        vm.prank(executor);
        perp.performUpkeep(payload);
        assertEq(chouse.positionOf(t, address(perp)).sizeCh, 100e18);
        assertEq(perp.pendingOrderAt(0), u);
        vm.warp(pt + 301);
        (due, payload) = perp.checker();
        assertEq(payload, abi.encodeCall(IPerpMarket.cancelOrder, (u)));
        vm.prank(executor);
        perp.performUpkeep(payload);
        assertEq(perp.marketState().pendingOrders, 0);
        assertEq(perp.marketState().orderFeesUsdc, 0);
        assertEq(perp.keeperBountyOf(executor), 1e6);
        vm.warp(block.timestamp + 1 hours);
        (due, payload) = perp.checker();
        assertEq(payload, abi.encodeCall(IPerpMarket.pokeFunding, ()));
        vm.prank(executor);
        perp.performUpkeep(payload);
        assertEq(perp.keeperBountyOf(executor), 1e6 + 0.1e6);
    }

    /// A close order whose position was liquidated in full before its execution is cancelled (nothing left to
    /// close); liquidations never wait for orders.
    function test_closeOrderAfterFullLiquidation_cancelled() public {
        _fund();
        address t = makeAddr("levered");
        _setupTrader(t, guarantor, 1_100e6);
        PerpOrderSteps.mustTrade(perp, t, 1_000e18);
        vm.prank(t);
        uint256 priceTime = perp.closePosition(0);
        index.setPrice(8.8e18); // a loss beyond the collateral: the liquidation closes everything
        liq.liquidate(t);
        assertEq(perp.accountState(t).sizeCh, 0);
        vm.warp(priceTime + 1);
        bytes memory reason = abi.encodeWithSelector(IPerpMarketErrors.PerpNoPosition.selector, t);
        vm.expectEmit(address(perp));
        emit IDelayedOrders.OrderCancelled(t, executor, 0.5e6, reason, 0);
        _execute(executor, t, priceTime);
    }
}
