// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SeriesLadderBase} from "./SeriesLadderBase.sol";
import {FuturesOrderSteps} from "../../helpers/FuturesOrderSteps.sol";
import {IRiskEngine} from "../../../contracts/interfaces/clearing/IRiskEngine.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {FuturesMath} from "../../../contracts/libraries/FuturesMath.sol";

/// @notice Round 35 (docs/gas.md "withdraw:withPosition24Series"): the futures account-risk hook skips the near-leg
///         walk when the account book shows only live, unelected longs (no short, no election, its lower bound on
///         expiries ahead), and reads the pending orders' margin and the liquidation corrections from the book's
///         second slot. Attacks on the shortcut, each against the leg-by-leg reference walk (CLR-01 / MKT-08: the
///         requirement the ClearingHouse enforces is never below the rule): a series expiring between two
///         withdrawals, a closed near leg leaving a stale bound, a fill in another series (a short) right before
///         a withdrawal, an election, a second account in the same series, per-tenor margin switched on and off.
contract RiskFastPathTest is SeriesLadderBase {
    function _longLadder(address who) internal {
        for (uint256 k; k < N; ++k) _trade(who, ids[k], 10e18);
    }

    /// The hook = the reference walk, exactly (elections only in near legs here: no per-sum rounding difference).
    function _assertExact(address who) internal view {
        _assertRiskExact(who);
    }

    // ───────────────────────────────────────────── attacks ─────────────────────────────────────────────

    /// The shortcut's own case: a long ladder over 24 series (one leg in the near buckets) adds nothing, as the walk.
    function test_longLadder_shortcut_equalsWalk() public {
        _longLadder(alice);
        _assertExact(alice);
        (int256 adj, uint256 im, uint256 mm) = _risk(alice);
        assertEq(adj, 0);
        assertEq(im, 0);
        assertEq(mm, 0);
    }

    /// CLR-01: the first series expires between two withdrawals and is price-fixed below the index: its lower bound
    /// on expiries is now past, so the walk runs again and marks the leg at its settlement price (a shortcut still
    /// taken would value it at the moving index).
    function test_seriesExpiringBetweenWithdrawals_walkResumes_markedAtFixedPrice() public {
        _longLadder(alice);
        vm.prank(alice);
        chouse.withdraw(1e6, alice);
        _setPrice((PRICE0 * 8) / 10);
        vm.warp(futures.seriesInfo(ids[0]).expiry);
        _setPrice((PRICE0 * 8) / 10);
        futures.fixSettlementPrice(ids[0]);
        _setPrice(PRICE0);
        (int256 adj, , ) = _risk(alice);
        assertLt(adj, 0, "the fixed leg is marked at the lower settlement price");
        _assertExact(alice);
        vm.prank(alice);
        chouse.withdraw(1e6, alice);
    }

    /// A near leg opened and closed leaves the book's lower bound behind it (never raised on a close): once that
    /// expiry passes the hook walks again (conservative, never wrong), and the result is still the walk's.
    function test_closedNearLeg_staleBound_stillExact() public {
        _trade(alice, ids[0], 5e18);
        FuturesOrderSteps.mustClose(futures, alice, ids[0]);
        for (uint256 k = 1; k < N; ++k) _trade(alice, ids[k], 10e18);
        _assertExact(alice);
        vm.warp(futures.seriesInfo(ids[0]).expiry + 1);
        _assertExact(alice);
    }

    /// A fill in another series right before a withdrawal turns the ladder into a calendar spread: the short leg ends
    /// the shortcut, the hidden legs are margined at once; closing it restores the shortcut's (equal) result.
    function test_shortFillInAnotherSeries_thenWithdraw_spreadMargined() public {
        _longLadder(alice);
        (, uint256 im0, ) = _risk(alice);
        _trade(alice, ids[1], -30e18); // long 10 → short 20 in the second series
        (, uint256 im1, ) = _risk(alice);
        assertGt(im1, im0, "the calendar spread is margined");
        _assertExact(alice);
        IClearingHouse.MarginState memory st = chouse.marginState(alice);
        uint256 free = uint256(st.equityUsdc) - st.initialMarginUsdc;
        vm.prank(alice);
        vm.expectPartialRevert(IClearingHouseErrors.ClearingInsufficientMargin.selector);
        chouse.withdraw(free + 1e6, alice);
        _trade(alice, ids[1], 30e18);
        _assertExact(alice);
    }

    /// An election on a near long ends the shortcut: the payment it holds is in the equity at once (MKT-08).
    function test_election_endsShortcut_paymentHeld() public {
        _longLadder(alice);
        (int256 adj0, , ) = _risk(alice);
        vm.prank(alice);
        futures.electDelivery(ids[0], 4e18);
        (int256 adj1, , ) = _risk(alice);
        assertEq(adj0 - adj1, int256(FuturesMath.usdcUp(4e18, PRICE0)), "4 CH of payment held");
        _assertExact(alice);
    }

    /// A second account shorting the same series and electing in it never moves the first account's result; its own
    /// short walks (its bond once a long elects in that series).
    function test_secondAccountSameSeries_shortWithElections() public {
        _longLadder(alice);
        (int256 adj0, uint256 im0, uint256 mm0) = _risk(alice);
        _trade(bob, ids[0], -6e18);
        _trade(bob, ids[2], 6e18);
        vm.prank(alice);
        futures.electDelivery(ids[0], 3e18);
        (int256 adj1, uint256 im1, uint256 mm1) = _risk(alice);
        assertEq(im1, im0);
        assertEq(mm1, mm0);
        assertEq(adj1, adj0 - int256(FuturesMath.usdcUp(3e18, PRICE0)));
        _assertExact(alice);
        _assertExact(bob);
        (, uint256 bobIm, ) = _risk(bob);
        assertGt(bobIm, 0, "bob's bond and spread");
    }

    /// The pending orders' margin now sits in the account book: held as equity and initial margin while the order
    /// is pending, released at execution; the shortcut keeps it.
    function test_pendingOrderMargin_inBook_heldThenReleased() public {
        _longLadder(alice);
        (int256 adj0, uint256 im0, uint256 mm0) = _risk(alice);
        vm.prank(alice);
        uint256 t = futures.commitOrder(ids[3], 50e18, 0);
        uint256 held = futures.pendingOrder(ids[3], alice).marginUsdc;
        assertGt(held, 0);
        (int256 adj1, uint256 im1, uint256 mm1) = _risk(alice);
        assertEq(adj1, adj0 + int256(held));
        assertEq(im1, im0 + held);
        assertEq(mm1, mm0);
        (bool filled, ) = FuturesOrderSteps.execute(futures, alice, ids[3], t);
        assertTrue(filled);
        (int256 adj2, uint256 im2, ) = _risk(alice);
        assertEq(adj2, adj0);
        assertEq(im2, im0);
    }

    /// Per-tenor margin switched on and off between two withdrawals of a long-only account (front and far legs):
    /// the shortcut leaves the tenor split alone — front at its σ, far at its own — and the switch binds at once.
    function test_perTenorSwitchedBetweenWithdrawals_longOnly() public {
        risk.setMarketVolParams(address(futures), _vol(0.02e18));
        risk.setTenorVolParams(address(futures), 0, _vol(0.1e18));
        risk.setTenorVolParams(address(futures), 1, _vol(0.05e18));
        risk.setTenorVolParams(address(futures), 2, _vol(0.02e18));
        _trade(alice, ids[0], 10e18); // 14 days: front month (IM 30 %)
        _trade(alice, ids[20], 10e18); // 294 days: far (IM 10 % floor)
        assertEq(chouse.marginState(alice).initialMarginUsdc, 60e6, "largest sigma on both");
        risk.setTenorMargin(address(futures), true);
        assertEq(chouse.marginState(alice).initialMarginUsdc, 40e6, "front 30 + far 10");
        vm.prank(alice);
        chouse.withdraw(1e6, alice);
        risk.setTenorMargin(address(futures), false);
        assertEq(chouse.marginState(alice).initialMarginUsdc, 60e6, "off again: at once");
        _assertExact(alice);
    }

    function _vol(uint64 sigma) internal pure returns (IRiskEngine.MarketVolParams memory) {
        return
            IRiskEngine.MarketVolParams({
                lambdaWad: 0.5e18,
                floorSigmaWad: sigma,
                staleSigmaWad: sigma,
                staleAfterSec: 3650 days
            });
    }

    /// Settlement of every leg of a series after the book change: the record count and the lower bound reset when
    /// the account empties, and a new ladder then takes the shortcut again.
    function test_settleAll_thenNewLadder_boundReset() public {
        _trade(alice, ids[0], 10e18);
        _trade(bob, ids[0], -10e18);
        vm.warp(futures.seriesInfo(ids[0]).expiry);
        _setPrice(PRICE0);
        futures.fixSettlementPrice(ids[0]);
        vm.warp(block.timestamp + 1 hours);
        _setPrice(PRICE0);
        futures.finalizeSettlement(ids[0]);
        futures.settlePosition(ids[0], alice);
        futures.settlePosition(ids[0], bob);
        assertEq(futures.accountSeries(alice).length, 0);
        for (uint256 k = 2; k < N; ++k) _trade(alice, ids[k], 10e18);
        _assertExact(alice);
        (int256 adj, uint256 im, ) = _risk(alice);
        assertEq(adj, 0);
        assertEq(im, 0);
    }
}
