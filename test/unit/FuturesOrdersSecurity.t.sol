// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSolBase} from "../helpers/FuturesSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IFuturesTypes} from "../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../contracts/interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../contracts/interfaces/markets/IFuturesEvents.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {MockFuturesIndex} from "../../contracts/mocks/MockFuturesIndex.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {ILiquidityVault} from "../../contracts/interfaces/markets/ILiquidityVault.sol";
import {IFuturesMarket} from "../../contracts/interfaces/markets/IFuturesMarket.sol";
import {IDelayedOrders, IDelayedOrderErrors} from "../../contracts/interfaces/markets/IDelayedOrders.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IComputePriceOracleErrors} from "../../contracts/interfaces/oracle/IComputePriceOracleErrors.sol";
import {FuturesOrderSteps} from "../helpers/FuturesOrderSteps.sol";
import {FuturesSecuritySetup} from "./futures/FuturesSecuritySetup.sol";

/// @notice Regression tests of the futures items of the security review (issue 17 items 23, 12, 15, 2), each named
///         after the attack it replays: the settlement-price mark after expiry, the per-market pause, delayed orders
///         against the vault, and the LP vault's equity. Setup: FuturesSecuritySetup.
contract FuturesOrdersSecurityTest is FuturesSecuritySetup {
    // item 23: after expiry, marked at the settlement price once fixed; item 12: the ClearingHouse's per-market pause
    // over the futures market (SEC-05); item 15: trades against the vault are delayed orders
    /// Once its settlement price was fixed, an expired long was still marked and liquidated at the moving index: a
    /// fall after the fix made it liquidatable and the liquidation realised the loss at 7 although the leg settles at
    /// 10. It is now marked at the settlement price.
    function test_afterPriceFix_notLiquidatedAtMovingIndex() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 150e6);
        _trade(carol, id, 100e18); // IM 100 at 10
        _fixedThenIndexFalls(); // at 7: −300 on 150 of margin, but the leg settles at 10
        (bool liquidatable, int256 equity, ) = liq.isLiquidatable(carol);
        assertFalse(liquidatable, "marked at the moving index after the price fix");
        assertGt(equity, 140e6);
        vm.prank(keeper);
        vm.expectRevert();
        liq.liquidate(carol);
        vm.warp(block.timestamp + 1 hours);
        futures.finalizeSettlement(id);
        int256 before = chouse.collateralOf(carol);
        vm.prank(carol);
        futures.settlePosition(id, carol);
        assertEq(chouse.collateralOf(carol), before, "settled at 10 where it was marked");
    }

    /// When such an account is liquidatable anyway (a loss elsewhere), the price-fixed leg the liquidation closes at
    /// the index is corrected to its settlement price: the difference is owed to (or by) the account, counted in its
    /// equity at once and paid at its settlement.
    function test_afterPriceFix_liquidatedLegCorrectedToSettlementPrice() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 150e6);
        _trade(carol, id, 100e18);
        _fixedThenIndexFalls();
        market.settleFunding(carol, -120e6); // equity at the settlement price ≈ 30 < MM 35 (on the net at 7)
        int256 equityBefore = chouse.marginState(carol).equityUsdc;
        vm.prank(keeper);
        liq.liquidate(carol);
        // the closed part realised at 7 in the ClearingHouse; its (10 − 7) per CH is owed back to carol, so her
        // equity lost nothing but the liquidation bounty (none here: her collateral is negative until the
        // correction is paid, LIQ-04)
        assertLt(chouse.positionOf(carol, address(futures)).sizeCh, 100e18);
        IClearingHouse.MarginState memory m = chouse.marginState(carol);
        int256 bounty = int256(usdc.balanceOf(keeper));
        assertApproxEqAbs(m.equityUsdc, equityBefore - bounty, 5, "closed at the index, not at the settlement price");
        vm.warp(block.timestamp + 1 hours);
        futures.finalizeSettlement(id);
        vm.prank(carol);
        futures.settlePosition(id, carol);
        assertGe(chouse.collateralOf(carol), 0);
        assertApproxEqAbs(chouse.collateralOf(carol), m.equityUsdc, 5, "the correction was not paid at settlement");
    }

    /// Worked numbers once the price is fixed at 12 and then finalised: alice's held payment is 100 × 12 (all of her
    /// election is deliverable), bob's bond the penalty on his unescrowed assignment, 100 × 12 × 10 %; both marked at
    /// 12 whatever the index does.
    function test_paymentAndBond_atTheFixedPrice_workedNumbers() public {
        _trade(alice, id, 100e18);
        _trade(bob, id, -100e18);
        vm.prank(alice);
        futures.electDelivery(id, 100e18);
        vm.warp(expiry - 1 hours); // the settlement price is the index TWAP over the hour before expiry: 12
        _setPrice(12e18);
        vm.warp(expiry);
        futures.fixSettlementPrice(id);
        _setPrice(11e18); // the index moves on; the marks do not
        IClearingHouse.MarginState memory a = chouse.marginState(alice);
        IClearingHouse.MarginState memory b = chouse.marginState(bob);
        assertEq(b.initialMarginUsdc - b.maintenanceMarginUsdc, 55e6); // net margin at 11: IM 110 − MM 55
        assertEq(b.maintenanceMarginUsdc, 55e6 + 120e6); // + bond 120 at 12
        vm.warp(block.timestamp + 1 hours);
        futures.finalizeSettlement(id);
        IClearingHouse.MarginState memory a2 = chouse.marginState(alice);
        assertEq(a2.unrealisedPnlUsdc, a.unrealisedPnlUsdc); // share = all 100 CH: the payment did not change
        // alice: position marked at 12 (the CH marks at 11, +100 back), payment 1,200 held
        int256 cost = chouse.positionOf(alice, address(futures)).openNotionalUsdc;
        assertEq(a2.unrealisedPnlUsdc, 1_200e6 - cost - 1_200e6);
    }

    /// A liquidation closing pairs of live legs never takes a price-fixed leg for one: it is only reduced for the net.
    function test_liquidation_spreadBesideFixedLeg_pairsStayLive() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 1_000e6);
        uint256 far = futures.listSeries(uint64(expiry + 30 days), 1_000_000e18);
        uint256 far2 = futures.listSeries(uint64(expiry + 60 days), 1_000_000e18);
        _trade(carol, id, 50e18);
        _trade(carol, far, 100e18);
        _trade(carol, far2, -100e18);
        vm.warp(expiry);
        futures.fixSettlementPrice(id);
        market.settleFunding(carol, -930e6); // equity ≈ 60 < MM 25 (net) + 50 (spread)
        vm.prank(keeper);
        liq.liquidate(carol);
        int256 fixedLeg = futures.positionOf(id, carol).sizeCh;
        int256 farLeg = futures.positionOf(far, carol).sizeCh;
        int256 far2Leg = futures.positionOf(far2, carol).sizeCh;
        // the net reduction took the live long first and the pairs came from the live legs only: the price-fixed
        // leg is untouched; the ClearingHouse position is still the sum of the legs
        assertEq(fixedLeg, 50e18);
        assertEq(chouse.positionOf(carol, address(futures)).sizeCh, fixedLeg + farLeg + far2Leg);
        assertLt(farLeg, 100e18);
        assertGt(far2Leg, -100e18);
    }

    // ───────────── item 12: the ClearingHouse's per-market pause over the futures market (SEC-05) ─────────────

    /// With the futures market paused in the ClearingHouse, new positions are refused while closes and every
    /// settlement step (the delivery's cash flows included) still run.
    function test_marketPause_futuresClosesAndSettlementsStayOpen_SEC05() public {
        _trade(alice, id, 100e18);
        _trade(bob, id, -100e18);
        vm.prank(alice);
        futures.electDelivery(id, 100e18);
        bytes32 feature = keccak256(abi.encode(keccak256("clearing.market"), address(futures)));
        IChxModule(address(chouse)).pauseFeature(feature);
        (bool ok, bytes memory why) = FuturesOrderSteps.trade(futures, alice, id, 1e18, 0);
        assertFalse(ok, "new risk is refused at execution");
        assertEq(why, abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, feature));
        _trade(bob, id, 10e18); // bob reduces his short
        _finalise();
        vm.warp(block.timestamp + 1 days);
        futures.settlePosition(id, bob); // undelivered: the penalty cash flow settles
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(futures.seriesInfo(id).openPositions, 0);
    }

    /// The index update to 10.2 is visible before it lands; alice commits a 500 CH buy, the update lands, the order
    /// executes at the round in force 30 s after the commit (10.2, not 10), alice closes. On the instant-fill market
    /// she bought at 10 and sold at 10.2: the same round trip earned 95.03 USDC. Now it must not pay.
    function test_knownNextPriceTrade_doesNotProfit() public {
        int256 before = chouse.collateralOf(alice);
        uint256 priceTime = _commit(alice, 500e18);
        vm.warp(block.timestamp + 1);
        _setPrice(10.2e18); // the pending update lands right after the commit
        _execute(alice, priceTime);
        assertEq(futures.positionOf(id, alice).sizeCh, 500e18);
        // the ClearingHouse position is at the round's index, 500 × 10.2
        assertEq(chouse.positionOf(alice, address(futures)).openNotionalUsdc, 5_100e6);
        vm.prank(alice);
        priceTime = futures.closePosition(id, 0);
        _execute(alice, priceTime);
        assertEq(futures.positionOf(id, alice).sizeCh, 0);
        assertLe(chouse.collateralOf(alice), before, "trading ahead of a known index update must not pay");
    }

    /// The executor names the round, the oracle proves it: a later or an earlier round than the one in force at the
    /// price time reverts (neither the executor nor the trader chooses the price); the right one fills.
    function test_executeAtAnotherRound_reverts_OracleRoundNotInForce() public {
        uint256 priceTime = _commit(alice, 100e18);
        vm.warp(priceTime - 10);
        _setPrice(10.1e18); // in force at the price time
        uint80 inForce = fIndex.latestRoundId();
        vm.warp(priceTime + 5);
        _setPrice(11e18); // after it
        vm.prank(executor);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleRoundNotInForce.selector,
                inForce + 1,
                priceTime + 5,
                priceTime
            )
        );
        futures.executeOrder(alice, id, inForce + 1);
        vm.prank(executor);
        vm.expectRevert(
            abi.encodeWithSelector(
                IComputePriceOracleErrors.OracleRoundNotInForce.selector,
                inForce - 1,
                priceTime - 10,
                priceTime
            )
        );
        futures.executeOrder(alice, id, inForce - 1);
        vm.prank(executor);
        futures.executeOrder(alice, id, inForce);
        assertEq(chouse.positionOf(alice, address(futures)).openNotionalUsdc, 1_010e6); // 100 × 10.1
    }

    /// Commit, then withdraw the margin the order needs: the order's initial margin is escrowed from commit to
    /// execution (and shown in accountRisk), so the ClearingHouse refuses the withdrawal; the order then fills.
    function test_commitThenWithdraw_cannotWithdrawTheOrdersMargin() public {
        address poor = makeAddr("poor");
        _setupTrader(poor, guarantor, 1_000e6);
        vm.prank(poor);
        vm.expectRevert(
            abi.encodeWithSelector(
                IFuturesErrors.FuturesInsufficientCollateral.selector,
                poor,
                1_010.5e6,
                int256(1_000e6)
            )
        );
        futures.commitOrder(id, 1_010e18, 0); // 10,100 notional: IM 10 % = 1,010, + the fee
        uint256 priceTime = _commit(poor, 900e18); // IM 900
        (, uint256 held, ) = IMarketAccountRiskView(address(futures)).accountRisk(poor, 10e18);
        assertEq(held, 900e6);
        assertEq(futures.pendingOrder(id, poor).marginUsdc, 900e6);
        // escrowed: an account without a futures position is not one the ClearingHouse asks this market about
        assertEq(chouse.collateralOf(poor), 99.5e6);
        vm.prank(poor);
        vm.expectRevert();
        chouse.withdraw(100e6, poor); // 1,000 − fee 0.5 − margin 900 leaves 99.5
        vm.prank(poor);
        chouse.withdraw(50e6, poor);
        _execute(poor, priceTime);
        assertEq(futures.positionOf(id, poor).sizeCh, 900e18, "the held margin backs the fill");
        (, held, ) = IMarketAccountRiskView(address(futures)).accountRisk(poor, 10e18);
        assertEq(held, 0);
        // collateral for 50 CH more, but not the margin: the account already uses 900 of its ≈ 931 equity
        vm.prank(poor);
        try futures.commitOrder(id, 50e18, 0) {
            fail();
        } catch (bytes memory err) {
            assertEq(bytes4(err), IFuturesErrors.FuturesInsufficientMargin.selector);
        }
    }

    /// The trade pause lands between commit and execution: the risk-increasing order is cancelled with the pause's
    /// reason (the executor is still paid), a close committed under the pause fills.
    function test_pausedAfterCommit_cancelsWithReason_closesStillFill() public {
        _trade(bob, id, -50e18);
        uint256 priceTime = _commit(alice, 100e18);
        bytes32 feature = keccak256("futures.trade");
        IChxModule(address(futures)).pauseFeature(feature);
        (bool ok, bytes memory why) = FuturesOrderSteps.execute(futures, alice, id, priceTime);
        assertFalse(ok);
        assertEq(why, abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, feature));
        assertEq(futures.positionOf(id, alice).sizeCh, 0);
        assertEq(chouse.collateralOf(address(this)), 1e6, "paid for bob's fill and alice's cancellation");
        FuturesOrderSteps.mustClose(futures, bob, id);
        assertEq(futures.positionOf(id, bob).sizeCh, 0);
        (uint256 n, uint256 fees) = futures.pendingOrders();
        assertEq(n + fees, 0);
    }

    /// Nobody, the trader included, cancels before the expiry; after it a keeper finds the cancellation in
    /// `checker()` and is paid the fee; a ready order is found the same way, at the round in force.
    function test_orderLeftToExpire_cancelledByKeeper_paidTheFee() public {
        uint256 pt = _commit(alice, 100e18);
        _commit(bob, -50e18);
        (bool due, ) = futures.checker();
        assertFalse(due);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderNotExpired.selector, alice, pt - 30 + 300)
        );
        futures.cancelOrder(alice, id);
        vm.warp(pt + 1);
        bytes memory payload;
        (due, payload) = futures.checkUpkeep("");
        assertTrue(due);
        assertEq(payload, abi.encodeCall(IFuturesMarket.executeOrder, (alice, id, fIndex.roundAt(pt))));
        vm.prank(executor);
        futures.performUpkeep(payload);
        assertEq(futures.positionOf(id, alice).sizeCh, 100e18);
        vm.warp(pt - 30 + 301);
        (due, payload) = futures.checker();
        assertEq(payload, abi.encodeCall(IFuturesMarket.cancelOrder, (bob, id)));
        vm.prank(executor);
        futures.performUpkeep(payload);
        assertEq(futures.positionOf(id, bob).sizeCh, 0);
        (uint256 n, uint256 fees) = futures.pendingOrders();
        assertEq(n + fees, 0);
        assertEq(chouse.collateralOf(executor), 1e6, "two fees of 0.5");
        vm.expectRevert(abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderAlreadyDone.selector, bob));
        futures.cancelOrder(bob, id);
    }

    /// The LPs' equity never counts the fees pending orders hold, and an order cannot be committed too close to
    /// expiry to be executed before it.
    function test_orderFeesAreNotLpEquity_andNoOrderPastExpiry() public {
        int256 equity = futures.vaultEquityUsdc();
        _commit(alice, 100e18);
        assertEq(futures.vaultEquityUsdc(), equity, "the fee is the executor's");
        vm.warp(expiry - 31);
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesOrderPastExpiry.selector, id, expiry, expiry));
        futures.commitOrder(id, 1e18, 0);
    }

    /// SEC-05: a close is committed and filled even when the account's collateral cannot pay the execution fee (the
    /// fee is what the collateral holds); a risk-increasing order whose fee and margin the collateral cannot escrow
    /// is refused at commit.
    function test_closeWithoutCollateralForTheFee_fillsAndNewRiskNeedsCollateral() public {
        address thin = makeAddr("thin");
        _setupTrader(thin, guarantor, 120e6);
        _trade(thin, id, 100e18); // IM 100 escrowed, then back at the fill
        _setPrice(8.7e18); // −130: more than the collateral once realised
        FuturesOrderSteps.mustTrade(futures, thin, id, -99e18);
        assertLt(chouse.collateralOf(thin), 0.5e6);
        vm.prank(thin);
        futures.closePosition(id, 0);
        IDelayedOrders.OrderView memory o = futures.pendingOrder(id, thin);
        assertLt(o.feeUsdc, 0.5e6, "the fee is capped at the collateral");
        FuturesOrderSteps.execute(futures, thin, id, o.priceTime);
        assertEq(futures.positionOf(id, thin).sizeCh, 0);
        address broke = makeAddr("broke");
        _setupTrader(broke, guarantor, 0.1e6);
        vm.prank(broke);
        vm.expectRevert(
            abi.encodeWithSelector(IFuturesErrors.FuturesInsufficientCollateral.selector, broke, 1.37e6, int256(0.1e6))
        );
        futures.commitOrder(id, 1e18, 0); // fee 0.5 + IM 10 % of 8.7
    }

    /// An executor cannot starve the fill to turn it into a cancellation: too little gas reverts everything; the fill
    /// is the market's own (FuturesOnlySelf); bad order parameters are refused.
    function test_starvedExecution_revertsInsteadOfCancelling() public {
        uint256 priceTime = _commit(alice, 100e18);
        vm.warp(priceTime + 1);
        uint80 roundId = fIndex.roundAt(priceTime);
        vm.prank(executor);
        (bool ok, bytes memory err) = address(futures).call{gas: 600_000}(
            abi.encodeCall(IFuturesMarket.executeOrder, (alice, id, roundId))
        );
        assertFalse(ok);
        assertEq(bytes4(err), IDelayedOrderErrors.DelayedOrderGasTooLow.selector);
        assertEq(futures.pendingOrder(id, alice).commitTime, priceTime - 30); // still pending
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesOnlySelf.selector, address(this)));
        futures.fillDelayed(alice, id, 100e18, 0, 10e18, priceTime);
        IFuturesTypes.Params memory p = _params();
        p.maxOrderDelaySec = p.minOrderDelaySec;
        vm.expectRevert(IFuturesErrors.FuturesInvalidParams.selector);
        futures.setParams(p);
        p = _params();
        p.executionFeeUsdc = 50e6 + 1;
        vm.expectRevert(IFuturesErrors.FuturesInvalidParams.selector);
        futures.setParams(p);
    }

    /// A short whose escrowed CH backed a leg that a liquidation then closed in full before expiry (a spread closed
    /// whole, item 3) kept its escrow in the market: the record stayed open and settlement zeroed the escrow without
    /// paying it back. Settlement now returns it (found by the deep Futures invariant run, MKT-05 "CH held = escrow").
    function test_shortLiquidatedToZeroBeforeExpiry_getsEscrowBackAtSettlement() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 140e6);
        _calendarSpread(carol); // short 100 of the near series, long 100 of the far one
        _mintCh(carol, 30e18);
        vm.startPrank(carol);
        chToken.approve(address(futures), 30e18);
        futures.deliver(id, 30e18);
        vm.stopPrank();
        market.settleFunding(carol, -100e6); // equity ≈ 38 < MM 50: the spread is closed whole (Δ = 0)
        vm.prank(keeper);
        liq.liquidate(carol);
        assertEq(futures.positionOf(id, carol).sizeCh, 0);
        assertEq(futures.positionOf(id, carol).escrowCh, 30e18);
        _finalise();
        futures.settlePosition(id, carol);
        assertEq(chToken.balanceOf(carol), 30e18, "escrow not returned");
        assertEq(chToken.balanceOf(address(futures)), 0);
    }
}

