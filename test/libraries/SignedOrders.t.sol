// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {SignedOrders} from "../../contracts/libraries/orders/SignedOrders.sol";
import {SpotDigests} from "../../contracts/libraries/spot/SpotDigests.sol";
import {ISpotMarket} from "../../contracts/interfaces/markets/ISpotMarket.sol";
import {signDigest} from "../utils/Signatures.sol";

/// @dev A market in miniature: one SignedOrders book and the SpotMarket's digest (its own address is the domain's
///      verifying contract, as in the market).
contract SignedBookHarness {
    SignedOrders.Book internal book;

    function digest(ISpotMarket.Order calldata o) external view returns (bytes32) {
        return SpotDigests.orderDigest(SpotDigests.domain(), o);
    }

    function consume(ISpotMarket.Order calldata o, uint256 amount, bytes calldata sig) external returns (uint256) {
        bytes32 d = SpotDigests.orderDigest(SpotDigests.domain(), o);
        return SignedOrders.consume(book, d, o.maker, o.nonce, o.expiry, o.amountCh, amount, sig);
    }

    function cancel(ISpotMarket.Order calldata o) external returns (uint256) {
        return SignedOrders.cancel(book, SpotDigests.orderDigest(SpotDigests.domain(), o), o.maker, o.nonce);
    }

    function raiseMinNonce(uint256 n) external {
        SignedOrders.raiseMinNonce(book, n);
    }

    function useNonce(address maker, uint256 n) external {
        SignedOrders.useNonce(book, maker, n);
    }

    function filled(bytes32 d) external view returns (uint256) {
        return book.orders[d].filled;
    }
}

