// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSecuritySetup} from "./FuturesSecuritySetup.sol";
import {IFuturesTypes} from "../../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../../contracts/interfaces/markets/IFuturesEvents.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {SignedOrders} from "../../../contracts/libraries/orders/SignedOrders.sol";
import {signDigest} from "../../utils/Signatures.sol";

/// @notice `matchOrders(buy, sig, sell, sig, size)`: two signed orders of one series matched by a third party, each
///         maker at its own limit price, the spread credited to the matcher, the midpoint as the curve point (issue
///         19 item 2). Attacks first: crossed orders of one maker, orders of two series, replay in another market
///         (the EIP-712 domain), a cancelled, an expired, a nonce-voided order, a taker-restricted order, a front-run
///         partial fill, a fill past a maker's margin, the trade pause.
///         Index 10, IM 10 %, fee 5 bps (FuturesSolBase).
contract FuturesMatchOrdersTest is FuturesSecuritySetup {
    address internal buyer;
    uint256 internal buyerKey;
    address internal seller;
    uint256 internal sellerKey;
    address internal matcher = makeAddr("matcher");

    function setUp() public override {
        super.setUp();
        (buyer, buyerKey) = makeAddrAndKey("buyer");
        (seller, sellerKey) = makeAddrAndKey("seller");
        _setupTrader(buyer, guarantor, 10_000e6);
        _setupTrader(seller, guarantor, 10_000e6);
    }

    function _sign(IFuturesTypes.Order memory o) internal view returns (bytes memory) {
        return signDigest(o.maker == buyer ? buyerKey : sellerKey, futures.orderDigest(o));
    }

    function _match(
        IFuturesTypes.Order memory b,
        IFuturesTypes.Order memory s,
        uint256 size
    ) internal returns (uint256, uint256) {
        bytes memory bs = _sign(b);
        bytes memory ss = _sign(s);
        vm.prank(matcher);
        return futures.matchOrders(b, bs, s, ss, size);
    }

    /// Signs both orders first (the digest is a call), then expects `err` from the match.
    function _matchReverts(
        bytes memory err,
        IFuturesTypes.Order memory b,
        IFuturesTypes.Order memory s,
        uint256 size
    ) internal {
        bytes memory bs = _sign(b);
        bytes memory ss = _sign(s);
        vm.prank(matcher);
        if (err.length == 0) vm.expectRevert();
        else vm.expectRevert(err);
        futures.matchOrders(b, bs, s, ss, size);
    }

    function test_match_eachSideAtItsOwnLimit_spreadToMatcher_midpointOnCurve() public {
        IFuturesTypes.Order memory b = _order(buyer, true, 100e18, 10.2e18, 1);
        IFuturesTypes.Order memory s = _order(seller, false, 60e18, 10e18, 1);
        bytes memory bs = _sign(b);
        bytes memory ss = _sign(s);
        bytes32 bd = futures.orderDigest(b);
        bytes32 sdg = futures.orderDigest(s);
        vm.expectEmit(address(futures));
        emit IFuturesEvents.FuturesOrdersMatched(bd, sdg, id, matcher, 40e18, 8e6, 10.1e18);
        vm.prank(matcher);
        (uint256 bf, uint256 sf) = futures.matchOrders(b, bs, s, ss, 40e18);
        assertEq(bf, 40e18);
        assertEq(sf, 40e18);
        IFuturesTypes.Position memory pb = futures.positionOf(id, buyer);
        IFuturesTypes.Position memory ps = futures.positionOf(id, seller);
        assertEq(pb.sizeCh, 40e18);
        assertEq(pb.entryPriceWad, 10.2e18);
        assertEq(ps.sizeCh, -40e18);
        assertEq(ps.entryPriceWad, 10e18);
        (uint256 owed, ) = futures.bountiesOwed(matcher);
        assertEq(owed, 8e6, "40 x 0.2");
        IFuturesTypes.CurvePoint memory c = futures.curvePoint(id);
        assertEq(c.priceWad, 10.1e18);
        // partial fills: the rest of each order matches later, then the sell is exhausted
        _match(b, s, 20e18);
        bytes32 sd = futures.orderDigest(s);
        _matchReverts(abi.encodeWithSelector(SignedOrders.SignedOrderOverfill.selector, sd, 1e18, 0), b, s, 1e18);
        assertEq(futures.positionOf(id, buyer).sizeCh, 60e18);
        // the matcher claims the spread from the pool
        vm.prank(matcher);
        futures.claimBounties(matcher);
        assertEq(usdc.balanceOf(matcher), 12e6);
    }

    function test_match_crossedOrdersOfOneMaker_reverts_FuturesSelfTrade() public {
        IFuturesTypes.Order memory b = _order(buyer, true, 10e18, 10.5e18, 1);
        IFuturesTypes.Order memory s = _order(buyer, false, 10e18, 10e18, 2);
        _matchReverts(abi.encodeWithSelector(IFuturesErrors.FuturesSelfTrade.selector, buyer), b, s, 10e18);
    }

    function test_match_sidesSeriesAndPrices_checked() public {
        IFuturesTypes.Order memory b = _order(buyer, true, 10e18, 10e18, 1);
        IFuturesTypes.Order memory s = _order(seller, false, 10e18, 10.1e18, 1);
        _matchReverts(
            abi.encodeWithSelector(IFuturesErrors.FuturesOrdersNotCrossed.selector, 10e18, 10.1e18),
            b,
            s,
            10e18
        );
        _matchReverts(abi.encodeWithSelector(IFuturesErrors.FuturesMatchSides.selector), s, b, 10e18);
        uint256 far = futures.listSeries(uint64(expiry + 30 days), 0);
        s.priceWad = 9.9e18;
        s.seriesId = far;
        _matchReverts(abi.encodeWithSelector(IFuturesErrors.FuturesMatchSeries.selector, id, far), b, s, 10e18);
        s.seriesId = id;
        s.priceWad = 0;
        b.priceWad = 0;
        _matchReverts(abi.encodeWithSelector(IFuturesErrors.FuturesZeroAmount.selector), b, s, 10e18);
    }

    /// An order signed for another market (another EIP-712 verifying contract) recovers another signer here.
    function test_match_replayFromAnotherMarket_reverts_SignedOrderInvalidSignature() public {
        IFuturesTypes.Order memory b = _order(buyer, true, 10e18, 10e18, 1);
        IFuturesTypes.Order memory s = _order(seller, false, 10e18, 10e18, 1);
        bytes memory bs = _sign(b);
        // the same struct signed under a domain whose verifying contract is another address
        bytes32 otherDomain = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("CHX Futures"),
                keccak256("1"),
                block.chainid,
                address(0xBEEF)
            )
        );
        bytes32 structHash = keccak256(
            abi.encode(
                keccak256(
                    "FuturesOrder(address maker,uint256 seriesId,bool isBuy,uint256 sizeCh,uint256 priceWad,uint256 nonce,uint64 expiry,address taker)"
                ),
                s.maker,
                s.seriesId,
                s.isBuy,
                s.sizeCh,
                s.priceWad,
                s.nonce,
                s.expiry,
                s.taker
            )
        );
        (uint8 v, bytes32 r, bytes32 sg) = vm.sign(
            sellerKey,
            keccak256(abi.encodePacked("\x19\x01", otherDomain, structHash))
        );
        vm.expectRevert(
            abi.encodeWithSelector(SignedOrders.SignedOrderInvalidSignature.selector, seller, futures.orderDigest(s))
        );
        vm.prank(matcher);
        futures.matchOrders(b, bs, s, abi.encodePacked(r, sg, v), 10e18);
        // and another chain id
        vm.chainId(block.chainid + 1);
        bytes memory ss = _sign(s);
        vm.chainId(block.chainid - 1);
        vm.expectRevert(
            abi.encodeWithSelector(SignedOrders.SignedOrderInvalidSignature.selector, seller, futures.orderDigest(s))
        );
        vm.prank(matcher);
        futures.matchOrders(b, bs, s, ss, 10e18);
        assertEq(futures.positionOf(id, buyer).sizeCh, 0);
    }

    function test_match_cancelledOrder_reverts_andLeavesTheOtherUntouched() public {
        IFuturesTypes.Order memory b = _order(buyer, true, 10e18, 10e18, 1);
        IFuturesTypes.Order memory s = _order(seller, false, 10e18, 10e18, 1);
        vm.prank(seller);
        futures.cancelSignedOrder(s);
        _matchReverts(
            abi.encodeWithSelector(SignedOrders.SignedOrderCancelled.selector, futures.orderDigest(s)),
            b,
            s,
            10e18
        );
        (uint256 filled, ) = futures.signedOrderState(b);
        assertEq(filled, 0);
    }

    function test_match_expiredAndNonceVoidedOrders_revert() public {
        IFuturesTypes.Order memory b = _order(buyer, true, 10e18, 10e18, 1);
        IFuturesTypes.Order memory s = _order(seller, false, 10e18, 10e18, 1);
        vm.warp(b.expiry + 1);
        _matchReverts(
            abi.encodeWithSelector(
                SignedOrders.SignedOrderExpired.selector,
                futures.orderDigest(b),
                b.expiry,
                block.timestamp
            ),
            b,
            s,
            10e18
        );
        b = _order(buyer, true, 10e18, 10e18, 1);
        s = _order(seller, false, 10e18, 10e18, 1);
        vm.prank(seller);
        futures.raiseMinNonce(5);
        _matchReverts(
            abi.encodeWithSelector(SignedOrders.SignedOrderNonceBelowMinimum.selector, seller, 1, 5),
            b,
            s,
            10e18
        );
    }

    function test_match_takerRestrictedOrder_onlyByItsTaker() public {
        IFuturesTypes.Order memory b = _order(buyer, true, 10e18, 10e18, 1);
        IFuturesTypes.Order memory s = _order(seller, false, 10e18, 10e18, 1);
        s.taker = alice;
        _matchReverts(
            abi.encodeWithSelector(IFuturesErrors.FuturesOrderTakerOnly.selector, alice, matcher),
            b,
            s,
            10e18
        );
        bytes memory bs = _sign(b);
        bytes memory ss = _sign(s);
        vm.prank(alice);
        futures.matchOrders(b, bs, s, ss, 10e18);
        assertEq(futures.positionOf(id, seller).sizeCh, -10e18);
    }

    /// A front-runner fills part of the sell first: the match gets only what is left, never more than signed.
    function test_match_frontRunPartialFill_cannotOverfill() public {
        IFuturesTypes.Order memory b = _order(buyer, true, 100e18, 10e18, 1);
        IFuturesTypes.Order memory s = _order(seller, false, 50e18, 10e18, 1);
        bytes memory ss = _sign(s);
        vm.prank(bob);
        futures.fillOrder(s, ss, 30e18);
        bytes32 sd = futures.orderDigest(s);
        _matchReverts(abi.encodeWithSelector(SignedOrders.SignedOrderOverfill.selector, sd, 50e18, 20e18), b, s, 50e18);
        _match(b, s, 20e18);
        assertEq(futures.positionOf(id, seller).sizeCh, -50e18);
        assertEq(futures.positionOf(id, buyer).sizeCh, 20e18);
        assertEq(futures.positionOf(id, bob).sizeCh, 30e18);
    }

    function test_match_pastAMakersMargin_reverts() public {
        IFuturesTypes.Order memory b = _order(buyer, true, 100_000e18, 10e18, 1);
        IFuturesTypes.Order memory s = _order(seller, false, 100_000e18, 10e18, 1);
        _matchReverts("", b, s, 20_000e18); // 200,000 USDC notional on 10,000 collateral, IM 10 %
        assertEq(futures.positionOf(id, buyer).sizeCh, 0);
    }

    function test_match_tradePause_blocksNewRiskNotReductions() public {
        IFuturesTypes.Order memory b = _order(buyer, true, 10e18, 10e18, 1);
        IFuturesTypes.Order memory s = _order(seller, false, 10e18, 10e18, 1);
        _match(b, s, 5e18);
        IChxModule(address(futures)).pauseFeature(keccak256("futures.trade"));
        _matchReverts(
            abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, keccak256("futures.trade")),
            b,
            s,
            5e18
        );
        // both makers reduce: the seller buys back, the buyer sells
        IFuturesTypes.Order memory sb = _order(seller, true, 5e18, 10e18, 2);
        IFuturesTypes.Order memory bsell = _order(buyer, false, 5e18, 10e18, 2);
        _match(sb, bsell, 5e18);
        assertEq(futures.positionOf(id, buyer).sizeCh, 0);
        assertEq(futures.positionOf(id, seller).sizeCh, 0);
    }
}