/// @notice Issue 17 item 2 on the futures side: the LP vault's equity must not count the skew premium traders paid
///         into the pool while closing the skew would pay it back. A real LiquidityVault, two LPs, five traders.
contract FuturesLpSecurityTest is FuturesSolBase {
    ILiquidityVault internal lpVault;
    address internal victim = makeAddr("victimLp");
    address internal attacker = makeAddr("attackerLp");
    address[5] internal traders;
    uint256 internal id;

    function setUp() public {
        _deployFuturesMarket();
        lpVault = ILiquidityVault(
            _proxy(
                deployCode("LiquidityVault.sol:LiquidityVault"),
                abi.encodeWithSignature(
                    "initialize(address,address,string,string,uint256,uint32)",
                    address(manager),
                    address(usdc),
                    "CHX LP",
                    "chxLP",
                    1e15,
                    uint32(0)
                )
            )
        );
        futures.setVault(address(lpVault));
        lpVault.addMarket(address(futures));
        _setRole(address(lpVault), ILiquidityVault.allocate.selector, Roles.KEEPER);
        _grant(Roles.KEEPER, address(this));
        _setupGuarantor(guarantor, false, 1_000_000e6);
        for (uint256 i; i < 5; ++i) {
            traders[i] = makeAddr(string.concat("skewTrader", vm.toString(i)));
            _setupTrader(traders[i], guarantor, 20_000e6);
        }
        // 60 days out: the premium is at its full skew value (30-day horizon)
        id = futures.listSeries(uint64(block.timestamp + 60 days), 1_000_000e18);
    }

    function _lpDeposit(address lp, uint256 amountUsdc) internal returns (uint256 shares) {
        _mintUsdc(lp, amountUsdc);
        vm.startPrank(lp);
        usdcApprove(address(lpVault), amountUsdc);
        shares = lpVault.deposit(amountUsdc, lp);
        vm.stopPrank();
    }

    function _trade(address who, int256 size) internal {
        FuturesOrderSteps.mustTrade(futures, who, id, size);
    }

    /// A 50 % LP's traders open 10,000 CH of long skew (mid premium up to 5 %: ≈ 5,000 USDC of premium into the
    /// pool), the LP redeems at the share price that counted that premium, the traders close (the premium comes
    /// back). On the old valuation the LP took ≈ 2,400 USDC of the other LP's value; now the round trip must not pay.
    function test_lpOpensFuturesSkewRedeemsCloses_cannotTakeOtherLpsValue() public {
        _lpDeposit(victim, 500_000e6);
        uint256 attackerShares = _lpDeposit(attacker, 500_000e6);
        lpVault.allocate(address(futures), 300_000e6);
        uint256 victimBefore = lpVault.convertToAssets(lpVault.balanceOf(victim));
        int256 tradersBefore;
        for (uint256 i; i < 5; ++i) tradersBefore += chouse.collateralOf(traders[i]);

        for (uint256 i; i < 5; ++i) _trade(traders[i], 2_000e18);
        (uint256 quoted, , ) = futures.quote(id, 1e18);
        assertGt(quoted, 10.5e18, "the skew carries a premium");
        vm.prank(attacker);
        uint256 redeemed = lpVault.redeem(attackerShares, attacker, attacker);
        for (uint256 i; i < 5; ++i) _trade(traders[i], -2_000e18);

        int256 tradersAfter;
        for (uint256 i; i < 5; ++i) tradersAfter += chouse.collateralOf(traders[i]);
        int256 attackerGain = int256(redeemed) - 500_000e6 + tradersAfter - tradersBefore;
        assertLe(attackerGain, 0, "the round trip must not pay");
        assertGe(lpVault.convertToAssets(lpVault.balanceOf(victim)), victimBefore, "the other LP keeps its value");
    }
}

interface IMarketAccountRiskView {
    function accountRisk(address account, uint256 priceWad) external view returns (int256, uint256, uint256);
}
