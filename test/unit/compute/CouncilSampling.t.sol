// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../../helpers/TaskSolBase.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";
import {IProviderMatcher} from "../../../contracts/interfaces/compute/IProviderMatcher.sol";
import {IProviderRegistryEvents} from "../../../contracts/interfaces/compute/IProviderRegistryEvents.sol";
import {DrawProfile} from "../../../contracts/libraries/compute/DrawProfile.sol";
import {ProviderSampling} from "../../../contracts/libraries/compute/ProviderSampling.sol";

/// @notice Issue 21 item 3: the council draw is random and weighted by the snapshot's stake × reputation (TSK-07),
///         reputation cannot be farmed cheaply by self-dealing, a whale is capped, Sybil splitting gains nothing
///         beyond stake-proportional, and a stake made after the seed commit weighs nothing in that draw.
contract CouncilSamplingTest is TaskSolBase {
    uint256 internal constant DRAWS = 400;

    function setUp() public {
        _deployTasks();
        _grant(Roles.COMPUTE, address(this));
    }

    function _query() internal view returns (IProviderMatcher.DrawQuery memory q) {
        q = IProviderMatcher.DrawQuery({
            workloadClass: 1,
            requiredCapacityPflopsWad: 0,
            atBlock: uint64(block.number),
            atTime: uint40(block.timestamp),
            candidates: uint32(registry.drawCount()),
            extraSamples: 64
        });
    }

    function _word(address p) internal view returns (uint256) {
        address[] memory one = new address[](1);
        one[0] = p;
        return registry.drawProfilesAt(one, block.number)[0];
    }

    /// @dev Seats `who` (any of `owned`) wins over DRAWS one-seat draws of `q`.
    function _wins(IProviderMatcher.DrawQuery memory q, address[] memory owned) internal view returns (uint256 won) {
        for (uint256 s; s < DRAWS; ++s) {
            address[] memory d = matcher.drawFromSnapshot(q, new address[](0), keccak256(abi.encode("seed", s)), 1);
            for (uint256 j; j < owned.length; ++j) if (d[0] == owned[j]) ++won;
        }
    }

    function _newProvider(uint256 salt, uint256 stakeDps) internal returns (address p) {
        p = address(uint160(0x51B0000 + salt));
        _onboard(p, stakeDps);
    }

    /// A provider that "completes" 1,000 tiny tasks it paid for itself in one day earns one reputation point (a day
    /// of service), not 1,000: its draw weight rises 1 %. Fifty honest days are worth +50 %, and no more.
    function test_selfDealing_thousandTinyTasks_earnOneReputationPoint() public {
        address farmer = providers[1];
        for (uint256 i; i < 1_000; ++i) registry.recordTaskOutcome(farmer, true);
        // lazy reputation: the gained point enters the draw word with the next snapshot write (anyone may force it)
        assertEq(DrawProfile.repPct(_word(farmer)), 100, "a completion re-recorded the draw word");
        vm.prank(address(0xBEEF));
        registry.refreshDrawProfile(farmer);
        uint256 w = _word(farmer);
        assertEq(DrawProfile.repPct(w), 101, "1,000 same-day completions earned more than one point");
        assertEq(DrawProfile.weight(w), 5_000 * 101);
        for (uint256 d; d < 70; ++d) {
            vm.warp(block.timestamp + 1 days);
            vm.roll(block.number + 1);
            registry.recordTaskOutcome(farmer, true);
            registry.refreshDrawProfile(farmer);
        }
        assertEq(DrawProfile.repPct(_word(farmer)), DrawProfile.REP_MAX_PCT, "reputation is bounded");
        // a failure costs five points, a slash ten percent
        registry.recordTaskOutcome(farmer, false);
        assertEq(DrawProfile.repPct(_word(farmer)), 145);
        _grant(Roles.PROVIDER_SLASHER, address(this));
        registry.slash(farmer, 1e18, address(0), bytes32("test"));
        assertEq(DrawProfile.repPct(_word(farmer)), 135);
    }

    /// The reputation event carries the post-state; a failure without points changes nothing.
    function test_reputationChanged_emitsPostState_andFailureFromZeroIsQuiet() public {
        address p = providers[2];
        vm.expectEmit(address(registry));
        emit IProviderRegistryEvents.ReputationChanged(p, 1, 101);
        registry.recordTaskOutcome(p, true);
        registry.refreshDrawProfile(p);
        assertEq(DrawProfile.repPct(_word(p)), 101);
        vm.warp(block.timestamp + 1 days);
        registry.recordTaskOutcome(p, false);
        assertEq(DrawProfile.repPct(_word(p)), 100, "a failure took the point back");
        registry.recordTaskOutcome(p, false);
        assertEq(DrawProfile.repPct(_word(p)), 100, "points do not go below zero");
    }

    /// Lazy reputation (issue 18 gas, TSK-07): a completion only counts points in the outcome slot; the draw word
    /// picks them up at the next snapshot write. Self-dealing folds nothing extra — fifty refreshes a day still hold
    /// one point — and a refresh cannot reach back before its own block (a draw committed earlier is unchanged).
    function test_lazyReputation_selfDealtCompletions_foldOncePerDay_neverIntoACommittedDraw() public {
        address farmer = providers[1];
        vm.roll(block.number + 1);
        uint256 committed = block.number - 1;
        uint256 wordAtCommit = registry.drawProfilesAt(_one(farmer), committed)[0];
        for (uint256 i; i < 50; ++i) {
            registry.recordTaskOutcome(farmer, true);
            vm.prank(farmer);
            registry.refreshDrawProfile(farmer);
        }
        assertEq(DrawProfile.repPct(_word(farmer)), 101, "refreshing folded more than the day's point");
        assertEq(registry.drawProfilesAt(_one(farmer), committed)[0], wordAtCommit, "a refresh rewrote the past");
    }

    /// A penalty is not lazy: a failure re-records the draw word in the same call (the provider cannot keep a better
    /// weight by never refreshing).
    function test_lazyReputation_failureFoldsAtOnce() public {
        address p = providers[2];
        registry.recordTaskOutcome(p, true);
        registry.refreshDrawProfile(p);
        vm.warp(block.timestamp + 1 days);
        registry.recordTaskOutcome(p, true);
        assertEq(DrawProfile.repPct(_word(p)), 101, "the second point is pending");
        registry.recordTaskOutcome(p, false);
        assertEq(DrawProfile.repPct(_word(p)), 100, "the failure did not reach the word at once");
    }

    function _one(address p) internal pure returns (address[] memory one) {
        one = new address[](1);
        one[0] = p;
    }

    /// Stake added after the commit block is not in that draw's snapshot: neither its weight nor the reference
    /// weight move, and the draw is identical. Stake added just before the commit counts — it is at risk for the
    /// unbonding delay (it cannot leave the next block) and weighs exactly its DPS.
    function test_stakeAfterSeedCommit_weighsNothing_stakeBefore_staysBonded() public {
        vm.roll(block.number + 1);
        address late = providers[3];
        IProviderMatcher.DrawQuery memory q = _query();
        address[] memory before = matcher.drawFromSnapshot(q, new address[](0), keccak256("s"), 4);
        vm.roll(block.number + 1);
        dps.transfer(late, 1_000_000e18);
        vm.startPrank(late);
        dps.approve(address(registry), 1_000_000e18);
        registry.stake(1_000_000e18);
        vm.stopPrank();
        address[] memory afterStake = matcher.drawFromSnapshot(q, new address[](0), keccak256("s"), 4);
        assertEq(
            keccak256(abi.encode(before)),
            keccak256(abi.encode(afterStake)),
            "a post-commit stake moved the draw"
        );
        uint256[] memory idx = new uint256[](1);
        idx[0] = 3;
        (address[] memory who, uint256[] memory words, uint256 ref) = registry.drawSample(idx, q.atBlock);
        assertEq(who[0], late);
        assertEq(DrawProfile.stakeUnits(words[0]), 5_000, "the snapshot word changed");
        assertEq(ref, 5_000 * 100, "the reference weight changed");
        // Staked before the next commit: it counts, capped, and cannot be withdrawn before the unbonding delay.
        vm.roll(block.number + 1);
        assertEq(DrawProfile.weight(_word(late)), DrawProfile.WEIGHT_CAP);
        vm.startPrank(late);
        registry.requestUnbond(1_000_000e18);
        vm.expectRevert();
        registry.withdrawUnbonded();
        vm.stopPrank();
    }

    /// A whale (1,000× everyone's stake) is capped at WEIGHT_CAP: it wins far less than its stake share of one-seat
    /// draws, and the others still win seats by weight.
    function test_whale_isCappedBelowItsStakeShare() public {
        address whale = _newProvider(1, 5_000_000e18);
        vm.roll(block.number + 1);
        address[] memory owned = new address[](1);
        owned[0] = whale;
        uint256 won = _wins(_query(), owned);
        // stake share 5,000,000 / 5,040,000 ≈ 99 %; capped weight share 5e6 / (5e6 + 8 · 5e5) ≈ 55.6 %
        assertLt(won, (DRAWS * 65) / 100, "the whale is not capped");
        assertGt(won, (DRAWS * 45) / 100, "the whale is under-weighted");
    }

    /// Splitting 10,000 DPS into ten 1,000-DPS providers does not raise the owner's seats beyond its stake share
    /// (20 % against eight providers of 5,000): one provider of 10,000 and ten of 1,000 win about the same.
    function test_sybilSplit_tenProviders_noMoreThanStakeProportional() public {
        uint256 snap = vm.snapshotState();
        address[] memory one = new address[](1);
        one[0] = _newProvider(100, 10_000e18);
        vm.roll(block.number + 1);
        uint256 whole = _wins(_query(), one);
        vm.revertToState(snap);
        address[] memory ten = new address[](10);
        for (uint256 i; i < 10; ++i) ten[i] = _newProvider(200 + i, 1_000e18);
        vm.roll(block.number + 1);
        uint256 split = _wins(_query(), ten);
        // expected 20 % = 80 of 400 each; σ ≈ 8: 4σ bounds
        assertLt(split, 112, "splitting raised the draw probability beyond stake-proportional");
        assertGt(whole, 48);
        assertLt(whole, 112);
    }

    /// χ²-style check over 20,000 deterministic seeds: the sampler's first accepted entry falls on each of six
    /// weights (1..6 units) in proportion to its weight (the same index/accept rule the contracts run).
    function test_weightedSampler_frequenciesTrackWeights() public pure {
        uint256[6] memory words;
        uint256 total;
        for (uint256 i; i < 6; ++i) {
            words[i] = DrawProfile.encode(type(uint40).max, 1, 1e18, (i + 1) * 1_000e18, 100, true);
            total += i + 1;
        }
        uint256 ref = DrawProfile.weight(words[5]);
        uint256 n = 20_000;
        uint256[6] memory hits;
        for (uint256 s; s < n; ++s) {
            bytes32 seed = keccak256(abi.encode(s));
            for (uint256 k; ; ++k) {
                uint256 h = ProviderSampling.sampleHash(seed, k);
                uint256 i = ProviderSampling.index(h, 6);
                if (ProviderSampling.accepts(h, words[i], ref)) {
                    ++hits[i];
                    break;
                }
            }
        }
        // χ² = Σ (o − e)² / e with 5 degrees of freedom; P(χ² > 25) < 0.0002
        uint256 chi2Scaled; // × 1e6
        for (uint256 i; i < 6; ++i) {
            uint256 e = (n * (i + 1)) / total;
            uint256 d = hits[i] > e ? hits[i] - e : e - hits[i];
            chi2Scaled += (d * d * 1e6) / e;
        }
        assertLt(chi2Scaled, 25e6, "draw frequencies do not track weights");
    }
}
