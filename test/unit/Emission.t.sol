// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {EmissionSolBase} from "../helpers/EmissionSolBase.sol";
import {Emission} from "../../contracts/core/emission/Emission.sol";
import {IEmission} from "../../contracts/interfaces/emission/IEmission.sol";
import {IEmissionErrors} from "../../contracts/interfaces/emission/IEmissionErrors.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";

/// @notice Emission unit and fuzz tests: median rule and GFL (EMI-03), path-independent claims (EMI-02), the halving
///         trigger (EMI-04), pauses and access (SEC-01/02).
contract EmissionTest is EmissionSolBase {
    address internal p1 = address(0xA1);
    address internal p2 = address(0xA2);

    function setUp() public {
        _deployEmission(0, 1); // time-only halvings, one sample suffices
    }

    // ------------------------------------------------------------------ worked example (seed 001 §3.3)

    function test_workedExample_100To99Gfl() public {
        for (uint256 d; d < 15; ++d) {
            _warpTo(0, d);
            _record(p1, 100e18);
        }
        _closeAndRebalance();
        assertEq(gfl.totalSupply(), 100e18);
        for (uint256 d; d < 15; ++d) {
            _warpTo(1, d);
            _record(p1, 99e18);
        }
        _closeAndRebalance();
        assertEq(gfl.totalSupply(), 99e18);
        assertEq(gfl.balanceOf(p1), 99e18);
        // 20 % × (100 + 99) GFL / 100.
        assertEq(emission.claimable(p1), 0.398e18);
    }

    // ------------------------------------------------------------------ EMI-03: GFL = median of the samples

    function _sortedMedianNano(uint256[] memory v) internal pure returns (uint256) {
        uint256 n = v.length;
        if (n == 0) return 0;
        for (uint256 i; i < n; ++i) {
            for (uint256 j = i + 1; j < n; ++j) {
                if (v[j] < v[i]) (v[i], v[j]) = (v[j], v[i]);
            }
        }
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /// EMI-03: after a rebalance a provider's GFL is the median of its samples; total GFL = Σ provider GFL.
    function testFuzz_gflIsMedianOfSamples_EMI03(uint64[15] memory raw, uint16 maskSeed, uint64 otherPf) public {
        uint256 mask = uint256(maskSeed) & 0x7fff;
        if (mask == 0) mask = 1 << (uint256(maskSeed) % 15);
        uint256 count;
        for (uint256 d; d < 15; ++d) if ((mask >> d) & 1 == 1) ++count;
        uint256[] memory nano = new uint256[](count);
        uint256 k;
        uint256 other = bound(otherPf, 0, 1e6) * 1e18;
        for (uint256 d; d < 15; ++d) {
            _warpTo(0, d);
            if (d == 0) _record(p2, other);
            if ((mask >> d) & 1 == 0) continue;
            // Capacities up to 1e9 PFLOPS with 1e-12 resolution: the nano-PFLOPS floor matters.
            uint256 capacity = bound(raw[d], 0, 1e15) * 1e12 + (raw[d] % 1e12);
            nano[k++] = capacity / 1e9;
            _record(p1, capacity);
        }
        uint256 expected = _sortedMedianNano(nano) * 1e9;
        assertEq(emission.providerInfo(p1).epochGfl, expected, "median while open");
        _closeAndRebalance();
        assertEq(gfl.balanceOf(p1), expected, "GFL = median");
        assertEq(gfl.balanceOf(p2), other);
        assertEq(gfl.totalSupply(), expected + other, "total = sum");
        assertEq(emission.epochInfo(0).totalGfl, expected + other, "epoch total");
    }

    function test_median_evenCountFloorsTheMeanOfTheMiddlePair() public {
        _warpTo(0, 0);
        _record(p1, 3e9); // 3 nano-PFLOPS
        _warpTo(0, 1);
        _record(p1, 6e9);
        assertEq(emission.providerInfo(p1).epochGfl, 4e9); // floor(4.5)
        _warpTo(0, 2);
        _record(p1, 1e9);
        assertEq(emission.providerInfo(p1).epochGfl, 3e9); // odd: 1, 3, 6
    }

    function test_recordCapacity_revertsWhenTooLarge() public {
        uint256 max = uint256(type(uint64).max) * 1e9;
        vm.prank(registry);
        vm.expectRevert(abi.encodeWithSelector(IEmissionErrors.EmissionCapacityTooLarge.selector, p1, max + 1e9, max));
        emission.recordCapacity(p1, max + 1e9);
    }

    // ------------------------------------------------------------------ EMI-02: path independence

    /// EMI-02: claiming every epoch equals claiming once across epoch and halving boundaries; a second claim pays 0.
    function testFuzz_claimPathIndependent_EMI02(uint64 capacityPf, uint8 epochsSeed, uint64 spanSeed) public {
        uint256 capacity = bound(capacityPf, 1, 1e6) * 1e18;
        uint256 epochs = bound(epochsSeed, 2, 30);
        emission.setHalvingSpan((bound(spanSeed, 1, 3) * capacity) / 2 + 1e18);
        uint256 paidEachEpoch;
        for (uint256 e; e < epochs; ++e) {
            _warpTo(e, e % 15);
            _record(p1, capacity + e * 1e18);
            _record(p2, capacity + e * 1e18);
            uint256 end = emission.epochStart(e + 1);
            vm.warp(end);
            emission.closeEpoch();
            if (e % 3 == 0) emission.rebalance(100); // p2 is sometimes settled by a batch, sometimes on its claim
            vm.prank(p1);
            paidEachEpoch += emission.claim(p1);
        }
        assertGt(emission.halvings(), 0, "crossed at least one halving");
        vm.prank(p2);
        uint256 paidOnce = emission.claim(p2);
        assertEq(paidOnce, paidEachEpoch, "one claim = many claims");
        assertEq(dps.balanceOf(p1), dps.balanceOf(p2));
        vm.prank(p2);
        assertEq(emission.claim(p2), 0, "second claim in the block pays 0");
    }

    // ------------------------------------------------------------------ EMI-04: halving trigger

    /// EMI-04: each close halves once per threshold crossed; with none crossed, once when a year has passed since the
    /// previous halving was due, and never otherwise (never early, never twice for one trigger).
    function testFuzz_halvingTrigger_EMI04(uint256 seed, uint64 spanSeed) public {
        uint256 span = bound(spanSeed, 200, 20_000) * 1e18;
        emission.setHalvingSpan(span);
        for (uint256 e; e < 60; ++e) {
            uint256 pf = uint256(keccak256(abi.encode(seed, e))) % 700; // 0-699 PFLOPS, sometimes tiny
            _warpTo(e, 0);
            if (pf > 0) _record(p1, pf * 1e18);
            uint256 total = emission.epochInfo(e).totalGfl;
            (uint256 cum, uint256 threshold, uint256 dueAt) = emission.halvingState();
            uint256 n0 = emission.halvings();
            uint256 end = emission.epochStart(e + 1);
            vm.warp(end);
            emission.closeEpoch();
            uint256 n1 = emission.halvings();
            uint256 crossed = cum + total >= threshold ? (cum + total - threshold) / span + 1 : 0;
            if (n0 + crossed > 64) crossed = 64 - n0; // rates are 0 past 64 halvings
            if (crossed > 0) assertEq(n1, n0 + crossed, "one halving per threshold");
            else if (end >= dueAt && n0 < 64) assertEq(n1, n0 + 1, "a year since the last halving was due");
            else assertEq(n1, n0, "never early");
        }
    }

    function test_timeHalvings_areAYearApartWithoutDrift() public {
        // Epoch 24 ends on day 375 (first end ≥ 365), epoch 48 on day 735 (first end ≥ 730, not 375 + 365 = 740).
        for (uint256 e; e < 50; ++e) {
            vm.warp(emission.epochStart(e + 1));
            emission.closeEpoch();
            uint256 expected =
                e >= 48
                    ? 2
                    : e >= 24
                        ? 1
                        : 0;
            assertEq(emission.halvings(), expected);
        }
        assertEq(emission.rewardRateWad(2), BASE_RATE / 4);
    }

    // ------------------------------------------------------------------ pauses, access, upgrades

    function test_pausedRecordAndClaim_keepClosesAndRebalancesOpen() public {
        _warpTo(0, 0);
        _record(p1, 10e18);
        _grant(Roles.GUARDIAN, address(this));
        bytes32 recordFeature = emission.FEATURE_RECORD();
        bytes32 claimFeature = emission.FEATURE_CLAIM();
        emission.pauseFeature(recordFeature);
        emission.pauseFeature(claimFeature);
        vm.prank(registry);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, recordFeature));
        emission.recordCapacity(p1, 1e18);
        _closeAndRebalance(); // risk-free maintenance stays open
        assertEq(gfl.balanceOf(p1), 10e18);
        vm.prank(p1);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, claimFeature));
        emission.claim(p1);
    }

    function test_implementationCannotBeInitialised_SEC02() public {
        Emission impl = new Emission();
        vm.expectRevert(Initializable.InvalidInitialization.selector);
        impl.initialize(address(manager), _params(0, 1));
    }

    function test_setters_validateParameters() public {
        vm.expectRevert(
            abi.encodeWithSelector(IEmissionErrors.EmissionInvalidParameter.selector, bytes32("minSamples"), 0)
        );
        emission.setMinSamples(0);
        IEmission.BountyConfig memory b;
        vm.expectRevert(
            abi.encodeWithSelector(IEmissionErrors.EmissionInvalidParameter.selector, bytes32("keeperShareBps"), 1_001)
        );
        emission.setKeeperConfig(b, 1_001, 100);
        vm.expectRevert(
            abi.encodeWithSelector(IEmissionErrors.EmissionInvalidParameter.selector, bytes32("keeperBatchSize"), 0)
        );
        emission.setKeeperConfig(b, 0, 0);
        vm.prank(p1);
        vm.expectRevert();
        emission.setHalvingSpan(1);
    }

    function test_userPathRevertsWhenTooManyEpochsAreDue() public {
        vm.warp(emission.epochStart(70));
        vm.prank(registry);
        vm.expectRevert(abi.encodeWithSelector(IEmissionErrors.EmissionEpochsBehind.selector, 64, 6));
        emission.recordCapacity(p1, 1e18);
        assertEq(emission.closeEpochs(10), 10);
        _record(p1, 1e18); // 60 due now: within the lazy limit of 64
        assertEq(emission.currentEpoch(), 70);
    }

    // ------------------------------------------------------------------ keeper bounties

    /// Bounties are per unit of work: splitting a pass into batches of one pays the same as one batch, a batch of
    /// already-settled providers pays nothing, and every call is capped by maxBountyDps and the budget.
    function test_bounties_splitPaysNoMore() public {
        dps.approve(address(emission), 100e18);
        emission.fundKeeperBudget(100e18);
        address keeper = address(0xEE);
        for (uint256 i; i < 6; ++i) _record(address(uint160(0xD00 + i)), 1e18);
        vm.warp(emission.epochStart(1));
        vm.prank(keeper);
        emission.closeEpoch(); // 1 DPS
        for (uint256 i; i < 3; ++i) {
            vm.prank(keeper);
            emission.rebalance(1); // 0.05 DPS each
        }
        // Another party settles one provider for free; the rest of the pass pays only for the two left.
        emission.rebalanceProvider(address(uint160(0xD03)));
        vm.prank(keeper);
        emission.rebalance(100);
        assertEq(dps.balanceOf(keeper), 1e18 + 5 * 5e16);
        vm.expectRevert(abi.encodeWithSelector(IEmissionErrors.EmissionRebalanceComplete.selector, 1));
        emission.rebalance(1);
        // Cap: a close bounty of 50 DPS is cut to maxBountyDps (10).
        emission.setKeeperConfig(
            IEmission.BountyConfig({closeBountyDps: 50e18, perProviderBountyDps: 5e16, maxBountyDps: 10e18}),
            500,
            100
        );
        vm.warp(emission.epochStart(2));
        (bool canExec, bytes memory payload) = emission.checker();
        assertTrue(canExec);
        vm.prank(keeper);
        (bool ok, ) = address(emission).call(payload);
        assertTrue(ok);
        assertEq(dps.balanceOf(keeper), 11e18 + 5 * 5e16);
    }
}
