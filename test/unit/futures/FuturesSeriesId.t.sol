// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSolBase} from "../../helpers/FuturesSolBase.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/IFuturesErrors.sol";
import {SeriesId, SeriesIdLib} from "../../../contracts/types/SeriesId.sol";

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
}
