// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC5267} from "@openzeppelin/contracts/interfaces/IERC5267.sol";
import {IStreamTasksTypes} from "./IStreamTasksTypes.sol";
import {IStreamTasksErrors} from "./IStreamTasksErrors.sol";
import {IStreamTasksEvents} from "./IStreamTasksEvents.sol";
import {IStreamTasksVerdictEvents} from "./IStreamTasksVerdictEvents.sol";
import {IStreamTasksStreamEvents} from "./IStreamTasksStreamEvents.sol";
import {IStreamTasksLifecycle} from "./IStreamTasksLifecycle.sol";
import {IStreamTasksCouncil} from "./IStreamTasksCouncil.sol";
import {IStreamTasksViews} from "./IStreamTasksViews.sol";

/// @title IStreamTasks
/// @notice Stream tasks (SPEC section 4, seed 004 section 3): a client opens a stream for input I and function f
///         with a deposit; providers subscribe with a per-request price; the stream is live while c subscribers
///         exist. Requests are answered off chain in one of three response modes — optimistic (one answer counts),
///         weighted (ceil(w·c) matching answers) or unanimous (all c) — and paid per answered request from the
///         deposit by batched settlement of client-signed EIP-712 receipts carrying, per provider, the cumulative
///         answered count and the cumulative amount owed for them (replay-safe: a receipt only ever pays the
///         increase over what was settled; the price of an answered request is fixed in the signed amount, so a
///         later re-subscription at another price cannot re-price it — issue 17 item 7).
/// @dev Units: prices and deposits in the currency's smallest unit; weights WAD. See docs/tasks.md.
///      EIP-712 domain: ERC-5267 `eip712Domain()` (OpenZeppelin EIP712Upgradeable; name "CHX StreamTasks", version "1").
///      On-chain consensus (issue 21 item 4): the client may put a request to the council on chain (`request`); the
///      members answer with committed hashes under the stream's mode, the most weighted answer is delivered, members
///      outside a strict majority (or silent) are slashed, and consensus answers the client leaves unpaid are claimed
///      from the deposit with a penalty. Types, errors and events of that part: IStreamTasksTypes/Errors/Events.
///      The stream types stay here; the functions are split by role (IStreamTasksLifecycle, IStreamTasksCouncil,
///      IStreamTasksViews), the errors in IStreamTasksErrors, the lifecycle events in IStreamTasksStreamEvents.
interface IStreamTasks is
    IERC5267,
    IStreamTasksTypes,
    IStreamTasksErrors,
    IStreamTasksEvents,
    IStreamTasksVerdictEvents,
    IStreamTasksStreamEvents,
    IStreamTasksLifecycle,
    IStreamTasksCouncil,
    IStreamTasksViews
{
    /// @notice Response mode.
    enum Mode {
        Optimistic,
        Weighted,
        Unanimous
    }

    /// @notice Stream status: Open (collecting subscribers) → Live (c subscribers) → Interrupted (fewer than c, or
    ///         too many failed consensus reports) → Live again (c subscribers and, after failed consensus, the
    ///         client's `resume`), or Closed (client retracted; final settlement until `closesAt`).
    enum Status {
        None,
        Open,
        Live,
        Interrupted,
        Closed
    }

    /// @notice A stream.
    struct Stream {
        address client;
        Status status;
        Mode mode;
        uint8 currency;
        uint8 executors;
        uint8 subscribers;
        uint8 failures;
        uint8 maxFailures;
        uint32 specVersion;
        uint40 closesAt;
        uint64 weightWad;
        uint128 maxPrice;
        uint128 deposit;
        bytes32 inputHash;
        bytes32 fnHash;
    }

    /// @notice Terms of a new stream.
    /// @param currency 0 CH, 1 USDC, 2 DPS (the TaskRegistry's order).
    /// @param mode Response mode.
    /// @param executors c, subscribers needed to be live (1..16).
    /// @param weightWad w for Weighted (0 < w ≤ 1), ignored otherwise.
    /// @param maxPrice Largest per-request price a subscriber may ask.
    /// @param maxFailures Failed-consensus reports that interrupt the stream (0: never).
    /// @param deposit Initial deposit.
    /// @param inputHash Content hash of I.
    /// @param fnHash Content hash of f.
    struct StreamTerms {
        uint8 currency;
        Mode mode;
        uint8 executors;
        uint64 weightWad;
        uint128 maxPrice;
        uint8 maxFailures;
        uint128 deposit;
        bytes32 inputHash;
        bytes32 fnHash;
    }

    /// @notice A client-signed receipt: `provider` has answered `answered` requests of `streamId` in total, worth
    ///         `amount` in total at the prices in force when each was answered (≤ answered × maxPrice).
    struct Receipt {
        uint256 streamId;
        address provider;
        uint64 answered;
        uint128 amount;
    }
}
