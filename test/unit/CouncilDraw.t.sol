// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryEvents} from "../../contracts/interfaces/compute/IProviderRegistryEvents.sol";
import {IProviderRegistryErrors} from "../../contracts/interfaces/compute/IProviderRegistryErrors.sol";
import {IProviderMatcher} from "../../contracts/interfaces/compute/IProviderMatcher.sol";
import {ProviderSampling} from "../../contracts/libraries/compute/ProviderSampling.sol";
import {signDigest} from "../utils/Signatures.sol";

/// @notice TSK-07 (issue 17 items 6 and 20): once the seed is known, no action — registering, staking, unbonding,
///         updating a profile, heartbeating, choosing who calls — changes who is drawn for a council (either round)
///         or who wins the executor auction. Each test draws once, rewinds, lets an attacker act after the seed is
///         public, draws again, and requires the same result.
contract CouncilDrawTest is TaskSolBase {
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;
    bytes32 internal constant GOOD = keccak256("correct result");
    address[] internal attackers;

    function setUp() public {
        _deployTasks();
        for (uint256 i; i < 4; ++i) {
            address a = address(uint160(0xA77A0 + i));
            attackers.push(a);
            _onboard(a, 5_000e18);
        }
    }

    function _same(address[] memory a, address[] memory b) internal pure returns (bool) {
        if (a.length != b.length) return false;
        for (uint256 i; i < a.length; ++i) if (a[i] != b[i]) return false;
        return true;
    }

    /// @dev A USDC task (n, q) with providers[0] the only bidder, bidding closed and the seed block mined.
    function _closed(uint8 n, uint8 q) internal returns (uint256 id) {
        id = _submit(USDC, 1_000e6, n, q);
        _bid(id, providers[0], 400e6);
        vm.warp(block.timestamp + 1 hours + 1);
        _close(id);
        _mineSeed(id);
    }

    function _mineSeed(uint256 id) internal {
        uint256 target = tasks.getTask(id).targetBlock;
        if (block.number <= target) vm.roll(target + 1);
        vm.setBlockhash(target, keccak256(abi.encode("block", target)));
    }

    function _drawnBy(uint256 id, address caller) internal returns (address[] memory) {
        vm.prank(caller);
        tasks.drawCouncil(id);
        return tasks.councilOf(id, tasks.getTask(id).round);
    }

    /// The attack of item 6: with the seed public, register (free, stake-less) addresses until the window the old
    /// draw scanned (seed mod providerCount) starts on the attacker's providers, then draw in the same block.
    function test_registerAfterSeed_cannotSteerCouncilOntoAttacker() public {
        ITaskRegistry.Params memory p = _params();
        p.councilWindow = 3; // the old draw scanned a 3-provider window of the registry list
        tasks.setParams(p);
        uint256 id = _closed(3, 2);
        uint256 snap = vm.snapshotState();
        address[] memory honest = _drawnBy(id, address(this));
        vm.revertToState(snap);

        ITaskRegistry.Task memory t = tasks.getTask(id);
        bytes32 seed = matcher.blockSeed(keccak256(abi.encode(id, t.executor, t.price, uint8(0))), t.targetBlock);
        // attackers sit at list indices 8..11: a window starting at 8 or 9 is all theirs
        for (uint256 j; j < 400 && (uint256(seed) % registry.providerCount()) / 2 != 4; ++j) {
            vm.prank(address(uint160(0x5EED0000 + j)));
            registry.register(1, 0x2, bytes32(0), "");
        }
        address[] memory steered = _drawnBy(id, address(this));
        assertTrue(_same(honest, steered), "post-seed registrations changed the council");
        uint256 captured;
        for (uint256 i; i < steered.length; ++i) if (_isIn(steered[i], attackers)) ++captured;
        assertLt(captured, 3, "the attacker holds the whole council");
    }

    /// Members unbond (ineligible now), outsiders stake more or heartbeat a low capacity, profiles change: none of
    /// it, after the seed, moves the draw.
    function test_postSeedStakeProfileAndHeartbeat_doNotChangeCouncil() public {
        uint256 id = _closed(3, 2);
        uint256 snap = vm.snapshotState();
        address[] memory before = _drawnBy(id, address(this));
        vm.revertToState(snap);
        for (uint256 i; i < before.length; ++i) {
            address m = before[i];
            uint256 s = registry.providerInfo(m).stakedDps;
            vm.startPrank(m);
            registry.requestUnbond(s); // below the minimum stake: ineligible for a live draw
            registry.updateProfile(9, 0x4, bytes32(0), "");
            vm.stopPrank();
        }
        for (uint256 i; i < providers.length; ++i) {
            address o = providers[i];
            if (_isIn(o, before) || o == providers[0]) continue;
            dps.transfer(o, 50_000e18);
            vm.startPrank(o);
            dps.approve(address(registry), 50_000e18);
            registry.stake(50_000e18);
            registry.heartbeat(0.05e18);
            vm.stopPrank();
        }
        address[] memory afterActions = _drawnBy(id, address(this));
        assertTrue(_same(before, afterActions), "post-seed actions changed the council");
    }

    /// Who calls drawCouncil does not matter (the old draw excluded the caller: a member could drop out).
    function test_drawCaller_cannotExcludeItself() public {
        uint256 id = _closed(3, 2);
        uint256 snap = vm.snapshotState();
        address[] memory before = _drawnBy(id, address(this));
        vm.revertToState(snap);
        address[] memory byMember = _drawnBy(id, before[0]);
        assertTrue(_same(before, byMember), "the caller changed the council");
    }

    /// The 2n + 1 dispute council is as unmovable as the first one.
    function test_disputeCouncil_postSeedActionsDoNotChangeIt() public {
        uint256 id = _submit(USDC, 1_000e6, 2, 2);
        _bid(id, providers[0], 400e6);
        _closeAndDraw(id);
        vm.prank(providers[0]);
        tasks.commit(id, 0, keccak256("c0"));
        vm.prank(providers[0]);
        tasks.commit(id, 1, GOOD);
        _voteMask(id, 0, 2, 1);
        tasks.openDispute(id);
        _mineSeed(id);
        uint256 snap = vm.snapshotState();
        address[] memory before = _drawnBy(id, address(this));
        vm.revertToState(snap);
        for (uint256 i; i < before.length; ++i) {
            uint256 s = registry.providerInfo(before[i]).stakedDps;
            vm.prank(before[i]);
            registry.requestUnbond(s);
        }
        for (uint256 j; j < 40; ++j) {
            vm.prank(address(uint160(0xD15B0000 + j)));
            registry.register(1, 0x2, bytes32(0), "");
        }
        address[] memory afterActions = _drawnBy(id, before[1]);
        assertTrue(_same(before, afterActions), "post-seed actions changed the dispute council");
    }

    /// The registry computes the draw seed itself (issue 18: one external call less per draw): the council is
    /// exactly the matcher's snapshot draw under the matcher's own `blockSeed`, in draw order, and the list that
    /// `councilOf` walks (threaded through the members' vote words) keeps that order.
    function test_blockSeed_matchesMatcher() public {
        uint256 id = _closed(3, 2);
        address[] memory drawn = _drawnBy(id, address(this));
        ITaskRegistry.Task memory t = tasks.getTask(id);
        bytes32 seed = matcher.blockSeed(keccak256(abi.encode(id, t.executor, t.price, uint8(0))), t.targetBlock);
        IProviderMatcher.DrawQuery memory q = IProviderMatcher.DrawQuery({
            workloadClass: t.workloadClass,
            requiredCapacityPflopsWad: t.capacityPflopsWad,
            atBlock: uint64(t.targetBlock - 1),
            atTime: t.seedTime,
            candidates: t.candidates,
            extraSamples: tasks.params().councilWindow
        });
        address[] memory ex = new address[](2);
        (ex[0], ex[1]) = (t.client, t.executor);
        address[] memory expected = matcher.drawFromSnapshot(q, ex, seed, 3);
        assertEq(expected.length, 3);
        assertTrue(_same(drawn, expected), "council differs from the matcher's draw");
        assertEq(tasks.councilOf(id, 1).length, 0, "no dispute council yet");
    }

    // ─── item 20: the executor auction's tie-break ─────────────────────────────────────────────────────────

    /// Two equal bids from identical profiles: the old tie-break used seed 0, so the winner was a fixed function of
    /// the addresses (grindable before bidding). With the seed committed when bidding closes, both can win.
    function test_equalBids_winnerSetByCommittedSeed_notByAddress() public {
        uint256 winsA;
        uint256 winsB;
        for (uint256 k; k < 8; ++k) {
            uint256 snap = vm.snapshotState();
            uint256 id = _submit(USDC, 1_000e6, 3, 2);
            _bid(id, providers[1], 400e6);
            _bid(id, providers[2], 400e6);
            vm.warp(block.timestamp + 1 hours + 1);
            tasks.closeBidding(id);
            if (tasks.getTask(id).status == ITaskRegistry.Status.Bidding) {
                uint256 target = tasks.getTask(id).targetBlock;
                vm.roll(target + 1);
                vm.setBlockhash(target, keccak256(abi.encode("trial", k)));
                tasks.closeBidding(id);
            }
            address winner = tasks.getTask(id).executor;
            if (winner == providers[1]) ++winsA;
            else if (winner == providers[2]) ++winsB;
            vm.revertToState(snap);
        }
        assertEq(winsA + winsB, 8);
        assertGt(winsA, 0, "the seed never favoured the first bidder");
        assertGt(winsB, 0, "the seed never favoured the second bidder");
    }

    // ─── the snapshot itself ───────────────────────────────────────────────────────────────────────────

    /// A provider below the minimum stake is not listed; after governance lowers the minimum, anyone's
    /// refreshDrawProfile records its present profile (and lists it) — profiles at earlier blocks stay as they were.
    function test_refreshDrawProfile_recordsThePresentOnly() public {
        address p = address(0xF00D);
        vm.prank(p);
        registry.register(1, 0x2, bytes32(0), "");
        dps.transfer(p, 800e18);
        vm.startPrank(p);
        dps.approve(address(registry), 800e18);
        registry.stake(800e18);
        vm.stopPrank();
        IProviderRegistry.Attestation memory a = _attestation(p);
        registry.attest(a, signDigest(ATTESTER_PK, registry.attestationDigest(a)));
        uint256 count = registry.drawCount();
        uint256 before = block.number;
        address[] memory one = new address[](1);
        one[0] = p;
        uint256 oldWord = registry.drawProfilesAt(one, before)[0];
        assertEq(oldWord >> 207, 0, "below the minimum stake: flag clear");
        IProviderRegistry.Params memory rp = registry.params();
        rp.minStakeDps = 500e18;
        registry.setParams(rp);
        vm.roll(block.number + 1);
        vm.expectEmit(address(registry));
        emit IProviderRegistryEvents.DrawCandidateListed(p, count);
        registry.refreshDrawProfile(p);
        assertEq(registry.drawCount(), count + 1);
        uint256[] memory at = new uint256[](1);
        at[0] = count;
        (address[] memory listed, uint256[] memory words, ) = registry.drawSample(at, block.number);
        assertEq(listed[0], p);
        assertEq(words[0] >> 207, 1, "now eligible");
        assertEq(registry.drawProfilesAt(one, before)[0], oldWord, "the past is unchanged");
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderNotRegistered.selector, address(0xBAD)));
        registry.refreshDrawProfile(address(0xBAD));
    }

    // ─── the draw-list entry's weight (drawSampleWeighted: a rejected sample reads one slot) ─────────────────

    /// @dev chx.storage.ProviderRegistry base + 14: the draw list (storage-layouts/ProviderRegistry.json).
    uint256 internal constant DRAW_LIST_SLOT = 0x57910e868696b19b0f1bc6634dc4c53f36fe0c37f0a005cc52dcb79aa46e4f00 + 14;

    function _entry(uint256 index) internal view returns (uint256) {
        return uint256(vm.load(address(registry), bytes32(uint256(keccak256(abi.encode(DRAW_LIST_SLOT))) + index)));
    }

    /// @dev Requires drawSampleWeighted to return, for 300 sample hashes, exactly what the reference rule gives: the
    ///      entry `drawSample` lists with its word as of `atBlock`, accepted by `ProviderSampling.accepts` against the
    ///      reference weight as of `atBlock` (the checkpointed snapshot) — otherwise (0, 0). Returns the rejections.
    function _assertSamplesMatchSnapshot(uint256 atBlock, uint256 n) internal view returns (uint256 rejected) {
        uint256[] memory hs = new uint256[](300);
        uint256[] memory idx = new uint256[](300);
        for (uint256 i; i < hs.length; ++i) {
            hs[i] = ProviderSampling.sampleHash(keccak256(abi.encode("weighted", atBlock)), i);
            idx[i] = ProviderSampling.index(hs[i], n);
        }
        (address[] memory ref, uint256[] memory refWords, uint256 w) = registry.drawSample(idx, atBlock);
        for (uint256 i; i < hs.length; ++i) {
            bool ok = ProviderSampling.accepts(hs[i], refWords[i], w);
            _assertOne(hs[i], n, atBlock, ok ? ref[i] : address(0), ok ? refWords[i] : 0);
            if (!ok) ++rejected;
        }
    }

    function _assertOne(uint256 h, uint256 n, uint256 atBlock, address expected, uint256 expectedWord) internal view {
        uint256[] memory one = new uint256[](1);
        one[0] = h;
        (address[] memory who, uint256[] memory words, uint256 used) = registry.drawSampleWeighted(
            one,
            n,
            atBlock,
            1,
            new address[](0)
        );
        assertEq(used, 1);
        assertEq(who[0], expected, "sample provider differs from the snapshot rule");
        assertEq(words[0], expectedWord, "sample word differs from the snapshot");
    }

    /// A batch reads samples in order until `want` distinct providers outside `excluded` are accepted, and reports
    /// how many it consumed: the same providers, in the same positions, as the reference rule applied in order.
    function test_weightedBatch_stopsAtWant_skipsExcludedAndRepeats() public {
        _onboard(address(0xBEE1), 1_000e18);
        _onboard(address(0xBEE2), 20_000e18);
        vm.roll(block.number + 1);
        uint256 atBlock = block.number - 1;
        uint256 n = registry.drawCount();
        uint256[] memory hs = new uint256[](40);
        uint256[] memory idx = new uint256[](40);
        for (uint256 i; i < hs.length; ++i) {
            hs[i] = ProviderSampling.sampleHash(keccak256("batch"), i);
            idx[i] = ProviderSampling.index(hs[i], n);
        }
        (address[] memory ref, uint256[] memory refWords, uint256 w) = registry.drawSample(idx, atBlock);
        address[] memory ex = new address[](1);
        ex[0] = ref[0]; // the first sample's provider is excluded
        (address[] memory who, uint256[] memory words, uint256 used) = registry.drawSampleWeighted(
            hs,
            n,
            atBlock,
            4,
            ex
        );
        address[] memory seen = new address[](hs.length);
        uint256 got;
        uint256 i;
        for (; i < hs.length && got < 4; ++i) {
            bool take = ProviderSampling.accepts(hs[i], refWords[i], w) && ref[i] != ex[0] && !_isIn(ref[i], seen);
            assertEq(who[i], take ? ref[i] : address(0), "batch differs from the in-order reference");
            assertEq(words[i], take ? refWords[i] : 0);
            if (take) seen[got++] = ref[i];
        }
        assertEq(got, 4, "four accepted");
        assertEq(used, i, "consumed up to the fourth acceptance");
        for (uint256 j = used; j < hs.length; ++j) assertEq(who[j], address(0), "nothing read past want");
    }

    /// TSK-07 attack: with the seed public, members and outsiders change their weight — a listed provider unstakes and
    /// withdraws down to nothing, another stakes ten times more, a third slashes-free re-attests — after the commit
    /// block. The entries now carry the new weights (marked with the later block), yet every sample of a draw
    /// committed before still follows the snapshot; a draw committed after follows the new weights from the entries.
    function test_weightChangedAfterCommit_samplesFollowTheSnapshot_notTheEntry() public {
        _onboard(address(0xBEE1), 1_000e18);
        _onboard(address(0xBEE2), 20_000e18);
        vm.roll(block.number + 1);
        uint256 atBlock = block.number;
        uint256 n = registry.drawCount();
        uint256 rejectedBefore = _assertSamplesMatchSnapshot(atBlock, n);
        assertGt(rejectedBefore, 0, "unequal weights reject samples");
        vm.roll(block.number + 1);
        vm.startPrank(attackers[0]);
        registry.requestUnbond(registry.providerInfo(attackers[0]).stakedDps);
        vm.stopPrank();
        vm.warp(block.timestamp + 8 days);
        vm.prank(attackers[0]);
        registry.withdrawUnbonded();
        dps.transfer(attackers[1], 45_000e18);
        vm.startPrank(attackers[1]);
        dps.approve(address(registry), 45_000e18);
        registry.stake(45_000e18);
        vm.stopPrank();
        IProviderRegistry.Attestation memory a = _attestation(attackers[2]);
        registry.attest(a, signDigest(ATTESTER_PK, registry.attestationDigest(a)));
        // the entries moved on: the unstaked and the restaked provider carry this block and their new weights
        for (uint256 i; i < n; ++i) {
            uint256 e = _entry(i);
            address who = address(uint160(e));
            if (who == attackers[0] || who == attackers[1]) assertEq(uint48(e >> 160), block.number, "entry block");
            if (who == attackers[0]) assertEq(e >> 208, 0, "unstaked: weight 0");
            if (who == attackers[1]) assertEq(e >> 208, 50_000 * 100, "restaked: weight 50,000 x 100 %");
            if (who == attackers[2]) assertLt(uint48(e >> 160), atBlock + 1, "same weight: entry untouched");
        }
        _assertSamplesMatchSnapshot(atBlock, n);
        vm.roll(block.number + 1);
        _assertSamplesMatchSnapshot(block.number - 1, n);
    }

    /// An entry without a recorded weight (block 0: written before entries carried one) takes the checkpointed word:
    /// the same samples.
    function test_entryWithoutWeight_readsTheSnapshotWord() public {
        _onboard(address(0xBEE1), 1_000e18);
        vm.roll(block.number + 1);
        uint256 n = registry.drawCount();
        for (uint256 i; i < n; ++i) {
            bytes32 slot = bytes32(uint256(keccak256(abi.encode(DRAW_LIST_SLOT))) + i);
            vm.store(address(registry), slot, bytes32(uint256(uint160(_entry(i)))));
        }
        _assertSamplesMatchSnapshot(block.number - 1, n);
    }

    /// TSK-07: the council drawn through the entries is the one the snapshot rule gives (ProviderMatcher.drawFromSnapshot
    /// runs the same sampler), with unequal weights and a member's stake withdrawn between the commit and the draw.
    function test_unstakeBetweenCommitAndDraw_councilIsTheSnapshots() public {
        _onboard(address(0xBEE1), 1_000e18);
        _onboard(address(0xBEE2), 20_000e18);
        uint256 id = _closed(3, 2);
        uint256 snap = vm.snapshotState();
        address[] memory before = _drawnBy(id, address(this));
        vm.revertToState(snap);
        for (uint256 i; i < before.length; ++i) {
            vm.startPrank(before[i]);
            registry.requestUnbond(registry.providerInfo(before[i]).stakedDps);
            vm.stopPrank();
        }
        address[] memory afterUnstake = _drawnBy(id, address(0xCAFE));
        assertTrue(_same(before, afterUnstake), "an unstake after the commit changed the council");
    }

    /// Issue 18 item 5: the draw reads (`drawSample`, `drawSampleWeighted`) run in the linked ProviderViews library on
    /// the registry's storage. Through the delegatecall they still read the registry's checkpoints (TSK-07): a
    /// provider that stakes ten times more after `atBlock` keeps its `atBlock` word in both reads. (The registry's
    /// 20,480-byte runtime target is checked by `npm run gates` on the production build: under `--coverage` the
    /// instrumented bytecode is larger by design.)
    function test_linkedDrawReads_readTheRegistrysSnapshot() public {
        address[] memory one = new address[](1);
        one[0] = attackers[1];
        vm.roll(block.number + 1);
        uint256 atBlock = block.number;
        uint256 wordThen = registry.drawProfilesAt(one, atBlock)[0];
        assertGt(wordThen, 0, "listed with a word");
        vm.roll(block.number + 1);
        dps.transfer(attackers[1], 45_000e18);
        vm.startPrank(attackers[1]);
        dps.approve(address(registry), 45_000e18);
        registry.stake(45_000e18);
        vm.stopPrank();
        assertTrue(registry.drawProfilesAt(one, block.number)[0] != wordThen, "the live word moved");
        uint256 n = registry.drawCount();
        uint256[] memory idx = new uint256[](n);
        for (uint256 i; i < n; ++i) idx[i] = i;
        (address[] memory who, uint256[] memory words, ) = registry.drawSample(idx, atBlock);
        bool found;
        for (uint256 i; i < n; ++i) {
            if (who[i] == attackers[1]) {
                assertEq(words[i], wordThen, "drawSample follows the snapshot");
                found = true;
            }
        }
        assertTrue(found, "attacker listed");
        _assertSamplesMatchSnapshot(atBlock, n);
    }
}
