// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSolBase} from "../../helpers/FuturesSolBase.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/markets/IFuturesErrors.sol";
import {SeriesId, SeriesIdLib, SeriesSet} from "../../../contracts/types/SeriesId.sol";

/// @notice SeriesId (contracts/types/SeriesId.sol): the order-key packing round-trips, and an id wider than the
///         key's 96-bit tag names no series instead of aliasing a listed one by truncation.
contract FuturesSeriesIdTest is FuturesSolBase {
    address internal alice = makeAddr("alice");
    address internal mallory = makeAddr("mallory");
    uint256 internal id;

    function setUp() public {
        _deployFutures();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(alice, guarantor, 10_000e6);
        id = futures.listSeries(uint64(block.timestamp + 10 days), 1_000_000e18);
    }

    /// An id of 2^96 + 1 truncated to the key's 96-bit tag is series 1: it must neither show nor cancel alice's
    /// series-1 order (the cancellation would emit OrderCancelled for a series that does not exist).
    function test_aliasedSeriesId_cannotCancelOrShowAnotherSeriesOrder() public {
        vm.prank(alice);
        futures.commitOrder(id, 10e18, 0);
        vm.warp(block.timestamp + 301); // past the order's expiry: anyone may cancel it
        uint256 alias_ = id + (uint256(1) << 96);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesSeriesUnknown.selector, alias_));
        futures.pendingOrder(alias_, alice);
        vm.prank(mallory);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesSeriesUnknown.selector, alias_));
        futures.cancelOrder(alice, alias_);
        assertGt(futures.pendingOrder(id, alice).commitTime, 0, "alice's order is untouched");
    }

    /// The key packs the id above the account and unpacks to both.
    function testFuzz_orderKey_roundTrips(uint96 raw, address account) public pure {
        SeriesId sid = SeriesId.wrap(raw);
        bytes32 k = sid.orderKey(account);
        assertEq(SeriesId.unwrap(SeriesIdLib.ofOrderKey(k)), raw);
        assertEq(SeriesIdLib.accountOfOrderKey(k), account);
        assertEq(sid.isNone(), raw == 0);
        assertEq(SeriesId.unwrap(SeriesIdLib.nth(raw)), raw);
    }

    /// SeriesSet against a reference array: random adds (up to 8, ids ≥ 1, distinct) and removals (swap with the
    /// last, as the array version did) keep the same ids in the same lanes.
    function testFuzz_seriesSet_matchesArrayReference(uint32[16] memory seeds, uint16 ops) public pure {
        SeriesSet set;
        uint256[] memory ref = new uint256[](8);
        uint256 n;
        for (uint256 k; k < 16; ++k) {
            uint256 id = (uint256(seeds[k]) % 40) + 1;
            bool add = (ops >> k) & 1 == 1;
            bool present;
            uint256 at;
            for (uint256 i; i < n; ++i) {
                if (ref[i] == id) (present, at) = (true, i);
            }
            if (add && !present && n < 8) {
                set = set.pushAt(n, id);
                ref[n++] = id;
            } else if (!add) {
                (SeriesSet next, uint256 before, bool found) = set.remove(id);
                assertEq(before, n);
                assertEq(found, present);
                set = next;
                if (present) {
                    ref[at] = ref[n - 1];
                    ref[--n] = 0;
                }
            }
            assertEq(set.length(), n);
            uint256[] memory arr = set.toArray();
            assertEq(arr.length, n);
            for (uint256 i; i < n; ++i) {
                assertEq(set.at(i), ref[i]);
                assertEq(arr[i], ref[i]);
            }
        }
    }
}
