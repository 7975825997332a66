// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "../../interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksStreamEvents} from "../../interfaces/tasks/IStreamTasksStreamEvents.sol";
import {IStreamTasksErrors} from "../../interfaces/tasks/IStreamTasksErrors.sol";
import {IProviderMatcher} from "../../interfaces/compute/IProviderMatcher.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {StreamTasksStorage, StreamStorage} from "./StreamStorage.sol";
import {StreamRequests} from "./StreamRequests.sol";
import {StreamDuties} from "./StreamDuties.sol";

/// @title StreamSubscriptions
/// @notice StreamTasks' councils: an eligible executor subscribes at a price ≤ the stream's max price (the stream goes
///         live at c subscribers unless failed consensus halted it), joins the council from the next request on and
///         locks its subscription stake (TSK-08); leaving interrupts a live stream below c and keeps the lock while a
///         duty is still slashable (StreamDuties.leave). Linked as an external library (delegatecall: StreamTasks'
///         storage, `msg.sender`).
library StreamSubscriptions {
    /// @notice The caller subscribes to stream `id` at `price` (the entry checked the pause).
    function subscribe(uint256 id, uint128 price) external {
        StreamTasksStorage.Layout storage $ = StreamStorage.layout();
        IStreamTasks.Stream storage s = $.streams[id];
        IStreamTasks.Status st = s.status;
        if (st != IStreamTasks.Status.Open && st != IStreamTasks.Status.Interrupted) {
            if (st == IStreamTasks.Status.Live) revert IStreamTasksErrors.StreamFull(id);
            revert IStreamTasksErrors.StreamWrongStatus(id, st);
        }
        if (msg.sender == s.client) revert IStreamTasksErrors.StreamIneligible(msg.sender);
        if (price == 0 || price > s.maxPrice) revert IStreamTasksErrors.StreamPriceTooHigh(price, s.maxPrice);
        StreamTasksStorage.Sub storage sub = $.subs[id][msg.sender];
        if (sub.active) revert IStreamTasksErrors.StreamSubscription(msg.sender);
        _checkEligible($.matcher, msg.sender);
        uint96 leftover = _join($, id, sub);
        // @dev A returning subscriber keeps its paid count (receipts are cumulative) and takes the new price.
        (sub.price, sub.active) = (price, true);
        uint8 n = s.subscribers + 1;
        s.subscribers = n;
        // @dev Live at c subscribers — unless failed consensus interrupted it: only the client's `resume` resets that
        //      count (item 21: a subscriber leaving and re-joining must not clear the client's verdict).
        if (n >= s.executors && !StreamRequests.halted(s)) {
            st = IStreamTasks.Status.Live;
            s.status = st;
        }
        uint96 lockDps = $.subscriptionLockDps;
        if (lockDps != 0) sub.lockedDps = lockDps;
        emit IStreamTasksStreamEvents.Subscribed(id, msg.sender, price, n, st);
        // @dev TSK-08: the subscription holds stake until it ends (the registry is a protocol module).
        if (leftover != 0) IProviderRegistry($.registry).releaseStake(StreamRequests.one(msg.sender), leftover);
        if (lockDps != 0) IProviderRegistry($.registry).lockStake(StreamRequests.one(msg.sender), lockDps);
    }

    /// @notice The caller leaves stream `id`'s council.
    function unsubscribe(uint256 id) external {
        StreamTasksStorage.Layout storage $ = StreamStorage.layout();
        IStreamTasks.Stream storage s = $.streams[id];
        StreamTasksStorage.Sub storage sub = $.subs[id][msg.sender];
        if (!sub.active) revert IStreamTasksErrors.StreamSubscription(msg.sender);
        // @dev The price stays recorded so receipts for requests already answered still settle.
        sub.active = false;
        uint8 n = s.subscribers - 1;
        s.subscribers = n;
        IStreamTasks.Status st = s.status;
        if (st == IStreamTasks.Status.Live && n < s.executors) {
            st = IStreamTasks.Status.Interrupted;
            s.status = st;
        }
        emit IStreamTasksStreamEvents.Unsubscribed(id, msg.sender, n, st);
        // @dev TSK-08: a member of requests asked so far keeps its lock until their slash window ends.
        uint96 locked = StreamDuties.leave($.book, $.consensus, sub, id);
        if (locked != 0) IProviderRegistry($.registry).releaseStake(StreamRequests.one(msg.sender), locked);
    }

    /// @dev Council membership from the next request on; a duty from an earlier subscription that is still slashable
    ///      blocks re-joining (its lock is then still held). Returns a past lock to release (its duty is over).
    function _join(
        StreamTasksStorage.Layout storage $,
        uint256 id,
        StreamTasksStorage.Sub storage sub
    ) private returns (uint96 leftover) {
        IStreamTasks.Duty storage d = $.book.duties[id][msg.sender];
        if (d.lockUntil >= block.timestamp) revert IStreamTasksErrors.StreamDutyPending(d.lockUntil);
        (d.fromRequest, d.toRequest, d.lockUntil) = ($.book.count[id] + 1, type(uint32).max, 0);
        leftover = sub.lockedDps;
        sub.lockedDps = 0;
    }

    /// @dev Reverts StreamIneligible unless the matcher scores `provider` an eligible executor.
    function _checkEligible(address matcher, address provider) private view {
        IProviderMatcher.Query memory q = IProviderMatcher.Query({
            mode: IProviderMatcher.Mode.Executor,
            workloadClass: type(uint16).max,
            region: 0,
            regionStrict: false,
            budgetPriceWad: 0,
            requiredCapacityPflopsWad: 0,
            requiredCh: 0
        });
        (bool[] memory ok, ) = IProviderMatcher(matcher).scoreCandidates(q, StreamRequests.one(provider), bytes32(0));
        if (!ok[0]) revert IStreamTasksErrors.StreamIneligible(provider);
    }
}
