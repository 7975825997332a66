// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {DelayedOrders} from "../../contracts/libraries/DelayedOrders.sol";
import {IDelayedOrderErrors} from "../../contracts/interfaces/markets/IDelayedOrders.sol";

/// @notice DelayedOrders against a reference set: after any sequence of commits and takes the enumerable key list
///         holds exactly the pending keys, each order's slot points at its key, and the timing rules hold at their
///         boundaries (executable from commit + minDelay + 1 through commit + maxDelay, cancellable after).
contract DelayedOrdersTest is Test {
    using DelayedOrders for DelayedOrders.Book;

    DelayedOrders.Book internal book;

    function _order(int128 size) internal pure returns (DelayedOrders.Order memory o) {
        o.sizeDeltaCh = size;
        o.acceptablePriceWad = 1e18;
    }

    /// @dev Drives `ops` commit/take steps over 8 accounts, keeping a reference `pending` bitmap.
    function testFuzz_book_matchesReferenceSet(uint256 seed, uint256 ops) public {
        ops = bound(ops, 1, 60);
        uint256 pending; // bit a set when account a has an order
        vm.warp(1_000);
        for (uint256 i; i < ops; ++i) {
            uint256 r = uint256(keccak256(abi.encode(seed, i)));
            uint256 a = r % 8;
            bytes32 k = DelayedOrders.key(address(uint160(a + 1)), uint96(r >> 200) % 2);
            // tag must be part of the reference identity: use a 16-bit map (account × tag)
            uint256 bit = 1 << (a * 2 + (uint256(k) >> 160));
            if ((r >> 8) & 1 == 0) {
                if (pending & bit != 0) {
                    vm.expectRevert();
                    this.commitExt(k);
                } else {
                    book.commit(k, _order(int128(int256(i + 1))));
                    pending |= bit;
                }
            } else {
                if (pending & bit == 0) {
                    vm.expectRevert(
                        abi.encodeWithSelector(
                            IDelayedOrderErrors.DelayedOrderAlreadyDone.selector,
                            address(uint160(a + 1))
                        )
                    );
                    this.takeExt(k);
                } else {
                    (DelayedOrders.Order memory o, ) = book.take(k);
                    assertGt(o.commitTime, 0);
                    pending &= ~bit;
                }
            }
            _checkConsistent(pending);
        }
    }

    function _checkConsistent(uint256 pending) internal view {
        uint256 n;
        for (uint256 b; b < 16; ++b) if (pending & (1 << b) != 0) ++n;
        assertEq(book.keys.length, n, "key count");
        uint256 seen;
        for (uint256 i; i < book.keys.length; ++i) {
            bytes32 k = book.keys[i];
            assertEq(book.orders[k].slot, i + 1, "slot");
            uint256 acct = uint160(DelayedOrders.accountOf(k)) - 1;
            uint256 bit = 1 << (acct * 2 + (uint256(k) >> 160));
            assertTrue(pending & bit != 0, "unexpected key");
            assertTrue(seen & bit == 0, "duplicate key");
            seen |= bit;
        }
    }

    function commitExt(bytes32 k) external {
        book.commit(k, _order(1));
    }

    function takeExt(bytes32 k) external {
        book.take(k);
    }

    function requireExecutableExt(
        DelayedOrders.Order memory o,
        uint256 minD,
        uint256 maxD
    ) external view returns (uint256) {
        return DelayedOrders.requireExecutable(o, address(this), minD, maxD);
    }

    function requireExpiredExt(DelayedOrders.Order memory o, uint256 maxD) external view {
        DelayedOrders.requireExpired(o, address(this), maxD);
    }

    function testFuzz_key_roundTrip(address account, uint96 tag) public pure {
        bytes32 k = DelayedOrders.key(account, tag);
        assertEq(DelayedOrders.accountOf(k), account);
        assertEq(uint256(k) >> 160, tag);
    }

    function testFuzz_timing_boundaries(uint40 commitTime, uint256 minD, uint256 extra) public {
        commitTime = uint40(bound(commitTime, 1, type(uint32).max));
        minD = bound(minD, 0, 1 days);
        uint256 maxD = minD + 1 + bound(extra, 0, 1 days);
        DelayedOrders.Order memory o = _order(1);
        o.commitTime = commitTime;
        uint256 t = uint256(commitTime) + minD;
        // at T: not ready
        vm.warp(t);
        vm.expectRevert(
            abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderNotReady.selector, address(this), t + 1)
        );
        this.requireExecutableExt(o, minD, maxD);
        // from T + 1 through commit + maxDelay: executable at price time T
        vm.warp(t + 1);
        assertEq(this.requireExecutableExt(o, minD, maxD), t);
        vm.warp(uint256(commitTime) + maxD);
        assertEq(this.requireExecutableExt(o, minD, maxD), t);
        vm.expectRevert(
            abi.encodeWithSelector(
                IDelayedOrderErrors.DelayedOrderNotExpired.selector,
                address(this),
                commitTime + maxD
            )
        );
        this.requireExpiredExt(o, maxD);
        // after: expired, cancellable
        vm.warp(uint256(commitTime) + maxD + 1);
        vm.expectRevert(
            abi.encodeWithSelector(IDelayedOrderErrors.DelayedOrderExpired.selector, address(this), commitTime + maxD)
        );
        this.requireExecutableExt(o, minD, maxD);
        this.requireExpiredExt(o, maxD);
    }

    function test_firstDue_scansInOrderAndReportsExpiry() public {
        vm.warp(100);
        book.commit(DelayedOrders.key(address(1), 0), _order(1));
        vm.warp(110);
        book.commit(DelayedOrders.key(address(2), 0), _order(2));
        // minDelay 5, maxDelay 20: at 106 the first is ready (t = 105)
        vm.warp(106);
        (bool found, bytes32 k, bool expired, uint256 t) = book.firstDue(5, 20, 10);
        assertTrue(found);
        assertEq(DelayedOrders.accountOf(k), address(1));
        assertFalse(expired);
        assertEq(t, 105);
        // at 121 the first has expired (100 + 20 < 121)
        vm.warp(121);
        (found, k, expired, ) = book.firstDue(5, 20, 10);
        assertTrue(found && expired);
        assertEq(DelayedOrders.accountOf(k), address(1));
        // scan 0 finds nothing
        (found, , , ) = book.firstDue(5, 20, 0);
        assertFalse(found);
    }
}
