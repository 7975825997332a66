// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IProviderMatcher} from "../../interfaces/compute/IProviderMatcher.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {ProviderMatching} from "../../libraries/ProviderMatching.sol";
import {ProviderSampling} from "../../libraries/compute/ProviderSampling.sol";

/// @title ProviderMatcher
/// @notice Governance-weighted provider matching over bounded pages (executors, delivery assignment) and
///         unmovable council draws from the ProviderRegistry's snapshot (TSK-07).
/// @dev Stateless apart from its configuration; reads profiles from the ProviderRegistry.
contract ProviderMatcher is ChxUpgradeable, IProviderMatcher {
    /// @custom:storage-location erc7201:chx.storage.ProviderMatcher
    struct ProviderMatcherStorage {
        address registry;
        Weights weights;
        uint256 stakeNormDps;
        uint256 maxPage;
        uint256 maxPick;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.ProviderMatcher")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant PROVIDER_MATCHER_STORAGE_LOCATION =
        0x953810b2cc48694e85b87a604d88ddb67ab0068835d9791b361940a738473b00;

    function _s() private pure returns (ProviderMatcherStorage storage $) {
        assembly {
            $.slot := PROVIDER_MATCHER_STORAGE_LOCATION
        }
    }

    /// @notice Initialises the proxy with default weights (region 15 %, price 20 %, uptime 15 %, reputation 15 %,
    ///         capacity 10 %, slash rate 10 %, stake 5 %, randomness 10 %) and limits (stake norm 50 000 DPS,
    ///         page 100, pick 32).
    /// @param authority The protocol AccessManager.
    /// @param registry_ The ProviderRegistry.
    function initialize(address authority, address registry_) external initializer {
        __ChxUpgradeable_init(authority);
        if (registry_ == address(0)) revert ChxZeroAddress();
        _s().registry = registry_;
        _setWeights(
            Weights({
                region: 1500,
                price: 2000,
                uptime: 1500,
                reputation: 1500,
                capacity: 1000,
                slashRate: 1000,
                stake: 500,
                randomness: 1000
            })
        );
        _setLimits(50_000e18, 100, 32);
    }

    /// @inheritdoc IProviderMatcher
    function setWeights(Weights calldata w) external restricted {
        _setWeights(w);
    }

    function _setWeights(Weights memory w) private {
        uint256 sum =
            uint256(w.region) + w.price + w.uptime + w.reputation + w.capacity + w.slashRate + w.stake + w.randomness;
        if (sum != ProviderMatching.BPS) revert MatcherInvalidWeights(sum);
        _s().weights = w;
        emit WeightsSet(w);
    }

    /// @inheritdoc IProviderMatcher
    function setLimits(uint256 stakeNormDps, uint256 maxPage, uint256 maxPick) external restricted {
        _setLimits(stakeNormDps, maxPage, maxPick);
    }

    function _setLimits(uint256 stakeNormDps, uint256 maxPage, uint256 maxPick) private {
        if (maxPage == 0 || maxPick == 0) revert MatcherInvalidLimits();
        ProviderMatcherStorage storage $ = _s();
        $.stakeNormDps = stakeNormDps;
        $.maxPage = maxPage;
        $.maxPick = maxPick;
        emit LimitsSet(stakeNormDps, maxPage, maxPick);
    }

    /// @inheritdoc IProviderMatcher
    function scoreCandidates(
        Query calldata q,
        address[] calldata candidates,
        bytes32 seed
    ) external view returns (bool[] memory eligible, uint256[] memory scoresWad) {
        ProviderMatcherStorage storage $ = _s();
        uint256 n = candidates.length;
        if (n > $.maxPage) revert MatcherPageTooLarge(n, $.maxPage);
        Selection memory sel = _begin($, 0);
        eligible = new bool[](n);
        scoresWad = new uint256[](n);
        for (uint256 i; i < n; ++i) (eligible[i], scoresWad[i]) = _score($, sel, q, candidates[i], seed);
    }

    function _score(
        ProviderMatcherStorage storage $,
        Selection memory sel,
        Query calldata q,
        address who,
        bytes32 seed
    ) private view returns (bool, uint256) {
        return
            ProviderMatching.score(
                IProviderRegistry($.registry).matchingProfile(who),
                q,
                sel.w,
                sel.norm,
                ProviderMatching.drawKey(seed, who)
            );
    }

    /// @inheritdoc IProviderMatcher
    function selectFromCandidates(
        Query calldata q,
        address[] calldata candidates,
        address[] calldata excluded,
        bytes32 seed,
        uint256 count
    ) external view returns (address[] memory) {
        ProviderMatcherStorage storage $ = _s();
        uint256 n = candidates.length;
        if (n > $.maxPage) revert MatcherPageTooLarge(n, $.maxPage);
        Selection memory sel = _begin($, count);
        for (uint256 i; i < n; ++i) _consider($, sel, q, candidates[i], excluded, seed);
        return _finish(sel);
    }

    /// @inheritdoc IProviderMatcher
    function drawFromSnapshot(
        DrawQuery calldata q,
        address[] calldata excluded,
        bytes32 seed,
        uint256 count
    ) external view returns (address[] memory) {
        ProviderMatcherStorage storage $ = _s();
        if (count > $.maxPick) revert MatcherCountTooLarge(count, $.maxPick);
        return ProviderSampling.draw(IProviderRegistry($.registry), q, excluded, seed, count);
    }

    /// @inheritdoc IProviderMatcher
    function blockSeed(bytes32 salt, uint256 targetBlock) external view returns (bytes32) {
        bytes32 h = blockhash(targetBlock);
        if (h == bytes32(0)) revert MatcherSeedUnavailable(targetBlock, block.number);
        return keccak256(abi.encode(h, salt, block.chainid));
    }

    struct Selection {
        address[] picked;
        uint256[] scores;
        uint256[] keys;
        uint256 filled;
        Weights w;
        uint256 norm;
    }

    function _begin(ProviderMatcherStorage storage $, uint256 count) private view returns (Selection memory sel) {
        if (count > $.maxPick) revert MatcherCountTooLarge(count, $.maxPick);
        sel.picked = new address[](count);
        sel.scores = new uint256[](count);
        sel.keys = new uint256[](count);
        sel.w = $.weights;
        sel.norm = $.stakeNormDps;
    }

    function _consider(
        ProviderMatcherStorage storage $,
        Selection memory sel,
        Query calldata q,
        address who,
        address[] calldata excluded,
        bytes32 seed
    ) private view {
        if (sel.picked.length == 0) return;
        for (uint256 j; j < excluded.length; ++j) if (excluded[j] == who) return;
        (bool ok, uint256 s) = _score($, sel, q, who, seed);
        if (!ok) return;
        sel.filled = ProviderMatching.insertTopK(
            sel.picked,
            sel.scores,
            sel.keys,
            sel.filled,
            who,
            s,
            ProviderMatching.drawKey(seed, who)
        );
    }

    function _finish(Selection memory sel) private pure returns (address[] memory picked) {
        picked = sel.picked;
        uint256 filled = sel.filled;
        // Trim unused tail in place.
        assembly {
            mstore(picked, filled)
        }
    }

    /// @inheritdoc IProviderMatcher
    function weights() external view returns (Weights memory) {
        return _s().weights;
    }

    /// @inheritdoc IProviderMatcher
    function limits() external view returns (uint256 stakeNormDps, uint256 maxPage, uint256 maxPick) {
        ProviderMatcherStorage storage $ = _s();
        return ($.stakeNormDps, $.maxPage, $.maxPick);
    }

    /// @inheritdoc IProviderMatcher
    function registry() external view returns (address) {
        return _s().registry;
    }
}
