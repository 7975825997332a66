// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";
import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../contracts/interfaces/tasks/ITaskRegistryEvents.sol";
import {ITaskRegistryErrors} from "../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";

/// @notice TaskRegistry unit and fuzz tests: the batch lifecycle, a caught cheater, collusion below quorum,
///         disputes, deadlines, CH redemption, DPS replenishment, TSK-01/02/03/04.
contract TaskRegistryTest is TaskSolBase {
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;
    ITaskRegistry.Currency internal constant CHC = ITaskRegistry.Currency.CH;
    ITaskRegistry.Currency internal constant DPSC = ITaskRegistry.Currency.DPS;
    bytes32 internal constant GOOD = keccak256("correct result");
    bytes32 internal constant BAD = keccak256("fabricated result");

    function setUp() public {
        _deployTasks();
    }

    /// @dev Submits a USDC task (n, q), p0 bids 500, p1 bids 400: p1 executes. Council drawn.
    function _running(uint8 n, uint8 q) internal returns (uint256 id) {
        id = _submit(USDC, 1_000e6, n, q);
        _bid(id, providers[0], 500e6);
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
    }

    function _stake(address p) internal view returns (uint256) {
        return registry.providerInfo(p).stakedDps;
    }

    // ─── full lifecycle ─────────────────────────────────────────────────────────────────────────────────

    function test_batchLifecycle_paysExecutorAndCouncil_refundsRest() public {
        uint256 id = _running(3, 2);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        assertEq(t.executor, providers[1]);
        assertEq(uint8(t.status), uint8(ITaskRegistry.Status.Running));
        address[] memory c = tasks.councilOf(id, 0);
        assertEq(c.length, 3);
        assertFalse(_isIn(providers[1], c), "executor never on its council");
        assertFalse(_isIn(client, c));
        _commitAll(id, providers[1], GOOD);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Verifying));
        _voteAll(id, 0, true, 2);
        // Worked numbers: price 400, fee 1 % = 4 per agreeing member (2 voted), refund 1000 - 400 - 8 = 592.
        vm.expectEmit(address(tasks));
        emit ITaskRegistry.TaskFinalized(id, ITaskRegistry.Status.Accepted, 400e6, 8e6, 592e6, 0);
        _finalize(id);
        assertEq(usdc.balanceOf(address(tasks)), 8e6, "fees reserved for the two agreeing members");
        assertEq(tasks.totalEscrow(USDC), 8e6);
        vm.prank(c[2]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c[2]));
        tasks.claimCouncilFee(id);
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.CouncilFeeClaimed(id, c[0], 4e6, 4e6);
        vm.prank(c[0]);
        tasks.claimCouncilFee(id);
        vm.prank(c[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c[0]));
        tasks.claimCouncilFee(id);
        _claimAll(id);
        assertEq(usdc.balanceOf(providers[1]), 400e6);
        assertEq(usdc.balanceOf(c[0]), 4e6);
        assertEq(usdc.balanceOf(c[1]), 4e6);
        assertEq(usdc.balanceOf(c[2]), 0, "did not vote, not paid");
        assertEq(usdc.balanceOf(client), 1_000_000e6 - 408e6);
        assertEq(usdc.balanceOf(address(tasks)), 0);
        assertEq(tasks.totalEscrow(USDC), 0);
        // issue 18 item 4: the completion is recorded when the client's appeal window closes
        assertEq(registry.providerInfo(providers[1]).completed, 0);
        vm.warp(block.timestamp + tasks.params().disputeWindowSec + 1);
        tasks.closeAppeal(id);
        assertEq(registry.providerInfo(providers[1]).completed, 1);
        // TSK-01: finalising twice reverts.
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistry.TaskAlreadyDone.selector, id, ITaskRegistry.Status.Accepted)
        );
        _finalize(id);
    }

    function test_submit_escrowsAndEmits() public {
        ITaskRegistry.Terms memory t = _terms(USDC, 1_000e6, 3, 2);
        ITaskRegistry.Prescription memory pr = _prescription();
        vm.expectEmit(address(tasks));
        emit ITaskRegistry.TaskSubmitted(1, client, t, pr, keccak256(abi.encode(pr)), block.timestamp + 1 hours);
        vm.prank(client);
        tasks.submit(t, pr);
        assertEq(usdc.balanceOf(address(tasks)), 1_000e6);
        assertEq(tasks.totalEscrow(USDC), 1_000e6);
    }

    function test_submit_revertsOnInvalidTerms() public {
        ITaskRegistry.Terms memory t = _terms(USDC, 1_000e6, 3, 1);
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskInvalidTerms.selector, bytes32("quorum")));
        tasks.submit(t, _prescription());
        t = _terms(USDC, 1_000e6, 6, 4);
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskInvalidTerms.selector, bytes32("councilSize")));
        tasks.submit(t, _prescription());
        t = _terms(USDC, 1_000e6, 3, 2);
        t.deadline = uint40(block.timestamp + 10);
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskInvalidTerms.selector, bytes32("deadline")));
        tasks.submit(t, _prescription());
    }

    // ─── bidding ────────────────────────────────────────────────────────────────────────────────────────

    function test_bid_revertsForClientTooHighIneligibleAndLate() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskClientCannotBid.selector, id));
        tasks.bid(id, 1e6);
        uint256 maxPrice = _maxBid(1_000e6, 3);
        // (1000 − 5 keeper bounties of 1) / (1 + 10 × 1 %) = 904.54…
        assertEq(maxPrice, 904_545_454);
        vm.prank(providers[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBidTooHigh.selector, maxPrice + 1, maxPrice));
        tasks.bid(id, uint128(maxPrice + 1));
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistryErrors.TaskBiddingOpen.selector, id, block.timestamp + 1 hours)
        );
        tasks.closeBidding(id);
        vm.warp(block.timestamp + 2 hours);
        vm.prank(providers[0]);
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistryErrors.TaskBiddingClosed.selector, id, block.timestamp - 1 hours)
        );
        tasks.bid(id, 1e6);
    }

    function test_bid_emits_andCloseSelectsLowestEligible() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[0], 500e6);
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.BidPlaced(id, providers[1], 300e6, 2);
        _bid(id, providers[1], 300e6);
        _bid(id, providers[2], 350e6);
        // An unregistered address bids lowest: filtered out by the matcher when bidding closes.
        _bid(id, address(0xDEAD), 1e6);
        vm.warp(block.timestamp + 1 hours + 1);
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.BiddingSealed(id, block.number + 1, registry.drawCount());
        tasks.closeBidding(id);
        uint256 target = block.number + 1;
        vm.roll(target + 1);
        vm.setBlockhash(target, keccak256("seed"));
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.ExecutorSelected(id, providers[1], 300e6, target, 0);
        tasks.closeBidding(id);
        assertEq(tasks.getTask(id).price, 300e6);
    }

    function test_bestOfFirstN_closesAfterNBids() public {
        ITaskRegistry.Terms memory t = _terms(USDC, 1_000e6, 3, 2);
        t.maxBids = 2;
        vm.prank(client);
        uint256 id = tasks.submit(t, _prescription());
        _bid(id, providers[0], 500e6);
        _bid(id, providers[1], 450e6);
        vm.prank(providers[2]);
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistryErrors.TaskBiddingClosed.selector, id, block.timestamp + 1 hours)
        );
        tasks.bid(id, 100e6);
        _close(id); // no need to wait for the window
        assertEq(tasks.getTask(id).executor, providers[1]);
    }

    function test_closeBidding_withoutBids_cancelsAndRefunds() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        vm.warp(block.timestamp + 2 hours);
        vm.expectEmit(address(tasks));
        emit ITaskRegistry.TaskClosed(id, ITaskRegistry.Status.Cancelled, address(this), 1_000e6 - 1e6);
        tasks.closeBidding(id);
        assertEq(usdc.balanceOf(client), 1_000_000e6 - 1e6, "refund less the keeper's bounty (0.1 %)");
        assertEq(tasks.keeperCredits(address(this), USDC), 1e6);
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistry.TaskAlreadyDone.selector, id, ITaskRegistry.Status.Cancelled)
        );
        tasks.closeBidding(id);
    }

    // ─── commits and votes ──────────────────────────────────────────────────────────────────────────────

    function test_commit_revertsForNonExecutorAndOutOfOrder() public {
        uint256 id = _running(3, 2);
        vm.prank(providers[0]);
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistryErrors.TaskNotExecutor.selector, providers[0], providers[1])
        );
        tasks.commit(id, 0, GOOD);
        vm.prank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadCheckpoint.selector, 0, 1));
        tasks.commit(id, 1, GOOD);
    }

    /// TSK-01: only current members commit and reveal, each reveal counts once; the executor and outsiders cannot.
    function test_vote_TSK01_membersOnlyOnce() public {
        uint256 id = _running(3, 2);
        _commitAll(id, providers[1], GOOD);
        address[] memory c = tasks.councilOf(id, 0);
        vm.prank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNotCouncilMember.selector, id, providers[1]));
        tasks.commitResult(id, keccak256("x"));
        _commitAs(id, c[0], GOOD);
        _toReveal(id);
        _revealAs(id, c[0], GOOD);
        vm.prank(c[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskAlreadyRevealed.selector, id, c[0]));
        tasks.revealResult(id, GOOD, _salt(id, c[0]));
        vm.prank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNotCouncilMember.selector, id, providers[1]));
        tasks.revealResult(id, GOOD, bytes32(0));
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoQuorum.selector, id, 1, 0, 2));
        _finalize(id);
    }

    // ─── the caught cheater ─────────────────────────────────────────────────────────────────────────────

    /// TSK-03: the executor commits a wrong hash, the council disagrees, the executor is slashed, client refunded.
    function test_caughtCheater_slashedAndClientRefunded() public {
        uint256 id = _running(3, 2);
        address cheat = providers[1];
        uint256 stakeBefore = _stake(cheat);
        _commitAll(id, cheat, BAD);
        _voteAll(id, 0, false, 3);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskAppealWindowOpen.selector, id, t.votingEnds));
        _finalize(id);
        vm.warp(t.votingEnds + 1);
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.FaultSlashed(id, cheat, SLASH);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(_stake(cheat), stakeBefore - SLASH);
        assertEq(usdc.balanceOf(cheat), 0);
        // Client pays only the three honest members' fees (3 × 4): 1000 - 12 refunded.
        assertEq(usdc.balanceOf(client), 1_000_000e6 - 12e6);
        assertEq(registry.providerInfo(cheat).failed, 1);
        assertEq(tasks.totalEscrow(USDC), 12e6, "the honest members' fees, until claimed");
        _claimAll(id);
        assertEq(tasks.totalEscrow(USDC), 0);
    }

    /// Council collusion below quorum fails: two colluders of five (quorum 3) cannot accept a wrong result.
    function test_collusionBelowQuorum_fails() public {
        uint256 id = _submit(USDC, 1_000e6, 5, 3);
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
        _commitAll(id, providers[1], BAD);
        address[] memory c = tasks.councilOf(id, 0);
        for (uint256 i; i < 5; ++i) _commitAs(id, c[i], i < 2 ? BAD : GOOD);
        _toReveal(id);
        _revealAs(id, c[0], BAD);
        _revealAs(id, c[1], BAD);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoQuorum.selector, id, 2, 0, 3));
        _finalize(id);
        for (uint256 i = 2; i < 5; ++i) _revealAs(id, c[i], GOOD);
        vm.warp(tasks.getTask(id).votingEnds + 1);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(usdc.balanceOf(providers[1]), 0);
    }

    // ─── disputes ───────────────────────────────────────────────────────────────────────────────────────

    /// A split council opens a dispute; the enlarged council finds the executor wrong; the colluding first-round
    /// member is slashed too (TSK-03), the honest members of both rounds are paid.
    function test_dispute_enlargedCouncilSlashesWrongSide() public {
        uint256 id = _submit(USDC, 1_000e6, 2, 2);
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
        _commitAll(id, providers[1], BAD);
        address[] memory c0 = tasks.councilOf(id, 0);
        _voteMask(id, 0, 2, 1); // c0[0] colludes
        uint256 colluderStake = _stake(c0[0]);
        tasks.openDispute(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Disputed));
        _draw(id);
        address[] memory c1 = tasks.councilOf(id, 1);
        assertEq(c1.length, 5);
        for (uint256 i; i < c1.length; ++i) assertFalse(_isIn(c1[i], c0), "dispute council excludes round 0");
        // Round-0 members cannot vote in round 1 (TSK-01: current members only).
        vm.prank(c0[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNotCouncilMember.selector, id, c0[1]));
        tasks.commitResult(id, keccak256("x"));
        _voteAll(id, 1, false, 3);
        _finalize(id); // a dispute verdict needs no appeal window
        _claimAll(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(_stake(c0[0]), colluderStake - SLASH);
        assertEq(usdc.balanceOf(c0[1]), 4e6);
        assertEq(usdc.balanceOf(c0[0]), 0);
        for (uint256 i; i < 3; ++i) assertEq(usdc.balanceOf(c1[i]), 4e6);
        assertEq(usdc.balanceOf(client), 1_000_000e6 - 16e6);
    }

    function test_openDispute_revertsWhileQuorumReachable() public {
        uint256 id = _running(3, 2);
        _commitAll(id, providers[1], GOOD);
        _voteAll(id, 0, true, 1);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoDisagreement.selector, id));
        tasks.openDispute(id);
    }

    function test_executorMayAppealRejection() public {
        uint256 id = _running(3, 2);
        _commitAll(id, providers[1], GOOD);
        _voteAll(id, 0, false, 2);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoDisagreement.selector, id));
        tasks.openDispute(id); // only the executor may appeal a rejection
        vm.prank(providers[1]);
        tasks.openDispute(id);
        assertEq(tasks.getTask(id).round, 1);
    }

    function test_resolveDispute_governanceLastResort() public {
        uint256 id = _submit(USDC, 1_000e6, 2, 2);
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
        _commitAll(id, providers[1], GOOD);
        vm.warp(tasks.getTask(id).votingEnds + 1); // nobody voted
        tasks.openDispute(id);
        _draw(id);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskDeadlineNotPassed.selector, t.votingEnds));
        tasks.resolveDispute(id, true);
        vm.warp(t.votingEnds + 1);
        vm.prank(address(0xBAD));
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, address(0xBAD)));
        tasks.resolveDispute(id, true);
        tasks.resolveDispute(id, true);
        assertEq(usdc.balanceOf(providers[1]), 400e6);
        assertEq(usdc.balanceOf(client), 1_000_000e6 - 400e6);
    }

    // ─── deadlines and keepers ──────────────────────────────────────────────────────────────────────────

    function test_expire_slashesRefundsAndPaysBoundedBounty() public {
        uint256 id = _running(3, 2);
        address keeper = address(0x4EE9);
        // @dev Response mode 1 (TaskSolBase): the error names the pending checkpoint's milestone (TaskPricing.dueBy).
        vm.expectPartialRevert(ITaskRegistryErrors.TaskDeadlineNotPassed.selector);
        tasks.expire(id);
        vm.warp(tasks.getTask(id).deadline + 1);
        (bool can, bytes memory payload) = _keeper().checker();
        assertTrue(can);
        assertEq(payload, abi.encodeCall(ITaskRegistry.expire, (id)));
        vm.prank(keeper);
        (bool ok, ) = address(tasks).call(payload);
        assertTrue(ok);
        assertEq(usdc.balanceOf(client), 1_000_000e6);
        assertEq(dps.balanceOf(keeper), 10e18, "finder fee 10 % of the 100 DPS slash");
        assertEq(registry.providerInfo(providers[1]).failed, 1);
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistry.TaskAlreadyDone.selector, id, ITaskRegistry.Status.Expired)
        );
        tasks.expire(id);
    }

    function test_checker_finalizesThroughPerformUpkeep() public {
        uint256 id = _running(3, 2);
        _commitAll(id, providers[1], GOOD);
        _voteAll(id, 0, true, 2);
        (bool need, bytes memory data) = _keeper().checkUpkeep("");
        assertTrue(need);
        assertEq(data, abi.encodeCall(ITaskRegistry.finalize, (id)));
        _keeper().performUpkeep(data);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
        (need, ) = _keeper().checkUpkeep("");
        assertFalse(need);
    }

    // ─── CH redemption (TSK-04) and DPS replenishment ───────────────────────────────────────────────────

    function _chTask(uint128 price) internal returns (uint256 id) {
        vm.prank(providers[0]);
        registry.mintCH(500e18, client);
        id = _submit(CHC, 200e18, 3, 2);
        _bid(id, providers[1], price / 2); // lower, but owes no CH: cannot redeem, skipped at close
        _bid(id, providers[0], price);
        _closeAndDraw(id);
        assertEq(tasks.getTask(id).executor, providers[0]);
    }

    /// TSK-04: accepted CH delivery burns the CH and lowers the executor's liability by the same amount.
    function test_chRedemption_acceptedBurnsAgainstLiability() public {
        uint256 id = _chTask(100e18);
        assertEq(registry.providerInfo(providers[0]).assignedCh, 100e18);
        _commitAll(id, providers[0], GOOD);
        _voteAll(id, 0, true, 3);
        _finalize(id);
        _claimAll(id);
        assertEq(registry.liabilityOf(providers[0]), 400e18);
        assertEq(ch.totalSupply(), 400e18, "supply = sum of liabilities");
        address[] memory c = tasks.councilOf(id, 0);
        assertEq(ch.balanceOf(c[0]), 1e18);
        // Client: 500 - 200 deposit + refund (200 - 100 - 3).
        assertEq(ch.balanceOf(client), 397e18);
    }

    function test_chRedemption_rejectedCompensatesClientAtIndexPrice() public {
        uint256 id = _chTask(100e18);
        _commitAll(id, providers[0], BAD);
        _voteAll(id, 0, false, 3);
        vm.warp(tasks.getTask(id).votingEnds + 1);
        _finalize(id);
        // the report's keeper bounty (0.1 % of 200 CH) stays in escrow until the failure is reported
        assertEq(ch.balanceOf(client), 497e18 - 0.2e18, "CH back minus council fees and the held report bounty");
        vm.expectRevert(); // delivery deadline (task deadline + grace) not passed yet
        tasks.reportRedemptionFailure(id);
        vm.warp(tasks.getTask(id).deadline + 1 days + 1);
        uint256 before = dps.balanceOf(client);
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.KeeperBountyPaid(
            id,
            address(this),
            ITaskRegistry.reportRedemptionFailure.selector,
            0,
            0.2e18,
            3e18
        );
        tasks.reportRedemptionFailure(id);
        assertEq(
            tasks.keeperCredits(address(this), ITaskRegistry.Currency.CH),
            0.2e18,
            "the reporting keeper's bounty"
        );
        // 100 CH × 2.5 USDC × 1.1 penalty / 1 USDC per DPS = 275 DPS.
        assertEq(dps.balanceOf(client) - before, 275e18);
        assertEq(registry.liabilityOf(providers[0]), 500e18, "CH still outstanding");
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoOpenRedemption.selector, id));
        tasks.reportRedemptionFailure(id);
    }

    function test_dpsPayment_discountAndReplenish() public {
        uint256 id = _submit(DPSC, 2_000e18, 3, 2);
        _bid(id, providers[1], 1_000e18);
        _closeAndDraw(id);
        _commitAll(id, providers[1], GOOD);
        _voteAll(id, 0, true, 2);
        uint256 before = dps.balanceOf(providers[1]);
        vm.expectEmit(address(tasks));
        // cost 1000 × 0.9 = 900; pool 20 % = 180; executor 720; council 2 × 10; refund 2000 - 900 - 20.
        emit ITaskRegistry.TaskFinalized(id, ITaskRegistry.Status.Accepted, 720e18, 20e18, 1_080e18, 180e18);
        _finalize(id);
        assertEq(dps.balanceOf(providers[1]) - before, 720e18);
        assertEq(pool.replenished(), 180e18);
        assertEq(dps.balanceOf(address(pool)), 180e18);
    }

    // ─── governance ─────────────────────────────────────────────────────────────────────────────────────

    function test_setParams_accessAndValidation() public {
        ITaskRegistry.Params memory p = _params();
        vm.prank(address(0xBAD));
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, address(0xBAD)));
        tasks.setParams(p);
        p.maxCouncil = 0;
        vm.expectRevert(ITaskRegistryErrors.TaskInvalidParams.selector);
        tasks.setParams(p);
    }

    // ─── fuzz ───────────────────────────────────────────────────────────────────────────────────────────

    /// TSK-01 + TSK-02: any vote pattern finalises iff a side reached quorum; the payouts never exceed the
    /// deposit and the registry ends holding exactly the remaining escrow.
    function testFuzz_votes_TSK01_TSK02(uint8 pattern, uint8 voters, uint96 priceSeed) public {
        uint256 id = _submit(USDC, 1_000e6, 5, 3);
        uint128 price = uint128(bound(priceSeed, 1, _maxBid(1_000e6, 5)));
        _bid(id, providers[1], price);
        _closeAndDraw(id);
        _commitAll(id, providers[1], GOOD);
        address[] memory c = tasks.councilOf(id, 0);
        uint256 n = bound(voters, 0, 5);
        uint256 a;
        uint256 d;
        for (uint256 i; i < n; ++i) {
            bool yes = (pattern >> i) & 1 == 1;
            _commitAs(id, c[i], yes ? GOOD : OTHER_RESULT);
            if (yes) ++a;
            else ++d;
        }
        _toReveal(id);
        for (uint256 i; i < n; ++i) _revealAs(id, c[i], (pattern >> i) & 1 == 1 ? GOOD : OTHER_RESULT);
        vm.warp(tasks.getTask(id).votingEnds + 1);
        if (a < 3 && d < 3) {
            vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoQuorum.selector, id, a, d, 3));
            _finalize(id);
            assertEq(usdc.balanceOf(address(tasks)), tasks.totalEscrow(USDC));
            return;
        }
        _finalize(id);
        _claimAll(id);
        assertEq(usdc.balanceOf(address(tasks)), 0);
        assertEq(tasks.totalEscrow(USDC), 0);
        uint256 paidOut = usdc.balanceOf(providers[1]);
        for (uint256 i; i < 5; ++i) paidOut += usdc.balanceOf(c[i]);
        assertEq(paidOut + usdc.balanceOf(client), 1_000_000e6, "conservation");
    }
}
