// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {IProviderRegistry} from "../../../contracts/interfaces/compute/IProviderRegistry.sol";

/// @notice Drives clients, bidders, executors, councils and keepers of the TaskRegistry through random sequences
///         (USDC, DPS and CH tasks, honest and cheating executors, split votes, missed deadlines, time jumps).
contract TaskHandler is CommonBase, StdUtils {
    ITaskRegistry internal tasks;
    IProviderRegistry internal registry;
    address internal client;
    address[] internal providers;
    uint256[] public ids;
    /// @dev DPS the handler's faults allow slashing (TSK-03): the fault amount per rejected or expired executor (not
    ///      CH), a quarter of it per member silent past its reveal window (issue 21 item 1).
    mapping(address => uint256) public ghostSlashedDps;
    mapping(uint256 id => mapping(address member => bytes32 result)) internal committed;
    mapping(uint256 id => mapping(address member => bool)) internal revealed;
    uint256 public actions;

    constructor(ITaskRegistry t, IProviderRegistry r, address c, address[] memory ps) {
        (tasks, registry, client, providers) = (t, r, c, ps);
    }

    function _id(uint256 i) internal view returns (uint256) {
        return ids.length == 0 ? 0 : ids[i % ids.length];
    }

    function submit(uint8 cur, uint96 maxPayment) external {
        ITaskRegistry.Currency c = ITaskRegistry.Currency(cur % 3);
        uint128 amount = uint128(bound(maxPayment, 1e6, c == ITaskRegistry.Currency.CH ? 50e18 : 1_000e18));
        ITaskRegistry.Terms memory t = ITaskRegistry.Terms({
            currency: c,
            responseMode: 0,
            councilSize: 3,
            quorum: 2,
            checkpoints: 1,
            maxBids: 3,
            workloadClass: 1,
            region: 0,
            bidWindowSec: 1 hours,
            deadline: uint40(block.timestamp + 1 days),
            maxPayment: amount,
            capacityPflopsWad: 0.1e18,
            paymentParams: 0
        });
        ITaskRegistry.Prescription memory pr;
        vm.prank(client);
        ids.push(tasks.submit(t, pr));
        ++actions;
    }

    function bid(uint256 i, uint256 p, uint256 price) external {
        uint256 id = _id(i);
        if (id == 0) return;
        ITaskRegistry.Task memory t = tasks.getTask(id);
        uint256 budget = uint256(t.maxPayment) - 5 * ((uint256(t.maxPayment) * 10) / 10_000); // keeper bounties
        uint256 maxPrice = (budget * 10_000) / (10_000 + (3 * uint256(t.councilSize) + 1) * 100);
        if (maxPrice == 0) return;
        vm.prank(providers[p % providers.length]);
        try tasks.bid(id, uint128(bound(price, 1, maxPrice))) {
            ++actions;
        } catch {}
    }

    function close(uint256 i) external {
        uint256 id = _id(i);
        if (id == 0) return;
        ITaskRegistry.Task memory t = tasks.getTask(id);
        // sealed: the selecting call needs the seed block mined
        if (t.status == ITaskRegistry.Status.Bidding && t.targetBlock != 0 && block.number <= t.targetBlock) {
            vm.roll(uint256(t.targetBlock) + 1);
            vm.setBlockhash(t.targetBlock, keccak256(abi.encode(t.targetBlock)));
        }
        try tasks.closeBidding(id) {
            ++actions;
        } catch {}
    }

    function draw(uint256 i) external {
        uint256 id = _id(i);
        if (id == 0) return;
        uint256 target = tasks.getTask(id).targetBlock;
        if (target == 0) return;
        if (block.number <= target) vm.roll(target + 1);
        vm.setBlockhash(target, keccak256(abi.encode(target)));
        try tasks.drawCouncil(id) {
            ++actions;
        } catch {}
    }

    function commit(uint256 i, bool honest) external {
        uint256 id = _id(i);
        if (id == 0) return;
        vm.prank(tasks.getTask(id).executor);
        try tasks.commit(id, 0, honest ? bytes32("good") : bytes32("bad")) {
            ++actions;
        } catch {}
    }

    /// @dev Commit–reveal: inside the commit window the member commits (the executor's result when `agree`);
    ///      after it, it reveals what it committed.
    function vote(uint256 i, uint256 m, bool agree) external {
        uint256 id = _id(i);
        if (id == 0) return;
        address[] memory c = tasks.councilOf(id, 0);
        if (c.length == 0) return;
        address who = c[m % c.length];
        ITaskRegistry.Task memory t = tasks.getTask(id);
        vm.prank(who);
        if (block.timestamp <= t.commitEnds) {
            bytes32 r = agree ? t.resultHash : bytes32("other");
            try tasks.commitResult(id, keccak256(abi.encode(id, who, r, bytes32(0)))) {
                committed[id][who] = r;
                ++actions;
            } catch {}
        } else {
            try tasks.revealResult(id, committed[id][who], bytes32(0)) {
                revealed[id][who] = true;
                ++actions;
            } catch {}
        }
    }

    function finalize(uint256 i) external {
        uint256 id = _id(i);
        if (id == 0) return;
        try tasks.finalize(id) {
            ++actions;
            ITaskRegistry.Task memory t = tasks.getTask(id);
            uint256 fault = tasks.params().slashDps;
            if (t.status == ITaskRegistry.Status.Rejected && t.currency != ITaskRegistry.Currency.CH) {
                ghostSlashedDps[t.executor] += fault;
            }
            // Issue 21 item 1: members silent past the reveal window lose the bounded slice (a quarter).
            if (block.timestamp > t.votingEnds) {
                address[] memory c = tasks.councilOf(id, 0);
                for (uint256 k; k < c.length; ++k) if (!revealed[id][c[k]]) ghostSlashedDps[c[k]] += fault / 4;
            }
        } catch {}
    }

    function claim(uint256 i, uint256 m) external {
        uint256 id = _id(i);
        if (id == 0) return;
        address[] memory c = tasks.councilOf(id, 0);
        if (c.length == 0) return;
        vm.prank(c[m % c.length]);
        try tasks.claimCouncilFee(id) {
            ++actions;
        } catch {}
    }

    function expire(uint256 i) external {
        uint256 id = _id(i);
        if (id == 0) return;
        try tasks.expire(id) {
            ++actions;
            ITaskRegistry.Task memory t = tasks.getTask(id);
            if (t.currency != ITaskRegistry.Currency.CH) ghostSlashedDps[t.executor] += tasks.params().slashDps;
        } catch {}
    }

    function warp(uint256 secs) external {
        vm.warp(block.timestamp + bound(secs, 1, 2 days));
    }
}
