// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {TaskCommon} from "../tasks/TaskCommon.sol";

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
    ///      Keeper bounties (issue 21 item 6) leave the escrow too: the task counts those it paid (`flags` bits 2–4,
    ///      one `maxPayment × KEEPER_BOUNTY_BPS` each), and a CH redemption's failure-report bounty held in escrow
    ///      (bit 1) is not part of the refund (DeliveryOrders.reportFailure credits it if it comes back).
    function outcome(ITaskRegistry.Task memory k) internal pure returns (uint256 consumedCh, uint256 refundedCh) {
        uint256 maxPayment = k.maxPayment;
        uint256 bounty = (maxPayment * TaskCommon.KEEPER_BOUNTY_BPS) / TaskCommon.BPS;
        uint256 spent = ((k.flags >> 2) & 7) * bounty + (k.flags & 2 != 0 ? bounty : 0);
        if (k.status == ITaskRegistry.Status.Accepted || k.status == ITaskRegistry.Status.Rejected) {
            bool accepted = k.status == ITaskRegistry.Status.Accepted;
            uint256 seats = k.round == 0 ? (accepted ? k.agree : k.disagree) : 3 * uint256(k.councilSize) + 1;
            consumedCh = accepted ? k.price : 0;
            spent += consumedCh + seats * k.councilFee;
        }
        refundedCh = spent < maxPayment ? maxPayment - spent : 0;
    }
}
