// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesMakerSetup} from "./FuturesMakerSetup.sol";
import {IFuturesTypes} from "../../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/markets/IFuturesErrors.sol";
import {SignedOrders} from "../../../contracts/libraries/orders/SignedOrders.sol";
import {signDigest} from "../../utils/Signatures.sol";

/// @notice The futures market's own cost in `roll` and `fillOrder` (issue 19 item 6, round 41). Attacks on the two
///         paths: rolls into a new series and into an existing leg, back and forth in one block, a second account
///         into the same series, a roll out of an expired series; signed fills replayed, cancelled after a partial
///         fill, taken by two takers in one block, and the one word per (maker, nonce) that now holds an order's
///         fill state and claims its nonce (another order on the nonce, cancels of either, the amount bound).
///         Index 10, IM 10 %, MM 5 % (FuturesSecuritySetup).
contract FuturesRollFillTest is FuturesMakerSetup {
    uint256 internal far;

    function setUp() public override {
        super.setUp();
        _setUpMaker(10_000e6);
        _setupTrader(carol, guarantor, 20_000e6);
        far = futures.listSeries(uint64(expiry + 30 days), 1_000_000e18);
    }

    // ───────────────────────────── helpers ─────────────────────────────

    function _held(address who, uint256 seriesId) internal view returns (bool) {
        uint256[] memory ids = futures.accountSeries(who);
        for (uint256 i; i < ids.length; ++i) if (ids[i] == seriesId) return true;
        return false;
    }

    function _state(IFuturesTypes.Order memory o) internal view returns (uint256 filled, bool cancelled) {
        return futures.signedOrderState(o);
    }

    // ───────────────────────────── roll ─────────────────────────────

    /// A roll into a series the account does not hold: a new leg (open, listed once, in its bucket), the source
    /// reduced, the net position and the OI of both series consistent.
    function test_roll_intoNewSeries_createsLegOnce() public {
        _trade(bob, id, -1_000e18);
        _trade(carol, id, 1_000e18);
        vm.prank(carol);
        futures.roll(id, far, 400e18);
        assertEq(_size(id, carol), 600e18);
        assertEq(_size(far, carol), 400e18);
        assertTrue(futures.positionOf(far, carol).open);
        assertEq(_listed(far), 1);
        assertEq(futures.seriesInfo(far).openPositions, 1);
        assertEq(futures.seriesInfo(far).longOiCh, 400e18);
        assertEq(futures.seriesInfo(id).longOiCh, 600e18);
        assertTrue(_held(carol, far) && _held(carol, id));
        assertEq(chouse.positionOf(carol, address(futures)).sizeCh, 1_000e18);
    }

    /// A roll into a held leg adds to it (entry averaged) and lists nothing twice.
    function test_roll_intoExistingLeg_addsWithoutRelisting() public {
        _trade(bob, id, -1_000e18);
        _trade(carol, id, 1_000e18);
        vm.startPrank(carol);
        futures.roll(id, far, 300e18);
        futures.roll(id, far, 300e18);
        vm.stopPrank();
        assertEq(_size(far, carol), 600e18);
        assertEq(_size(id, carol), 400e18);
        assertEq(_listed(far), 1);
        assertEq(futures.seriesInfo(far).openPositions, 1);
        assertEq(futures.accountSeries(carol).length, 2);
    }

    /// Back and forth between two series in one block: the far leg opens, closes, reopens; its record and the
    /// account list stay consistent (listed once, counted once, in the account's series only while open).
    function test_roll_backAndForthOneBlock_consistent() public {
        _trade(bob, id, -1_000e18);
        _trade(carol, id, 1_000e18);
        vm.startPrank(carol);
        futures.roll(id, far, 500e18);
        futures.roll(far, id, 500e18);
        assertEq(_size(far, carol), 0);
        assertFalse(futures.positionOf(far, carol).open);
        assertEq(futures.seriesInfo(far).openPositions, 0);
        assertFalse(_held(carol, far));
        assertTrue(_held(carol, id));
        futures.roll(id, far, 200e18);
        vm.stopPrank();
        assertEq(_size(far, carol), 200e18);
        assertEq(_size(id, carol), 800e18);
        assertEq(_listed(far), 1);
        assertEq(futures.seriesInfo(far).openPositions, 1);
        assertEq(futures.seriesInfo(far).longOiCh, 200e18);
        assertTrue(_held(carol, far));
    }

    /// A second account rolls into the same series (one long, one short): each gets its own leg and list entry,
    /// the series' OI and count hold both.
    function test_roll_secondAccountIntoSameSeries() public {
        _trade(bob, id, -1_000e18);
        _trade(carol, id, 1_000e18);
        vm.prank(carol);
        futures.roll(id, far, 400e18);
        vm.prank(bob);
        futures.roll(id, far, 300e18);
        assertEq(_size(far, carol), 400e18);
        assertEq(_size(far, bob), -300e18);
        assertEq(_listed(far), 2);
        assertEq(futures.seriesInfo(far).openPositions, 2);
        assertEq(futures.seriesInfo(far).shortPositions, 1);
        assertEq(futures.seriesInfo(far).longOiCh, 400e18);
        assertEq(futures.seriesInfo(far).shortOiCh, 300e18);
        assertEq(chouse.positionOf(bob, address(futures)).sizeCh, -1_000e18);
    }

    /// A roll out of a series that expired is refused (the source must still trade), and nothing moves.
    function test_roll_afterSourceExpired_reverts() public {
        _trade(bob, id, -1_000e18);
        _trade(carol, id, 1_000e18);
        vm.warp(expiry);
        vm.prank(carol);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesSeriesNotTrading.selector, id, expiry));
        futures.roll(id, far, 100e18);
        assertEq(_size(id, carol), 1_000e18);
        assertEq(_size(far, carol), 0);
    }

    /// Rolling one leg out entirely keeps the account's other leg in the same expiry bucket findable: the bucket
    /// (and its bit) stays while a series in it is still held, and empties only with the last leg.
    function test_roll_bucketKeptWhileAnotherLegHeld() public {
        uint256 near2 = futures.listSeries(uint64(expiry + 1 hours), 1_000_000e18); // same 28-day bucket as `id`
        _trade(bob, id, -1_000e18);
        _trade(carol, id, 1_000e18);
        _trade(bob, near2, -100e18);
        _trade(carol, near2, 100e18);
        vm.prank(carol);
        futures.roll(id, far, 1_000e18); // `id` closes, `near2` stays
        assertFalse(_held(carol, id));
        assertTrue(_held(carol, near2), "near2 lost with its bucket");
        assertTrue(_held(carol, far));
        vm.prank(carol);
        futures.roll(near2, far, 100e18);
        assertEq(futures.accountSeries(carol).length, 1);
        assertEq(_size(far, carol), 1_100e18);
    }

    // ───────────────────────────── signed fills ─────────────────────────────

    /// The order filled to its size: replaying the same fill (same order, same signature) is refused.
    function test_fill_replayed_reverts() public {
        IFuturesTypes.Order memory o = _order(maker, true, 100e18, 10e18, 1);
        bytes memory sig = _sign(o);
        _fill(bob, o, sig, 100e18);
        bytes32 digest = futures.orderDigest(o);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderOverfill.selector, digest, 100e18, 0));
        _fill(bob, o, sig, 100e18);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderOverfill.selector, digest, 1, 0));
        _fill(alice, o, sig, 1);
        (uint256 filled, bool cancelled) = _state(o);
        assertEq(filled, 100e18);
        assertFalse(cancelled);
        assertEq(_size(id, maker), 100e18);
    }

    /// A partially filled order cancelled by its maker cannot be filled again; its state keeps the filled amount.
    function test_fill_partialThenCancelled_reverts() public {
        IFuturesTypes.Order memory o = _order(maker, false, 100e18, 10e18, 2);
        bytes memory sig = _sign(o);
        _fill(bob, o, sig, 30e18);
        vm.prank(maker);
        futures.cancelSignedOrder(o);
        (uint256 filled, bool cancelled) = _state(o);
        assertEq(filled, 30e18);
        assertTrue(cancelled);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderCancelled.selector, futures.orderDigest(o)));
        _fill(alice, o, sig, 10e18);
        assertEq(_size(id, maker), -30e18);
    }

    /// Two takers fill one order in one block up to its size; a third unit is refused.
    function test_fill_twoTakersOneBlock_upToSize() public {
        IFuturesTypes.Order memory o = _order(maker, true, 100e18, 10e18, 3);
        bytes memory sig = _sign(o);
        _fill(bob, o, sig, 60e18);
        _fill(alice, o, sig, 40e18);
        assertEq(_size(id, maker), 100e18);
        assertEq(_size(id, bob), -60e18);
        assertEq(_size(id, alice), -40e18);
        (uint256 filled, ) = _state(o);
        assertEq(filled, 100e18);
        vm.expectRevert(
            abi.encodeWithSelector(SignedOrders.SignedOrderOverfill.selector, futures.orderDigest(o), 1, 0)
        );
        _fill(carol, o, sig, 1);
    }

    /// Another order of the maker on a nonce a partly filled order holds is refused, and cancelling that other
    /// order neither voids nor alters the first one, which fills on to its size.
    function test_fill_otherOrderOnClaimedNonce_refused_cancelDoesNotTouchFirst() public {
        IFuturesTypes.Order memory a = _order(maker, true, 100e18, 10e18, 4);
        IFuturesTypes.Order memory b = _order(maker, true, 100e18, 10.1e18, 4);
        bytes memory sigA = _sign(a);
        bytes memory sigB = _sign(b);
        _fill(bob, a, sigA, 10e18);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, 4));
        _fill(bob, b, sigB, 10e18);
        vm.prank(maker);
        futures.cancelSignedOrder(b);
        (uint256 filled, bool cancelled) = _state(a);
        assertEq(filled, 10e18);
        assertFalse(cancelled);
        (filled, cancelled) = _state(b);
        assertEq(filled, 0);
        _fill(bob, a, sigA, 90e18);
        (filled, ) = _state(a);
        assertEq(filled, 100e18);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, 4));
        _fill(bob, b, sigB, 1);
    }

    /// A cancel before any fill claims the nonce: neither the order nor another order on its nonce fills.
    function test_cancelBeforeFill_claimsNonce() public {
        IFuturesTypes.Order memory a = _order(maker, false, 50e18, 10e18, 5);
        IFuturesTypes.Order memory b = _order(maker, true, 50e18, 10e18, 5);
        vm.prank(maker);
        futures.cancelSignedOrder(a);
        (uint256 filled, bool cancelled) = _state(a);
        assertEq(filled, 0);
        assertTrue(cancelled);
        bytes memory sigA = _sign(a);
        bytes memory sigB = _sign(b);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderCancelled.selector, futures.orderDigest(a)));
        _fill(bob, a, sigA, 1e18);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, 5));
        _fill(bob, b, sigB, 1e18);
        // cancelling again is idempotent
        vm.prank(maker);
        futures.cancelSignedOrder(a);
        (, cancelled) = _state(a);
        assertTrue(cancelled);
    }

    /// The fill state's amount is 128 bits: an order larger is refused before anything is stored; a forged
    /// signature is refused on the first fill (the stored word proves the check passed), a valid one then fills.
    function test_fill_amountBound_andBadSignature_storeNothing() public {
        IFuturesTypes.Order memory big = _order(maker, true, uint256(type(uint128).max) + 1, 10e18, 6);
        bytes memory sigBig = _sign(big);
        vm.expectRevert(
            abi.encodeWithSelector(SignedOrders.SignedOrderInvalidAmount.selector, uint256(type(uint128).max) + 1)
        );
        _fill(bob, big, sigBig, 1e18);
        IFuturesTypes.Order memory o = _order(maker, true, 100e18, 10e18, 6);
        (, uint256 otherKey) = makeAddrAndKey("forger");
        bytes memory forged = signDigest(otherKey, futures.orderDigest(o));
        vm.expectRevert(
            abi.encodeWithSelector(SignedOrders.SignedOrderInvalidSignature.selector, maker, futures.orderDigest(o))
        );
        _fill(bob, o, forged, 1e18);
        (uint256 filled, bool cancelled) = _state(o);
        assertEq(filled, 0);
        assertFalse(cancelled);
        _fill(bob, o, _sign(o), 100e18);
        (filled, ) = _state(o);
        assertEq(filled, 100e18);
    }

    /// Orders of two makers on the same nonce are independent.
    function test_fill_sameNonceTwoMakers_independent() public {
        IFuturesTypes.Order memory m = _order(maker, true, 20e18, 10e18, 7);
        _fill(bob, m, _sign(m), 20e18);
        (address other, uint256 otherKey) = makeAddrAndKey("other");
        _setupTrader(other, guarantor, 10_000e6);
        IFuturesTypes.Order memory o = _order(other, true, 20e18, 10e18, 7);
        bytes memory sig = signDigest(otherKey, futures.orderDigest(o));
        _fill(bob, o, sig, 20e18);
        assertEq(_size(id, other), 20e18);
        (uint256 filled, ) = _state(o);
        assertEq(filled, 20e18);
    }
}
