// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {EmissionSolBase} from "../../helpers/EmissionSolBase.sol";
import {ProtocolSolBase} from "../../helpers/ProtocolSolBase.sol";
import {IEmissionErrors} from "../../../contracts/interfaces/emission/IEmissionErrors.sol";
import {IProviderRegistryErrors} from "../../../contracts/interfaces/compute/IProviderRegistryErrors.sol";

/// @notice Round 49: sequence attacks on Emission (a lazy claim across a time halving, a silent provider, two
///         replenishments on one transfer, a sample at the boundary block, a governance change mid-epoch, a mixed
///         keeper / replenish / claim sequence). Each asserts what the protocol must keep, named by invariant id.
contract EmissionSequenceAttacksTest is EmissionSolBase {
    address internal p1 = address(0xA001);
    address internal p2 = address(0xA002);
    address internal p3 = address(0xA003);

    function setUp() public {
        // time halvings only (span 0): the year boundary is the halving under attack
        _deployEmission(0, 1);
    }

    function _claim(address p) internal returns (uint256) {
        vm.prank(p);
        return emission.claim(p);
    }

    function _reward(uint256 gflWad, uint256 epoch) internal view returns (uint256) {
        return (gflWad * emission.epochInfo(epoch).rateWad) / 1e18;
    }

    /// @dev Closes every due epoch up to (not including) `epoch` with the keeper path, warping to its start.
    function _closeUpTo(uint256 epoch) internal {
        vm.warp(emission.epochStart(epoch));
        emission.closeEpochs(epoch - emission.currentEpoch());
    }

    /// Sequence: p1 samples and claims every epoch around the first time halving, p2 samples the same and claims once
    /// after it, p3 samples only the epoch before the halving and stays silent across it. EMI-02: p2's single claim
    /// equals p1's claims; every epoch pays its own rate (the one ending past the due time the old rate, as
    /// documented, the next exactly half), and p3 gets its one epoch at that epoch's rate, never a later epoch's
    /// (nor a GFL balance after it). EMI-01: the sum paid is the sum of GFL × each epoch's rate.
    function test_lazyClaimAcrossTimeHalving_eachEpochAtItsOwnRate_EMI02() public {
        uint256 first = 22; // epochs 22..26; the halving is due at 365 d, inside epoch 24 (360 d - 375 d)
        _closeUpTo(first);
        uint256 paidP1;
        uint256 expected;
        for (uint256 e = first; e < first + 5; ++e) {
            _warpTo(e, 3);
            _record(p1, 100e18);
            _record(p2, 100e18);
            if (e == first + 1) _record(p3, 100e18);
            vm.warp(emission.epochStart(e + 1));
            emission.closeEpoch();
            paidP1 += _claim(p1);
            expected += _reward(100e18, e);
        }
        assertEq(emission.halvings(), 1, "one time halving");
        uint256 r23 = emission.epochInfo(first + 1).rateWad;
        uint256 r24 = emission.epochInfo(first + 2).rateWad;
        uint256 r25 = emission.epochInfo(first + 3).rateWad;
        assertEq(r24, r23, "the epoch ending past the due time keeps the old rate (docs/emission.md)");
        assertEq(r25, r23 / 2, "the next epoch pays exactly half");
        assertEq(paidP1, expected, "p1: each epoch at its own rate");
        assertEq(_claim(p2), paidP1, "EMI-02: one lazy claim = five claims");
        assertEq(_claim(p2), 0, "a second claim in the block pays 0");
        // p3: silent for three epochs after its sample; its claim pays its sampled epoch only, at that epoch's rate
        assertEq(_claim(p3), _reward(100e18, first + 1), "p3: only epoch 23, at epoch 23's rate");
        emission.rebalanceProvider(p3);
        assertEq(gfl.balanceOf(p3), 0, "no GFL for the epochs it did not sample");
        assertEq(_claim(p3), 0);
        (, , uint256 minted, ) = emission.pools();
        assertLe(minted, 2 * paidP1 + _reward(100e18, first + 1), "EMI-01: nothing minted beyond the rewards owed");
    }

    /// Sequence: DPS transferred once, replenish called twice for it (one epoch, one caller). EMI-01 / ACC-01: the
    /// second call is refused (nothing unaccounted is left), so the counter is not lowered twice for one transfer.
    function test_replenishTwiceForOneTransfer_secondRefused_EMI01() public {
        _warpTo(0, 1);
        _record(p1, 1_000e18);
        vm.warp(emission.epochStart(1));
        emission.closeEpoch();
        dps.transfer(address(emission), 100e18);
        vm.prank(registry);
        emission.replenish(100e18);
        (uint256 pool, uint256 budget, , uint256 replenished) = emission.pools();
        vm.prank(registry);
        vm.expectRevert(abi.encodeWithSelector(IEmissionErrors.EmissionReplenishNotFunded.selector, 100e18, 0));
        emission.replenish(100e18);
        (uint256 pool2, uint256 budget2, , uint256 replenished2) = emission.pools();
        assertEq(pool2, pool);
        assertEq(budget2, budget);
        assertEq(replenished2, replenished);
    }

    /// Sequence: an epoch closed (its rewards funded, DPS held for the claimants, keeper budget funded), then replenish
    /// of exactly those amounts without a transfer. ACC-01: the claimants' funded DPS and the keeper budget are not
    /// "unaccounted" and cannot be booked a second time as pool DPS; the provider's claim still pays in full.
    function test_replenishCannotRebookFundedRewardsOrBudget_ACC01() public {
        dps.approve(address(emission), 5e18);
        emission.fundKeeperBudget(5e18);
        _warpTo(0, 1);
        _record(p1, 1_000e18);
        vm.warp(emission.epochStart(1));
        emission.closeEpoch(); // funds epoch 0's rewards (minted to the module) and pays a close bounty
        (uint256 funded, ) = emission.rewardReserves();
        assertGt(funded, 0);
        vm.prank(registry);
        vm.expectRevert(abi.encodeWithSelector(IEmissionErrors.EmissionReplenishNotFunded.selector, funded, 0));
        emission.replenish(funded);
        vm.prank(registry);
        vm.expectRevert(abi.encodeWithSelector(IEmissionErrors.EmissionReplenishNotFunded.selector, 1, 0));
        emission.replenish(1);
        assertEq(_claim(p1), funded, "the claimant's funded reward is intact");
    }

    /// Sequence: a sample at the last second of epoch 0 and one at the exact first second of epoch 1 (the boundary
    /// block, before any keeper closed epoch 0). EMI-03 / EMI-02: the boundary sample lands in epoch 1 (the user path
    /// closes epoch 0 first), epoch 0's GFL is the earlier sample alone, and its reward is claimable only once.
    function test_sampleAtBoundaryBlock_landsInTheNewEpoch_EMI03() public {
        vm.warp(emission.epochStart(1) - 1);
        _record(p1, 100e18);
        vm.warp(emission.epochStart(1));
        _record(p1, 40e18); // lower: would pull epoch 0's median down if it landed there
        assertEq(emission.currentEpoch(), 1, "the boundary sample closed epoch 0 first");
        assertEq(emission.epochInfo(0).totalGfl, 100e18, "epoch 0: the earlier sample alone");
        assertEq(emission.epochInfo(1).totalGfl, 40e18, "epoch 1 holds the boundary sample");
        assertEq(emission.providerInfo(p1).sampleEpoch, 1);
        uint256 r0 = _reward(100e18, 0);
        assertEq(_claim(p1), r0);
        assertEq(_claim(p1), 0);
        _closeAndRebalance();
        assertEq(_claim(p1), _reward(40e18, 1));
    }

    /// Sequence: governance raises minSamples mid-epoch while a provider has one sample. EMI-03: the change applies
    /// from the next epoch (every provider of an epoch judged by one rule): the open epoch keeps its GFL and reward;
    /// in the next epoch one sample is below the new minimum and earns nothing.
    function test_minSamplesRaisedMidEpoch_appliesFromTheNextEpoch_EMI03() public {
        _warpTo(0, 1);
        _record(p1, 100e18);
        emission.setMinSamples(3);
        _warpTo(0, 2);
        _record(p2, 100e18); // a provider arriving after the change is judged by the epoch's rule too
        _closeAndRebalance();
        assertEq(emission.epochInfo(0).totalGfl, 200e18, "both count with one sample in epoch 0");
        assertEq(_claim(p1), _reward(100e18, 0));
        assertEq(_claim(p2), _reward(100e18, 0));
        _warpTo(1, 1);
        _record(p1, 100e18);
        _warpTo(1, 2);
        _record(p1, 100e18);
        _closeAndRebalance();
        assertEq(emission.epochInfo(1).totalGfl, 0, "two samples < the new minimum of 3");
        assertEq(_claim(p1), 0);
        assertEq(gfl.balanceOf(p1), 0);
    }

    /// Sequence: a keeper budget, two providers, a close paid with a bounty, a replenishment between the close and the
    /// claims, a rebalance bounty, one claim, another close, the other claims. ACC-01: after every step the DPS the
    /// module holds covers the claimants' funded rewards, the reward pool and the keeper budget; the claims pay what
    /// was accrued and nothing twice.
    function test_mixedKeeperReplenishClaimSequence_dpsHeldCoversLedger_ACC01() public {
        dps.approve(address(emission), 20e18);
        emission.fundKeeperBudget(20e18);
        _warpTo(0, 1);
        _record(p1, 500e18);
        _record(p2, 300e18);
        vm.warp(emission.epochStart(1));
        vm.prank(p3);
        emission.closeEpoch();
        _assertLedgerCovered("after the paid close");
        dps.transfer(address(emission), 50e18);
        vm.prank(registry);
        emission.replenish(50e18);
        _assertLedgerCovered("after the replenishment");
        vm.prank(p3);
        emission.rebalance(10);
        _assertLedgerCovered("after the paid rebalance");
        uint256 a = _claim(p1);
        assertEq(a, _reward(500e18, 0));
        _assertLedgerCovered("after p1's claim");
        _warpTo(1, 1);
        _record(p1, 500e18);
        vm.warp(emission.epochStart(2));
        vm.prank(p3);
        emission.closeEpoch();
        _assertLedgerCovered("after the second close");
        assertEq(_claim(p2), _reward(300e18, 0));
        assertEq(_claim(p1), _reward(500e18, 1));
        assertEq(_claim(p1) + _claim(p2), 0, "nothing paid twice");
        _assertLedgerCovered("after every claim");
        assertGt(dps.balanceOf(p3), 0, "the keeper was paid from its budget");
    }

    /// Sequence: with the production minimum (8 of 15 days) in force, p1 samples every day; p2 joins on day 7 once
    /// the epoch's picture is public and samples every day left (8 days); p3 joins on day 8 (7 days). EMI-03: a late
    /// joiner earns only if it attested on at least minSamples days, and its reward is its own GFL at the epoch's
    /// rate (a rate, not a share of a fixed pot): joining late never changes what p1 is paid.
    function test_lateJoinerAfterEpochIsPublic_needsMinSamples_doesNotDilute_EMI03() public {
        emission.setMinSamples(8);
        _closeAndRebalance(); // epoch 0 closed: minSamples 8 in force from epoch 1
        for (uint256 d; d < 15; ++d) {
            _warpTo(1, d);
            _record(p1, 100e18);
            if (d >= 7) _record(p2, 100e18);
            if (d >= 8) _record(p3, 100e18);
        }
        _closeAndRebalance();
        assertEq(emission.providerInfo(p2).epochGfl, 100e18, "8 days: counted");
        assertEq(emission.providerInfo(p3).epochGfl, 0, "7 days: below the minimum");
        assertEq(emission.epochInfo(1).totalGfl, 200e18);
        uint256 r = _reward(100e18, 1);
        assertEq(_claim(p1), r, "p1 is paid its own GFL at the rate, whoever joined");
        assertEq(_claim(p2), r);
        assertEq(_claim(p3), 0);
    }

    function _assertLedgerCovered(string memory when) internal view {
        (uint256 pool, uint256 budget, , ) = emission.pools();
        (uint256 funded, ) = emission.rewardReserves();
        assertGe(dps.balanceOf(address(emission)), funded + pool + budget, when);
    }
}

