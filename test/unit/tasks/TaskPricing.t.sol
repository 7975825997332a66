// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Vm} from "forge-std/Vm.sol";
import {TaskSolBase, taskPaymentWord} from "../../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryErrors} from "../../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";
import {ITaskRegistryEvents} from "../../../contracts/interfaces/tasks/ITaskRegistryEvents.sol";
import {IStreamTasks} from "../../../contracts/interfaces/tasks/IStreamTasks.sol";
import {TaskPricing} from "../../../contracts/libraries/tasks/TaskPricing.sol";

interface IFeaturePause {
    function pauseFeature(bytes32 feature) external;
}

/// @notice Issue 21 item 5: payment that follows the seeds — `paymentParams` (f(I')) and `responseMode` take effect
///         (TaskPricing; docs/tasks.md "Payment functions and response modes"). Attacks first, then the fuzzed
///         payment function against an independent reference.
contract TaskPricingTest is TaskSolBase {
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;
    uint128 internal constant DEPOSIT = 1_000e6;
    uint128 internal constant BID = 500e6;
    uint256 internal constant FEE = 5e6; // 1 % of the bid per member
    uint256 internal constant U64 = type(uint64).max;

    function setUp() public {
        _deployTasks();
    }

    // ─── helpers ────────────────────────────────────────────────────────────────────────────────────────────

    function _metered(uint256 declared) internal pure returns (uint256) {
        return taskPaymentWord(1, declared, 0);
    }

    function _proportional(uint256 total, uint256 minBps) internal pure returns (uint256) {
        return taskPaymentWord(2, total, minBps);
    }

    /// @dev A result word carrying `units` in its low 64 bits (what the council recomputes and reveals).
    function _result(string memory tag, uint256 units) internal pure returns (bytes32) {
        return bytes32((uint256(keccak256(bytes(tag))) & ~U64) | units);
    }

    function _termsWith(uint256 params, uint8 mode) internal view returns (ITaskRegistry.Terms memory t) {
        t = _terms(USDC, DEPOSIT, 3, 2);
        t.paymentParams = params;
        t.responseMode = mode;
    }

    function _submitWith(uint256 params, uint8 mode) internal returns (uint256 id) {
        ITaskRegistry.Terms memory t = _termsWith(params, mode);
        vm.prank(client);
        id = tasks.submit(t, _prescription());
    }

    /// @dev Submits, lets providers[0] bid BID and selects it; returns the task and its executor.
    function _running(uint256 params, uint8 mode) internal returns (uint256 id, address exec) {
        id = _submitWith(params, mode);
        _bid(id, providers[0], BID);
        _closeAndDraw(id);
        exec = tasks.getTask(id).executor;
        assertEq(exec, providers[0]);
    }

    /// @dev The executor commits `claimed`; the whole council reveals `honest`; finalised past the appeal window.
    function _settleWith(uint256 id, address exec, bytes32 claimed, bytes32 honest) internal {
        _revealed(id, exec, claimed, honest);
        _finalize(id);
    }

    /// @dev `_settleWith` up to (not including) `finalize`.
    function _revealed(uint256 id, address exec, bytes32 claimed, bytes32 honest) internal {
        _commitAll(id, exec, claimed);
        address[] memory c = tasks.councilOf(id, 0);
        for (uint256 i; i < c.length; ++i) _commitAs(id, c[i], honest);
        _toReveal(id);
        for (uint256 i; i < c.length; ++i) _revealAs(id, c[i], honest);
        vm.warp(tasks.getTask(id).votingEnds + 1);
    }

    function _assertEscrowBacked() internal view {
        assertEq(tasks.totalEscrow(USDC), usdc.balanceOf(address(tasks)), "TSK-02: escrow backed");
    }

    // ─── createTask validation ──────────────────────────────────────────────────────────────────────────────

    function test_submit_rejectsUnknownPaymentKind() public {
        ITaskRegistry.Terms memory t = _termsWith(3, 0);
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskUnknownPaymentKind.selector, uint8(3)));
        tasks.submit(t, _prescription());
    }

    function test_submit_rejectsResponseModeOutsideTheSet() public {
        ITaskRegistry.Terms memory t = _termsWith(0, 2);
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskInvalidResponseMode.selector, uint8(2)));
        tasks.submit(t, _prescription());
    }

    /// @dev Overflowing or out-of-bounds parameters: zero declared work, bits beyond a kind's fields (a declared
    ///      amount that would overflow uint64), a threshold above 100 %, junk on FLAT, a variable price on CH.
    function test_submit_rejectsOverflowingAndOutOfBoundsParams() public {
        uint256[6] memory bad = [
            _metered(0),
            _metered(U64 + 1),
            _proportional(10, 10_001),
            _proportional(0, 0),
            uint256(1) << 200,
            _proportional(10, 0) | (uint256(1) << 88)
        ];
        for (uint256 i; i < bad.length; ++i) {
            ITaskRegistry.Terms memory t = _termsWith(bad[i], 0);
            vm.prank(client);
            vm.expectRevert(
                abi.encodeWithSelector(ITaskRegistryErrors.TaskInvalidPaymentParams.selector, uint8(bad[i]), bad[i])
            );
            tasks.submit(t, _prescription());
        }
        ITaskRegistry.Terms memory c = _termsWith(_metered(10), 0);
        c.currency = ITaskRegistry.Currency.CH;
        vm.prank(client);
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistryErrors.TaskInvalidPaymentParams.selector, uint8(1), _metered(10))
        );
        tasks.submit(c, _prescription());
    }

    // ─── attacks ────────────────────────────────────────────────────────────────────────────────────────────

    /// @dev The client picks a declared work the bid does not divide (7 units): the declared work still pays exactly
    ///      the accepted bid (no rounding below it), and the remainder of the deposit comes back in the same settlement.
    function test_clientParams_cannotPayBelowBidForDeclaredWork() public {
        (uint256 id, address exec) = _running(_metered(7), 0);
        uint256 e0 = usdc.balanceOf(exec);
        uint256 c0 = usdc.balanceOf(client);
        bytes32 r = _result("trained", 7);
        _revealed(id, exec, r, r);
        vm.expectEmit(true, false, false, true, address(tasks));
        emit ITaskRegistryEvents.TaskPriced(id, 1, 7, BID, BID);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
        assertEq(usdc.balanceOf(exec) - e0, BID, "declared work pays the whole bid");
        assertEq(usdc.balanceOf(client) - c0, DEPOSIT - BID - 3 * FEE, "remainder refunded");
        _claimAll(id);
        assertEq(tasks.totalEscrow(USDC), 0);
        _assertEscrowBacked();
    }

    /// @dev The executor claims twice the work: its result word differs from the one the council recomputes, the
    ///      quorum's value wins — rejected, unpaid, slashed, the client refunded.
    function test_executorInflatesMeteredWork_quorumValueWins() public {
        (uint256 id, address exec) = _running(_metered(1_000), 0);
        uint256 e0 = usdc.balanceOf(exec);
        uint256 c0 = usdc.balanceOf(client);
        uint256 stake0 = registry.providerInfo(exec).stakedDps;
        _settleWith(id, exec, _result("trained", 2_000), _result("trained", 1_000));
        ITaskRegistry.Task memory k = tasks.getTask(id);
        assertEq(uint8(k.status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(k.verdictHash, _result("trained", 1_000), "the quorum's metered figure is the verdict");
        assertEq(usdc.balanceOf(exec), e0, "inflating executor unpaid");
        assertEq(usdc.balanceOf(client) - c0, DEPOSIT - 3 * FEE, "client refunded all but the fees");
        assertEq(stake0 - registry.providerInfo(exec).stakedDps, SLASH, "executor slashed");
        _claimAll(id);
        _assertEscrowBacked();
    }

    /// @dev One colluding member reveals the inflated figure with the executor; the two honest ones still make the
    ///      quorum (2 of 3) on the true figure.
    function test_executorInflatesMeteredWork_withOneColluder_stillRejected() public {
        (uint256 id, address exec) = _running(_metered(1_000), 0);
        bytes32 inflated = _result("trained", 5_000);
        bytes32 honest = _result("trained", 1_000);
        _commitAll(id, exec, inflated);
        address[] memory c = tasks.councilOf(id, 0);
        _commitAs(id, c[0], inflated);
        _commitAs(id, c[1], honest);
        _commitAs(id, c[2], honest);
        _toReveal(id);
        _revealAs(id, c[0], inflated);
        _revealAs(id, c[1], honest);
        _revealAs(id, c[2], honest);
        vm.warp(tasks.getTask(id).votingEnds + 1);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Rejected));
        _assertEscrowBacked();
    }

    /// @dev Metered work far beyond the declared amount (2^64 − 1 units) is capped by the deposit after every fee
    ///      both councils could claim: settlement never underflows and every fee stays claimable.
    function test_meteredOverrun_cappedByDeposit() public {
        (uint256 id, address exec) = _running(_metered(1), 0);
        uint256 e0 = usdc.balanceOf(exec);
        bytes32 r = _result("huge", U64);
        _settleWith(id, exec, r, r);
        uint256 cap = DEPOSIT - 10 * FEE; // (3n + 1) fees, n = 3
        assertEq(usdc.balanceOf(exec) - e0, cap);
        _claimAll(id);
        assertEq(tasks.totalEscrow(USDC), 0);
        _assertEscrowBacked();
    }

    /// @dev Metered with zero work: the executor is paid nothing, the council keeps its fees, the client gets the rest.
    function test_meteredZeroWork_paysNothing() public {
        (uint256 id, address exec) = _running(_metered(1_000), 0);
        uint256 e0 = usdc.balanceOf(exec);
        uint256 c0 = usdc.balanceOf(client);
        bytes32 r = _result("nothing", 0);
        _revealed(id, exec, r, r);
        vm.expectEmit(true, false, false, true, address(tasks));
        emit ITaskRegistryEvents.TaskPriced(id, 1, 0, BID, 0);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
        assertEq(usdc.balanceOf(exec), e0);
        assertEq(usdc.balanceOf(client) - c0, DEPOSIT - 3 * FEE);
        _claimAll(id);
        assertEq(tasks.totalEscrow(USDC), 0);
        _assertEscrowBacked();
    }

    /// @dev Half the work metered pays half the bid (P = C·W with C = bid / D).
    function test_meteredHalfWork_paysHalfTheBid() public {
        (uint256 id, address exec) = _running(_metered(1_000), 0);
        uint256 e0 = usdc.balanceOf(exec);
        bytes32 r = _result("half", 500);
        _settleWith(id, exec, r, r);
        assertEq(usdc.balanceOf(exec) - e0, BID / 2);
        _assertEscrowBacked();
    }

    /// @dev f(I'): below the threshold nothing; between, pro rata; beyond the total, never more than the bid.
    function test_proportional_thresholdProRataAndCap() public {
        uint256[3] memory done = [uint256(49), 75, 150];
        uint256[3] memory paid = [uint256(0), (uint256(BID) * 75) / 100, BID];
        for (uint256 i; i < 3; ++i) {
            address exec;
            uint256 id;
            (id, exec) = _running(_proportional(100, 5_000), 0);
            uint256 e0 = usdc.balanceOf(exec);
            bytes32 r = _result(string(abi.encode("part", i)), done[i]);
            _settleWith(id, exec, r, r);
            assertEq(usdc.balanceOf(exec) - e0, paid[i]);
        }
        _claimAllTasks();
        _assertEscrowBacked();
    }

    function _claimAllTasks() internal {
        uint256 n = tasks.taskCount();
        for (uint256 id = 1; id <= n; ++id) _claimAll(id);
    }

    /// @dev Response mode 1: checkpoint 0 of 2 is due by its milestone (18.25 h after submission here). Missing it
    ///      ends the task at once — the late commit reverts and anyone expires it, hours before the deadline.
    function test_responseMode1_missedCheckpoint_expiresAtMilestone() public {
        uint256 t0 = block.timestamp;
        (uint256 id, address exec) = _running(0, 1);
        uint256 due = t0 + 1 hours + 11.5 hours + 5.75 hours;
        vm.warp(due);
        vm.prank(address(0xBEEF));
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskDeadlineNotPassed.selector, due));
        tasks.expire(id);
        vm.warp(due + 1);
        vm.prank(exec);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskDeadlinePassed.selector, due));
        tasks.commit(id, 0, keccak256("checkpoint-0"));
        uint256 c0 = usdc.balanceOf(client);
        uint256 stake0 = registry.providerInfo(exec).stakedDps;
        // @dev The registry's keeper scan sees the missed milestone too.
        (bool can, bytes memory payload) = _keeper().checker();
        assertTrue(can);
        assertEq(payload, abi.encodeCall(ITaskRegistry.expire, (id)));
        vm.prank(address(0xBEEF));
        tasks.expire(id);
        ITaskRegistry.Task memory k = tasks.getTask(id);
        assertEq(uint8(k.status), uint8(ITaskRegistry.Status.Expired));
        assertLt(block.timestamp, k.deadline, "ended before the deadline");
        assertEq(usdc.balanceOf(client) - c0, DEPOSIT);
        assertEq(stake0 - registry.providerInfo(exec).stakedDps, SLASH);
        _assertEscrowBacked();
    }

    /// @dev Mode 0 at the same moment: only the final result is due, so checkpoint 0 is still accepted and the task
    ///      cannot be expired before the deadline.
    function test_responseMode0_onlyTheDeadlineCounts() public {
        uint256 t0 = block.timestamp;
        (uint256 id, address exec) = _running(0, 0);
        vm.warp(t0 + 20 hours);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskDeadlineNotPassed.selector, t0 + 1 days));
        tasks.expire(id);
        vm.prank(exec);
        tasks.commit(id, 0, keccak256("checkpoint-0"));
        assertEq(tasks.getTask(id).commits, 1);
    }

    /// @dev Mode 1 on time: each checkpoint before its milestone, the final one before the deadline, paid in full.
    function test_responseMode1_onTime_paid() public {
        uint256 t0 = block.timestamp;
        (uint256 id, address exec) = _running(0, 1);
        vm.warp(t0 + 18 hours);
        vm.prank(exec);
        tasks.commit(id, 0, keccak256("checkpoint-0"));
        vm.warp(t0 + 23 hours);
        vm.prank(exec);
        tasks.commit(id, 1, keccak256("result"));
        uint256 e0 = usdc.balanceOf(exec);
        _voteAll(id, 0, true, 3);
        _finalize(id);
        assertEq(usdc.balanceOf(exec) - e0, BID);
    }

    /// @dev The terms are fixed at submission: bids, another client's task with other terms and the task's own run
    ///      leave them as submitted (no function changes them).
    function test_secondAccount_cannotChangeParamsAfterBidding() public {
        uint256 w = _metered(1_000);
        uint256 id = _submitWith(w, 1);
        _bid(id, providers[0], BID);
        _bid(id, providers[1], BID - 1);
        address other = address(0xD00D);
        usdc.mint(other, DEPOSIT);
        ITaskRegistry.Terms memory t = _termsWith(_proportional(5, 10_000), 0);
        vm.startPrank(other);
        usdc.approve(address(tasks), DEPOSIT);
        uint256 id2 = tasks.submit(t, _prescription());
        vm.stopPrank();
        _closeAndDraw(id);
        (uint256 p, uint8 m) = tasks.paymentTermsOf(id);
        assertEq(p, w);
        assertEq(m, 1);
        (p, m) = tasks.paymentTermsOf(id2);
        assertEq(p, _proportional(5, 10_000));
        assertEq(m, 0);
        // @dev The cheaper bid won and prices the declared work.
        assertEq(tasks.getTask(id).price, BID - 1);
    }

    /// @dev A paused neighbour (StreamTasks, every feature) does not affect a metered task's settlement.
    function test_pausedStreamNeighbour_doesNotBlockMeteredSettlement() public {
        IStreamTasks s = _deployStreams([address(ch), address(usdc), address(dps)]);
        IFeaturePause(address(s)).pauseFeature(keccak256("stream.open"));
        IFeaturePause(address(s)).pauseFeature(keccak256("stream.subscribe"));
        IFeaturePause(address(s)).pauseFeature(keccak256("stream.request"));
        (uint256 id, address exec) = _running(_metered(10), 1);
        uint256 e0 = usdc.balanceOf(exec);
        bytes32 r = _result("ok", 10);
        _settleWith(id, exec, r, r);
        assertEq(usdc.balanceOf(exec) - e0, BID);
        _assertEscrowBacked();
    }

    /// @dev FLAT (the default) pays the accepted bid whatever the result word carries, and emits no TaskPriced.
    function test_flatDefault_paysTheBid() public {
        (uint256 id, address exec) = _running(0, 0);
        uint256 e0 = usdc.balanceOf(exec);
        bytes32 r = _result("any", 12_345);
        vm.recordLogs();
        _settleWith(id, exec, r, r);
        assertEq(usdc.balanceOf(exec) - e0, BID);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        for (uint256 i; i < logs.length; ++i) {
            assertTrue(logs[i].topics.length == 0 || logs[i].topics[0] != ITaskRegistryEvents.TaskPriced.selector);
        }
        (uint256 p, uint8 m) = tasks.paymentTermsOf(id);
        assertEq(p, 0);
        assertEq(m, 0);
    }

    // ─── the payment function, fuzzed against a reference ───────────────────────────────────────────────────

    /// @dev Independent reference: P = C · W with C = bid / D (METERED, capped), or bid · min(F, N) / N above the
    ///      threshold share (PROPORTIONAL), written as fractions compared by cross-multiplication.
    function _reference(
        uint8 kind,
        uint256 declared,
        uint256 minBps,
        uint256 bid,
        uint256 units,
        uint256 cap
    ) internal pure returns (uint256) {
        if (kind == 0) return bid;
        if (kind == 1) {
            uint256 p = (bid * units) / declared;
            return p < cap ? p : cap;
        }
        if (units * 10_000 < minBps * declared) return 0;
        if (units > declared) units = declared;
        return (bid * units) / declared;
    }

    function testFuzz_quote_matchesReference(
        uint8 kindSeed,
        uint64 declared,
        uint16 minBpsSeed,
        uint96 bid,
        uint64 units,
        uint128 capExtra
    ) public pure {
        uint8 kind = kindSeed % 3;
        declared = declared == 0 ? 1 : declared;
        uint256 minBps = minBpsSeed % 10_001;
        uint256 w =
            kind == 0
                ? 0
                : kind == 1
                    ? _metered(declared)
                    : _proportional(declared, minBps);
        uint256 cap = uint256(bid) + capExtra;
        bytes32 result = bytes32((uint256(keccak256(abi.encode(units))) & ~U64) | units);
        (uint256 price, uint256 got) = TaskPricing.quote(w, bid, result, cap);
        assertEq(price, _reference(kind, declared, minBps, bid, units, cap));
        assertEq(got, kind == 0 ? 0 : units);
        // @dev Properties the seeds ask for: the declared work pays exactly the bid; PROPORTIONAL never exceeds it.
        if (kind != 0 && units == declared && (kind == 1 || minBps <= 10_000)) assertEq(price, bid);
        if (kind == 2) assertLe(price, bid);
        assertLe(price, cap);
    }

    /// @dev Metered pay is monotone in the work: more verified work never pays less.
    function testFuzz_metered_monotoneInWork(uint64 declared, uint96 bid, uint64 a, uint64 b) public pure {
        declared = declared == 0 ? 1 : declared;
        (a, b) = a <= b ? (a, b) : (b, a);
        uint256 w = _metered(declared);
        (uint256 pa, ) = TaskPricing.quote(w, bid, bytes32(uint256(a)), type(uint256).max);
        (uint256 pb, ) = TaskPricing.quote(w, bid, bytes32(uint256(b)), type(uint256).max);
        assertLe(pa, pb);
    }
}
