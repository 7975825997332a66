// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {TaskDisputeHandler} from "./handlers/TaskDisputeHandler.sol";

/// @notice Issue 21 item 7: TSK-05, TSK-06 and TSK-08 (and TSK-02's conservation) over random sequences of checkpoint
///         disputes — members' bisections and clients' appeals of accepted results, honest and lying chains, forged
///         moves, lapses, referee verdicts and time jumps across interleaved games.
contract TaskDisputesInvariants is TaskSolBase {
    TaskDisputeHandler internal handler;

    function setUp() public {
        _deployTasks();
        handler = new TaskDisputeHandler(tasks, usdc, client, providers);
        targetContract(address(handler));
    }

    /// Sanity: each kind of game reaches its ending (the invariant runs are not vacuous).
    function test_handlerSanity() public {
        handler.open(5, 16, 0, 1); // a cheating executor against an honest member
        handler.forge(0, keccak256("fake"));
        for (uint256 k; k < 6; ++k) handler.move(0);
        handler.judge(0);
        handler.open(16, 3, 1, 2); // an honest executor against a lying client's appeal
        for (uint256 k; k < 6; ++k) handler.move(1);
        handler.judge(1);
        handler.open(16, 16, 2, 3); // accepted, never appealed
        handler.closeWindow(2);
        assertEq(uint8(tasks.getTask(1).status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(uint8(tasks.getTask(2).status), uint8(ITaskRegistry.Status.Accepted));
        assertEq(tasks.bisectionOf(2).phase, 5);
        assertEq(handler.forgedAccepted(), 0);
        assertGt(handler.ghostSlashedDps(providers[1]), 0);
        assertEq(handler.ghostSlashedDps(providers[2]), 0);
        check_TSK06_onlyThePartyProvenWrongIsSlashed();
        check_TSK02_registryHoldsExactlyTheOpenObligations();
        check_TSK02_bondsAndDepositsConserved();
        check_TSK05_disputesEndInLog2Moves();
        check_TSK08_appealableExecutorStaysLocked();
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_TSK06_onlyThePartyProvenWrongIsSlashed();
        check_TSK02_registryHoldsExactlyTheOpenObligations();
        check_TSK02_bondsAndDepositsConserved();
        check_TSK05_disputesEndInLog2Moves();
        check_TSK08_appealableExecutorStaysLocked();
    }

    /// TSK-06: after bisection only the party wrong at the single disputed step is slashed (the executor, by
    /// severity; all of it when it let a move lapse); honest executors, challengers, members and referees lose
    /// nothing but gas — and a move outside the mover's committed chain is never accepted, an honest one never refused.
    function check_TSK06_onlyThePartyProvenWrongIsSlashed() public view {
        for (uint256 i; i < providers.length; ++i) {
            assertEq(registry.providerInfo(providers[i]).slashedDps, handler.ghostSlashedDps(providers[i]));
        }
        assertEq(handler.forgedAccepted(), 0, "a forged leaf moved the bisection");
        assertEq(handler.honestRefused(), 0, "a move from the mover's own chain was refused");
    }

    /// TSK-02: the registry holds exactly its open obligations: Σ task escrows (unclaimed fees, an appeal's
    /// referee pay) + Σ bonds of running bisections = totalEscrow = its USDC balance.
    function check_TSK02_registryHoldsExactlyTheOpenObligations() public view {
        uint256 sum;
        uint256 n = tasks.taskCount();
        for (uint256 id = 1; id <= n; ++id) sum += uint256(tasks.getTask(id).escrow) + tasks.bisectionOf(id).bond;
        // + the unclaimed keeper credits (issue 21 item 6: bounties are credited and pulled; the handler's keeper,
        //   the handler itself and the providers are the only callers that can be credited)
        sum += tasks.keeperCredits(handler.KEEPER(), USDC_) + tasks.keeperCredits(address(handler), USDC_);
        for (uint256 i; i < providers.length; ++i) sum += tasks.keeperCredits(providers[i], USDC_);
        assertEq(tasks.totalEscrow(USDC_), sum, "totalEscrow != escrows + bonds");
        assertEq(usdc.balanceOf(address(tasks)), sum, "balance != escrows + bonds");
    }

    /// TSK-02: bonds and deposits are conserved: every USDC minted is held by the client, a provider, the keeper or
    /// the registry (nothing leaks, nothing is created by a settlement).
    function check_TSK02_bondsAndDepositsConserved() public view {
        uint256 held = usdc.balanceOf(client) + usdc.balanceOf(address(tasks)) + usdc.balanceOf(handler.KEEPER());
        for (uint256 i; i < providers.length; ++i) held += usdc.balanceOf(providers[i]);
        assertEq(held, usdc.totalSupply());
    }

    /// TSK-05: a dispute ends in at most ⌈log2 n⌉ + 1 moves (opening included), and the pending move always has a
    /// deadline within the move window (after it, anyone may end the dispute).
    function check_TSK05_disputesEndInLog2Moves() public view {
        uint256 window = tasks.params().disputeWindowSec / 2;
        uint256 n = tasks.taskCount();
        for (uint256 id = 1; id <= n; ++id) {
            ITaskRegistry.Bisection memory d = tasks.bisectionOf(id);
            assertLe(d.moves, 4 + 1, "more moves than log2 16 + 1");
            if (d.phase == 1 || d.phase == 2) assertLe(d.moveEnds, block.timestamp + window);
            if (d.phase == 3) assertLe(d.moves, 5);
        }
    }

    /// TSK-08: an executor whose accepted task can still be appealed keeps the fault amount locked: each provider's
    /// duty lock is its open seats' and executions' fault amounts plus the appealable acceptances it executed.
    function check_TSK08_appealableExecutorStaysLocked() public view {
        uint256 n = tasks.taskCount();
        for (uint256 i; i < providers.length; ++i) {
            address p = providers[i];
            uint256 expected;
            for (uint256 id = 1; id <= n; ++id) {
                ITaskRegistry.Task memory t = tasks.getTask(id);
                if (t.status == ITaskRegistry.Status.Accepted && t.commitEnds != 0 && t.executor == p) {
                    expected += t.faultDps;
                }
                // issue 18 item 4: a verdict (Accepted, Rejected) leaves each seat locked until it is released
                if (t.status < ITaskRegistry.Status.Running || t.status > ITaskRegistry.Status.Rejected) continue;
                if (t.executor == p && t.status <= ITaskRegistry.Status.Disputed) expected += t.faultDps;
                // a seat holds its lock from the draw until `releaseSeat` or its fee claim after a verdict
                if (tasks.seatReleased(id, p)) continue;
                for (uint8 r; r < 2; ++r) {
                    if (_isIn(p, tasks.councilOf(id, r))) expected += t.faultDps;
                }
            }
            assertEq(registry.providerInfo(p).dutyLockedDps, expected, "duty lock != open duties");
        }
    }

    ITaskRegistry.Currency internal constant USDC_ = ITaskRegistry.Currency.USDC;
}
