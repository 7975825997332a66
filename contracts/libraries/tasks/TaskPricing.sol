// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryErrors} from "../../interfaces/tasks/ITaskRegistryErrors.sol";
import {ITaskRegistryEvents} from "../../interfaces/tasks/ITaskRegistryEvents.sol";
import {TaskRegistryStore} from "../../core/tasks/TaskRegistryStore.sol";

/// @title TaskPricing
/// @notice The payment function f(I') and the response mode of a batch task (seed 004 section 2.3, seed 001 section 6;
///         issue 21 item 5; docs/tasks.md "Payment functions and response modes"). A closed set of payment functions
///         is encoded in `Terms.paymentParams`, kind in bits 0..7:
///         - 0 FLAT: the accepted bid, as v1 paid (the default).
///         - 1 METERED, P = C · FLOPS_corrected · T: bits 8..71 the declared work D (uint64 > 0, in milli-CH of the task's
///           workload class: ComputeStandard-corrected FLOPS × seconds over the class's reference, so hardware-neutral).
///           The bid prices D, so C = bid / D; the price is bid × W / D for the metered work W, capped by what the
///           deposit holds after every council fee.
///         - 2 PROPORTIONAL, f(I') for I' ⊆ I: bits 8..71 the items of I (uint64 > 0), bits 72..87 the least share to be
///           paid at all (bps ≤ 10,000). The price is bid × min(F, total) / total for F items fulfilled, zero below
///           the threshold.
///         W and F are never asserted by the executor alone: they are the low 64 bits of the result word itself, so the
///         council's commit–reveal accepts them exactly as it accepts the result (an inflated figure is another result,
///         which the quorum's rejects). Response mode 1 gives every checkpoint but the last its own deadline (a
///         milestone); a missed milestone ends the task at once (`expire`).
/// @dev Internal: linked into TaskBidding (validation, storage), TaskSettlement (price, milestone expiry) and the
///      registry's `commit` (milestones). Amounts fit: bid ≤ 2^96 and units < 2^64, so bid × units < 2^160.
library TaskPricing {
    uint8 internal constant FLAT = 0;
    uint8 internal constant METERED = 1;
    uint8 internal constant PROPORTIONAL = 2;
    uint256 private constant BPS = 10_000;
    uint256 private constant MODE_SHIFT = 248;
    uint256 private constant U64 = type(uint64).max;

    /// @dev Validates a task's payment function and response mode (createTask: `TaskBidding.submit`).
    function validate(ITaskRegistry.Terms calldata t) internal pure {
        if (t.responseMode > 1) revert ITaskRegistryErrors.TaskInvalidResponseMode(t.responseMode);
        uint256 w = t.paymentParams;
        uint8 kind = uint8(w);
        if (kind > PROPORTIONAL) revert ITaskRegistryErrors.TaskUnknownPaymentKind(kind);
        bool bad;
        if (kind == FLAT) {
            bad = w >> 8 != 0;
        } else {
            // @dev A CH task is a redemption of a fixed CH amount reserved at selection: its price cannot vary.
            bad = t.currency == ITaskRegistry.Currency.CH || (w >> 8) & U64 == 0;
            if (kind == METERED) bad = bad || w >> 72 != 0;
            else bad = bad || w >> 88 != 0 || (w >> 72) & 0xffff > BPS;
        }
        if (bad) revert ITaskRegistryErrors.TaskInvalidPaymentParams(kind, w);
    }

    /// @dev Stores the validated payment function and response mode (nothing for FLAT with mode 0).
    function store(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Terms calldata t
    ) internal {
        uint256 w = t.paymentParams | (uint256(t.responseMode) << MODE_SHIFT);
        if (w != 0) $.payment[taskId] = w;
    }

    /// @dev The task's `paymentParams` and `responseMode` as submitted.
    function termsOf(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId
    ) internal view returns (uint256 paymentParams, uint8 responseMode) {
        uint256 w = $.payment[taskId];
        return (w & ((1 << MODE_SHIFT) - 1), uint8(w >> MODE_SHIFT));
    }

    /// @dev When checkpoint `checkpoint` (0-based) is due. The final one, and every one in mode 0: the deadline. In
    ///      mode 1, checkpoint i of N: L + (deadline − L)·(i + 1)/N, rounded down, where L is the latest time bidding may
    ///      select the executor (the bid window's end plus half the promised run time), so every executor has at least
    ///      (deadline − L)/N per checkpoint however late it was selected. Reads storage only for an earlier checkpoint.
    function dueBy(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        uint256 checkpoint
    ) internal view returns (uint256) {
        uint256 deadline = k.deadline;
        uint256 n = k.checkpoints;
        if (checkpoint + 1 >= n || $.payment[taskId] >> MODE_SHIFT == 0) return deadline;
        uint256 ends = k.biddingEnds;
        uint256 latest = ends + (deadline - ends) / 2;
        return latest + ((deadline - latest) * (checkpoint + 1)) / n;
    }

    /// @dev The price of an accepted task (its executor's gross pay before the DPS discount); emits `TaskPriced` for a
    ///      variable payment function. `k.escrow` is the deposit left after this settlement's keeper bounty.
    function priceAccepted(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k
    ) internal returns (uint256 price) {
        uint256 w = $.payment[taskId];
        uint256 bid = k.price;
        if (uint8(w) == FLAT) return bid;
        // @dev Headroom: the escrow less every fee both councils could claim (3n + 1 seats), never below the bid.
        uint256 fees = (3 * uint256(k.councilSize) + 1) * k.councilFee;
        uint256 esc = k.escrow;
        uint256 cap = esc > fees ? esc - fees : 0;
        uint256 units;
        (price, units) = quote(w, bid, k.resultHash, cap < bid ? bid : cap);
        emit ITaskRegistryEvents.TaskPriced(taskId, uint8(w), units, bid, price);
    }

    /// @dev The pure payment function: price and units of `result` under word `w` (kind in bits 0..7) for the accepted
    ///      `bid`, capped at `cap` (≥ bid). Rounds down (the declared work pays exactly the bid).
    function quote(
        uint256 w,
        uint256 bid,
        bytes32 result,
        uint256 cap
    ) internal pure returns (uint256 price, uint256 units) {
        uint8 kind = uint8(w);
        if (kind == FLAT) return (bid, 0);
        units = uint256(result) & U64;
        uint256 declared = (w >> 8) & U64;
        if (kind == METERED) {
            price = (bid * units) / declared;
            if (price > cap) price = cap;
            return (price, units);
        }
        // @dev PROPORTIONAL: nothing below the threshold share, no more than the bid above 100 %.
        if (units * BPS < ((w >> 72) & 0xffff) * declared) return (0, units);
        price = units >= declared ? bid : (bid * units) / declared;
    }
}
