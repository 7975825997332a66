// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryEvents} from "../../contracts/interfaces/compute/IProviderRegistryEvents.sol";
import {IProviderMatcher} from "../../contracts/interfaces/compute/IProviderMatcher.sol";
import {MockCapacityRecorder} from "../../contracts/mocks/MockCapacityRecorder.sol";
import {signDigest} from "../utils/Signatures.sol";

/// @notice Issue 17 item 18: matching trusts the attested workload class, not the self-declared mask; a provider
///         below the minimum stake earns no capacity (GFL, DPS) from its heartbeats.
contract ProviderFixesTest is TaskSolBase {
    function setUp() public {
        _deployTasks();
    }

    function _q(uint16 workloadClass) internal pure returns (IProviderMatcher.Query memory) {
        return IProviderMatcher.Query(IProviderMatcher.Mode.Executor, workloadClass, 0, false, 0, 0, 0);
    }

    /// A provider declares classes 1 and 2 but was benchmarked (attested) for class 1 only: it must not be matched
    /// for class-2 work it never proved it can do.
    function test_matching_filtersOnAttestedClassNotDeclaredMask() public {
        address p = address(0xC1A55);
        vm.prank(p);
        registry.register(1, 0x6, bytes32(0), ""); // classes 1 and 2 declared
        dps.transfer(p, 5_000e18);
        vm.startPrank(p);
        dps.approve(address(registry), 5_000e18);
        registry.stake(5_000e18);
        vm.stopPrank();
        IProviderRegistry.Attestation memory a = _attestation(p); // class 1
        registry.attest(a, signDigest(ATTESTER_PK, registry.attestationDigest(a)));
        address[] memory one = new address[](1);
        one[0] = p;
        (bool[] memory ok, ) = matcher.scoreCandidates(_q(1), one, bytes32(0));
        assertTrue(ok[0], "attested class");
        (ok, ) = matcher.scoreCandidates(_q(2), one, bytes32(0));
        assertFalse(ok[0], "declared but never attested");
        (ok, ) = matcher.scoreCandidates(_q(type(uint16).max), one, bytes32(0));
        assertTrue(ok[0], "any class");
        assertEq(registry.matchingProfile(p).workloadClass, 1);
    }

    /// @dev The capacity-ring word (IProviderRegistryViews.capacitySamplesAt) of `p` for the recorder epoch now,
    ///      for a recorder with genesis `genesis`: its day mask and its last sampled day's sample (PFLOPS wei).
    function _ring(address p, uint256 genesis) internal view returns (uint256 mask, uint256 lastWad) {
        uint256 epoch = (block.timestamp - genesis) / 15 days;
        uint256[] memory words = registry.capacitySamplesAt(registry.providerInfo(p).index, 1, epoch);
        mask = (words[2] >> 160) & 0x7fff;
        lastWad = ((words[3] >> 64) & type(uint64).max) * 1e9;
    }

    /// An attested provider that unbonded below the minimum stake keeps heartbeating: its samples count zero, so it
    /// earns no GFL or DPS for the day; staking again brings the samples back from the next recorder day. (Issue 18
    /// item 4: the day's sample is kept in the registry's capacity ring, read here through the collection view.)
    function test_unbondedProvider_heartbeatEarnsNoCapacity() public {
        MockCapacityRecorder rec = new MockCapacityRecorder();
        registry.setCapacityRecorder(address(rec));
        address p = providers[3];
        vm.prank(p);
        registry.heartbeat(0.4e18);
        (, uint256 last) = _ring(p, 0);
        assertEq(last, 0.4e18);
        vm.startPrank(p);
        registry.requestUnbond(registry.providerInfo(p).stakedDps);
        vm.warp(block.timestamp + 1 hours);
        vm.expectEmit(address(registry));
        emit IProviderRegistryEvents.Heartbeat(p, 0, 1 hours, 1 hours, 1e18);
        registry.heartbeat(0.4e18);
        vm.stopPrank();
        (, last) = _ring(p, 0);
        assertEq(last, 0, "below the minimum stake: a zero sample");
        assertEq(registry.providerInfo(p).lastSamplePflopsWad, 0);
        dps.transfer(p, 5_000e18);
        vm.startPrank(p);
        dps.approve(address(registry), 5_000e18);
        registry.stake(5_000e18);
        vm.warp(block.timestamp + 1 days);
        registry.heartbeat(0.4e18);
        vm.stopPrank();
        (, last) = _ring(p, 0);
        assertEq(last, 0.4e18, "staked again: samples count");
        assertEq(rec.calls(), 1, "the beats never call the recorder (the one call: the registry attaching itself)");
    }

    /// Issue 18: the recorder's genesis is read from its `epochStart(0)` when it is set (Emission's days start at
    /// genesis, 05:00 UTC here, not at UTC midnight). Two beats before the boundary are one day's sample, the beat
    /// at the boundary a second day's. With the boundary read wrongly (0: UTC days) the three would be one day.
    function test_setCapacityRecorder_readsRecorderDayBoundary() public {
        uint256 genesis = (block.timestamp / 1 days) * 1 days + 5 hours;
        uint256 boundary = genesis + 2 days;
        vm.warp(boundary - 2 hours);
        EpochRecorder rec = new EpochRecorder(genesis);
        registry.setCapacityRecorder(address(rec));
        address p = providers[3];
        IProviderRegistry.Attestation memory a = _attestation(p);
        registry.attest(a, signDigest(ATTESTER_PK, registry.attestationDigest(a)));
        vm.prank(p);
        registry.heartbeat(0.4e18);
        (uint256 mask, ) = _ring(p, genesis);
        assertEq(mask, 1 << 1, "day 1 of the recorder's epoch 0");
        vm.warp(boundary - 1 hours);
        vm.prank(p);
        registry.heartbeat(0.4e18);
        (mask, ) = _ring(p, genesis);
        assertEq(mask, 1 << 1, "same recorder day");
        vm.warp(boundary);
        vm.prank(p);
        registry.heartbeat(0.4e18);
        (mask, ) = _ring(p, genesis);
        assertEq(mask, (1 << 1) | (1 << 2), "the recorder's day boundary (05:00 UTC) starts a new day");
        assertEq(rec.calls(), 1, "only the registry attaching itself as sample source");
    }
}

/// @dev A capacity recorder with epochs: `epochStart(0)` is its genesis; counts the samples it receives.
contract EpochRecorder {
    uint256 public immutable genesis;
    uint256 public calls;

    constructor(uint256 genesis_) {
        genesis = genesis_;
    }

    function epochStart(uint256 epoch) external view returns (uint256) {
        return genesis + epoch * 15 days;
    }

    function recordCapacity(address, uint256) external {
        ++calls;
    }
}
