// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IProviderRegistryViews
/// @notice The ProviderRegistry's plain views (no struct types): the draw snapshot, the provider list and per-provider
///         figures, configuration. Inherited by IProviderRegistry (one ABI).
interface IProviderRegistryViews {
    /// @notice Number of providers ever draw-eligible: draws committed now sample indices below this (TSK-07).
    /// @return The length of the append-only draw list.
    function drawCount() external view returns (uint256);

    /// @notice Draw-list entries at `indices`, their DrawProfile words as of the end of block `atBlock`, and the draw's
    ///         reference weight then (the largest capped stake weight at the neutral reputation factor): one call per batch of council samples.
    /// @param indices Indices in the draw list (each < drawCount()).
    /// @param atBlock The draw's commit block.
    /// @return providers The entries.
    /// @return words Their words (0: no profile then).
    /// @return weightRef min(largest stake units × 100 recorded as of `atBlock`, DrawProfile.WEIGHT_CAP) (0: none).
    function drawSample(
        uint256[] calldata indices,
        uint256 atBlock
    ) external view returns (address[] memory providers, uint256[] memory words, uint256 weightRef);

    /// @notice A weighted draw's samples (ProviderSampling, TSK-07), read in order until `want` distinct providers
    ///         outside `excluded` are accepted: sample hash h picks draw-list entry uint128(h) mod `candidates` and
    ///         accepts it with probability min(weight, ref) / ref, weight and ref as of the end of block `atBlock`.
    ///         A sample rejected by weight reads one slot (the entry carries its weight while unchanged since
    ///         `atBlock`); an excluded or repeated provider is skipped before its word is read.
    /// @param samples The sample hashes, in draw order.
    /// @param candidates The draw list's length at the commit block (> 0).
    /// @param atBlock The draw's commit block.
    /// @param want How many accepted providers end the batch (the open seats).
    /// @param excluded Providers never returned (the draw's exclusions and the seats already filled).
    /// @return providers The accepted provider at each consumed sample's position (address(0): not accepted).
    /// @return words Their words as of `atBlock` (0 where not accepted).
    /// @return used The samples consumed (the next batch starts after them).
    function drawSampleWeighted(
        uint256[] calldata samples,
        uint256 candidates,
        uint256 atBlock,
        uint256 want,
        address[] calldata excluded
    ) external view returns (address[] memory providers, uint256[] memory words, uint256 used);

    /// @notice DrawProfile words of `providers` as of the end of block `atBlock` (executor selection, TSK-07).
    /// @param providers The providers (unregistered ones read 0).
    /// @param atBlock The commit block.
    /// @return words Their words.
    function drawProfilesAt(
        address[] calldata providers,
        uint256 atBlock
    ) external view returns (uint256[] memory words);

    /// @notice Number of registered providers.
    /// @return The count.
    function providerCount() external view returns (uint256);

    /// @notice Provider at `index` of the enumerable list (registration order; never reordered).
    /// @param index 0-based position.
    /// @return The provider.
    function providerAt(uint256 index) external view returns (address);

    /// @notice A page of the provider list.
    /// @param offset First index.
    /// @param limit Maximum entries.
    /// @return page The providers in [offset, min(offset + limit, count)).
    function providersPage(uint256 offset, uint256 limit) external view returns (address[] memory page);

    /// @notice Uptime, WAD: credited up time / tracked time, counting a silent gap since the last heartbeat.
    /// @param provider The provider.
    /// @return Uptime (0 before any tracked interval).
    function uptimeWad(address provider) external view returns (uint256);

    /// @notice Tier from stake: 0 Entry, 1 Low, 2 Medium, 3 High, 4 Ultra.
    /// @param provider The provider.
    /// @return The tier.
    function tierOf(address provider) external view returns (uint8);

    /// @notice CH the provider may mint now.
    /// @param provider The provider.
    /// @return CH amount.
    function mintableCh(address provider) external view returns (uint256);

    /// @notice Outstanding CH liability of a provider (TSK-04).
    /// @param provider The provider.
    /// @return CH amount.
    function liabilityOf(address provider) external view returns (uint256);

    /// @notice The provider's next attestation nonce.
    /// @param provider The provider.
    /// @return The nonce.
    function attestationNonce(address provider) external view returns (uint256);

    /// @notice EIP-712 domain separator: name "CHX ProviderRegistry", version "1", this chain id, this proxy.
    /// @return The separator.
    function domainSeparator() external view returns (bytes32);

    /// @notice Tier thresholds.
    /// @return Thresholds for tiers 1..4, DPS.
    function tierThresholds() external view returns (uint128[4] memory);

    /// @notice The TaskRegistry whose duty and outcome hooks skip the AccessManager check (zero when unset).
    /// @return The address.
    function trustedTaskRegistry() external view returns (address);

    /// @notice Issue 18 item 4: a page of the providers' capacity samples of recorder epoch `epoch`, by registry
    ///         list index, for Emission's collection (docs/emission.md "Samples off the heartbeat"). `words[0]`: the
    ///         registry list's length; `words[1]`: the number of providers with at least one sample in `epoch` (final
    ///         once the epoch has ended); then two words per provider of `[from, from + count)` (clipped to the
    ///         list): the provider (bits 0-159) and its day mask of `epoch` (bits 160-174; 0: no sample, or its ring
    ///         already reused after collection), then the median of its samples (bits 0-63) and its last sampled
    ///         day's sample (bits 64-127), in stored units (nano-PFLOPs, ×1e9 for PFLOPS wei).
    /// @param from First list index.
    /// @param count Providers at most (0: only the two header words).
    /// @param epoch The recorder (Emission) epoch.
    /// @return words The header and the page.
    function capacitySamplesAt(
        uint256 from,
        uint256 count,
        uint256 epoch
    ) external view returns (uint256[] memory words);

    /// @notice Issue 18: the number of providers with at least one sample in recorder epoch `epoch` (final once the
    ///         epoch has ended; `capacitySamplesAt`'s `words[1]`), one word for Emission's close.
    /// @param epoch The recorder (Emission) epoch.
    /// @return The count.
    function sampledCount(uint256 epoch) external view returns (uint256);

    /// @notice The capacity recorder (zero when unset).
    /// @return The address.
    function capacityRecorder() external view returns (address);

    /// @notice The CH index oracle (zero when unset).
    /// @return The address.
    function priceOracle() external view returns (address);

    /// @notice The ComputeStandard used to rate attestations.
    /// @return The address.
    function standard() external view returns (address);
}
