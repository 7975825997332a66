// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SpotSolBase} from "../helpers/SpotSolBase.sol";
import {ISpotMarket} from "../../contracts/interfaces/markets/ISpotMarket.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {SignedOrders} from "../../contracts/libraries/orders/SignedOrders.sol";
import {MockERC1271Wallet} from "../../contracts/mocks/MockERC1271Wallet.sol";
import {signDigest} from "../utils/Signatures.sol";

/// @notice Attacks on the order records keyed by (maker, nonce) (issue 18 item 4; docs/spot.md "Gas"): the fill
///         record is the nonce claim and carries a 127-bit tag of the order's digest, so a later fill skips the
///         signature. MKT-06 (never beyond the amount, after a cancel, with a used nonce) and SEC-03 (replay).
contract SpotOrderRecordsTest is SpotSolBase {
    uint256 internal constant MAKER_KEY = 0xA11CE;
    address internal maker;
    address internal taker = makeAddr("taker");
    address internal taker2 = makeAddr("taker2");

    function setUp() public {
        _deploySpot();
        maker = vm.addr(MAKER_KEY);
        _fund(maker);
        _fund(taker);
        _fund(taker2);
    }

    function _order(uint256 nonce, uint256 priceWad) internal view returns (ISpotMarket.Order memory) {
        return
            ISpotMarket.Order({
                maker: maker,
                isBuy: false,
                amountCh: 10e18,
                priceWad: priceWad,
                nonce: nonce,
                expiry: uint64(block.timestamp + 1 days),
                taker: address(0)
            });
    }

    function _state(ISpotMarket.Order memory o) internal view returns (ISpotMarket.OrderState memory) {
        return spot.orderState(o.maker, o.nonce, spot.orderDigest(o));
    }

    /// @notice SEC-03 / MKT-06: a fully filled order replayed (same signature, any caller) reverts with Overfill.
    function test_replayOfFilledOrder_reverts() public {
        ISpotMarket.Order memory o = _order(1, 2e18);
        bytes memory sig = _sign(MAKER_KEY, o);
        vm.prank(taker);
        spot.fillOrder(o, sig, 10e18);
        bytes32 hash = spot.orderDigest(o);
        vm.prank(taker2);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderOverfill.selector, hash, 1, 0));
        spot.fillOrder(o, sig, 1);
        assertEq(_state(o).filledCh, 10e18);
        assertTrue(spot.nonceUsed(maker, 1));
    }

    /// @notice MKT-06: a cancel between two fills stops the second; the record keeps the first fill.
    function test_cancelBetweenTwoFills_stopsTheSecond() public {
        ISpotMarket.Order memory o = _order(1, 2e18);
        bytes memory sig = _sign(MAKER_KEY, o);
        vm.prank(taker);
        spot.fillOrder(o, sig, 3e18);
        vm.prank(maker);
        spot.cancelOrder(o);
        bytes32 hash = spot.orderDigest(o);
        vm.prank(taker2);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderCancelled.selector, hash));
        spot.fillOrder(o, sig, 1e18);
        ISpotMarket.OrderState memory st = _state(o);
        assertEq(st.filledCh, 3e18);
        assertTrue(st.cancelled);
        // cancelling again is idempotent and keeps the fill
        vm.prank(maker);
        spot.cancelOrder(o);
        assertEq(_state(o).filledCh, 3e18);
    }

    /// @notice MKT-06: two orders of one maker with the same nonce — once one is filled the other never fills, and
    ///         cancelling the other leaves the first untouched and still fillable.
    function test_sameNonceOnTwoOrders_onlyTheFirstFills() public {
        ISpotMarket.Order memory a = _order(7, 2e18);
        ISpotMarket.Order memory b = _order(7, 1e18); // a cheaper sell with the same nonce
        bytes memory sigA = _sign(MAKER_KEY, a);
        bytes memory sigB = _sign(MAKER_KEY, b);
        vm.prank(taker);
        spot.fillOrder(a, sigA, 4e18);
        vm.prank(taker2);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, 7));
        spot.fillOrder(b, sigB, 1e18);
        assertEq(_state(b).filledCh, 0, "the other order reads as unfilled");
        vm.prank(maker);
        spot.cancelOrder(b); // no-op: b can never fill
        assertFalse(_state(a).cancelled);
        vm.prank(taker2);
        spot.fillOrder(a, sigA, 6e18);
        assertEq(_state(a).filledCh, 10e18);
    }

    /// @notice A cancel claims the nonce: no other order with it can fill afterwards.
    function test_cancelBeforeFill_claimsTheNonceForEveryOrder() public {
        ISpotMarket.Order memory a = _order(3, 2e18);
        ISpotMarket.Order memory b = _order(3, 1e18);
        vm.prank(maker);
        spot.cancelOrder(a);
        assertTrue(spot.nonceUsed(maker, 3));
        bytes memory sigA = _sign(MAKER_KEY, a);
        bytes32 hashA = spot.orderDigest(a);
        vm.prank(taker);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderCancelled.selector, hashA));
        spot.fillOrder(a, sigA, 1e18);
        bytes memory sigB = _sign(MAKER_KEY, b);
        vm.prank(taker);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, 3));
        spot.fillOrder(b, sigB, 1e18);
    }

    /// @notice SEC-03: after a first fill, an order the maker never signed with the same (maker, nonce) but other
    ///         terms cannot ride on the record (its tag differs), even without a signature check on later fills.
    function test_forgedOrderOnAClaimedNonce_reverts() public {
        ISpotMarket.Order memory o = _order(5, 2e18);
        bytes memory sig = _sign(MAKER_KEY, o);
        vm.prank(taker);
        spot.fillOrder(o, sig, 1e18);
        ISpotMarket.Order memory forged = _order(5, 1); // sells at 1 wei per CH
        forged.amountCh = 1_000e18;
        vm.prank(taker);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, 5));
        spot.fillOrder(forged, hex"", 100e18);
        // an unsigned order on a fresh nonce still needs the signature
        ISpotMarket.Order memory fresh = _order(6, 2e18);
        bytes32 freshHash = spot.orderDigest(fresh);
        vm.prank(taker);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderInvalidSignature.selector, maker, freshHash));
        spot.fillOrder(fresh, new bytes(65), 1e18);
    }

    /// @notice A match of a maker's buy and sell with the same nonce: the second side finds the nonce claimed.
    function test_matchOfTwoOrdersWithOneNonce_reverts() public {
        ISpotMarket.Order memory sell = _order(9, 2e18);
        ISpotMarket.Order memory buy = _order(9, 3e18);
        buy.isBuy = true;
        bytes memory buySig = _sign(MAKER_KEY, buy);
        bytes memory sellSig = _sign(MAKER_KEY, sell);
        vm.prank(taker);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, 9));
        spot.matchOrders(buy, buySig, sell, sellSig, 1e18);
    }

    /// @notice A minimum nonce raised between two fills voids the rest of the order.
    function test_minNonceRaisedBetweenFills_voidsTheRest() public {
        ISpotMarket.Order memory o = _order(2, 2e18);
        bytes memory sig = _sign(MAKER_KEY, o);
        vm.prank(taker);
        spot.fillOrder(o, sig, 1e18);
        vm.prank(maker);
        spot.raiseMinNonce(3);
        vm.prank(taker);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceBelowMinimum.selector, maker, 2, 3));
        spot.fillOrder(o, sig, 1e18);
    }

    /// @notice A paused market fills nothing and writes no record; after unpausing the order fills normally.
    function test_pausedMarket_writesNoRecord() public {
        ISpotMarket.Order memory o = _order(4, 2e18);
        bytes memory sig = _sign(MAKER_KEY, o);
        bytes32 feature = spot.FEATURE_TRADE();
        spot.pauseFeature(feature);
        vm.prank(taker);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, feature));
        spot.fillOrder(o, sig, 1e18);
        assertFalse(spot.nonceUsed(maker, 4));
        spot.unpauseFeature(feature);
        vm.prank(taker);
        spot.fillOrder(o, sig, 1e18);
        assertEq(_state(o).filledCh, 1e18);
    }

    /// @notice A contract-wallet (ERC-1271) maker: its signature is checked on the first fill; a later fill of the
    ///         same order rides on the record; another order on the claimed nonce is refused.
    function test_erc1271Maker_recordKeyedByTheWallet() public {
        MockERC1271Wallet wallet = new MockERC1271Wallet(maker);
        ch.mint(address(wallet), 100e18);
        vm.prank(maker);
        wallet.approve(address(ch), address(spot), type(uint256).max);
        ISpotMarket.Order memory o = _order(1, 2e18);
        o.maker = address(wallet);
        // a signature of another key is refused
        bytes32 hash = spot.orderDigest(o);
        (uint8 v0, bytes32 r0, bytes32 s0) = vm.sign(0xBAD, hash);
        vm.prank(taker);
        vm.expectRevert(
            abi.encodeWithSelector(SignedOrders.SignedOrderInvalidSignature.selector, address(wallet), hash)
        );
        spot.fillOrder(o, abi.encodePacked(r0, s0, v0), 1e18);
        bytes memory sig = _sign(MAKER_KEY, o); // the wallet's owner signs; the wallet validates (ERC-1271)
        vm.prank(taker);
        spot.fillOrder(o, sig, 1e18);
        vm.prank(taker2);
        spot.fillOrder(o, sig, 2e18);
        assertEq(spot.orderState(address(wallet), 1, hash).filledCh, 3e18);
        assertTrue(spot.nonceUsed(address(wallet), 1));
        assertFalse(spot.nonceUsed(maker, 1), "the owner's own nonce space is untouched");
        ISpotMarket.Order memory other = _order(1, 1e18);
        other.maker = address(wallet);
        bytes memory otherSig = _sign(MAKER_KEY, other);
        vm.prank(taker);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, address(wallet), 1));
        spot.fillOrder(other, otherSig, 1e18);
    }

    /// @notice Deals keep their own state by digest (dealState) and do not claim an order nonce.
    function test_dealDoesNotClaimTheOrderNonce() public {
        ISpotMarket.Deal memory deal = ISpotMarket.Deal({
            seller: maker,
            buyer: taker,
            amountCh: 2e18,
            priceWad: 2e18,
            nonce: 1,
            expiry: uint64(block.timestamp + 1 days)
        });
        bytes32 hash = spot.dealDigest(deal);
        vm.prank(taker);
        spot.settleDeal(deal, signDigest(MAKER_KEY, hash), "");
        assertEq(spot.dealState(hash).filledCh, 2e18);
        assertFalse(spot.nonceUsed(maker, 1));
        ISpotMarket.Order memory o = _order(1, 2e18);
        bytes memory sig = _sign(MAKER_KEY, o);
        vm.prank(taker);
        spot.fillOrder(o, sig, 1e18);
        assertEq(_state(o).filledCh, 1e18);
    }
}