/// @notice Round 49: the same attacks through the real ProviderRegistry (heartbeats kept on the registry side,
///         collected by Emission after the epoch): a capacity attestation that expires mid-epoch, an unbond that
///         crosses an epoch end.
contract EmissionRegistrySequenceAttacksTest is ProtocolSolBase {
    address internal p1 = address(0xE1);
    address internal p2 = address(0xE2);

    function setUp() public {
        _deployProtocol();
        _onboardProvider(p1, 5_000e18);
    }

    function _beat(address p, uint256 epoch, uint256 day) internal {
        vm.warp(emission.epochStart(epoch) + day * 1 days + 1 hours);
        vm.prank(p);
        registry.heartbeat(0.5e18);
    }

    function _close(uint256 epoch) internal {
        vm.warp(emission.epochStart(epoch + 1));
        emission.closeEpoch();
    }

    function _claim(address p) internal returns (uint256) {
        vm.prank(p);
        return emission.claim(p);
    }

    /// Sequence: governance sets minSamples to 8 (from the next epoch); p1 re-attests so that its attestation expires
    /// on day 5 of epoch 3, beats days 0-4, and its beat on day 5 is refused; p2 beats all 15 days. EMI-03: no sample
    /// after the attestation's expiry, and five days are below the minimum, so p1's epoch-3 GFL and reward are 0 and
    /// the epoch total is p2's alone; p1's claim pays only what it earned before (epoch 2).
    function test_attestationExpiresMidEpoch_noSampleAfter_belowMinimumEarnsNothing_EMI03() public {
        _onboardProvider(p2, 5_000e18);
        emission.setMinSamples(8);
        _close(0);
        _close(1);
        // re-attest on day 5 of epoch 1: valid 30 days, to day 5 of epoch 3
        vm.warp(emission.epochStart(1) + 5 days);
        _attest(p1);
        _attest(p2);
        for (uint256 d; d < 15; ++d) {
            _beat(p1, 2, d);
            _beat(p2, 2, d);
        }
        _close(2);
        uint256 r2 = (uint256(0.5e18) * emission.epochInfo(2).rateWad) / 1e18;
        assertGt(r2, 0);
        _attest(p2); // p2 stays attested through epoch 3
        for (uint256 d; d < 5; ++d) _beat(p1, 3, d);
        vm.warp(emission.epochStart(3) + 5 days + 1 hours);
        vm.prank(p1);
        vm.expectPartialRevert(IProviderRegistryErrors.ProviderNoValidAttestation.selector);
        registry.heartbeat(0.5e18);
        for (uint256 d; d < 15; ++d) _beat(p2, 3, d);
        _close(3);
        assertEq(emission.epochInfo(3).totalGfl, 0.5e18, "epoch 3: p2 alone");
        assertEq(emission.providerInfo(p1).epochGfl, 0, "p1: five samples < minSamples 8");
        assertEq(_claim(p1), r2, "p1 is paid epoch 2 only");
        assertEq(_claim(p1), 0);
    }

    /// Sequence: p1 beats in epoch 0, requests an unbond of everything above the minimum on the epoch's last day,
    /// the unbond matures in epoch 1 and is withdrawn between two beats. EMI-03 / TSK-03: the samples follow the stake
    /// at each beat: p1 stays at the minimum, so every beat is a full sample and both epochs pay; a second unbond
    /// below the minimum in epoch 2 turns the following beats into zero samples (the median falls), not missing days.
    function test_unbondAcrossEpochEnd_samplesFollowTheStakeAtEachBeat_EMI03() public {
        for (uint256 d; d < 15; ++d) _beat(p1, 0, d);
        vm.prank(p1);
        registry.requestUnbond(4_000e18); // 1,000 left: the minimum
        _close(0);
        _attest(p1); // valid to the start of epoch 3
        _beat(p1, 1, 0);
        vm.warp(emission.epochStart(1) + 7 days);
        vm.prank(p1);
        registry.withdrawUnbonded();
        for (uint256 d = 8; d < 15; ++d) _beat(p1, 1, d);
        _close(1);
        assertEq(emission.epochInfo(0).totalGfl, 0.5e18, "epoch 0: the unbond request did not drop the stake below");
        assertEq(emission.epochInfo(1).totalGfl, 0.5e18, "epoch 1: still at the minimum after the withdrawal");
        for (uint256 d; d < 3; ++d) _beat(p1, 2, d);
        vm.prank(p1);
        registry.requestUnbond(1);
        for (uint256 d = 3; d < 7; ++d) _beat(p1, 2, d);
        _close(2);
        assertEq(emission.epochInfo(2).totalGfl, 0, "four zero samples outweigh three: the median is 0");
        uint256 expected =
            (uint256(0.5e18) * emission.epochInfo(0).rateWad) / 1e18 +
                (uint256(0.5e18) * emission.epochInfo(1).rateWad) / 1e18;
        assertEq(_claim(p1), expected, "epochs 0 and 1 paid, epoch 2 nothing");
    }
}
