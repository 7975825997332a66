// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ComputeSolBase} from "../helpers/ComputeSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryErrors} from "../../contracts/interfaces/compute/IProviderRegistryErrors.sol";
import {IComputeStandard} from "../../contracts/interfaces/compute/IComputeStandard.sol";

/// @notice Fuzzed registry and standard properties: mint caps, TSK-04 liability, slashing bounds, SEC-03 replay.
contract ProviderRegistryFuzzTest is ComputeSolBase {
    address internal p1 = address(0xB001);
    address internal slasher = address(0x51A5);

    function setUp() public {
        _deployCompute();
        _grant(Roles.PROVIDER_SLASHER, slasher);
    }

    function testFuzz_mintNeverExceedsEitherCap(uint96 stakeDps, uint96 amount) public {
        stakeDps = uint96(bound(stakeDps, 1_000e18, 1_000_000e18));
        _onboard(p1, stakeDps);
        uint256 rateCap = (uint256(1714743589743589743) * 30 days) / 1 hours;
        uint256 collateralCap = (uint256(stakeDps) * 0.5e18) / 1e18;
        uint256 cap = rateCap < collateralCap ? rateCap : collateralCap;
        assertEq(registry.mintableCh(p1), cap);
        vm.prank(p1);
        if (amount > cap || amount == 0) {
            vm.expectRevert();
            registry.mintCH(amount, p1);
        } else {
            registry.mintCH(amount, p1);
            assertEq(registry.liabilityOf(p1), amount);
            assertEq(ch.totalSupply(), amount); // TSK-04
            assertEq(registry.mintableCh(p1), cap - amount);
        }
    }

    function testFuzz_liabilityTracksMintMinusBuyBack(uint64 m1, uint64 m2, uint64 b1) public {
        _onboard(p1, 100_000e18);
        vm.assume(m1 > 0 && m2 > 0 && b1 > 0);
        vm.startPrank(p1);
        registry.mintCH(m1, p1);
        registry.mintCH(m2, p1);
        uint256 minted = uint256(m1) + m2;
        if (b1 <= minted) {
            registry.buyBack(b1);
            assertEq(registry.liabilityOf(p1), minted - b1); // TSK-04
            assertEq(ch.totalSupply(), minted - b1);
            assertEq(registry.providerInfo(p1).mintedCh, minted);
        }
        vm.stopPrank();
    }

    function testFuzz_slashBoundedByStakeWithFinderFee(uint96 stakeDps, uint128 amount) public {
        stakeDps = uint96(bound(stakeDps, 1e18, 1_000_000e18));
        _onboard(p1, stakeDps);
        uint256 burnedBefore = dps.totalBurned();
        vm.prank(slasher);
        uint256 slashed = registry.slash(p1, amount, address(0xF1), bytes32("r"));
        uint256 expected = amount < stakeDps ? amount : stakeDps;
        assertEq(slashed, expected);
        assertEq(dps.balanceOf(address(0xF1)), (expected * 1_000) / 10_000);
        assertEq(dps.totalBurned() - burnedBefore, expected - (expected * 1_000) / 10_000);
        assertEq(dps.balanceOf(address(registry)), stakeDps - expected); // ACC-01
    }

    function testFuzz_attestationReplayAndForeignSignerRejected(uint256 pk) public {
        pk = bound(pk, 1, 2 ** 200);
        vm.assume(pk != ATTESTER_PK);
        _onboard(p1, 0);
        IProviderRegistry.Attestation memory a = _attestation(p1);
        bytes memory sig = _sign(a, ATTESTER_PK);
        registry.attest(a, sig);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderBadAttestationNonce.selector, p1, 2, 1));
        registry.attest(a, sig); // SEC-03 replay
        a = _attestation(p1);
        bytes memory foreign = _sign(a, pk);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderInvalidAttester.selector, vm.addr(pk)));
        registry.attest(a, foreign);
    }

    function testFuzz_performanceGradeMonotone(uint64 x, uint64 y) public view {
        (uint64 lo, uint64 hi) = x < y ? (x, y) : (y, x);
        assertGe(uint8(standard.performanceGrade(lo)), uint8(standard.performanceGrade(hi)));
        assertGe(uint8(standard.reliabilityGrade(lo)), uint8(standard.reliabilityGrade(hi)));
        assertGe(uint8(standard.energyGrade(hi)), uint8(standard.energyGrade(lo)));
    }

    function testFuzz_rateScalesLinearlyDown(uint64 avg) public view {
        uint256[] memory f = new uint256[](3);
        (f[0], f[1], f[2]) = (1e18, 1e18, 1e18);
        (uint256 corrected, uint256 chPerHour) = standard.rate(1, 1, avg, f);
        assertEq(corrected, avg);
        assertEq(chPerHour, (uint256(avg) * 1e18) / 0.312e18);
        IComputeStandard.Rating memory r = standard.rateBenchmark(1, 1, avg, f, 700e18);
        assertEq(r.chPerHourWad, chPerHour);
    }
}
