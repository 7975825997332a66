// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";

/// @title DeliveryAccounting
/// @notice What an ended CH task of a delivery order cost and returned (DeliveryOrders.claimTask), read from the
///         TaskRegistry's task view: the order is the task's client, so the refund the TaskRegistry paid is
///         `maxPayment − executor price (accepted) − council fees reserved (accepted, rejected)`.
library DeliveryAccounting {
    /// @notice Whether a task status is final.
    function ended(ITaskRegistry.Status s) internal pure returns (bool) {
        return uint8(s) >= uint8(ITaskRegistry.Status.Accepted);
    }

    /// @notice CH consumed (paid to the executor, burned against its liability) and refunded to the client.
    /// @dev Cancelled, Expired and Unresolved tasks release their whole escrow. A verdict reserves the fees of the
    ///      council members who voted with it: exactly `votes × fee` in the first round; after a dispute the
    ///      first-round members judged with the verdict are added, which the view cannot count, so every seat of
    ///      both councils (3n + 1) is assumed — the refund credited never exceeds the refund paid (the rest, at
    ///      most the unused seats' fees, stays unattributed; docs/futures.md).
    function outcome(ITaskRegistry.Task memory k) internal pure returns (uint256 consumedCh, uint256 refundedCh) {
        uint256 maxPayment = k.maxPayment;
        if (k.status != ITaskRegistry.Status.Accepted && k.status != ITaskRegistry.Status.Rejected) {
            return (0, maxPayment);
        }
        bool accepted = k.status == ITaskRegistry.Status.Accepted;
        uint256 seats = k.round == 0 ? (accepted ? k.agree : k.disagree) : 3 * uint256(k.councilSize) + 1;
        uint256 council = seats * k.councilFee;
        consumedCh = accepted ? k.price : 0;
        uint256 spent = consumedCh + council;
        refundedCh = spent < maxPayment ? maxPayment - spent : 0;
    }
}
