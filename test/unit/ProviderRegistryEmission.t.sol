// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ProtocolSolBase} from "../helpers/ProtocolSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IEmission} from "../../contracts/interfaces/emission/IEmission.sol";

/// @notice Issue 18 item 4: the heartbeat → Emission sample path, end to end (the real ProviderRegistry recording into
///         the real Emission module), as attacks a redesign of the path (the day's sample kept on the registry side,
///         collected after the epoch — docs/emission.md "Samples off the heartbeat") must keep passing. Each test
///         asserts what the epoch's close and the claim see (EMI-03: GFL = the median of the attested samples of the
///         epoch; EMI-02: no reward from an epoch before its close), not how the samples are stored.
contract ProviderRegistryEmissionTest is ProtocolSolBase {
    address internal p1 = address(0xE1);
    address internal p2 = address(0xE2);
    address internal slasher = address(0x51A5);

    function setUp() public {
        _deployProtocol();
        _grant(Roles.PROVIDER_SLASHER, slasher);
        _onboardProvider(p1, 5_000e18);
    }

    /// @dev A beat of `p` at `hour` of Emission day `day` of `epoch`, reporting `cap` (the attestation caps it at 0.5).
    function _beat(address p, uint256 epoch, uint256 day, uint256 hour, uint256 cap) internal {
        vm.warp(emission.epochStart(epoch) + day * 1 days + hour * 1 hours + 60);
        vm.prank(p);
        registry.heartbeat(cap);
    }

    /// @dev One beat of `p` per day on days [fromDay, toDay) of `epoch`, at `hour`, reporting `cap`.
    function _beatOn(address p, uint256 epoch, uint256 fromDay, uint256 toDay, uint256 hour, uint256 cap) internal {
        for (uint256 d = fromDay; d < toDay; ++d) _beat(p, epoch, d, hour, cap);
    }

    /// @dev Closes `epoch` at its end (the keeper path).
    function _close(uint256 epoch) internal returns (IEmission.EpochInfo memory) {
        vm.warp(emission.epochStart(epoch + 1));
        emission.closeEpoch();
        return emission.epochInfo(epoch);
    }

    function _reward(uint256 gflWad, uint256 epoch) internal view returns (uint256) {
        return (gflWad * emission.epochInfo(epoch).rateWad) / 1e18;
    }

    /// EMI-03: two beats on one Emission day keep the lower (the capacity guaranteed all day), whatever their order,
    /// and a later higher beat on that day does not raise it back.
    function test_EMI03_twoBeatsOneDay_lowerKept() public {
        _beat(p1, 0, 0, 1, 0.5e18);
        _beat(p1, 0, 0, 3, 0.2e18);
        _beat(p1, 0, 0, 5, 0.4e18);
        _beat(p1, 0, 1, 1, 0.3e18);
        _beat(p1, 0, 1, 2, 0.45e18);
        IEmission.EpochInfo memory info = _close(0);
        // Days: 0.2 and 0.3 → even count, mean of the two middle values.
        assertEq(info.totalGfl, 0.25e18, "each day's lowest beat, median of the days");
        assertEq(emission.providerInfo(p1).epochGfl, 0.25e18);
    }

    /// EMI-03: days without a beat are missing, not zero: the median is taken over the days that have a sample.
    function test_EMI03_skippedDays_missingNotZero() public {
        _beat(p1, 0, 2, 1, 0.2e18);
        _beat(p1, 0, 7, 1, 0.5e18);
        _beat(p1, 0, 13, 1, 0.4e18);
        IEmission.EpochInfo memory info = _close(0);
        assertEq(info.totalGfl, 0.4e18, "median of three samples; the 12 silent days do not count as zeros");
        assertEq(emission.providerInfo(p1).sampleCount, 3);
    }

    /// Item 18: stake unbonded below the minimum mid-window makes the following beats zero samples (samples, not
    /// missing days): the median falls with them; staking again restores the samples from the next day.
    function test_EMI03_unbondBelowMinimumMidWindow_zeroSamples() public {
        _beatOn(p1, 0, 0, 3, 1, 0.5e18);
        vm.prank(p1);
        registry.requestUnbond(4_500e18); // 500 DPS left, below the 1,000 minimum
        _beatOn(p1, 0, 3, 7, 1, 0.5e18);
        IEmission.EpochInfo memory info = _close(0);
        assertEq(info.totalGfl, 0, "four zero days outweigh three staked days: the median is 0");
        assertEq(emission.providerInfo(p1).sampleCount, 7, "the unbonded days are samples, not missing");
    }

    /// A slash between the provider's last beat and the epoch's close does not rewrite the samples already taken
    /// (each is judged by the stake at its beat); the beats after a slash below the minimum are zero samples.
    function test_EMI03_slashBetweenBeatAndClose_samplesJudgedAtTheBeat() public {
        _beatOn(p1, 0, 0, 5, 1, 0.5e18);
        vm.prank(slasher);
        registry.slash(p1, 4_500e18, address(0), bytes32("fault"));
        IEmission.EpochInfo memory info = _close(0);
        assertEq(info.totalGfl, 0.5e18, "the five staked beats before the slash count");
        _beatOn(p1, 1, 0, 2, 1, 0.5e18);
        info = _close(1);
        assertEq(info.totalGfl, 0, "beats after the slash (stake below the minimum) are zero samples");
    }

    /// EMI-02: a claim between two beats of one day — the epoch still open — pays nothing for it; once the epoch is
    /// closed the claim pays exactly the reward of the day's lower beat, once.
    function test_EMI02_claimBetweenTwoBeatsOfOneDay_noRewardFromAnOpenEpoch() public {
        _beat(p1, 0, 14, 1, 0.5e18);
        vm.prank(p1);
        assertEq(emission.claim(p1), 0, "epoch 0 is open: nothing to pay");
        _beat(p1, 0, 14, 3, 0.3e18);
        assertEq(emission.claimable(p1), 0);
        _close(0);
        uint256 expected = _reward(0.3e18, 0);
        assertGt(expected, 0);
        assertEq(emission.claimable(p1), expected, "the day's lower beat");
        uint256 before = dps.balanceOf(p1);
        vm.prank(p1);
        assertEq(emission.claim(p1), expected);
        assertEq(dps.balanceOf(p1) - before, expected);
        vm.prank(p1);
        assertEq(emission.claim(p1), 0, "a second claim pays 0");
    }

    /// A provider that beats in an epoch and never again (no later beat, no claim, no keeper batch reaching it)
    /// still counts in that epoch's total at its close, and its reward is there when it comes back: the close needs
    /// no per-provider step from it and never loops over providers.
    function test_EMI03_silentProvider_countsAtTheClose() public {
        _onboardProvider(p2, 5_000e18);
        for (uint256 d; d < 4; ++d) {
            _beat(p1, 0, d, 1, 0.5e18);
            _beat(p2, 0, d, 2, 0.4e18);
        }
        IEmission.EpochInfo memory info = _close(0);
        assertEq(info.totalGfl, 0.9e18, "both providers' medians, without touching either at the close");
        vm.warp(emission.epochStart(3));
        emission.closeEpochs(2);
        assertEq(emission.claimable(p2), _reward(0.4e18, 0), "p2's epoch-0 reward, settled lazily");
    }

    /// A provider that registers (and beats) after the epoch has ended but before anyone closed it adds nothing to
    /// the ended epoch: its beat lands in the epoch its timestamp belongs to.
    function test_EMI03_registeringAfterTheEpochEnded_notInTheEndedEpoch() public {
        _beatOn(p1, 0, 0, 3, 1, 0.5e18);
        vm.warp(emission.epochStart(1) + 1 hours);
        assertTrue(emission.epochDue());
        _onboardProvider(p2, 5_000e18);
        vm.prank(p2);
        registry.heartbeat(0.4e18);
        assertFalse(emission.epochInfo(0).closed, "the beat stays in the registry (issue 18 item 4)");
        assertEq(registry.capacitySamplesAt(0, 0, 0)[1], 1, "p2 is not counted in epoch 0");
        emission.closeEpoch();
        IEmission.EpochInfo memory info = emission.epochInfo(0);
        assertEq(info.totalGfl, 0.5e18, "p2 is not in epoch 0");
        info = _close(1);
        assertEq(info.totalGfl, 0.4e18, "p2 counts in epoch 1");
    }
}
