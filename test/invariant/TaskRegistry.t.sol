// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {TaskHandler} from "./handlers/TaskHandler.sol";

/// @notice TaskRegistry invariants TSK-01..04 over random handler sequences.
contract TaskRegistryInvariants is TaskSolBase {
    TaskHandler internal handler;

    function setUp() public {
        _deployTasks();
        // Providers owe CH so CH tasks can be redeemed; the client holds it.
        for (uint256 i; i < 4; ++i) {
            vm.prank(providers[i]);
            registry.mintCH(200e18, client);
        }
        handler = new TaskHandler(tasks, registry, client, providers);
        targetContract(address(handler));
    }

    /// Sanity: the handler's actions take effect (the invariant runs are not vacuous).
    function test_handlerSanity() public {
        handler.submit(1, 500e6);
        handler.bid(0, 1, 100e6);
        handler.warp(2 hours);
        handler.close(0); // seal
        handler.close(0); // select
        handler.draw(0);
        handler.commit(0, true);
        handler.vote(0, 0, true); // commit
        handler.vote(0, 1, true);
        handler.warp(12 hours + 1); // past the commit window
        handler.vote(0, 0, true); // reveal
        handler.vote(0, 1, true);
        handler.finalize(0);
        assertEq(uint8(tasks.getTask(1).status), uint8(ITaskRegistry.Status.Accepted));
        handler.claim(0, 0);
        assertEq(handler.actions(), 12);
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_TSK02_escrowConservation();
        check_TSK01_quorumBehindEveryVerdict();
        check_TSK03_slashBoundToGuilt();
        check_TSK04_supplyEqualsLiabilities();
    }

    /// TSK-02: Σ task escrows + Σ keeper credits = totalEscrow = the registry's balance, per currency (no fees are kept).
    function check_TSK02_escrowConservation() public view {
        uint256[3] memory sum;
        uint256 n = tasks.taskCount();
        for (uint256 id = 1; id <= n; ++id) {
            ITaskRegistry.Task memory t = tasks.getTask(id);
            assertLe(t.escrow, t.maxPayment, "payouts never exceed the deposit");
            if (t.status >= ITaskRegistry.Status.Accepted) {
                // unclaimed fees, and a rejected or expired CH redemption's held report bounty (issue 21 item 6)
                uint256 held = t.assignmentId != 0 ? (uint256(t.maxPayment) * 10) / 10_000 : 0;
                assertLe(
                    t.escrow,
                    uint256(t.councilFee) * t.councilSize + held,
                    "final tasks hold only unclaimed fees"
                );
            }
            sum[uint8(t.currency)] += t.escrow;
        }
        for (uint8 c; c < 3; ++c) {
            ITaskRegistry.Currency cur = ITaskRegistry.Currency(c);
            // + the unclaimed keeper credits (issue 21 item 6: bounties are pulled; the handler is the only keeper)
            sum[c] += tasks.keeperCredits(address(handler), cur);
            assertEq(tasks.totalEscrow(cur), sum[c]);
            assertEq(IERC20(_token(cur)).balanceOf(address(tasks)), sum[c]);
        }
    }

    /// TSK-01: an accepted task had a quorum of distinct current members agreeing; a rejected one disagreeing.
    function check_TSK01_quorumBehindEveryVerdict() public view {
        uint256 n = tasks.taskCount();
        for (uint256 id = 1; id <= n; ++id) {
            ITaskRegistry.Task memory t = tasks.getTask(id);
            assertLe(uint256(t.agree) + t.disagree, t.councilSize, "each member counts once");
            if (t.status == ITaskRegistry.Status.Accepted) {
                assertGe(t.agree, t.quorum);
                assertEq(t.verdictHash, t.resultHash, "the accepted result is the quorum's");
            }
            if (t.status == ITaskRegistry.Status.Rejected) {
                assertGe(t.disagree, t.quorum);
                assertTrue(t.verdictHash != t.resultHash, "a rejection names the quorum's other result");
            }
        }
    }

    /// TSK-03: a provider is slashed exactly SLASH per fault it committed (rejected result or missed deadline) and
    /// a quarter of it per reveal it missed (issue 21 item 1).
    function check_TSK03_slashBoundToGuilt() public view {
        for (uint256 i; i < providers.length; ++i) {
            address p = providers[i];
            assertEq(registry.providerInfo(p).slashedDps, handler.ghostSlashedDps(p));
        }
    }

    /// TSK-04: CH supply equals the sum of provider liabilities whatever tasks redeem.
    function check_TSK04_supplyEqualsLiabilities() public view {
        uint256 sum;
        for (uint256 i; i < providers.length; ++i) sum += registry.liabilityOf(providers[i]);
        assertEq(ch.totalSupply(), sum);
    }
}
