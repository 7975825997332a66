// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IKeeperCompatible, IKeeperChecker, IKeeperUpkeep} from "../interfaces/keepers/IKeeperCompatible.sol";

/// @title MockKeeperTarget
/// @notice Test-only maintenance target for the keeper framework: work items that become due at a timestamp,
///         a permissionless `execute(id)` paying a bounded bounty, typed "already done" reverts, and both vendor
///         checker shapes. Priority items stand for bad-debt / liveness work (never skipped on a gas spike).
///         Never deployed to a real network.
contract MockKeeperTarget is IKeeperCompatible {
    /// @notice A work item, packed in one slot.
    struct Item {
        uint64 dueAt;
        uint96 bountyWei;
        bool priority;
        bool done;
    }

    /// @notice A due item as returned by the paged scan.
    struct DueItem {
        uint256 id;
        uint256 bountyWei;
        bool priority;
    }

    /// @notice Upper bound on any bounty paid, whatever an item asks (bounded, gas-aware bounties; SPEC section 10).
    uint256 public constant MAX_BOUNTY_WEI = 0.01 ether;
    /// @notice How many items `checker()` / `checkUpkeep()` look at from the cursor (bounded view).
    uint256 public constant CHECK_WINDOW = 200;

    Item[] private _items;
    /// @notice Lowest id that may still be pending (advanced lazily by executions; a hint for the checkers).
    uint256 public cursor;
    /// @notice Number of successful executions.
    uint256 public executedCount;

    /// @notice Thrown when `id` was already executed (by anyone): keepers treat it as success.
    /// @param id The item.
    error KeeperTargetAlreadyDone(uint256 id);
    /// @notice Thrown when `id` is not due yet.
    /// @param id The item.
    /// @param dueAt When it becomes due (unix seconds).
    /// @param nowTs The current block timestamp.
    error KeeperTargetNotDue(uint256 id, uint256 dueAt, uint256 nowTs);
    /// @notice Thrown when `id` does not exist.
    /// @param id The item.
    /// @param count Number of items.
    error KeeperTargetUnknownItem(uint256 id, uint256 count);
    /// @notice Thrown when the bounty transfer to the keeper fails.
    /// @param keeper The caller.
    /// @param bountyWei The amount.
    error KeeperTargetBountyFailed(address keeper, uint256 bountyWei);

    /// @notice Emitted when items are added.
    /// @param firstId First new id.
    /// @param count Number added.
    /// @param dueAt When they become due.
    /// @param priority Whether they are priority work.
    event ItemsAdded(uint256 firstId, uint256 count, uint64 dueAt, bool priority);
    /// @notice Emitted when an item is executed.
    /// @param id The item.
    /// @param keeper Who executed it.
    /// @param bountyWei Bounty paid.
    /// @param executedCount Executions so far (post-state).
    event ItemExecuted(uint256 indexed id, address indexed keeper, uint256 bountyWei, uint256 executedCount);

    /// @notice Funds bounties.
    receive() external payable {}

    /// @notice Adds `count` items due at `dueAt` (test helper, open to anyone).
    /// @param count Number of items.
    /// @param dueAt Unix time at which they become due.
    /// @param priority Whether they are priority (bad-debt / liveness) work.
    /// @param bountyWei Bounty each item asks (capped at MAX_BOUNTY_WEI when paid).
    function addItems(uint256 count, uint64 dueAt, bool priority, uint96 bountyWei) external {
        uint256 first = _items.length;
        for (uint256 i = 0; i < count; ++i) {
            _items.push(Item({dueAt: dueAt, bountyWei: bountyWei, priority: priority, done: false}));
        }
        emit ItemsAdded(first, count, dueAt, priority);
    }

    /// @notice Number of items ever added.
    /// @return The count.
    function itemCount() external view returns (uint256) {
        return _items.length;
    }

    /// @notice One item.
    /// @param id The item.
    /// @return The item.
    function item(uint256 id) external view returns (Item memory) {
        return _items[id];
    }

    /// @notice Whether `id` exists, is not done and is due now.
    /// @param id The item.
    /// @return True when `execute(id)` would succeed.
    function isDue(uint256 id) public view returns (bool) {
        if (id >= _items.length) return false;
        Item memory it = _items[id];
        return !it.done && it.dueAt <= block.timestamp;
    }

    /// @notice Due items among ids [start, start + limit): the caller-paged scan keepers use.
    /// @param start First id.
    /// @param limit Page size.
    /// @return due The due items of the page.
    function dueItems(uint256 start, uint256 limit) external view returns (DueItem[] memory due) {
        uint256 end = start + limit;
        if (end > _items.length) end = _items.length;
        uint256 n = 0;
        due = new DueItem[](end > start ? end - start : 0);
        for (uint256 id = start; id < end; ++id) {
            Item memory it = _items[id];
            if (!it.done && it.dueAt <= block.timestamp) {
                due[n++] = DueItem({id: id, bountyWei: _bountyOf(it), priority: it.priority});
            }
        }
        // solhint-disable-next-line no-inline-assembly
        assembly {
            mstore(due, n)
        }
    }

    /// @notice Executes a due item and pays the caller its bounded bounty. Permissionless.
    /// @param id The item.
    function execute(uint256 id) external {
        _execute(id);
    }

    /// @notice Executes every due, not-done item of `ids` in one transaction and pays the summed bounty; skips
    ///         items that are done or not due. Reverts KeeperTargetAlreadyDone(ids[0]) when nothing was left to do,
    ///         so a keeper that lost the whole batch to another reads "already done". Caller-paged (bounded by ids).
    /// @param ids Items to execute.
    /// @return executed Number of items executed.
    function executeBatch(uint256[] calldata ids) external returns (uint256 executed) {
        uint256 count = _items.length;
        uint256 bounty = 0;
        uint256 total = executedCount;
        for (uint256 i = 0; i < ids.length; ++i) {
            uint256 id = ids[i];
            if (id >= count) continue;
            Item storage it = _items[id];
            if (it.done || it.dueAt > block.timestamp) continue;
            it.done = true;
            ++executed;
            uint256 b = _bountyOf(it);
            bounty += b;
            emit ItemExecuted(id, msg.sender, b, ++total);
        }
        if (executed == 0) revert KeeperTargetAlreadyDone(ids.length > 0 ? ids[0] : 0);
        executedCount = total;
        if (bounty > address(this).balance) bounty = address(this).balance;
        if (bounty > 0) {
            (bool ok, ) = payable(msg.sender).call{value: bounty}("");
            if (!ok) revert KeeperTargetBountyFailed(msg.sender, bounty);
        }
    }

    /// @inheritdoc IKeeperChecker
    function checker() external view returns (bool canExec, bytes memory execPayload) {
        (bool found, uint256 id) = _firstDue();
        if (!found) return (false, bytes(""));
        return (true, abi.encodeCall(this.execute, (id)));
    }

    /// @inheritdoc IKeeperUpkeep
    function checkUpkeep(bytes calldata) external view returns (bool upkeepNeeded, bytes memory performData) {
        (bool found, uint256 id) = _firstDue();
        if (!found) return (false, bytes(""));
        return (true, abi.encode(id));
    }

    /// @inheritdoc IKeeperUpkeep
    function performUpkeep(bytes calldata performData) external {
        _execute(abi.decode(performData, (uint256)));
    }

    function _execute(uint256 id) private {
        uint256 count = _items.length;
        if (id >= count) revert KeeperTargetUnknownItem(id, count);
        Item storage it = _items[id];
        if (it.done) revert KeeperTargetAlreadyDone(id);
        if (it.dueAt > block.timestamp) revert KeeperTargetNotDue(id, it.dueAt, block.timestamp);
        it.done = true;
        uint256 executed = ++executedCount;
        uint256 c = cursor;
        while (c < count && _items[c].done && c < id + 1) ++c;
        cursor = c;
        uint256 bounty = _bountyOf(it);
        if (bounty > address(this).balance) bounty = address(this).balance;
        emit ItemExecuted(id, msg.sender, bounty, executed);
        if (bounty > 0) {
            (bool ok, ) = payable(msg.sender).call{value: bounty}("");
            if (!ok) revert KeeperTargetBountyFailed(msg.sender, bounty);
        }
    }

    function _firstDue() private view returns (bool, uint256) {
        uint256 count = _items.length;
        uint256 end = cursor + CHECK_WINDOW;
        if (end > count) end = count;
        for (uint256 id = cursor; id < end; ++id) {
            if (isDue(id)) return (true, id);
        }
        return (false, 0);
    }

    function _bountyOf(Item memory it) private pure returns (uint256) {
        return it.bountyWei > MAX_BOUNTY_WEI ? MAX_BOUNTY_WEI : it.bountyWei;
    }
}