/// @notice SignedOrders and the SpotMarket digest against hand-computed references: the EIP-712 digest equals
///         keccak256(0x1901 ‖ domainSeparator ‖ structHash) built here field by field from the type strings, and
///         changes with the chain id and the verifying contract (SEC-03); a signed order is never filled beyond its
///         amount, after its expiry, after cancellation, below the maker's minimum nonce, or under a nonce another
///         order claimed (MKT-06, SEC-03); a high-s (malleable) signature is rejected; the nonce bitmap matches a
///         reference set.
contract SignedOrdersTest is Test {
    SignedBookHarness internal h;
    uint256 internal makerKey = 0xA11CE;
    address internal maker;

    function setUp() public {
        h = new SignedBookHarness();
        maker = vm.addr(makerKey);
        vm.warp(1_000_000);
    }

    function _order(uint256 amount, uint256 nonce, uint64 expiry) internal view returns (ISpotMarket.Order memory o) {
        o = ISpotMarket.Order(maker, true, amount, 2e18, nonce, expiry, address(0));
    }

    function _sign(ISpotMarket.Order memory o) internal view returns (bytes memory) {
        return signDigest(makerKey, h.digest(o));
    }

    /// @dev The digest by hand: the type strings spelled out here, the domain from its four fields.
    function _refDigest(
        ISpotMarket.Order memory o,
        uint256 chainId,
        address verifying
    ) internal pure returns (bytes32) {
        bytes32 domainSep = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("CHX Spot"),
                keccak256("1"),
                chainId,
                verifying
            )
        );
        bytes32 structHash = keccak256(
            abi.encode(
                keccak256(
                    "Order(address maker,bool isBuy,uint256 amountCh,uint256 priceWad,uint256 nonce,uint64 expiry,address taker)"
                ),
                o.maker,
                o.isBuy,
                o.amountCh,
                o.priceWad,
                o.nonce,
                o.expiry,
                o.taker
            )
        );
        return keccak256(abi.encodePacked(hex"1901", domainSep, structHash));
    }

    // ───────────────────────────── digest (SEC-03) ─────────────────────────────

    function testFuzz_digest_matchesHandComputed(
        address mk,
        bool isBuy,
        uint256 amount,
        uint256 price,
        uint256 nonce,
        uint64 expiry,
        address taker,
        uint64 chainId
    ) public {
        ISpotMarket.Order memory o = ISpotMarket.Order(mk, isBuy, amount, price, nonce, expiry, taker);
        chainId = uint64(bound(chainId, 1, type(uint64).max));
        vm.chainId(chainId);
        bytes32 d = h.digest(o);
        assertEq(d, _refDigest(o, chainId, address(h)), "digest");
        // another chain or another verifying contract signs something else
        vm.chainId(chainId == 1 ? 2 : chainId - 1);
        assertTrue(h.digest(o) != d, "chain id not bound");
        vm.chainId(chainId);
        assertTrue(new SignedBookHarness().digest(o) != d, "verifying contract not bound");
    }

    // ───────────────────────────── fills (MKT-06) ─────────────────────────────

    /// @dev MKT-06: any sequence of fills books exactly the reference sum and never more than the amount.
    function testFuzz_fills_neverBeyondAmount(uint256 amount, uint256 seed, uint256 steps) public {
        amount = bound(amount, 1, 1e30);
        steps = bound(steps, 1, 12);
        ISpotMarket.Order memory o = _order(amount, 7, uint64(block.timestamp + 1 days));
        bytes memory sig = _sign(o);
        uint256 ref;
        for (uint256 i; i < steps; ++i) {
            uint256 want = bound(uint256(keccak256(abi.encode(seed, i))), 1, amount);
            if (ref + want > amount) {
                vm.expectRevert(
                    abi.encodeWithSelector(SignedOrders.SignedOrderOverfill.selector, h.digest(o), want, amount - ref)
                );
                h.consume(o, want, sig);
            } else {
                assertEq(h.consume(o, want, sig), ref + want);
                ref += want;
            }
            assertEq(h.filled(h.digest(o)), ref);
        }
    }

    /// @dev Expiry is inclusive: fillable at `expiry`, not one second after.
    function testFuzz_expiry_boundary(uint64 ahead) public {
        ahead = uint64(bound(ahead, 0, 365 days));
        ISpotMarket.Order memory o = _order(10, 1, uint64(block.timestamp + ahead));
        bytes memory sig = _sign(o);
        vm.warp(o.expiry);
        h.consume(o, 1, sig);
        vm.warp(uint256(o.expiry) + 1);
        vm.expectRevert(
            abi.encodeWithSelector(SignedOrders.SignedOrderExpired.selector, h.digest(o), o.expiry, o.expiry + 1)
        );
        h.consume(o, 1, sig);
    }

    // ───────────────────────────── replay and cancelled nonces (SEC-03) ─────────────────────────────

    /// @dev A second order under a nonce the first one claimed (by a fill or a cancel) is rejected; the first
    ///      order itself keeps filling after a fill (its stored fill proves the nonce and signature were checked).
    function testFuzz_nonceClaimedOnce(uint256 nonce, uint256 amount, bool byCancel) public {
        amount = bound(amount, 2, 1e24);
        ISpotMarket.Order memory a = _order(amount, nonce, uint64(block.timestamp + 1 hours));
        ISpotMarket.Order memory b = _order(amount + 1, nonce, uint64(block.timestamp + 1 hours));
        bytes memory sigA = _sign(a);
        if (byCancel) {
            vm.prank(maker);
            h.cancel(a);
            vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderCancelled.selector, h.digest(a)));
            h.consume(a, 1, sigA);
        } else {
            h.consume(a, 1, sigA);
            h.consume(a, 1, sigA); // the same order, second fill: fine
        }
        bytes memory sigB = _sign(b);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, nonce));
        h.consume(b, 1, sigB);
    }

    /// @dev Only the maker cancels; cancelling twice is idempotent and returns what was filled.
    function testFuzz_cancel_onlyMaker(address caller, uint256 fill) public {
        vm.assume(caller != maker);
        fill = bound(fill, 1, 100);
        ISpotMarket.Order memory o = _order(100, 3, uint64(block.timestamp + 1 hours));
        h.consume(o, fill, _sign(o));
        vm.prank(caller);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNotMaker.selector, caller, maker));
        h.cancel(o);
        vm.prank(maker);
        assertEq(h.cancel(o), fill);
        vm.prank(maker);
        assertEq(h.cancel(o), fill);
    }

    /// @dev Raising the minimum nonce voids every older order, filled or not; it must strictly increase.
    function testFuzz_minNonce_voidsOlder(uint256 minNonce, uint256 nonce) public {
        minNonce = bound(minNonce, 1, type(uint256).max);
        ISpotMarket.Order memory o = _order(10, nonce, uint64(block.timestamp + 1 hours));
        bytes memory sig = _sign(o);
        vm.prank(maker);
        h.raiseMinNonce(minNonce);
        if (nonce < minNonce) {
            vm.expectRevert(
                abi.encodeWithSelector(SignedOrders.SignedOrderNonceBelowMinimum.selector, maker, nonce, minNonce)
            );
        }
        h.consume(o, 1, sig);
        vm.prank(maker);
        vm.expectRevert(
            abi.encodeWithSelector(SignedOrders.SignedOrderNonceNotIncreasing.selector, maker, minNonce, minNonce)
        );
        h.raiseMinNonce(minNonce);
    }

    /// @dev SEC-03: the malleable twin (s' = n − s, v flipped) of a valid signature is rejected, as is another key's.
    function testFuzz_signature_malleableAndForeignRejected(uint256 otherKey) public {
        otherKey = bound(otherKey, 1, 1e60);
        vm.assume(otherKey != makerKey);
        ISpotMarket.Order memory o = _order(10, 5, uint64(block.timestamp + 1 hours));
        bytes32 d = h.digest(o);
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(makerKey, d);
        uint256 n = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141;
        bytes memory twin = abi.encodePacked(r, bytes32(n - uint256(s)), v == 27 ? uint8(28) : uint8(27));
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderInvalidSignature.selector, maker, d));
        h.consume(o, 1, twin);
        (v, r, s) = vm.sign(otherKey, d);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderInvalidSignature.selector, maker, d));
        h.consume(o, 1, abi.encodePacked(r, s, v));
        h.consume(o, 1, _sign(o)); // the genuine one still works: nothing was claimed by the failures
    }

    /// @dev The nonce bitmap against a reference set over 32 nonces in 8 bitmap words (bits 0..3 of each, so
    ///      repeats are frequent and word boundaries are crossed).
    function testFuzz_nonceBitmap_matchesReferenceSet(uint256 seed, uint256 steps) public {
        steps = bound(steps, 1, 40);
        bool[32] memory used;
        for (uint256 i; i < steps; ++i) {
            uint256 r = uint256(keccak256(abi.encode(seed, i)));
            uint256 k = r % 32;
            uint256 n = (k / 4) * 256 + (k % 4);
            if (used[k]) vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, n));
            h.useNonce(maker, n);
            used[k] = true;
        }
    }
}
