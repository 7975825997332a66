// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdUtils} from "forge-std/StdUtils.sol";

/// @notice The world's steps, as the invariant test exposes them (it is the futures market DeliveryOrders serves and
///         holds the TaskSolBase helpers that drive a task through bidding, council and verdict).
interface IDeliveryWorld {
    function stepOrder(uint256 longSeed, uint256 chAmount) external;

    function stepAssign(uint256 orderSeed) external;

    function stepTask(uint256 orderSeed, uint256 executorSeed, uint256 maxPayment, uint256 price, bool good) external;

    function stepClaim(uint256 taskSeed) external;

    function stepReport(uint256 taskSeed) external;

    function stepClose(uint256 orderSeed, bool byOwner) external;

    function stepWarp(uint256 secs) external;
}

/// @notice Drives delivery orders (issue 19, docs/futures.md "Delivery as compute") through their life in any order:
///         settled electing longs' orders are created, assigned to a liable provider, consumed as tasks that an
///         executor completes or fails, failures reported (the executor slashed, the long compensated), ended tasks
///         claimed, orders closed by their owner or after the window, and time passes. Inputs are bounded here; a
///         step the world refuses (a revert) is skipped, the invariants are checked after every call (MKT-08, TSK-03).
contract FuturesDeliveryHandler is CommonBase, StdUtils {
    IDeliveryWorld internal world;
    uint256 public calls;
    uint256 public skipped;

    constructor(address world_) {
        world = IDeliveryWorld(world_);
    }

    function _do(bytes memory data) internal {
        ++calls;
        (bool ok, ) = address(world).call(data);
        if (!ok) ++skipped;
    }

    function order(uint256 longSeed, uint256 chAmount) external {
        _do(abi.encodeCall(IDeliveryWorld.stepOrder, (longSeed, bound(chAmount, 1e18, 120e18))));
    }

    function assign(uint256 orderSeed) external {
        _do(abi.encodeCall(IDeliveryWorld.stepAssign, (orderSeed)));
    }

    function task(uint256 orderSeed, uint256 executorSeed, uint256 maxPayment, uint256 pricePct, bool good) external {
        uint256 m = bound(maxPayment, 1e18, 80e18);
        uint256 price = (m * bound(pricePct, 10, 90)) / 100;
        _do(abi.encodeCall(IDeliveryWorld.stepTask, (orderSeed, executorSeed, m, price, good)));
    }

    function claim(uint256 taskSeed) external {
        _do(abi.encodeCall(IDeliveryWorld.stepClaim, (taskSeed)));
    }

    function report(uint256 taskSeed) external {
        _do(abi.encodeCall(IDeliveryWorld.stepReport, (taskSeed)));
    }

    function close(uint256 orderSeed, bool byOwner) external {
        _do(abi.encodeCall(IDeliveryWorld.stepClose, (orderSeed, byOwner)));
    }

    function warp(uint256 secs) external {
        _do(abi.encodeCall(IDeliveryWorld.stepWarp, (bound(secs, 1 hours, 12 days))));
    }
}
