// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Checkpoints} from "@openzeppelin/contracts/utils/structs/Checkpoints.sol";
import {IProviderRegistryEvents} from "../../interfaces/compute/IProviderRegistryEvents.sol";
import {ProviderRegistryStore} from "../../core/compute/ProviderRegistryStore.sol";
import {DrawProfile} from "./DrawProfile.sol";

/// @title ProviderDraw
/// @notice Records the ProviderRegistry's draw snapshot (TSK-07): a provider's DrawProfile word, checkpointed by
///         block number whenever stake, attestation or a slash changes it, and the append-only list of providers
///         that were ever draw-eligible. Internal: inlined into the libraries that change those fields.
library ProviderDraw {
    using Checkpoints for Checkpoints.Trace208;

    /// @dev Checkpoints `provider`'s current profile (no write when unchanged) and lists it the first time it is
    ///      draw-eligible (minimum stake and a live attestation).
    function record(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        ProviderRegistryStore.ProviderData storage p,
        address provider
    ) internal {
        uint256 staked = p.stakedDps;
        bool minOk = staked >= $.params.minStakeDps;
        uint256 expiresAt = p.attestationExpiresAt;
        uint208 word = DrawProfile.encode(expiresAt, p.workloadClass, p.capacityPflopsWad, staked, minOk);
        Checkpoints.Trace208 storage trace = p.drawTrace;
        if (trace.length() == 0 ? word != 0 : trace.latest() != word) trace.push(uint48(block.number), word);
        if (p.drawIndex1 == 0 && minOk && expiresAt >= block.timestamp) {
            $.drawList.push(provider);
            uint256 index = $.drawList.length - 1;
            p.drawIndex1 = uint32(index + 1);
            emit IProviderRegistryEvents.DrawCandidateListed(provider, index);
        }
    }

    /// @dev `provider`'s word as of the end of block `atBlock` (0 before its first record).
    function wordAt(ProviderRegistryStore.ProviderData storage p, uint256 atBlock) internal view returns (uint256) {
        return p.drawTrace.upperLookupRecent(uint48(atBlock));
    }
}
