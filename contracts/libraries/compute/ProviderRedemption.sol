// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ICHToken} from "../../interfaces/tokens/ICHToken.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryEvents} from "../../interfaces/compute/IProviderRegistryEvents.sol";
import {IProviderRegistryErrors} from "../../interfaces/compute/IProviderRegistryErrors.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {ProviderRegistryStore} from "../../core/compute/ProviderRegistryStore.sol";
import {ProviderStake} from "./ProviderStake.sol";
import {ProviderDraw} from "./ProviderDraw.sol";
import {ProviderViews} from "./ProviderViews.sol";

/// @title ProviderRedemption
/// @notice The ProviderRegistry's CH redemption assignments (TSK-04): reserving liability for a redemption,
///         burning delivered CH against it, and compensating the client of a failed delivery out of stake.
///         Linked as an external library; the registry restricts the callers (Roles.COMPUTE).
library ProviderRedemption {
    using SafeERC20 for IERC20;

    uint256 private constant WAD = 1e18;
    uint256 private constant BPS = 10_000;
    uint8 private constant ASSIGNMENT_OPEN = 1;
    uint8 private constant ASSIGNMENT_DELIVERED = 2;
    uint8 private constant ASSIGNMENT_FAILED = 3;
    uint8 private constant ASSIGNMENT_RELEASED = 4;

    /// @notice Mints `chAmount` (> 0, `to` non-zero: checked by the registry) CH to `to` against the caller's capacity and stake (its liability grows by as much).
    function mint(ProviderRegistryStore.ProviderRegistryStorage storage $, uint256 chAmount, address to) external {
        ProviderRegistryStore.ProviderData storage p = $.providers[msg.sender];
        uint256 available = ProviderViews.mintable($, p, msg.sender, true);
        if (chAmount > available)
            revert IProviderRegistryErrors.ProviderMintCapExceeded(msg.sender, chAmount, available);
        // @dev Fits: liability ≤ stake × factor, both bounded by uint96/uint128 arithmetic.
        uint256 liability = p.liabilityCh + chAmount;
        p.liabilityCh = uint128(liability);
        emit IProviderRegistryEvents.ProviderCHMinted(msg.sender, to, chAmount, liability);
        ICHToken($.ch).mint(to, chAmount);
    }

    /// @notice Reserves `chAmount` of `provider`'s outstanding liability for a redemption due by `deadline`.
    function assign(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address provider,
        uint256 chAmount,
        uint256 deadline
    ) external returns (uint256 id) {
        if (chAmount == 0) revert IProviderRegistryErrors.ProviderZeroAmount();
        if (deadline <= block.timestamp || deadline > type(uint40).max) {
            revert IProviderRegistryErrors.ProviderBadDeadline(deadline);
        }
        ProviderRegistryStore.ProviderData storage p = $.providers[provider];
        if (p.index1 == 0) revert IProviderRegistryErrors.ProviderNotRegistered(provider);
        uint256 assigned = p.assignedCh;
        uint256 available = p.liabilityCh - assigned;
        if (chAmount > available)
            revert IProviderRegistryErrors.ProviderLiabilityUnavailable(provider, chAmount, available);
        assigned += chAmount;
        p.assignedCh = uint128(assigned);
        uint32 open = p.openAssignments + 1;
        p.openAssignments = open;
        id = ++$.assignmentCount;
        $.assignments[id] = IProviderRegistry.Assignment({
            provider: provider,
            deadline: uint40(deadline),
            status: ASSIGNMENT_OPEN,
            chAmount: uint128(chAmount)
        });
        emit IProviderRegistryEvents.RedemptionAssigned(id, provider, chAmount, deadline, assigned, open);
    }

    /// @notice Burns the delivered CH (already transferred to the registry) and lowers the liability.
    function confirm(ProviderRegistryStore.ProviderRegistryStorage storage $, uint256 id) external {
        IProviderRegistry.Assignment storage a = _openAssignment($, id);
        address provider = a.provider;
        ProviderRegistryStore.ProviderData storage p = $.providers[provider];
        uint256 amount = a.chAmount;
        _close(p, a, ASSIGNMENT_DELIVERED);
        uint256 liability = p.liabilityCh - amount;
        uint256 delivered = p.deliveredCh + amount;
        p.liabilityCh = uint128(liability);
        p.deliveredCh = uint128(delivered);
        emit IProviderRegistryEvents.DeliveryConfirmed(id, provider, amount, liability, delivered);
        ICHToken($.ch).burn(address(this), amount);
    }

    /// @notice Closes an assignment whose task ended without a verdict: reservation freed, no penalty.
    function releaseAssignment(ProviderRegistryStore.ProviderRegistryStorage storage $, uint256 id) external {
        IProviderRegistry.Assignment storage a = _openAssignment($, id);
        address provider = a.provider;
        ProviderRegistryStore.ProviderData storage p = $.providers[provider];
        _close(p, a, ASSIGNMENT_RELEASED);
        emit IProviderRegistryEvents.RedemptionReleased(id, provider, a.chAmount, p.assignedCh, p.openAssignments);
    }

    /// @notice Closes a late assignment as failed and pays `recipient` its compensation out of the stake.
    function fail(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint256 id,
        address recipient
    ) external returns (uint256 compensationDps) {
        IProviderRegistry.Assignment storage a = _openAssignment($, id);
        if (block.timestamp <= a.deadline) revert IProviderRegistryErrors.ProviderDeliveryNotLate(id, a.deadline);
        address provider = a.provider;
        ProviderRegistryStore.ProviderData storage p = $.providers[provider];
        _close(p, a, ASSIGNMENT_FAILED);
        p.failed += 1;
        {
            (uint256 priceWad, uint256 owedUsdWad, uint256 owedDps) = _compensation($, a.chAmount);
            compensationDps = ProviderStake.takeStake(p, owedDps);
            ProviderDraw.record($, p, provider);
            emit IProviderRegistryEvents.DeliveryFailed(
                id,
                provider,
                recipient,
                a.chAmount,
                priceWad,
                owedUsdWad,
                compensationDps,
                p.failed
            );
        }
        ProviderStake.emitSlashed(p, provider, compensationDps, address(0), 0, 0, bytes32(id));
        if (compensationDps != 0) IERC20($.dps).safeTransfer(recipient, compensationDps);
    }

    function _openAssignment(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint256 id
    ) private view returns (IProviderRegistry.Assignment storage a) {
        a = $.assignments[id];
        if (a.status != ASSIGNMENT_OPEN) revert IProviderRegistryErrors.ProviderAssignmentNotOpen(id, a.status);
    }

    /// @dev Releases the reservation of a closed assignment.
    function _close(
        ProviderRegistryStore.ProviderData storage p,
        IProviderRegistry.Assignment storage a,
        uint8 status
    ) private {
        a.status = status;
        p.assignedCh -= a.chAmount;
        p.openAssignments -= 1;
    }

    /// @dev Compensation for `chAmount` undelivered CH: value = amount × index price × (1 + penalty), converted to
    ///      DPS at the governance DPS price. Both steps round up: the client is made whole.
    function _compensation(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint256 chAmount
    ) private view returns (uint256 priceWad, uint256 owedUsdWad, uint256 owedDps) {
        address oracle = $.oracle;
        if (oracle == address(0)) revert IProviderRegistryErrors.ProviderOracleNotSet();
        priceWad = IComputePriceOracle(oracle).indexPrice();
        owedUsdWad = ProviderStake.divUp(chAmount * priceWad * (BPS + $.params.redemptionPenaltyBps), WAD * BPS);
        owedDps = ProviderStake.divUp(owedUsdWad * WAD, $.params.dpsPriceWad);
    }
}
