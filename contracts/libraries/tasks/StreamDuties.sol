// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "../../interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksTypes} from "../../interfaces/tasks/IStreamTasksTypes.sol";
import {IStreamTasksErrors} from "../../interfaces/tasks/IStreamTasksErrors.sol";
import {IStreamTasksVerdictEvents} from "../../interfaces/tasks/IStreamTasksVerdictEvents.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {StreamTasksStorage} from "./StreamStorage.sol";
import {StreamRequests} from "./StreamRequests.sol";

/// @title StreamDuties
/// @notice StreamTasks' council duties (issue 21 item 4, TSK-08): a member's consensus answers the client's receipts
///         left unpaid are claimed from the deposit with the client penalty; a member that leaves stays bound to the
///         requests asked so far and its subscription lock is held until their slash window ends. Linked as an
///         external library (delegatecall: StreamTasks' storage, `msg.sender`).
library StreamDuties {
    using SafeERC20 for IERC20;

    uint256 private constant BPS = 10_000;

    /// @notice Item 4.2: credits the caller's consensus answers; if the receipts settled for it count fewer answers,
    ///         pays the shortfall at its price plus the client penalty from the deposit (capped by what is there).
    function claim(
        StreamTasksStorage.Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        IStreamTasks.Stream storage s,
        StreamTasksStorage.Sub storage sub,
        address token,
        uint256 id,
        uint32[] calldata rs
    ) external {
        if (s.status == IStreamTasks.Status.Closed && block.timestamp > s.closesAt) {
            revert IStreamTasksErrors.StreamWrongStatus(id, s.status);
        }
        uint32 credited = _credit(b, p, id, rs);
        uint64 paid = sub.paid;
        if (credited <= paid) revert IStreamTasksErrors.StreamNothingOwed(msg.sender);
        uint64 unpaid = credited - paid;
        uint256 owed = uint256(unpaid) * sub.price;
        uint256 d = s.deposit;
        uint256 amount = owed < d ? owed : d;
        uint256 penalty = (owed * p.clientPenaltyBps) / BPS;
        if (penalty > d - amount) penalty = d - amount;
        uint128 left = uint128(d - amount - penalty);
        s.deposit = left;
        sub.paid = credited;
        sub.paidAmount += uint128(amount);
        emit IStreamTasksVerdictEvents.UnpaidClaimed(id, msg.sender, credited, unpaid, amount, penalty, left);
        if (amount + penalty != 0) IERC20(token).safeTransfer(msg.sender, amount + penalty);
    }

    function _credit(
        StreamTasksStorage.Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        uint256 id,
        uint32[] calldata rs
    ) private returns (uint32 credited) {
        IStreamTasksTypes.Duty storage d = b.duties[id][msg.sender];
        credited = d.credited;
        for (uint256 i; i < rs.length; ++i) {
            uint32 r = rs[i];
            IStreamTasksTypes.Request storage q = StreamRequests.request(
                b,
                id,
                r,
                IStreamTasksTypes.RequestPhase.Resolved
            );
            uint256 due = uint256(StreamRequests.endOf(q)) + p.payGraceSec;
            if (block.timestamp <= due) revert IStreamTasksErrors.StreamOutsideWindow(block.timestamp, due, 0);
            IStreamTasksTypes.Answer storage a = b.answers[id][r][msg.sender];
            if (a.answer == 0 || a.answer != q.answer || a.credited) {
                revert IStreamTasksErrors.StreamAnswerRejected(msg.sender);
            }
            a.credited = true;
            ++credited;
        }
        d.credited = credited;
    }

    /// @notice TSK-08, on unsubscribe (after its event): the member stays bound to the requests asked so far; if one
    ///         of them is still slashable its lock is held until that window ends. Returns the lock to release now (0
    ///         if held).
    function leave(
        StreamTasksStorage.Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        StreamTasksStorage.Sub storage sub,
        uint256 id
    ) internal returns (uint96 locked) {
        locked = sub.lockedDps;
        IStreamTasksTypes.Duty storage d = b.duties[id][msg.sender];
        uint32 count = b.count[id];
        d.toRequest = count;
        if (count != 0 && count >= d.fromRequest) {
            uint256 until = uint256(b.lastAt[id]) + StreamRequests.lifetime(p) + p.slashWindowSec;
            // @dev The duty blocks re-joining (which would reset the range) even when no lock is configured.
            if (until >= block.timestamp) {
                d.lockUntil = uint40(until);
                if (locked != 0) {
                    emit IStreamTasksVerdictEvents.DutyLockHeld(id, msg.sender, locked, uint40(until));
                    return 0;
                }
            }
        }
        if (locked != 0) sub.lockedDps = 0;
    }

    /// @notice Releases a former member's held lock once its duty's slash window is over.
    function releaseLock(
        StreamTasksStorage.Book storage b,
        StreamTasksStorage.Sub storage sub,
        address registry,
        uint256 id,
        address provider
    ) external {
        IStreamTasksTypes.Duty storage d = b.duties[id][provider];
        uint96 locked = sub.lockedDps;
        if (sub.active || locked == 0 || d.lockUntil >= block.timestamp) {
            revert IStreamTasksErrors.StreamDutyPending(d.lockUntil);
        }
        (sub.lockedDps, d.lockUntil) = (0, 0);
        emit IStreamTasksVerdictEvents.DutyLockReleased(id, provider, locked);
        address[] memory one = new address[](1);
        one[0] = provider;
        IProviderRegistry(registry).releaseStake(one, locked);
    }
}
