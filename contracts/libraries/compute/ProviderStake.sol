// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IDPSToken} from "../../interfaces/tokens/IDPSToken.sol";
import {IProviderRegistryEvents} from "../../interfaces/compute/IProviderRegistryEvents.sol";
import {IProviderRegistryErrors} from "../../interfaces/compute/IProviderRegistryErrors.sol";
import {ProviderRegistryStore} from "../../core/compute/ProviderRegistryStore.sol";
import {ProviderDraw} from "./ProviderDraw.sol";

/// @title ProviderStake
/// @notice The ProviderRegistry's stake mechanism: staking, unbonding with a delay, withdrawal, slashing, and the
///         stake that obligations lock. Linked as an external library (delegatecall: the registry's storage,
///         `msg.sender` and address); the registry keeps access control, pauses and the reentrancy guard.
library ProviderStake {
    using SafeERC20 for IERC20;

    uint256 private constant WAD = 1e18;
    uint256 private constant BPS = 10_000;

    /// @notice Adds `amount` (> 0, checked by the registry) to the caller's stake, transferred from the caller.
    function stake(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        ProviderRegistryStore.ProviderData storage p,
        uint256 amount
    ) external {
        uint256 staked = p.stakedDps + amount;
        p.stakedDps = toU128(staked);
        ProviderDraw.record($, p, msg.sender);
        emit IProviderRegistryEvents.Staked(msg.sender, amount, staked, tier($, staked));
        IERC20($.dps).safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @notice Moves `amount` (> 0) of the caller's unlocked stake into unbonding (withdrawable after the delay).
    function requestUnbond(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        ProviderRegistryStore.ProviderData storage p,
        uint256 amount
    ) external {
        uint256 staked = p.stakedDps;
        uint256 locked = totalLocked($, p);
        uint256 unlockable = staked > locked ? staked - locked : 0;
        if (amount > unlockable) revert IProviderRegistryErrors.ProviderStakeLocked(msg.sender, amount, unlockable);
        staked -= amount;
        uint256 unbonding = p.unbondingDps + amount;
        uint256 readyAt = block.timestamp + $.params.unbondingDelaySec;
        p.stakedDps = uint128(staked);
        p.unbondingDps = uint128(unbonding);
        p.unbondReadyAt = uint40(readyAt);
        ProviderDraw.record($, p, msg.sender);
        emit IProviderRegistryEvents.UnbondRequested(msg.sender, amount, staked, unbonding, readyAt, tier($, staked));
    }

    /// @notice Pays out the caller's matured unbonding stake, keeping back what its liability and open duties lock
    ///         beyond the stake.
    function withdrawUnbonded(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        ProviderRegistryStore.ProviderData storage p
    ) external {
        uint256 unbonding = p.unbondingDps;
        if (unbonding == 0) revert IProviderRegistryErrors.ProviderNothingToWithdraw(msg.sender);
        if (block.timestamp < p.unbondReadyAt) {
            revert IProviderRegistryErrors.ProviderUnbondingNotReady(msg.sender, p.unbondReadyAt);
        }
        // @dev TSK-08: the locks `requestUnbond` honours (the liability's collateral and the duty locks) are covered
        //      by stake first; the uncovered rest (after a slash) stays unbonding, so an open redemption's failure
        //      or a duty's slash still finds it.
        uint256 staked = p.stakedDps;
        uint256 locked = totalLocked($, p);
        uint256 held = locked > staked ? locked - staked : 0;
        if (held > unbonding) held = unbonding;
        uint256 amount = unbonding - held;
        if (amount == 0) revert IProviderRegistryErrors.ProviderStakeLocked(msg.sender, unbonding, 0);
        p.unbondingDps = uint128(held);
        emit IProviderRegistryEvents.Withdrawn(msg.sender, amount, staked);
        IERC20($.dps).safeTransfer(msg.sender, amount);
    }

    /// @notice Re-records `provider`'s draw profile from its current state (TSK-07; writes only the present block).
    function refreshDraw(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        ProviderRegistryStore.ProviderData storage p,
        address provider
    ) external {
        ProviderDraw.record($, p, provider);
    }

    /// @notice Records a task outcome of `provider` (completed or failed counts) and its reputation step (issue 21
    ///         item 3: a point per reputation day with a completion, a penalty per failure). Lazy reputation (issue 18,
    ///         docs/compute.md "Reputation"): a gained point waits in the provider's outcome slot and enters the draw
    ///         word with the next snapshot write (stake, unbond, attestation, slash, anyone's `refreshDrawProfile`);
    ///         a lost one re-records the word at once (a penalty never waits on the provider's goodwill).
    function recordOutcome(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        ProviderRegistryStore.ProviderData storage p,
        address provider,
        bool completed
    ) external {
        uint32 c = p.completed;
        uint32 f = p.failed;
        if (completed) p.completed = c = c + 1;
        else p.failed = f = f + 1;
        emit IProviderRegistryEvents.TaskOutcomeRecorded(provider, completed, c, f);
        if (!ProviderDraw.applyOutcome(p, completed)) return;
        uint256 points = p.repPoints;
        emit IProviderRegistryEvents.ReputationChanged(provider, points, ProviderDraw.repPct(points, p.slashCount));
        if (!completed) ProviderDraw.record($, p, provider);
    }

    /// @notice Locks `amount` of each provider's stake for a duty of the caller (TSK-08).
    function lock(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address[] calldata providers,
        uint256 amount
    ) external {
        for (uint256 i; i < providers.length; ++i) {
            address who = providers[i];
            ProviderRegistryStore.ProviderData storage p = $.providers[who];
            uint256 locked = p.dutyLockedDps + amount;
            // @dev A draw-listed provider (same slot as the lock) is registered: the identity slot is read only for a
            //      provider never listed.
            if (p.drawIndex1 == 0 && p.index1 == 0) revert IProviderRegistryErrors.ProviderNotRegistered(who);
            if (locked > type(uint96).max) revert IProviderRegistryErrors.ProviderValueTooLarge();
            p.dutyLockedDps = uint96(locked);
            emit IProviderRegistryEvents.StakeLocked(who, msg.sender, amount, locked);
        }
    }

    /// @notice Releases `amount` of each provider's duty lock; saturating, so an ending path never reverts.
    function release(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address[] calldata providers,
        uint256 amount
    ) external {
        for (uint256 i; i < providers.length; ++i) {
            address who = providers[i];
            ProviderRegistryStore.ProviderData storage p = $.providers[who];
            uint256 locked = p.dutyLockedDps;
            uint256 released = amount < locked ? amount : locked;
            locked -= released;
            p.dutyLockedDps = uint96(locked);
            emit IProviderRegistryEvents.StakeReleased(who, msg.sender, released, locked);
        }
    }

    /// @notice Slashes up to `amountDps` (stake first, then unbonding); the finder gets its fee, the rest burns, or
    ///         goes to `recipient` when it is non-zero (the party the fault harmed, e.g. a futures long).
    function slash(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        ProviderRegistryStore.ProviderData storage p,
        address provider,
        uint256 amountDps,
        address finder,
        address recipient,
        bytes32 reason
    ) external returns (uint256 slashedDps, uint256 paidDps) {
        slashedDps = takeStake(p, amountDps);
        ProviderDraw.record($, p, provider);
        // @dev Finder fee rounds down; the burned (or paid) remainder takes the dust.
        uint256 fee = finder == address(0) ? 0 : (slashedDps * $.params.finderFeeBps) / BPS;
        uint256 rest = slashedDps - fee;
        if (recipient != address(0)) paidDps = rest;
        uint256 burned = rest - paidDps;
        emitSlashed(p, provider, slashedDps, finder, fee, burned, reason);
        if (fee != 0) IERC20($.dps).safeTransfer(finder, fee);
        if (paidDps != 0) IERC20($.dps).safeTransfer(recipient, paidDps);
        if (burned != 0) IDPSToken($.dps).burn(burned);
    }

    /// @dev Takes up to `amount` from stake, then from unbonding; counts the slash.
    function takeStake(ProviderRegistryStore.ProviderData storage p, uint256 amount) internal returns (uint256 taken) {
        uint256 staked = p.stakedDps;
        uint256 unbonding = p.unbondingDps;
        uint256 fromStake = amount < staked ? amount : staked;
        uint256 rest = amount - fromStake;
        uint256 fromUnbonding = rest < unbonding ? rest : unbonding;
        taken = fromStake + fromUnbonding;
        p.stakedDps = uint128(staked - fromStake);
        p.unbondingDps = uint128(unbonding - fromUnbonding);
        p.slashedDps += uint128(taken);
        p.slashCount += 1;
    }

    function emitSlashed(
        ProviderRegistryStore.ProviderData storage p,
        address provider,
        uint256 slashed,
        address finder,
        uint256 fee,
        uint256 burned,
        bytes32 reason
    ) internal {
        emit IProviderRegistryEvents.Slashed(
            provider,
            msg.sender,
            slashed,
            finder,
            fee,
            burned,
            p.stakedDps,
            p.unbondingDps,
            p.slashCount,
            reason
        );
    }

    /// @dev Stake locked by obligations: the collateral behind the liability (rounded up, protocol-favouring) and
    ///      at least the minimum stake while any liability or assignment is open.
    function lockedStake(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        ProviderRegistryStore.ProviderData storage p
    ) internal view returns (uint256) {
        uint256 liability = p.liabilityCh;
        if (liability == 0 && p.openAssignments == 0) return 0;
        uint256 collateral = divUp(liability * WAD, $.params.collateralFactorWad);
        uint256 minStake = $.params.minStakeDps;
        return collateral > minStake ? collateral : minStake;
    }

    /// @dev Everything that keeps stake from leaving (TSK-08): the liability's collateral and the duty locks. The one
    ///      rule `requestUnbond` and `withdrawUnbonded` both apply (round 49: the withdrawal had applied only the
    ///      duty locks).
    function totalLocked(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        ProviderRegistryStore.ProviderData storage p
    ) internal view returns (uint256) {
        return lockedStake($, p) + p.dutyLockedDps;
    }

    /// @dev Tier of a stake: the number of thresholds it reaches (0..4).
    function tier(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint256 staked
    ) internal view returns (uint8 t) {
        uint128[4] memory th = $.tierThresholdsDps;
        while (t < 4 && staked >= th[t]) ++t;
    }

    /// @dev Division rounding up (checked arithmetic upstream: absurd inputs revert rather than wrap).
    function divUp(uint256 a, uint256 b) internal pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / b + 1;
    }

    function toU128(uint256 x) internal pure returns (uint128) {
        if (x > type(uint128).max) revert IProviderRegistryErrors.ProviderValueTooLarge();
        return uint128(x);
    }
}
