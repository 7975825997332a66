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
import {FuturesOrderSteps} from "../helpers/FuturesOrderSteps.sol";
import {FuturesSecuritySetup} from "./futures/FuturesSecuritySetup.sol";

/// @notice Regression tests of the futures items of the security review (issue 17 items 24, 1, 3), each named
///         after the attack it replays (items 23, 12 and 15: FuturesOrdersSecurity.t.sol). Setup: FuturesSecuritySetup.
contract FuturesSecurityTest is FuturesSecuritySetup {
    // item 24: elections read the gated price (ORC-01); item 1: the delivery payment is held from election to
    // settlement (MKT-08); item 3: every series and every delivery obligation is margined (MKT-05)
    // ───────────── item 24: elections read the gated price (ORC-01) ─────────────

    /// Raising a delivery election commits the account to a payment: a risk-increasing action, refused while the
    /// oracle gates new risk (sequencer grace period, spot deviation, risk pause), as trades are.
    function test_electDelivery_whileNewRiskGated_reverts_ORC01() public {
        _trade(alice, id, 10e18);
        fIndex.setRiskBlocked(true);
        vm.prank(alice);
        vm.expectRevert(MockFuturesIndex.MockRiskBlocked.selector);
        futures.electDelivery(id, 5e18);
        // lowering an election takes risk off and stays open
        fIndex.setRiskBlocked(false);
        vm.prank(alice);
        futures.electDelivery(id, 5e18);
        fIndex.setRiskBlocked(true);
        vm.prank(alice);
        futures.electDelivery(id, 2e18);
        assertEq(futures.positionOf(id, alice).electedCh, 2e18);
    }

    /// The election was margined only when made: the long then withdrew down to initial margin, received the CH at
    /// settlement and left the payment as bad debt. The payment now stays in its margin until settlement.
    function test_electThenWithdraw_cannotLeaveBadDebt() public {
        uint256 capitalBefore = pool.guarantorInfo(guarantor).capitalUsdc;
        _deliveringPair();
        uint256 free = _free(alice);
        vm.prank(alice);
        chouse.withdraw(free, alice); // everything the margin check lets go
        _finalise();
        futures.settlePosition(id, bob);
        futures.settlePosition(id, alice);
        assertEq(chToken.balanceOf(alice), 100e18);
        _assertNoBadDebt(capitalBefore);
    }

    /// The same after the price rises: the payment grows with the price, the long's gain does not cover a withdrawal
    /// of it.
    function test_electThenPriceMoveThenWithdraw_cannotLeaveBadDebt() public {
        uint256 capitalBefore = pool.guarantorInfo(guarantor).capitalUsdc;
        _deliveringPair();
        _setPrice(15e18); // payment 1,500; alice's long gains 500
        uint256 free = _free(alice);
        vm.prank(alice);
        chouse.withdraw(free, alice);
        _finalise();
        futures.settlePosition(id, bob);
        futures.settlePosition(id, alice);
        assertEq(chToken.balanceOf(alice), 100e18);
        _assertNoBadDebt(capitalBefore);
    }

    /// A long whose collateral a loss elsewhere drained after the last margin check gets CH only for what it paid; the
    /// rest of its CH goes to the vault whose pool paid the short, and no deficit is created (MKT-08).
    function test_settleLong_handsOverOnlyPaidCh_MKT08() public {
        _deliveringPair();
        _finalise();
        futures.settlePosition(id, bob);
        int256 drained = chouse.collateralOf(alice) - 400e6;
        market.settleFunding(alice, -drained); // a realised loss in another market: 400 left for a 1,000 payment
        vm.expectEmit(address(futures));
        emit IFuturesEvents.DeliveryForfeited(id, alice, 60e18, 600e6, address(vault));
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(chToken.balanceOf(alice), 40e18);
        assertEq(chToken.balanceOf(address(vault)), 60e18);
        assertEq(chouse.collateralOf(alice), 0);
        IFuturesTypes.Series memory ser = futures.seriesInfo(id);
        assertEq(ser.deliveredCh, ser.receivedCh); // MKT-05: the forfeited CH left the delivery pot too
    }

    /// After the cut-off a liquidation still caps the election to what is left of the long (until finalisation): the
    /// payment it holds shrinks with the position, so the liquidation restores health.
    function test_liquidationAfterCutoff_capsElectionAndItsPayment() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 1_300e6);
        _trade(carol, id, 100e18); // IM 100, payment 1,000 once elected
        vm.prank(carol);
        futures.electDelivery(id, 100e18);
        vm.warp(expiry - 30 minutes); // past the one-hour cut-off
        _setPrice(3e18); // loss ≈ 700, payment 300: equity ≈ 1,300 − 700 − 300 = 300 > MM 15 (the payment fell too)
        IClearingHouse.MarginState memory m = chouse.marginState(carol);
        assertGt(m.equityUsdc, int256(m.maintenanceMarginUsdc));
        market.settleFunding(carol, -290e6); // a loss elsewhere: equity ≈ 10 < MM 15
        vm.prank(keeper);
        liq.liquidate(carol);
        IFuturesTypes.Position memory p = futures.positionOf(id, carol);
        assertEq(p.electedCh, uint256(int256(p.sizeCh)), "election not capped after the cut-off");
        assertEq(futures.seriesInfo(id).electedCh, p.electedCh);
        m = chouse.marginState(carol);
        assertGe(m.equityUsdc, int256(m.maintenanceMarginUsdc));
    }

    /// A long-far/short-near spread netted to zero in the ClearingHouse and carried no margin: its owner withdrew
    /// everything, was assigned delivery on the near leg, failed, and the penalty became bad debt (LIQ-03 layers
    /// paid). Each leg and each delivery obligation is now margined, so the withdrawal keeps enough for the penalty.
    function test_calendarSpreadNetsToZero_withdrawAll_assignmentFails_noBadDebt() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 2_000e6);
        _calendarSpread(carol);
        _trade(alice, id, 100e18);
        vm.prank(alice);
        futures.electDelivery(id, 100e18); // carol's near short is now assignable
        uint256 free = _free(carol);
        vm.prank(carol);
        chouse.withdraw(free, carol); // everything the margin check lets go
        uint256 capitalBefore = pool.guarantorInfo(guarantor).capitalUsdc;
        _finalise();
        vm.warp(block.timestamp + 1 days); // the delivery deadline passes: carol delivered nothing
        futures.settlePosition(id, carol);
        futures.settlePosition(id, alice);
        assertGe(chouse.collateralOf(carol), 0, "the failed delivery left bad debt");
        vm.prank(keeper);
        try liq.liquidate(carol) {} catch {}
        assertEq(pool.guarantorInfo(guarantor).capitalUsdc, capitalBefore, "the guarantor paid for the spread");
    }

    /// Only the penalty is charged to a short that does not deliver; its long gets the price back (it pays only for
    /// CH delivered) plus the penalty. Before, the short was slashed price × (1 + penalty) and the pool kept the long's
    /// payment for the CH that never came.
    function test_undeliveredShort_chargedPenaltyOnly_longRefundedPrice() public {
        _trade(alice, id, 100e18);
        _trade(bob, id, -100e18);
        vm.prank(alice);
        futures.electDelivery(id, 100e18);
        _finalise();
        vm.warp(block.timestamp + 1 days);
        (, int256 poolBefore) = chouse.marketInfo(address(futures));
        int256 bobBefore = chouse.collateralOf(bob);
        int256 aliceBefore = chouse.collateralOf(alice);
        vm.prank(bob);
        futures.settlePosition(id, bob);
        vm.prank(alice);
        futures.settlePosition(id, alice);
        // 100 CH undelivered at 10: penalty 10 % = 100 USDC from bob to alice, nothing else (both closed at 10)
        assertEq(
            chouse.collateralOf(bob) - bobBefore + chouse.positionOf(bob, address(futures)).openNotionalUsdc,
            -100e6
        );
        assertEq(chouse.collateralOf(alice) - aliceBefore, 100e6 - 1_000e6 + 1_000e6);
        (, int256 poolAfter) = chouse.marketInfo(address(futures));
        assertEq(poolAfter, poolBefore, "the pool kept the long's payment for CH never delivered");
    }

    /// Worked numbers: the spread carries one leg's margin at the market's rates (IM 10 %, MM 5 % of 100 × 10); an
    /// assignable short adds the penalty on its unescrowed assignment (10 % of 100 × 10), less what it escrows.
    function test_spreadAndBond_workedNumbers() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 2_000e6);
        _calendarSpread(carol);
        IClearingHouse.MarginState memory m = chouse.marginState(carol);
        assertEq(m.initialMarginUsdc, 100e6);
        assertEq(m.maintenanceMarginUsdc, 50e6);
        _trade(alice, id, 100e18);
        vm.prank(alice);
        futures.electDelivery(id, 100e18);
        m = chouse.marginState(carol);
        assertEq(m.initialMarginUsdc, 200e6);
        assertEq(m.maintenanceMarginUsdc, 150e6);
        _mintCh(carol, 60e18);
        vm.startPrank(carol);
        chToken.approve(address(futures), 60e18);
        futures.deliver(id, 60e18);
        vm.stopPrank();
        assertEq(chouse.marginState(carol).initialMarginUsdc, 140e6);
        // alice: long 100, IM 100, payment 1,000 held in her equity
        m = chouse.marginState(alice);
        assertEq(m.initialMarginUsdc, 100e6);
        assertEq(m.unrealisedPnlUsdc, -1_000e6);
    }

    /// A spread that nets to zero is liquidated through the hook (Δ = 0): both legs close at the index, the account
    /// leaves the market, the net ClearingHouse position stays the net of the series (zero).
    function test_spreadAtZeroNet_liquidatedWhole() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 140e6);
        uint256 far = _calendarSpread(carol);
        _trade(alice, id, 100e18);
        vm.prank(alice);
        futures.electDelivery(id, 100e18); // carol's bond 100: MM 150 > equity ≈ 139
        vm.prank(keeper);
        liq.liquidate(carol);
        assertEq(futures.positionOf(id, carol).sizeCh, 0);
        assertEq(futures.positionOf(far, carol).sizeCh, 0);
        assertEq(chouse.marketsOf(carol).length, 0);
        assertEq(futures.accountSeries(carol).length, 0);
    }

    /// With a net position the liquidation closes its fraction of the net and the same fraction of the spread.
    function test_spreadWithNet_liquidationClosesFractionOfBoth() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 400e6);
        uint256 far = futures.listSeries(uint64(expiry + 30 days), 1_000_000e18);
        _trade(carol, far, 150e18);
        _trade(carol, id, -100e18); // net +50: IM 50 + spread 100, MM 25 + 50
        market.settleFunding(carol, -340e6); // a loss elsewhere: equity ≈ 59 < MM 75
        IClearingHouse.MarginState memory m = chouse.marginState(carol);
        assertLt(m.equityUsdc, int256(m.maintenanceMarginUsdc));
        vm.prank(keeper);
        liq.liquidate(carol);
        int256 nearLeg = futures.positionOf(id, carol).sizeCh;
        int256 farLeg = futures.positionOf(far, carol).sizeCh;
        assertGt(nearLeg, -100e18, "spread's short leg untouched");
        assertLt(farLeg, 150e18);
        assertEq(chouse.positionOf(carol, address(futures)).sizeCh, nearLeg + farLeg);
        m = chouse.marginState(carol);
        assertGe(m.equityUsdc, int256(m.maintenanceMarginUsdc));
    }

    /// An assignable short whose escrow backs its delivery bond cannot take the escrow back below its margin.
    function test_withdrawEscrow_backingTheBond_needsMargin() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 120e6); // short 100: IM 100
        _trade(carol, id, -100e18);
        _mintCh(carol, 100e18);
        vm.startPrank(carol);
        chToken.approve(address(futures), 100e18);
        futures.deliver(id, 100e18);
        vm.stopPrank();
        _trade(alice, id, 100e18);
        vm.prank(alice);
        futures.electDelivery(id, 100e18); // carol assignable 100, fully escrowed: no bond
        assertEq(chouse.marginState(carol).initialMarginUsdc, 100e6);
        vm.prank(carol);
        futures.withdrawEscrow(id, 10e18); // bond 10: IM 110 ≤ equity ≈ 120
        int256 equity = chouse.marginState(carol).equityUsdc;
        vm.prank(carol);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesEscrowNeeded.selector, id, carol, 150e6, equity));
        futures.withdrawEscrow(id, 40e18);
    }
}
