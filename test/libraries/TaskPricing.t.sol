// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {taskPaymentWord} from "../helpers/TaskSolBase.sol";
import {TaskPricing} from "../../contracts/libraries/tasks/TaskPricing.sol";
import {TaskRegistryStore} from "../../contracts/core/tasks/TaskRegistryStore.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryErrors} from "../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";

/// @notice TaskPricing against a reference written from docs/tasks.md "Payment functions and response modes": the
///         word is built here from its fields (kind, declared units D, threshold bps, stray high bits) and the
///         reference decides validity and price from the fields, not from the word's shifts. Checked: `validate`
///         accepts exactly the well-formed words, `quote` equals the reference price (METERED bid·W/D capped,
///         PROPORTIONAL bid·min(F, D)/D or 0 below the threshold, rounded down: ACC-05), `priceAccepted`'s cap is the
///         escrow less every council fee (never below the bid), and `dueBy` spaces milestones at least
///         (deadline − L)/N apart from the latest selection time L. The test contract is the harness (it holds the
///         registry's storage struct).
contract TaskPricingTest is Test {
    TaskRegistryStore.TaskRegistryStorage internal s;

    uint256 internal constant BPS = 10_000;

    /// @dev A payment word from its fields; `stray` ≠ 0 sets one bit above the kind's last field.
    function _word(uint8 kind, uint64 declared, uint16 thrBps, uint256 stray) internal pure returns (uint256 w) {
        w = taskPaymentWord(kind, declared, thrBps);
        if (stray != 0) w |= 1 << bound(stray, 88, 247);
    }

    // ───────────────────────────── reference ─────────────────────────────

    function _refValid(
        ITaskRegistry.Currency currency,
        uint8 kind,
        uint64 declared,
        uint16 thrBps,
        bool stray
    ) internal pure returns (bool) {
        if (kind == 0) return declared == 0 && thrBps == 0 && !stray;
        if (currency == ITaskRegistry.Currency.CH || declared == 0 || stray) return false;
        if (kind == 1) return thrBps == 0;
        return thrBps <= BPS;
    }

    function _refPrice(
        uint8 kind,
        uint64 declared,
        uint16 thrBps,
        uint256 bid,
        uint64 units,
        uint256 cap
    ) internal pure returns (uint256) {
        if (kind == 0) return bid;
        if (kind == 1) {
            uint256 p = (bid * units) / declared;
            return p < cap ? p : cap;
        }
        // share fulfilled F/D below thr/10,000: nothing
        if (uint256(units) * BPS < uint256(thrBps) * declared) return 0;
        uint256 f = units < declared ? units : declared;
        return (bid * f) / declared;
    }

    // ───────────────────────────── validate / store ─────────────────────────────

    function validateExt(ITaskRegistry.Terms calldata t) external pure {
        TaskPricing.validate(t);
    }

    function storeExt(uint256 taskId, ITaskRegistry.Terms calldata t) external {
        TaskPricing.store(s, taskId, t);
    }

    /// @dev `validate` accepts exactly the words the reference calls well formed, with the documented error.
    function testFuzz_validate_matchesReference(
        uint8 currency,
        uint8 mode,
        uint8 kind,
        uint64 declared,
        uint16 thrBps,
        uint256 stray
    ) public {
        ITaskRegistry.Terms memory t;
        t.currency = ITaskRegistry.Currency(bound(currency, 0, 2));
        t.responseMode = uint8(bound(mode, 0, 2));
        kind = uint8(bound(kind, 0, 3));
        if (thrBps % 3 == 0) thrBps = uint16(bound(thrBps, 0, 10_001)); // often near the bps boundary
        if (stray % 4 != 0) stray = 0;
        t.paymentParams = _word(kind, declared, thrBps, stray);
        if (t.responseMode > 1) {
            vm.expectRevert(
                abi.encodeWithSelector(ITaskRegistryErrors.TaskInvalidResponseMode.selector, t.responseMode)
            );
        } else if (kind > 2) {
            vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskUnknownPaymentKind.selector, kind));
        } else if (!_refValid(t.currency, kind, declared, thrBps, stray != 0)) {
            vm.expectRevert(
                abi.encodeWithSelector(ITaskRegistryErrors.TaskInvalidPaymentParams.selector, kind, t.paymentParams)
            );
        }
        this.validateExt(t);
    }

    /// @dev What `store` writes, `termsOf` reads back (nothing stored for FLAT in mode 0).
    function testFuzz_storeTermsOf_roundTrip(
        uint256 taskId,
        uint64 declared,
        uint16 thrBps,
        uint8 kind,
        bool mode
    ) public {
        ITaskRegistry.Terms memory t;
        t.responseMode = mode ? 1 : 0;
        t.paymentParams = _word(uint8(bound(kind, 0, 2)), declared, thrBps, 0);
        this.storeExt(taskId, t);
        (uint256 w, uint8 m) = TaskPricing.termsOf(s, taskId);
        assertEq(w, t.paymentParams);
        assertEq(m, t.responseMode);
        if (t.paymentParams == 0 && !mode) assertEq(s.payment[taskId], 0);
    }

    // ───────────────────────────── quote / priceAccepted (ACC-05) ─────────────────────────────

    /// @dev `quote` equals the reference price and reports the result word's low 64 bits as units.
    function testFuzz_quote_matchesReference(
        uint8 kind,
        uint64 declared,
        uint16 thrBps,
        uint96 bid,
        bytes32 result,
        uint256 cap
    ) public pure {
        kind = uint8(bound(kind, 0, 2));
        declared = uint64(bound(declared, 1, type(uint64).max));
        thrBps = uint16(bound(thrBps, 0, BPS));
        if (kind == 1) thrBps = 0;
        cap = bound(cap, bid, type(uint160).max);
        uint64 units = uint64(uint256(result));
        (uint256 price, uint256 u) = TaskPricing.quote(_word(kind, declared, thrBps, 0), bid, result, cap);
        assertEq(price, _refPrice(kind, declared, thrBps, bid, units, cap), "price");
        assertEq(u, kind == 0 ? 0 : units, "units");
        if (kind == 2) assertLe(price, bid, "PROPORTIONAL pays at most the bid");
    }

    /// @dev Small D and units (many exact boundaries): METERED at the declared work pays exactly the bid; the
    ///      PROPORTIONAL threshold pays nothing one unit below and the pro-rata share at it.
    function testFuzz_quote_boundaries(uint16 declaredSmall, uint16 thrBps, uint96 bid) public pure {
        uint64 d = uint64(bound(declaredSmall, 1, 1000));
        thrBps = uint16(bound(thrBps, 1, BPS));
        (uint256 pm, ) = TaskPricing.quote(_word(1, d, 0, 0), bid, bytes32(uint256(d)), type(uint160).max);
        assertEq(pm, bid, "declared work pays the bid");
        uint256 atThr = (uint256(thrBps) * d + BPS - 1) / BPS; // least units with units·BPS ≥ thr·D
        (uint256 pAt, ) = TaskPricing.quote(_word(2, d, thrBps, 0), bid, bytes32(atThr), bid);
        assertEq(pAt, (uint256(bid) * atThr) / d, "at threshold");
        if (atThr > 0) {
            (uint256 pBelow, ) = TaskPricing.quote(_word(2, d, thrBps, 0), bid, bytes32(atThr - 1), bid);
            assertEq(pBelow, 0, "below threshold");
        }
    }

    /// @dev `priceAccepted` caps a METERED price at escrow − (3n + 1)·councilFee, never below the bid.
    function testFuzz_priceAccepted_capIsEscrowLessFees(
        uint64 declared,
        uint96 bid,
        uint64 units,
        uint8 councilSize,
        uint64 councilFee,
        uint128 escrow
    ) public {
        declared = uint64(bound(declared, 1, 1e12));
        councilSize = uint8(bound(councilSize, 0, 21));
        s.payment[7] = _word(1, declared, 0, 0);
        ITaskRegistry.Task storage k = s.tasks[7];
        k.price = bid;
        k.councilSize = councilSize;
        k.councilFee = councilFee;
        k.escrow = escrow;
        k.resultHash = bytes32(uint256(units));
        uint256 fees = (3 * uint256(councilSize) + 1) * councilFee;
        uint256 cap = escrow > fees ? escrow - fees : 0;
        if (cap < bid) cap = bid;
        assertEq(TaskPricing.priceAccepted(s, 7, k), _refPrice(1, declared, 0, bid, units, cap));
        // FLAT ignores all of it
        s.payment[7] = 0;
        assertEq(TaskPricing.priceAccepted(s, 7, k), bid);
    }

    // ───────────────────────────── dueBy (milestones) ─────────────────────────────

    /// @dev Mode 1: checkpoint i is due at L + (deadline − L)·(i + 1)/N (L = biddingEnds + half the rest), so every
    ///      gap is ≥ ⌊(deadline − L)/N⌋ and the last is the deadline; mode 0: every checkpoint at the deadline.
    function testFuzz_dueBy_milestoneSpacing(uint40 ends, uint32 span, uint8 n, bool mode) public {
        ends = uint40(bound(ends, 1, type(uint32).max));
        n = uint8(bound(n, 1, 24));
        ITaskRegistry.Task storage k = s.tasks[3];
        k.biddingEnds = ends;
        k.deadline = uint40(uint256(ends) + span);
        k.checkpoints = n;
        s.payment[3] = mode ? uint256(1) << 248 : 0;
        uint256 latest = uint256(ends) + uint256(span) / 2;
        uint256 gap = (uint256(ends) + span - latest) / n;
        uint256 prev = latest;
        for (uint256 i; i < n; ++i) {
            uint256 due = TaskPricing.dueBy(s, 3, k, i);
            if (!mode || i + 1 == n) {
                assertEq(due, k.deadline, "deadline");
            } else {
                assertEq(due, latest + ((uint256(k.deadline) - latest) * (i + 1)) / n, "reference");
                assertGe(due - prev, gap, "gap");
                prev = due;
            }
        }
        // past the last checkpoint: still the deadline
        assertEq(TaskPricing.dueBy(s, 3, k, n), k.deadline);
    }
}
