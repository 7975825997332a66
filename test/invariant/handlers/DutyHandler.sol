// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {IProviderRegistry} from "../../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IStreamTasks} from "../../../contracts/interfaces/tasks/IStreamTasks.sol";

/// @notice Drives providers through executor, council and stream duties while they try to leave: they unbond as much
///         as the registry lets them (and first try everything), wait, withdraw, and the tasks then end by every
///         path — accept, reject, dispute verdict, governance resolution, stalled-dispute refund, expiry — with time
///         and blocks moving together (12 s a block). Issue 17 item 8; TSK-03 and TSK-08.
contract DutyHandler is CommonBase, StdUtils {
    ITaskRegistry internal tasks;
    IProviderRegistry internal registry;
    IStreamTasks internal streams;
    IERC20 internal dps;
    address internal client;
    address[] internal providers;
    uint256 public streamId;
    uint256[] public ids;

    /// @dev Withdrawals or unbonds that took stake an open duty locked (must stay 0).
    uint256 public violations;
    mapping(bytes32 path => uint256 count) public hits;

    constructor(
        ITaskRegistry t,
        IProviderRegistry r,
        IStreamTasks s,
        IERC20 dps_,
        address c,
        address[] memory ps,
        uint256 sid
    ) {
        (tasks, registry, streams, dps, client, providers, streamId) = (t, r, s, dps_, c, ps, sid);
    }

    function idCount() external view returns (uint256) {
        return ids.length;
    }

    function _id(uint256 i) internal view returns (uint256) {
        return ids.length == 0 ? 0 : ids[i % ids.length];
    }

    function _p(uint256 i) internal view returns (address) {
        return providers[i % providers.length];
    }

    function _open() internal view returns (uint256 n) {
        for (uint256 k; k < ids.length; ++k) {
            ITaskRegistry.Status st = tasks.getTask(ids[k]).status;
            if (st >= ITaskRegistry.Status.Bidding && st <= ITaskRegistry.Status.Disputed) ++n;
        }
    }

    /// @dev Time and blocks move together (12 s blocks), as on a chain: a seed never outlives 256 blocks for days.
    function _advance(uint256 secs) internal {
        vm.warp(block.timestamp + secs);
        vm.roll(block.number + secs / 12 + 1);
    }

    function _mine(uint256 target) internal {
        if (block.number <= target) vm.roll(target + 1);
        vm.setBlockhash(target, keccak256(abi.encode("duty", target)));
    }

    // ─── tasks ──────────────────────────────────────────────────────────────────────────────────────────

    function newTask(uint256 bidder, uint256 priceBps, bool three) external {
        if (_open() >= 4) return;
        ITaskRegistry.Terms memory t = ITaskRegistry.Terms({
            currency: ITaskRegistry.Currency.USDC,
            responseMode: 0,
            councilSize: three ? 3 : 2,
            quorum: 2,
            checkpoints: 1,
            maxBids: 0,
            workloadClass: 1,
            region: 0,
            bidWindowSec: 1 hours,
            deadline: uint40(block.timestamp + 10 days),
            maxPayment: 1_000e6,
            capacityPflopsWad: 0.1e18,
            paymentParams: 0
        });
        ITaskRegistry.Prescription memory pr;
        vm.prank(client);
        uint256 id = tasks.submit(t, pr);
        ids.push(id);
        vm.prank(_p(bidder));
        try tasks.bid(id, uint128((bound(priceBps, 100, 8_000) * 1_000e6) / 10_000)) {} catch {}
    }

    function close(uint256 i) external {
        uint256 id = _id(i);
        if (id == 0) return;
        ITaskRegistry.Task memory t = tasks.getTask(id);
        if (t.status != ITaskRegistry.Status.Bidding) return;
        if (t.targetBlock == 0) {
            if (block.timestamp <= t.biddingEnds) _advance(t.biddingEnds + 1 - block.timestamp);
            try tasks.closeBidding(id) {} catch {}
            t = tasks.getTask(id);
            if (t.status != ITaskRegistry.Status.Bidding) return;
        }
        _mine(t.targetBlock);
        try tasks.closeBidding(id) {
            if (tasks.getTask(id).status == ITaskRegistry.Status.Running) ++hits["executor"];
        } catch {}
    }

    function draw(uint256 i) external {
        uint256 id = _id(i);
        if (id == 0) return;
        ITaskRegistry.Task memory t = tasks.getTask(id);
        if (t.status < ITaskRegistry.Status.Running || t.status > ITaskRegistry.Status.Disputed) return;
        _mine(t.targetBlock);
        try tasks.drawCouncil(id) {
            ++hits[t.round == 0 ? bytes32("council") : bytes32("disputeCouncil")];
        } catch {}
    }

    function commit(uint256 i, bool honest) external {
        uint256 id = _id(i);
        if (id == 0) return;
        vm.prank(tasks.getTask(id).executor);
        try tasks.commit(id, 0, honest ? bytes32("good") : bytes32("bad")) {} catch {}
    }

    /// @dev Commit–reveal: a member commits inside the commit window (the executor's result when `agree`) and
    ///      reveals what it committed after it.
    function vote(uint256 i, uint256 m, bool agree) external {
        uint256 id = _id(i);
        if (id == 0) return;
        ITaskRegistry.Task memory t = tasks.getTask(id);
        address[] memory c = tasks.councilOf(id, t.round);
        if (c.length == 0) return;
        address who = c[m % c.length];
        vm.prank(who);
        if (block.timestamp <= t.commitEnds) {
            bytes32 r = agree ? t.resultHash : bytes32("other");
            committed[id][who] = r;
            try tasks.commitResult(id, keccak256(abi.encode(id, who, r, bytes32(0)))) {} catch {}
        } else {
            try tasks.revealResult(id, committed[id][who], bytes32(0)) {} catch {}
        }
    }

    /// @dev What each member committed (revealed with salt zero).
    mapping(uint256 id => mapping(address member => bytes32 result)) internal committed;

    function dispute(uint256 i, bool late) external {
        uint256 id = _id(i);
        if (id == 0) return;
        ITaskRegistry.Task memory t = tasks.getTask(id);
        if (late && t.status == ITaskRegistry.Status.Verifying && block.timestamp <= t.votingEnds) {
            _advance(t.votingEnds + 1 - block.timestamp);
        }
        try tasks.openDispute(id) {
            ++hits["dispute"];
        } catch {}
    }

    function finalize(uint256 i) external {
        uint256 id = _id(i);
        if (id == 0) return;
        try tasks.finalize(id) {
            ITaskRegistry.Status st = tasks.getTask(id).status;
            ++hits[st == ITaskRegistry.Status.Unresolved ? bytes32("unresolved") : bytes32("verdict")];
        } catch {}
    }

    /// @dev Releases a seat after a verdict (TSK-08, issue 18 item 4): by `releaseSeat`, or its member's fee claim.
    function releaseSeat(uint256 i, uint256 m, bool round1, bool byClaim) external {
        uint256 id = _id(i);
        if (id == 0) return;
        address[] memory c = tasks.councilOf(id, round1 ? 1 : 0);
        if (c.length == 0) return;
        address member = c[m % c.length];
        if (byClaim) vm.prank(member);
        if (byClaim) {
            try tasks.claimCouncilFee(id) {
                ++hits["seatClaimed"];
            } catch {}
        } else {
            try tasks.releaseSeat(id, member) {
                ++hits["seatReleased"];
            } catch {}
        }
    }

    function resolve(uint256 i, bool verdict) external {
        uint256 id = _id(i);
        if (id == 0) return;
        try tasks.resolveDispute(id, verdict) {
            ++hits["resolved"];
        } catch {}
    }

    function expire(uint256 i) external {
        uint256 id = _id(i);
        if (id == 0) return;
        try tasks.expire(id) {
            ++hits["expired"];
        } catch {}
    }

    // ─── the stream ─────────────────────────────────────────────────────────────────────────────────────

    function subscribe(uint256 p) external {
        vm.prank(_p(p));
        try streams.subscribe(streamId, 1e6) {
            ++hits["subscribed"];
        } catch {}
    }

    function unsubscribe(uint256 p) external {
        vm.prank(_p(p));
        try streams.unsubscribe(streamId) {} catch {}
    }

    // ─── leaving during duties ──────────────────────────────────────────────────────────────────────────

    /// @dev First tries to unbond everything (must fail while a duty locks stake), then unbonds what is unlocked.
    function unbondMax(uint256 p) external {
        address who = _p(p);
        IProviderRegistry.ProviderInfo memory info = registry.providerInfo(who);
        uint256 staked = info.stakedDps;
        uint256 duty = info.dutyLockedDps;
        if (staked == 0) return;
        if (duty != 0) {
            vm.prank(who);
            try registry.requestUnbond(staked) {
                ++violations; // unbonded stake a duty locked
            } catch {}
            info = registry.providerInfo(who);
            staked = info.stakedDps;
        }
        if (staked <= duty) return;
        vm.prank(who);
        try registry.requestUnbond(staked - duty) {
            ++hits[duty != 0 ? bytes32("unbondDuringDuty") : bytes32("unbond")];
        } catch {}
    }

    function withdraw(uint256 p, bool wait) external {
        address who = _p(p);
        IProviderRegistry.ProviderInfo memory b = registry.providerInfo(who);
        if (wait && b.unbondingDps != 0 && block.timestamp < b.unbondReadyAt) {
            _advance(b.unbondReadyAt - block.timestamp);
        }
        vm.prank(who);
        try registry.withdrawUnbonded() {
            IProviderRegistry.ProviderInfo memory a = registry.providerInfo(who);
            uint256 had = uint256(b.stakedDps) + b.unbondingDps;
            uint256 mustKeep = a.dutyLockedDps < had ? a.dutyLockedDps : had;
            if (uint256(a.stakedDps) + a.unbondingDps < mustKeep) ++violations;
            ++hits[a.dutyLockedDps != 0 ? bytes32("withdrawDuringDuty") : bytes32("withdraw")];
        } catch {}
    }

    /// @dev Providers come back: restaking keeps the draws populated.
    function restake(uint256 p) external {
        address who = _p(p);
        if (dps.balanceOf(address(this)) < 5_000e18) return;
        dps.transfer(who, 5_000e18);
        vm.startPrank(who);
        dps.approve(address(registry), 5_000e18);
        try registry.stake(5_000e18) {} catch {}
        vm.stopPrank();
    }

    function warp(uint256 secs) external {
        _advance(bound(secs, 1 hours, 8 days));
    }
}
