// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ProtocolSolBase} from "../helpers/ProtocolSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IEmission} from "../../contracts/interfaces/emission/IEmission.sol";
import {IEmissionErrors} from "../../contracts/interfaces/emission/IEmissionErrors.sol";
import {IProviderRegistryEvents} from "../../contracts/interfaces/compute/IProviderRegistryEvents.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";

/// @notice Issue 18 item 4, samples off the heartbeat (docs/emission.md): the day's sample stays in the registry's
///         capacity rings and Emission collects it, keeper-paged, after the epoch's end. Attacks on that collection,
///         end to end through the real ProviderRegistry and Emission, kept as regressions: the close stays exact
///         (EMI-03: GFL = the median of the attested samples; EMI-01/EMI-04 run on that exact total), no provider is
///         counted twice, none is lost, and no path loops over all providers.
contract ProviderRegistryCollectTest is ProtocolSolBase {
    address internal p1 = address(0xC1);
    address internal p2 = address(0xC2);
    address internal p3 = address(0xC3);
    address internal slasher = address(0x51A5);

    function setUp() public {
        _deployProtocol();
        _grant(Roles.PROVIDER_SLASHER, slasher);
        _onboardProvider(p1, 5_000e18);
        _onboardProvider(p2, 5_000e18);
    }

    function _beat(address p, uint256 epoch, uint256 day, uint256 hour, uint256 cap) internal {
        vm.warp(emission.epochStart(epoch) + day * 1 days + hour * 1 hours + 60);
        if (epoch >= 2) _attest(p); // attestations live 30 days here
        vm.prank(p);
        registry.heartbeat(cap);
    }

    /// @dev p1 at 0.5 and p2 at 0.4 on days [0, days) of `epoch`.
    function _bothBeat(uint256 epoch, uint256 days_) internal {
        for (uint256 d; d < days_; ++d) {
            _beat(p1, epoch, d, 1, 0.5e18);
            _beat(p2, epoch, d, 2, 0.4e18);
        }
    }

    /// @dev The registry's count of providers with samples in `epoch` (header word 1 of the collection view).
    function _sampled(uint256 epoch) internal view returns (uint256) {
        return registry.capacitySamplesAt(0, 0, epoch)[1];
    }

    /// @dev Whether Emission has `p`'s samples of `epoch` (collected, or recorded).
    function _inEmission(address p, uint256 epoch) internal view returns (bool) {
        IEmission.ProviderInfo memory i = emission.providerInfo(p);
        return i.sampleEpoch == epoch && i.sampleCount > 0;
    }

    /// @dev Collects one provider with samples (batches of one list entry until one is collected).
    function _collectOne() internal {
        while (emission.collect(1) == 0) {}
    }

    /// The registry counts each provider once per epoch, on its first sample; the beats never call Emission; the
    /// registry attached itself as Emission's sample source when its recorder was set.
    function test_beatsStayInTheRegistry_countedOncePerEpoch() public {
        _bothBeat(0, 3);
        assertEq(_sampled(0), 2, "two providers with samples in epoch 0");
        assertEq(emission.providerInfo(p1).sampleCount, 0, "nothing reached Emission during the epoch");
        assertEq(emission.epochInfo(0).totalGfl, 0);
        vm.expectRevert(abi.encodeWithSelector(IEmissionErrors.EmissionCollectionComplete.selector, 0));
        emission.collect(10); // the epoch has not ended: nothing to collect yet
    }

    /// EMI-03: a provider is collected once per epoch, whoever collects (a keeper's batch of one, a larger batch
    /// racing it, the close's own batch): a second collection finds it on the epoch and skips it, and a batch after
    /// the pass reverts typed, so the close runs on the exact total.
    function test_EMI03_collectTwice_noDoubleCount() public {
        _bothBeat(0, 4);
        vm.warp(emission.epochStart(1) + 1 hours);
        _collectOne();
        assertTrue(_inEmission(p1, 0) != _inEmission(p2, 0), "one provider collected");
        uint256 n = emission.collect(100);
        assertEq(n, 1, "the second batch collects only the other provider");
        assertTrue(_inEmission(p1, 0) && _inEmission(p2, 0));
        vm.expectRevert(abi.encodeWithSelector(IEmissionErrors.EmissionCollectionComplete.selector, 0));
        emission.collect(100);
        emission.closeEpoch();
        assertEq(emission.epochInfo(0).totalGfl, 0.9e18, "p1 0.5 + p2 0.4, each once");
        assertEq(emission.providerInfo(p1).epochGfl, 0.5e18);
        assertEq(emission.providerInfo(p2).epochGfl, 0.4e18);
    }

    /// No loop over providers: a provider the keeper pass has not reached blocks the close (user paths neither
    /// close the epoch nor pay from it); the keeper's next batch reaches it, then the close is exact.
    function test_unreachedProvider_blocksTheClose() public {
        _bothBeat(0, 4);
        vm.warp(emission.epochStart(1) + 1 hours);
        (bool can, bytes memory payload) = emission.checker();
        assertTrue(can);
        assertEq(payload, abi.encodeCall(IEmission.collect, (100)), "the checker proposes collect before the close");
        _collectOne();
        emission.rebalanceProvider(p1);
        vm.prank(p1);
        assertEq(emission.claim(p1), 0, "a half-collected epoch pays no one");
        assertEq(emission.currentEpoch(), 0, "user paths do not close an epoch still collecting");
        assertFalse(emission.epochInfo(0).closed);
        _collectOne();
        (can, payload) = emission.checker();
        assertEq(payload, abi.encodeCall(IEmission.closeEpochs, (1)), "collected: the close is next");
        emission.closeEpochs(1);
        assertEq(emission.epochInfo(0).totalGfl, 0.9e18);
        vm.prank(p1);
        assertEq(emission.claim(p1), (0.5e18 * uint256(emission.epochInfo(0).rateWad)) / 1e18);
    }

    /// A provider registering (and beating) after the collection of the ended epoch started is not in it: its
    /// samples land in the epoch its timestamps belong to, and the collection still completes.
    function test_registeringAfterCollectionStarted_notInTheEndedEpoch() public {
        _bothBeat(0, 3);
        vm.warp(emission.epochStart(1) + 1 hours);
        _collectOne();
        _onboardProvider(p3, 5_000e18);
        _beat(p3, 1, 0, 3, 0.3e18);
        assertEq(_sampled(0), 2, "p3 is not counted in epoch 0");
        assertEq(_sampled(1), 1);
        emission.closeEpoch();
        assertEq(emission.epochInfo(0).totalGfl, 0.9e18, "p3 is not in epoch 0");
        vm.warp(emission.epochStart(2));
        emission.closeEpoch();
        assertEq(emission.epochInfo(1).totalGfl, 0.3e18, "p3 counts in epoch 1");
    }

    /// A slash between the provider's beats and the collection does not rewrite the samples taken before it: the
    /// collection reads the rings, each sample judged by the stake at its beat.
    function test_slashBetweenBeatAndCollection_samplesKept() public {
        _bothBeat(0, 5);
        vm.prank(slasher);
        registry.slash(p1, 4_500e18, address(0), bytes32("fault"));
        vm.warp(emission.epochStart(1) + 1 hours);
        emission.closeEpoch();
        assertEq(emission.epochInfo(0).totalGfl, 0.9e18, "the beats before the slash count");
        assertEq(emission.providerInfo(p1).epochGfl, 0.5e18);
    }

    /// EMI-02: a claim between two beats of one day, with the previous epoch ended but only half collected, pays
    /// nothing from it; after the close the claim pays exactly the collected median, once.
    function test_EMI02_claimBetweenBeatsWhileCollecting_paysNothing() public {
        _bothBeat(0, 4);
        _beat(p1, 1, 0, 1, 0.5e18);
        _collectOne();
        vm.prank(p1);
        assertEq(emission.claim(p1), 0, "epoch 0 is not closed");
        _beat(p1, 1, 0, 3, 0.2e18);
        assertEq(emission.claimable(p1), 0);
        emission.closeEpoch();
        uint256 expected = (0.5e18 * uint256(emission.epochInfo(0).rateWad)) / 1e18;
        vm.prank(p1);
        assertEq(emission.claim(p1), expected);
        vm.prank(p1);
        assertEq(emission.claim(p1), 0);
    }

    /// A ring still holding an uncollected epoch when its parity comes back (epoch e + 2, nobody collected e): the
    /// beat does not overwrite it — its sample is dropped and logged — so the late collection of e loses nothing;
    /// once e is closed the next beat reuses the ring.
    function test_ringHoldingUncollectedEpoch_beatDropsNeverOverwrites() public {
        _bothBeat(0, 4);
        vm.warp(emission.epochStart(2) + 1 hours + 60);
        _attest(p1);
        vm.expectEmit(address(registry));
        emit IProviderRegistryEvents.CapacityRecordFailed(p1, address(emission), 0.3e18);
        vm.prank(p1);
        registry.heartbeat(0.3e18);
        assertEq(_sampled(2), 0, "the beat's sample was dropped, the ring kept");
        emission.closeEpochs(2); // collects epoch 0 (p1 and p2), closes it; epoch 1 has no samples: closes too
        assertEq(emission.epochInfo(0).totalGfl, 0.9e18, "epoch 0 collected whole");
        assertEq(emission.currentEpoch(), 2);
        _beat(p1, 2, 1, 1, 0.3e18);
        assertEq(_sampled(2), 1, "epoch 0 closed: the ring is reused");
        vm.warp(emission.epochStart(3));
        emission.closeEpoch();
        assertEq(emission.epochInfo(2).totalGfl, 0.3e18, "the later beat is in its own epoch");
    }

    /// Emission paused while a beat needs its ring back (the same parity two epochs on, the old epoch not collected):
    /// the beat still counts for uptime, its sample is dropped and logged, nothing in the ring is lost; unpaused, the
    /// keeper's close collects the old epoch whole and the beats write again.
    function test_emissionPaused_beatDropsItsSample_ringKept() public {
        _bothBeat(0, 4);
        IChxModule(address(emission)).pauseFeature(keccak256("emission.claim"));
        IChxModule(address(emission)).pauseFeature(keccak256("emission.record"));
        vm.warp(emission.epochStart(2) + 1 hours + 60);
        _attest(p1);
        vm.expectEmit(address(registry));
        emit IProviderRegistryEvents.CapacityRecordFailed(p1, address(emission), 0.3e18);
        vm.prank(p1);
        registry.heartbeat(0.3e18);
        assertEq(registry.providerInfo(p1).lastHeartbeat, block.timestamp, "the beat counted");
        assertEq(_sampled(2), 0, "its sample was dropped");
        IChxModule(address(emission)).unpauseFeature(keccak256("emission.record"));
        IChxModule(address(emission)).unpauseFeature(keccak256("emission.claim"));
        emission.closeEpochs(2);
        assertEq(emission.epochInfo(0).totalGfl, 0.9e18, "epoch 0 collected whole from the kept ring");
        _beat(p1, 2, 1, 1, 0.3e18);
        assertEq(_sampled(2), 1, "once epoch 0 is closed the ring is reused");
    }
}
