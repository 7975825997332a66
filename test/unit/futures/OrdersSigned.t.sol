// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesMakerSetup} from "./FuturesMakerSetup.sol";
import {IFuturesTypes} from "../../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/markets/IFuturesErrors.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {SignedOrders} from "../../../contracts/libraries/orders/SignedOrders.sol";
import {FuturesOrderSteps} from "../../helpers/FuturesOrderSteps.sol";

/// @notice Signed trader-against-trader orders per series (issue 19 item 2, `fillOrder(order, signature, size)`), the
///         curve point they record and the vault's quote around it. Attacks first: replay, cross-series replay, an
///         expired / cancelled / nonce-voided order, a fill that breaches a party's margin (incl. a calendar leg the
///         ClearingHouse net hides), self-trade, a paused or frozen market, two fills reordered past the order's
///         size, a malleable signature, a wash trade that tries to make the vault sell cheap.
///         Index 10, IM 10 %, fee 5 bps (FuturesSolBase).
contract FuturesOrdersSignedTest is FuturesMakerSetup {
    uint256 internal constant SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141;

    /// The maker with `collateral` USDC, and carol with 10,000.
    function _setUpMakerAndCarol(uint256 collateral) internal {
        _setUpMaker(collateral);
        _setupTrader(carol, guarantor, 10_000e6);
    }

    function _order(
        bool isBuy,
        uint256 size,
        uint256 price,
        uint256 nonce
    ) internal view returns (IFuturesTypes.Order memory) {
        return _order(maker, isBuy, size, price, nonce);
    }

    // ───────────────────────────── attacks ─────────────────────────────

    function test_replayFilledOrder_reverts_SignedOrderOverfill() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory o = _order(true, 100e18, 10.5e18, 1);
        bytes memory sig = _sign(o);
        _fill(bob, o, sig, 100e18);
        bytes32 digest = futures.orderDigest(o);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderOverfill.selector, digest, 1e18, 0));
        _fill(bob, o, sig, 1e18);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderOverfill.selector, digest, 1e18, 0));
        _fill(carol, o, sig, 1e18);
        assertEq(futures.positionOf(id, maker).sizeCh, 100e18);
    }

    /// The series is in the signed struct: the same signature on another month recovers another signer.
    function test_crossSeriesReplay_reverts_SignedOrderInvalidSignature() public {
        _setUpMakerAndCarol(10_000e6);
        uint256 far = futures.listSeries(uint64(expiry + 30 days), 0);
        IFuturesTypes.Order memory o = _order(true, 100e18, 10.5e18, 1);
        bytes memory sig = _sign(o);
        o.seriesId = far;
        vm.expectRevert(
            abi.encodeWithSelector(SignedOrders.SignedOrderInvalidSignature.selector, maker, futures.orderDigest(o))
        );
        _fill(bob, o, sig, 10e18);
        assertEq(futures.positionOf(far, maker).sizeCh, 0);
    }

    function test_expiredOrder_reverts_SignedOrderExpired() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory o = _order(true, 100e18, 10e18, 1);
        bytes memory sig = _sign(o);
        vm.warp(o.expiry + 1);
        vm.expectRevert(
            abi.encodeWithSelector(
                SignedOrders.SignedOrderExpired.selector,
                futures.orderDigest(o),
                o.expiry,
                block.timestamp
            )
        );
        _fill(bob, o, sig, 10e18);
    }

    function test_cancelledOrder_reverts_onlyMakerCancels_nonceStaysClaimed() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory o = _order(true, 100e18, 10e18, 7);
        bytes memory sig = _sign(o);
        _fill(bob, o, sig, 10e18);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNotMaker.selector, bob, maker));
        vm.prank(bob);
        futures.cancelSignedOrder(o);
        vm.prank(maker);
        futures.cancelSignedOrder(o);
        bytes32 digest = futures.orderDigest(o);
        (uint256 filled, bool cancelled) = futures.signedOrderState(o);
        assertEq(filled, 10e18);
        assertTrue(cancelled);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderCancelled.selector, digest));
        _fill(bob, o, sig, 10e18);
        // a cancelled, never-filled order's nonce cannot be reused by another order either
        IFuturesTypes.Order memory o2 = _order(true, 100e18, 10e18, 8);
        vm.prank(maker);
        futures.cancelSignedOrder(o2);
        IFuturesTypes.Order memory o3 = _order(false, 50e18, 10e18, 8);
        bytes memory sig3 = _sign(o3);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, 8));
        _fill(bob, o3, sig3, 10e18);
    }

    function test_minNonceRaised_voidsOlderOrders() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory o = _order(true, 100e18, 10e18, 3);
        bytes memory sig = _sign(o);
        vm.prank(maker);
        futures.raiseMinNonce(4);
        assertEq(futures.minNonce(maker), 4);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceBelowMinimum.selector, maker, 3, 4));
        _fill(bob, o, sig, 10e18);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceNotIncreasing.selector, maker, 4, 4));
        vm.prank(maker);
        futures.raiseMinNonce(4);
    }

    /// Two orders of the maker with the same nonce: the first fill claims it.
    function test_twoOrdersOneNonce_secondReverts_SignedOrderNonceUsed() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory a = _order(true, 100e18, 10e18, 5);
        IFuturesTypes.Order memory b = _order(true, 100e18, 10.1e18, 5);
        _fill(bob, a, _sign(a), 10e18);
        bytes memory sigB = _sign(b);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, 5));
        _fill(bob, b, sigB, 10e18);
    }

    /// The maker's order is larger than its collateral carries: the ClearingHouse's margin check of the maker's leg
    /// reverts the whole fill; neither party's position nor collateral moves.
    function test_fillThatBreachesMakersMargin_revertsWholeFill() public {
        _setUpMakerAndCarol(1_000e6);
        IFuturesTypes.Order memory o = _order(true, 2_000e18, 10e18, 1);
        bytes memory sig = _sign(o);
        int256 bobBefore = chouse.collateralOf(bob);
        vm.expectRevert();
        _fill(bob, o, sig, 2_000e18);
        assertEq(futures.positionOf(id, maker).sizeCh, 0);
        assertEq(futures.positionOf(id, bob).sizeCh, 0);
        assertEq(chouse.collateralOf(bob), bobBefore);
        (uint256 filled, ) = futures.signedOrderState(o);
        assertEq(filled, 0);
        // a size it carries fills
        _fill(bob, o, sig, 500e18);
        assertEq(futures.positionOf(id, maker).sizeCh, 500e18);
    }

    /// The maker is long 1,000 CH of a far month and sells 1,000 of the near one at 9 (index 10) by signed order:
    /// its ClearingHouse net position falls to zero, so the ClearingHouse checks no margin, but its near leg grows
    /// and the 1,000 USDC of basis it pays leaves it under the spread's initial margin: the fill checks it itself.
    function test_calendarLegFillBreachingMargin_reverts_FuturesInsufficientMargin() public {
        _setUpMakerAndCarol(1_600e6);
        uint256 far = futures.listSeries(uint64(expiry + 30 days), 0);
        _trade(maker, far, 1_000e18);
        _trade(carol, far, -1_000e18);
        IFuturesTypes.Order memory o = _order(false, 1_000e18, 9e18, 1);
        bytes memory sig = _sign(o);
        vm.expectPartialRevert(IFuturesErrors.FuturesInsufficientMargin.selector);
        _fill(bob, o, sig, 1_000e18);
        assertEq(futures.positionOf(id, maker).sizeCh, 0);
        // at the index the spread is carried
        IFuturesTypes.Order memory fair = _order(false, 1_000e18, 10e18, 2);
        _fill(bob, fair, _sign(fair), 1_000e18);
        assertEq(futures.positionOf(id, maker).sizeCh, -1_000e18);
        assertEq(chouse.positionOf(maker, address(futures)).sizeCh, 0);
    }

    function test_selfTrade_reverts_FuturesSelfTrade() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory o = _order(true, 100e18, 10e18, 1);
        bytes memory sig = _sign(o);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesSelfTrade.selector, maker));
        _fill(maker, o, sig, 10e18);
    }

    function test_takerRestrictedOrder_othersRevert_FuturesOrderTakerOnly() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory o = _order(true, 100e18, 10e18, 1);
        o.taker = bob;
        bytes memory sig = _sign(o);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesOrderTakerOnly.selector, bob, carol));
        _fill(carol, o, sig, 10e18);
        _fill(bob, o, sig, 10e18);
    }

    /// `futures.trade` paused: a fill that opens risk for either party is refused; one that only reduces both
    /// parties' legs still fills (SEC-05). A ClearingHouse freeze of the market refuses new risk too.
    function test_pausedOrFrozenMarket_refusesNewRisk_reductionsFill() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory open = _order(true, 100e18, 10e18, 1);
        _fill(bob, open, _sign(open), 100e18);
        bytes32 feature = keccak256("futures.trade");
        IChxModule(address(futures)).pauseFeature(feature);
        IFuturesTypes.Order memory more = _order(true, 100e18, 10e18, 2);
        bytes memory moreSig = _sign(more);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, feature));
        _fill(bob, more, moreSig, 10e18);
        IFuturesTypes.Order memory close = _order(false, 100e18, 10e18, 3);
        _fill(bob, close, _sign(close), 40e18);
        assertEq(futures.positionOf(id, maker).sizeCh, 60e18);
        IChxModule(address(futures)).unpauseFeature(feature);
        bytes32 frozen = keccak256(abi.encode(keccak256("clearing.market"), address(futures)));
        IChxModule(address(chouse)).pauseFeature(frozen);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, frozen));
        _fill(bob, more, moreSig, 10e18);
        _fill(bob, close, _sign(close), 60e18); // reductions still fill while frozen
        assertEq(futures.positionOf(id, maker).sizeCh, 0);
    }

    /// Two takers race for the same 100 CH order: the second fill, in whichever order they land, gets at most what
    /// is left.
    function test_reorderTwoFills_cannotOverfill() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory o = _order(false, 100e18, 10e18, 1);
        bytes memory sig = _sign(o);
        _fill(carol, o, sig, 60e18);
        vm.expectRevert(
            abi.encodeWithSelector(SignedOrders.SignedOrderOverfill.selector, futures.orderDigest(o), 60e18, 40e18)
        );
        _fill(bob, o, sig, 60e18);
        _fill(bob, o, sig, 40e18);
        assertEq(futures.positionOf(id, maker).sizeCh, -100e18);
        assertEq(futures.positionOf(id, carol).sizeCh, 60e18);
        assertEq(futures.positionOf(id, bob).sizeCh, 40e18);
    }

    /// The high-s twin of a valid signature (s' = n − s, v flipped) is refused (OpenZeppelin ECDSA).
    function test_malleableSignature_reverts_SignedOrderInvalidSignature() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory o = _order(true, 100e18, 10e18, 1);
        bytes32 digest = futures.orderDigest(o);
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(makerKey, digest);
        bytes memory twin = abi.encodePacked(r, bytes32(SECP256K1_N - uint256(s)), v == 27 ? uint8(28) : uint8(27));
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderInvalidSignature.selector, maker, digest));
        _fill(bob, o, twin, 10e18);
        // a signature by someone else neither
        (v, r, s) = vm.sign(uint256(keccak256("not the maker")), digest);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderInvalidSignature.selector, maker, digest));
        _fill(bob, o, abi.encodePacked(r, s, v), 10e18);
    }

    /// A wash trade between two accounts at the price floor (−10 %) tries to make the vault sell the month cheap:
    /// the vault's quote is never better for the trader than the curve or the skew price, so a buy from the vault
    /// still pays at least the index.
    function test_washTradeOnCurve_cannotMakeVaultSellCheap() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory o = _order(true, 1e18, 8e18, 1);
        _fill(bob, o, _sign(o), 1e18);
        assertEq(futures.curvePoint(id).priceWad, 8e18);
        FuturesOrderSteps.mustTrade(futures, alice, id, 100e18);
        assertGe(futures.positionOf(id, alice).entryPriceWad, 10e18, "the vault sold at >= index");
    }

    // ───────────────────────────── behaviour ─────────────────────────────

    /// The maker buys 100 CH at 10.5 (index 10) from bob: both legs booked, nets at the index in the ClearingHouse,
    /// the maker pays the 50 USDC basis and its fee, bob receives the basis minus its fee, the vault's pool is
    /// untouched but for rounding, and the series' curve point is the trade.
    function test_signedFill_booksBothLegs_basisCash_curvePoint() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory o = _order(true, 100e18, 10.5e18, 1);
        int256 makerBefore = chouse.collateralOf(maker);
        int256 bobBefore = chouse.collateralOf(bob);
        uint256 filled = _fill(bob, o, _sign(o), 100e18);
        assertEq(filled, 100e18);
        assertEq(futures.positionOf(id, maker).sizeCh, 100e18);
        assertEq(futures.positionOf(id, maker).entryPriceWad, 10.5e18);
        assertEq(futures.positionOf(id, bob).sizeCh, -100e18);
        assertEq(chouse.positionOf(maker, address(futures)).sizeCh, 100e18);
        assertEq(chouse.positionOf(bob, address(futures)).sizeCh, -100e18);
        IFuturesTypes.Series memory s = futures.seriesInfo(id);
        assertEq(s.longOiCh, 100e18);
        assertEq(s.shortOiCh, 100e18);
        uint256 fee = 0.525e6; // 5 bps of 1,050
        assertEq(chouse.collateralOf(maker), makerBefore - 50e6 - int256(fee));
        assertEq(chouse.collateralOf(bob), bobBefore + 50e6 - int256(fee));
        IFuturesTypes.CurvePoint memory c = futures.curvePoint(id);
        assertEq(c.priceWad, 10.5e18);
        assertEq(c.indexWad, 10e18);
        assertEq(c.time, block.timestamp);
    }

    /// After a trade at +5 % (contango), the vault sells the month at no less than the curve carried to now, and
    /// the anchor converges to the index at expiry.
    function test_vaultBackstop_quotesAroundTheCurve() public {
        _setUpMakerAndCarol(10_000e6);
        IFuturesTypes.Order memory o = _order(true, 10e18, 10.5e18, 1);
        _fill(bob, o, _sign(o), 10e18);
        FuturesOrderSteps.mustTrade(futures, alice, id, 10e18);
        uint256 bought = futures.positionOf(id, alice).entryPriceWad;
        assertGt(bought, 10.49e18, "vault buy anchored to the curve");
        assertLe(bought, 10.5e18);
        // half-way to expiry the anchored basis has halved
        vm.warp(block.timestamp + (expiry - block.timestamp) / 2);
        FuturesOrderSteps.mustTrade(futures, carol, id, 10e18);
        uint256 later = futures.positionOf(id, carol).entryPriceWad;
        assertApproxEqRel(later, 10.25e18, 0.002e18);
    }

    /// A contract maker (a smart wallet) signs through ERC-1271; a signature its owner did not make is refused.
    function test_contractMaker_erc1271_fills_otherKeyReverts() public {
        _setUpMakerAndCarol(10_000e6);
        address wallet = deployCode("MockERC1271Wallet.sol:MockERC1271Wallet", abi.encode(maker));
        _setupTrader(wallet, guarantor, 10_000e6);
        IFuturesTypes.Order memory o = _order(true, 100e18, 10e18, 1);
        o.maker = wallet;
        bytes32 digest = futures.orderDigest(o);
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(uint256(keccak256("not the owner")), digest);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderInvalidSignature.selector, wallet, digest));
        _fill(bob, o, abi.encodePacked(r, s, v), 10e18);
        (v, r, s) = vm.sign(makerKey, digest);
        _fill(bob, o, abi.encodePacked(r, s, v), 10e18);
        assertEq(futures.positionOf(id, wallet).sizeCh, 10e18);
    }
}
