// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ComputeSolBase} from "../../helpers/ComputeSolBase.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";
import {IProviderRegistry} from "../../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryErrors} from "../../../contracts/interfaces/compute/IProviderRegistryErrors.sol";

/// @notice Sequence attacks on the ProviderRegistry's CH lifecycle: redemption assignments raced by buy-backs,
///         transfers, unbonding, unrelated slashes and reordered hooks; minting after a slash to zero; heartbeats and
///         mints at the attestation-expiry boundary and a replayed re-attestation (TSK-03, TSK-04, TSK-08, SEC-03).
contract ProviderSequenceAttacksTest is ComputeSolBase {
    address internal p1 = address(0xB001);
    address internal p2 = address(0xB002);
    address internal client = address(0xC11E);
    address internal stranger = address(0x5757);

    // status codes of IProviderRegistry.Assignment
    uint8 internal constant FAILED = 3;
    uint8 internal constant RELEASED = 4;

    function setUp() public {
        _deployCompute();
        _grant(Roles.COMPUTE, address(this));
        _grant(Roles.PROVIDER_SLASHER, address(this));
    }

    /// @dev TSK-04: CH supply = Σ liabilities over the providers these tests use.
    function _assertSupplyIsLiabilities() internal view {
        assertEq(ch.totalSupply(), registry.liabilityOf(p1) + registry.liabilityOf(p2), "TSK-04 supply");
    }

    /// @notice Sequence: mint, assign part of the liability, the provider moves its CH away and back, tries to buy
    ///         back reserved liability and to over-assign, then the assignment fails. TSK-04: the reservation is
    ///         never bought back, a second assignment never exceeds the unreserved rest, supply = Σ liabilities, and
    ///         the failure pays exactly the stake it took (index x (1 + penalty)).
    function test_assignThenBuyBackAndTransfer_reservationHeldAndFailPaysWhatItTook() public {
        _onboard(p1, 4_000e18);
        vm.prank(p1);
        registry.mintCH(1_000e18, p1);
        uint256 id = registry.assignRedemption(p1, 600e18, block.timestamp + 1 days);

        // The provider parks its CH with a second account, then the CH comes back: the liability is the provider's,
        // not its balance's, so the reservation does not move.
        vm.prank(p1);
        ch.transfer(stranger, 1_000e18);
        assertEq(registry.liabilityOf(p1), 1_000e18);
        vm.prank(stranger);
        ch.transfer(p1, 1_000e18);

        vm.prank(p1);
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderBuyBackExceedsLiability.selector, p1, 401e18, 400e18)
        );
        registry.buyBack(401e18);
        vm.prank(p1);
        registry.buyBack(400e18);
        _assertSupplyIsLiabilities();

        // Two assignments whose sum exceeds the liability: the second finds nothing unreserved.
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderLiabilityUnavailable.selector, p1, 1, 0)
        );
        registry.assignRedemption(p1, 1, block.timestamp + 1 days);

        vm.warp(block.timestamp + 1 days + 1);
        uint256 stakedBefore = registry.providerInfo(p1).stakedDps;
        uint256 paid = registry.reportDeliveryFailure(id, client);
        // 600 CH x 2.5 USDC x 1.10 at 1 USDC/DPS = 1,650 DPS, all taken from stake and all paid.
        assertEq(paid, 1_650e18);
        assertEq(dps.balanceOf(client), paid);
        assertEq(stakedBefore - registry.providerInfo(p1).stakedDps, paid);
        IProviderRegistry.ProviderInfo memory i = registry.providerInfo(p1);
        assertEq(i.assignedCh, 0);
        assertEq(i.openAssignments, 0);
        assertEq(registry.liabilityOf(p1), 600e18); // a failure burns nothing
        _assertSupplyIsLiabilities();
    }

    /// @notice Sequence: reorder the three closing hooks on two assignments of one provider (release then fail,
    ///         fail then confirm, fail twice, release twice). TSK-03: each assignment closes once, the provider is
    ///         slashed once (only for the late one) and the reservation counters return to zero, never underflow.
    function test_closingHooksReordered_eachAssignmentClosesOnceAndSlashesOnce() public {
        _onboard(p1, 4_000e18);
        vm.prank(p1);
        registry.mintCH(1_000e18, client);
        uint256 a = registry.assignRedemption(p1, 300e18, block.timestamp + 1 days);
        uint256 b = registry.assignRedemption(p1, 700e18, block.timestamp + 1 days);

        registry.releaseRedemption(a);
        vm.warp(block.timestamp + 1 days + 1);
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderAssignmentNotOpen.selector, a, RELEASED)
        );
        registry.reportDeliveryFailure(a, client);
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderAssignmentNotOpen.selector, a, RELEASED)
        );
        registry.releaseRedemption(a);

        uint256 paid = registry.reportDeliveryFailure(b, client);
        // A late delivery cannot be confirmed after the failure (the client was compensated instead).
        vm.prank(client);
        ch.transfer(address(registry), 700e18);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderAssignmentNotOpen.selector, b, FAILED));
        registry.confirmDelivery(b);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderAssignmentNotOpen.selector, b, FAILED));
        registry.reportDeliveryFailure(b, client);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderAssignmentNotOpen.selector, b, FAILED));
        registry.releaseRedemption(b);

        IProviderRegistry.ProviderInfo memory i = registry.providerInfo(p1);
        assertEq(paid, 1_925e18); // 700 x 2.5 x 1.1
        assertEq(i.slashCount, 1);
        assertEq(i.slashedDps, paid);
        assertEq(i.stakedDps, 4_000e18 - paid);
        assertEq(i.assignedCh, 0);
        assertEq(i.openAssignments, 0);
        assertEq(registry.liabilityOf(p1), 1_000e18);
        _assertSupplyIsLiabilities();
    }

    /// @notice Sequence: assign, then unbond all the free stake before the deadline, then withdraw after the deadline
    ///         but before the failure report. TSK-08: the stake behind the liability never left, so the failure still
    ///         finds it; the compensation is bounded by the stake and equals what was taken.
    function test_unbondBetweenAssignAndDeadline_withdrawBeforeReport_failStillFindsCollateral() public {
        _onboard(p1, 4_000e18);
        vm.prank(p1);
        registry.mintCH(1_000e18, client);
        uint256 id = registry.assignRedemption(p1, 1_000e18, block.timestamp + 1 days);

        // Locked = max(1,000 / 0.5, 1,000) = 2,000: only 2,000 may leave.
        vm.prank(p1);
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderStakeLocked.selector, p1, 2_001e18, 2_000e18)
        );
        registry.requestUnbond(2_001e18);
        vm.prank(p1);
        registry.requestUnbond(2_000e18);

        vm.warp(block.timestamp + 7 days);
        vm.prank(p1);
        registry.withdrawUnbonded();
        assertEq(dps.balanceOf(p1), 2_000e18);

        uint256 paid = registry.reportDeliveryFailure(id, client);
        // Owed 1,000 x 2.5 x 1.1 = 2,750 DPS; the locked 2,000 is all there is and all of it is paid.
        assertEq(paid, 2_000e18);
        assertEq(dps.balanceOf(client), paid);
        assertEq(registry.providerInfo(p1).stakedDps, 0);
        assertEq(dps.balanceOf(address(registry)), 0);
        _assertSupplyIsLiabilities();
    }

    /// @notice Sequence: assign, unbond the free stake, an unrelated slash cuts the stake below the liability's
    ///         collateral, the provider withdraws its matured unbonding before the failure report. TSK-08: the open
    ///         delivery duty's collateral (liability / collateral factor) stays back in the unbonding bucket, as duty
    ///         locks do, so the failure still takes it.
    function test_slashBelowCollateralThenWithdraw_openAssignmentKeepsCollateralBack() public {
        _onboard(p1, 4_000e18);
        vm.prank(p1);
        registry.mintCH(1_000e18, client);
        uint256 id = registry.assignRedemption(p1, 1_000e18, block.timestamp + 1 days);
        vm.prank(p1);
        registry.requestUnbond(2_000e18); // staked 2,000 = the collateral lock, unbonding 2,000

        registry.slash(p1, 1_500e18, address(0), bytes32("other dispute")); // staked 500
        vm.warp(block.timestamp + 7 days);
        vm.prank(p1);
        registry.withdrawUnbonded();
        // Only the unbonding beyond the uncovered collateral (2,000 - 500) leaves.
        assertEq(dps.balanceOf(p1), 500e18, "collateral left with the provider");
        assertEq(registry.providerInfo(p1).unbondingDps, 1_500e18);

        uint256 paid = registry.reportDeliveryFailure(id, client);
        assertEq(paid, 2_000e18, "failure found the collateral");
        assertEq(dps.balanceOf(client), paid);
        _assertSupplyIsLiabilities();
    }

    /// @notice Sequence: mint, slashed to zero, mint again, buy back, restake, mint, unbond. TSK-04 / TSK-03: with
    ///         no stake nothing mints (typed error), buy-back still lowers the liability, and after a restake the
    ///         mintable amount and the unbondable amount follow the new stake, not the history.
    function test_slashedToZero_mintFollowsStakeAfterRestake() public {
        _onboard(p1, 4_000e18);
        _onboard(p2, 2_000e18);
        vm.prank(p1);
        registry.mintCH(1_000e18, p1);
        vm.prank(p2);
        registry.mintCH(500e18, p2);

        registry.slash(p1, type(uint128).max, address(0), bytes32("fraud"));
        assertEq(registry.providerInfo(p1).stakedDps, 0);
        assertEq(registry.mintableCh(p1), 0);
        vm.prank(p1);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderStakeTooLow.selector, p1, 1_000e18, 0));
        registry.mintCH(1, p1);
        vm.prank(p1);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderStakeLocked.selector, p1, 1, 0));
        registry.requestUnbond(1);

        vm.prank(p1);
        registry.buyBack(400e18); // liability 600
        _assertSupplyIsLiabilities();

        // Restake 1,500: collateral cap 750, liability 600 -> 150 mintable; locked = max(1,200, 1,000) = 1,200.
        dps.transfer(p1, 1_500e18);
        vm.startPrank(p1);
        dps.approve(address(registry), 1_500e18);
        registry.stake(1_500e18);
        assertEq(registry.mintableCh(p1), 150e18);
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderMintCapExceeded.selector, p1, 150e18 + 1, 150e18)
        );
        registry.mintCH(150e18 + 1, p1);
        registry.mintCH(150e18, p1); // liability 750 -> locked 1,500 = the whole stake
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderStakeLocked.selector, p1, 1, 0));
        registry.requestUnbond(1);
        vm.stopPrank();
        _assertSupplyIsLiabilities();
    }

    /// @notice Sequence: attestation expires at T; heartbeat and mint at T, then at T + 1; a replayed attestation
    ///         (old nonce) and a fresh renewal; a heartbeat right after the renewal. SEC-03: the replay reverts with
    ///         the nonce error; expiry is inclusive for heartbeat and mint alike; the renewal neither resets the
    ///         heartbeat spacing nor re-opens minting beyond the caps.
    function test_attestationExpiryBoundaryAndReplay_heartbeatAndMintAgree() public {
        IProviderRegistry.Params memory prm = registry.params();
        prm.attestationValiditySec = 2 days;
        registry.setParams(prm);
        IProviderRegistry.Attestation memory first = _attestation(p1);
        bytes memory firstSig = _sign(first, ATTESTER_PK);
        _onboard(p1, 4_000e18); // attested with nonce 0 (same content as `first`)
        uint256 expiresAt = registry.providerInfo(p1).attestationExpiresAt;
        assertEq(expiresAt, block.timestamp + 2 days);

        vm.warp(expiresAt);
        vm.startPrank(p1);
        registry.heartbeat(0.5e18);
        registry.mintCH(100e18, p1);
        vm.warp(expiresAt + 1 hours);
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderNoValidAttestation.selector, p1, expiresAt)
        );
        registry.heartbeat(0.5e18);
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderNoValidAttestation.selector, p1, expiresAt)
        );
        registry.mintCH(1, p1);
        vm.stopPrank();
        assertEq(registry.mintableCh(p1), 0);

        // The nonce-0 attestation replayed with a fresh deadline (a valid ATTESTER signature, a spent nonce).
        first.deadline = block.timestamp + 1 hours;
        firstSig = _sign(first, ATTESTER_PK);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderBadAttestationNonce.selector, p1, 1, 0));
        registry.attest(first, firstSig);

        IProviderRegistry.Attestation memory renewal = _attestation(p1);
        bytes memory renewalSig = _sign(renewal, ATTESTER_PK);
        registry.attest(renewal, renewalSig);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderBadAttestationNonce.selector, p1, 2, 1));
        registry.attest(renewal, renewalSig);

        // The renewal does not reset the beat spacing: the last beat was 1 hour ago (exactly one interval), so a
        // beat is allowed now; a second one a minute later is too soon.
        vm.startPrank(p1);
        registry.heartbeat(0.5e18);
        vm.warp(block.timestamp + 1 minutes);
        vm.expectRevert(
            abi.encodeWithSelector(
                IProviderRegistryErrors.ProviderHeartbeatTooSoon.selector,
                p1,
                block.timestamp - 1 minutes + 30 minutes
            )
        );
        registry.heartbeat(0.5e18);
        vm.stopPrank();
        // Minting resumes under the same caps: the liability from before the expiry still counts.
        uint256 cap = (uint256(1714743589743589743) * 30 days) / 1 hours;
        assertEq(registry.mintableCh(p1), cap - 100e18);
        _assertSupplyIsLiabilities();
    }
}
