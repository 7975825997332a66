// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IEmission} from "../../interfaces/emission/IEmission.sol";
import {IEmissionErrors} from "../../interfaces/emission/IEmissionErrors.sol";
import {IEmissionEvents} from "../../interfaces/emission/IEmissionEvents.sol";
import {EmissionStore} from "../../core/emission/EmissionStore.sol";
import {EmissionEpochs} from "./EmissionEpochs.sol";
import {EmissionRewards} from "./EmissionRewards.sol";
import {EmissionCollect} from "./EmissionCollect.sol";

/// @title EmissionKeepers
/// @notice The Emission module's permissionless keeper work on a pointer to its storage: paid epoch closes, paged
///         rebalancing with a per-provider bounty, and the next upkeep the checkers propose.
library EmissionKeepers {
    using SafeERC20 for IERC20;

    /// @dev Epochs a user path may close on its way (each close is O(1), ≈ 25k gas).
    uint256 internal constant MAX_LAZY_CLOSES = 64;
    /// @dev Epochs one `closeEpochs` call may close: 256 × ≈ 30k ≈ 8M gas.
    uint256 internal constant MAX_CLOSES = 256;
    /// @dev Providers per batch at most: 200 × ≈ 51k (worst case, a first GFL) ≈ 10M gas, far under 16,777,216.
    uint256 internal constant MAX_BATCH = 200;
    uint8 internal constant UPKEEP_CLOSE = 1;
    uint8 internal constant UPKEEP_REBALANCE = 2;
    uint8 internal constant UPKEEP_COLLECT = 3;

    /// @notice Closes up to `maxEpochs` due epochs (at most MAX_CLOSES), funds their rewards, pays the bounty; an
    ///         ended epoch still collecting gets one collection batch of `keeperBatchSize` first (bounded: never a
    ///         loop over all providers) and closes only once its collection is complete. Returns the epochs closed and
    ///         the bounty paid.
    function closeEpochs(
        EmissionStore.EmissionStorage storage $,
        uint256 maxEpochs
    ) internal returns (uint256 closed, uint256 bounty) {
        uint256 epoch = $.currentEpoch;
        uint256 endsAt = EmissionEpochs.start($, epoch + 1);
        if (block.timestamp < endsAt) revert IEmissionErrors.EmissionEpochNotDue(epoch, endsAt);
        if (maxEpochs == 0) revert IEmissionErrors.EmissionInvalidParameter("maxEpochs", 0);
        // @dev the source's count is read once: by `pending`, or from the batch's page header (which says whether
        //      the collection is still pending after it); the paid sync does not ask again. Still pending: no close.
        bool left = EmissionCollect.pending($, epoch);
        if (left) (, bounty, left) = _collectPaid($, $.keeperBatchSize);
        if (!left) bounty += EmissionEpochs.sync($, maxEpochs > MAX_CLOSES ? MAX_CLOSES : maxEpochs, true);
        closed = $.currentEpoch - epoch;
        EmissionRewards.fund($);
        transferBounty($, bounty);
    }

    /// @notice Settles the next `maxProviders` (at most MAX_BATCH) listed providers for the last closed epoch.
    function rebalance(
        EmissionStore.EmissionStorage storage $,
        uint256 maxProviders
    ) internal returns (uint256 rebalanced) {
        if (maxProviders == 0) revert IEmissionErrors.EmissionInvalidParameter("maxProviders", 0);
        EmissionEpochs.sync($, MAX_LAZY_CLOSES, false);
        uint256 epoch = $.currentEpoch;
        uint256 cursor = $.rebalanceCursor;
        uint256 length = $.providerList.length;
        if (epoch == 0 || cursor >= length) revert IEmissionErrors.EmissionRebalanceComplete(epoch);
        uint256 end = cursor + (maxProviders > MAX_BATCH ? MAX_BATCH : maxProviders);
        if (end > length) end = length;
        for (uint256 i = cursor; i < end; ++i) {
            address provider = $.providerList[i];
            if (EmissionRewards.settle($, provider, $.providers[provider], epoch)) ++rebalanced;
        }
        $.rebalanceCursor = end;
        uint256 bounty = EmissionRewards.bounty($, rebalanced * $.bounty.perProviderBountyDps);
        emit IEmissionEvents.RebalanceBatch(epoch, cursor, end, rebalanced, msg.sender, bounty);
        EmissionRewards.fund($);
        transferBounty($, bounty);
    }

    /// @notice Collects a batch (`EmissionCollect.collect`) and pays the per-provider bounty to the caller.
    function collect(EmissionStore.EmissionStorage storage $, uint256 maxProviders) internal returns (uint256 n) {
        uint256 bounty;
        (n, bounty, ) = _collectPaid($, maxProviders);
        transferBounty($, bounty);
    }

    /// @dev One collection batch, its per-provider bounty taken from the keeper budget and `CollectionBatch` (the
    ///      budget's indexers follow it, as `RebalanceBatch`); the caller transfers the bounty. `left`: the
    ///      collection is still pending after the batch.
    function _collectPaid(
        EmissionStore.EmissionStorage storage $,
        uint256 maxProviders
    ) private returns (uint256 n, uint256 bounty, bool left) {
        (n, left) = EmissionCollect.collect($, maxProviders);
        bounty = EmissionRewards.bounty($, n * $.bounty.perProviderBountyDps);
        emit IEmissionEvents.CollectionBatch($.currentEpoch, n, msg.sender, bounty);
    }

    /// @notice Pays `amount` DPS of bounty to the caller.
    function transferBounty(EmissionStore.EmissionStorage storage $, uint256 amount) internal {
        if (amount > 0) IERC20(address($.dps)).safeTransfer(msg.sender, amount);
    }

    /// @notice The next keeper action: collect the ended epoch's providers, else close due epochs, else rebalance a
    ///         batch, else none (0).
    function nextUpkeep(EmissionStore.EmissionStorage storage $) internal view returns (uint8 action, uint256 arg) {
        uint256 epoch = $.currentEpoch;
        uint256 next = EmissionEpochs.start($, epoch + 1);
        if (block.timestamp >= next) {
            if (EmissionCollect.pending($, epoch)) return (UPKEEP_COLLECT, $.keeperBatchSize);
            uint256 due = (block.timestamp - next) / EmissionEpochs.EPOCH + 1;
            return (UPKEEP_CLOSE, due > MAX_LAZY_CLOSES ? MAX_LAZY_CLOSES : due);
        }
        if (epoch > 0 && $.rebalanceCursor < $.providerList.length) return (UPKEEP_REBALANCE, $.keeperBatchSize);
        return (0, 0);
    }

    /// @notice Sets the keeper bounties, the replenishment share of the keeper budget (≤ 10 %) and the batch size.
    function setConfig(
        EmissionStore.EmissionStorage storage $,
        IEmission.BountyConfig calldata bounty_,
        uint256 keeperShareBps,
        uint256 keeperBatchSize
    ) internal {
        if (keeperShareBps > 1_000) revert IEmissionErrors.EmissionInvalidParameter("keeperShareBps", keeperShareBps);
        if (keeperBatchSize == 0 || keeperBatchSize > MAX_BATCH) {
            revert IEmissionErrors.EmissionInvalidParameter("keeperBatchSize", keeperBatchSize);
        }
        $.bounty = bounty_;
        $.keeperShareBps = uint16(keeperShareBps);
        $.keeperBatchSize = uint16(keeperBatchSize);
        emit IEmission.KeeperConfigSet(bounty_, keeperShareBps, keeperBatchSize);
    }
}
