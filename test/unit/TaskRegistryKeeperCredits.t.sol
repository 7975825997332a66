// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryErrors} from "../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";
import {ITaskRegistryEvents} from "../../contracts/interfaces/tasks/ITaskRegistryEvents.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IProviderRegistryEvents} from "../../contracts/interfaces/compute/IProviderRegistryEvents.sol";
import {DrawProfile} from "../../contracts/libraries/compute/DrawProfile.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";

/// @notice Issue 21 item 6 with issue 18's gas levers: maintenance steps credit their keeper bounty (pull:
///         `claimKeeperCredits`) from the task's own deposit, bounded per task; credits count in `totalEscrow`
///         (TSK-02); reputation gained at finalize is lazy; the trusted TaskRegistry skips the AccessManager call.
contract TaskRegistryKeeperCreditsTest is TaskSolBase {
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;
    address internal constant KEEPER = address(0x4EE9);
    address internal constant THIEF = address(0x7E1F);
    bytes32 internal constant GOOD = keccak256("good result");

    function setUp() public {
        _deployTasks();
    }

    /// @dev One USDC task (deposit 1,000, n = 3, q = 2) run by `keeper` through every paid step to an acceptance.
    function _runBy(address keeper) internal returns (uint256 id) {
        id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 400e6);
        vm.warp(block.timestamp + 1 hours + 1);
        vm.prank(keeper);
        tasks.closeBidding(id);
        uint256 target = tasks.getTask(id).targetBlock;
        vm.roll(target + 1);
        vm.setBlockhash(target, keccak256(abi.encode("block", target)));
        vm.prank(keeper);
        tasks.closeBidding(id);
        vm.prank(keeper);
        tasks.drawCouncil(id);
        _commitAll(id, providers[1], GOOD);
        _voteAll(id, 0, true, 2);
        vm.prank(keeper);
        tasks.finalize(id);
    }

    /// TSK-02 (item 6): a keeper farming its own tasks (the client's sock puppet calling every step) earns at most
    /// KEEPER_STEPS × 0.1 % of each deposit, out of that deposit; repeating a step pays nothing more; every unit is
    /// either a task escrow or a claimable credit, and the registry's balance equals their sum.
    function test_selfDealingKeeper_earnsBoundedSliceOfOwnDeposit_TSK02() public {
        uint256 clientBefore = usdc.balanceOf(client);
        uint256 id = _runBy(KEEPER);
        assertEq(tasks.keeperCredits(KEEPER, USDC), 3e6, "closeBidding + drawCouncil + finalize, 0.1 % each");
        assertEq(usdc.balanceOf(KEEPER), 0, "credited, not transferred");
        vm.prank(KEEPER);
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistry.TaskAlreadyDone.selector, id, ITaskRegistry.Status.Accepted)
        );
        tasks.finalize(id);
        vm.prank(KEEPER);
        vm.expectRevert();
        tasks.drawCouncil(id);
        assertEq(tasks.keeperCredits(KEEPER, USDC), 3e6, "a repeated step paid again");
        _claimAll(id);
        assertEq(usdc.balanceOf(address(tasks)), tasks.totalEscrow(USDC), "TSK-02: balance = escrows + credits");
        assertEq(tasks.totalEscrow(USDC), 3e6, "only the credits are left");
        // the client paid the executor, two fees and the three bounties: nothing else left its deposit
        assertEq(clientBefore - usdc.balanceOf(client), 400e6 + 8e6 + 3e6);
        // the bound: ≤ KEEPER_STEPS (5) bounties per task, whatever the keeper does
        assertLe(tasks.keeperCredits(KEEPER, USDC), (5 * uint256(1_000e6) * 10) / 10_000);
    }

    /// The client or the executor calling the paid steps is credited nothing (the slice is refunded).
    function test_clientAndExecutor_earnNoCredit() public {
        uint256 id = _runBy(client);
        assertEq(tasks.keeperCredits(client, USDC), 0);
        _claimAll(id);
        assertEq(tasks.totalEscrow(USDC), 0);
        id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 400e6);
        vm.warp(block.timestamp + 1 hours + 1);
        _close(id);
        vm.roll(tasks.getTask(id).targetBlock + 1);
        vm.prank(providers[1]);
        tasks.drawCouncil(id);
        assertEq(tasks.keeperCredits(providers[1], USDC), 0, "the executor drew its own council for a credit");
    }

    /// A credit is claimed once: the second claim reverts and pays nothing.
    function test_claimTwice_secondReverts() public {
        _runBy(KEEPER);
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.KeeperCreditsClaimed(KEEPER, KEEPER, 1, 3e6);
        vm.prank(KEEPER);
        assertEq(tasks.claimKeeperCredits(USDC, KEEPER), 3e6);
        assertEq(usdc.balanceOf(KEEPER), 3e6);
        vm.prank(KEEPER);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskKeeperNothingToClaim.selector, KEEPER, 1));
        tasks.claimKeeperCredits(USDC, KEEPER);
        assertEq(usdc.balanceOf(KEEPER), 3e6);
    }

    /// A second account cannot claim the keeper's credit (not even to the keeper's address), nor another currency.
    function test_claimBySecondAccount_reverts_keeperCreditIntact() public {
        _runBy(KEEPER);
        vm.prank(THIEF);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskKeeperNothingToClaim.selector, THIEF, 1));
        tasks.claimKeeperCredits(USDC, THIEF);
        vm.prank(KEEPER);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskKeeperNothingToClaim.selector, KEEPER, 2));
        tasks.claimKeeperCredits(ITaskRegistry.Currency.DPS, KEEPER);
        vm.prank(KEEPER);
        vm.expectRevert(abi.encodeWithSignature("ChxZeroAddress()"));
        tasks.claimKeeperCredits(USDC, address(0));
        assertEq(tasks.keeperCredits(KEEPER, USDC), 3e6);
        // the keeper may direct its own credit elsewhere
        vm.prank(KEEPER);
        tasks.claimKeeperCredits(USDC, THIEF);
        assertEq(usdc.balanceOf(THIEF), 3e6);
        assertEq(tasks.keeperCredits(KEEPER, USDC), 0);
    }

    /// Lazy reputation through a real finalize: the executor's point is counted but its draw word (what later draws
    /// read) is unchanged until the next snapshot write; a refresh by anyone folds exactly that point.
    function test_finalize_reputationIsLazy_foldedByRefresh() public {
        address exec = providers[1];
        uint256 wordBefore = _word(exec);
        uint256 id = _runBy(KEEPER);
        // issue 18 item 4: an appealable acceptance records the completion when its appeal window closes
        assertEq(registry.providerInfo(exec).completed, 0, "held back while the client may appeal");
        vm.warp(block.timestamp + tasks.params().disputeWindowSec + 1);
        vm.prank(KEEPER);
        tasks.closeAppeal(id);
        assertEq(registry.providerInfo(exec).completed, 1);
        assertEq(_word(exec), wordBefore, "the completion re-recorded the draw snapshot");
        vm.prank(THIEF);
        registry.refreshDrawProfile(exec);
        assertEq(DrawProfile.repPct(_word(exec)), 101);
    }

    /// A council member that unstakes between the snapshot (seed commit) and the draw is still drawn from the
    /// snapshot (TSK-07) and its duty still locks stake it must keep (TSK-08): it cannot withdraw the locked part.
    function test_unstakeBetweenSnapshotAndDraw_drawUnchanged_dutyLocks() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 400e6);
        vm.warp(block.timestamp + 1 hours + 1);
        _close(id);
        uint256 snap = vm.snapshotState();
        _draw(id);
        address[] memory drawn = tasks.councilOf(id, 0);
        vm.revertToState(snap);
        address m = drawn[0];
        uint256 staked = registry.providerInfo(m).stakedDps;
        uint256 balanceBefore = dps.balanceOf(m);
        vm.prank(m);
        registry.requestUnbond(staked);
        _draw(id);
        address[] memory again = tasks.councilOf(id, 0);
        assertEq(keccak256(abi.encode(again)), keccak256(abi.encode(drawn)), "unstaking changed the draw");
        vm.warp(block.timestamp + 30 days);
        vm.prank(m);
        registry.withdrawUnbonded();
        assertEq(dps.balanceOf(m) - balanceBefore, staked - SLASH, "the duty's stake stayed");
    }

    /// The trusted TaskRegistry skips the AccessManager call; nobody else does (a stranger still needs the role),
    /// only ADMIN names it, and clearing it restores the role check for the registry too.
    function test_trustedTaskRegistry_onlyNamedContractSkipsAccessManager() public {
        address[] memory one = new address[](1);
        one[0] = providers[2];
        vm.prank(THIEF);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, THIEF));
        registry.setTrustedTaskRegistry(THIEF);
        vm.expectEmit(address(registry));
        emit IProviderRegistryEvents.TrustedTaskRegistrySet(address(0), address(tasks));
        registry.setTrustedTaskRegistry(address(tasks));
        assertEq(registry.trustedTaskRegistry(), address(tasks));
        // a stranger is still checked
        vm.prank(THIEF);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, THIEF));
        registry.lockStake(one, 1e18);
        vm.prank(THIEF);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, THIEF));
        registry.recordTaskOutcome(providers[2], true);
        // the named registry passes even without the role, and a whole task runs through it
        manager.revokeRole(Roles.STAKE_LOCKER, address(tasks));
        vm.prank(address(tasks));
        registry.lockStake(one, 1e18);
        vm.prank(address(tasks));
        registry.releaseStake(one, 1e18);
        _runBy(KEEPER);
        // cleared: the registry is back to the role check (it lacks STAKE_LOCKER now)
        registry.setTrustedTaskRegistry(address(0));
        vm.prank(address(tasks));
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, address(tasks)));
        registry.lockStake(one, 1e18);
    }

    function _word(address p) internal view returns (uint256) {
        address[] memory one = new address[](1);
        one[0] = p;
        return registry.drawProfilesAt(one, block.number)[0];
    }
}
