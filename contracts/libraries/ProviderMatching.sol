// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IProviderRegistry} from "../interfaces/compute/IProviderRegistry.sol";
import {IProviderMatcher} from "../interfaces/compute/IProviderMatcher.sol";

/// @title ProviderMatching
/// @notice Pure scoring and top-k selection of providers (seed 002 criteria): region, price vs budget, uptime,
///         reputation, free capacity, slash rate, stake and a seeded random term.
/// @dev Every factor is a WAD in [0, 1e18]; the score is Σ weight_bps · factor / 10 000, a WAD in [0, 1e18].
///      Ties are broken by keccak256(seed, provider), never by address order, so an address cannot be ground to
///      win ties without knowing the seed in advance.
library ProviderMatching {
    uint256 internal constant WAD = 1e18;
    uint256 internal constant BPS = 10_000;
    /// @notice Query value meaning "any workload class".
    uint16 internal constant ANY_CLASS = type(uint16).max;

    /// @notice The per-candidate random draw and tie-break key.
    /// @param seed The selection seed.
    /// @param provider The candidate.
    /// @return The key.
    function drawKey(bytes32 seed, address provider) internal pure returns (uint256) {
        return uint256(keccak256(abi.encode(seed, provider)));
    }

    function _min(uint256 a, uint256 b) private pure returns (uint256) {
        return a < b ? a : b;
    }

    /// @notice Scores one candidate profile.
    /// @param m Profile from the registry.
    /// @param q The query.
    /// @param w Weights (bps, sum 10 000).
    /// @param stakeNormDps Stake giving the full stake factor.
    /// @param key drawKey(seed, provider).
    /// @return eligible False when a hard filter fails (not eligible, attested class, strict region, over budget,
    ///         not enough capacity or outstanding CH).
    /// @return scoreWad The score, WAD (0 when not eligible).
    function score(
        IProviderRegistry.MatchingProfile memory m,
        IProviderMatcher.Query memory q,
        IProviderMatcher.Weights memory w,
        uint256 stakeNormDps,
        uint256 key
    ) internal pure returns (bool eligible, uint256 scoreWad) {
        if (!m.eligible) return (false, 0);
        // @dev Item 18: the class the provider was benchmarked for (its attestation), not its self-declared mask.
        if (q.workloadClass != ANY_CLASS && m.workloadClass != q.workloadClass) return (false, 0);
        bool sameRegion = q.region == 0 || m.region == q.region;
        if (q.regionStrict && !sameRegion) return (false, 0);
        (bool ok, uint256 fPrice, uint256 fCapacity) = _fit(m, q);
        if (!ok) return (false, 0);
        uint256 sum = uint256(w.region) * (sameRegion ? WAD : 0);
        sum += uint256(w.price) * fPrice;
        sum += uint256(w.capacity) * fCapacity;
        sum += _quality(m, w, stakeNormDps);
        sum += uint256(w.randomness) * (key % (WAD + 1));
        return (true, sum / BPS);
    }

    /// @dev Hard filters and the factors that depend on the mode: price (Executor) and capacity / outstanding CH.
    function _fit(
        IProviderRegistry.MatchingProfile memory m,
        IProviderMatcher.Query memory q
    ) private pure returns (bool ok, uint256 fPrice, uint256 fCapacity) {
        fPrice = WAD;
        fCapacity = WAD;
        if (q.mode == IProviderMatcher.Mode.Delivery) {
            if (m.outstandingCh < q.requiredCh || m.outstandingCh == 0) return (false, 0, 0);
            // @dev Prefers providers owing more CH (spreads redemptions onto the most indebted); rounds down.
            if (q.requiredCh != 0) {
                fCapacity = _min((uint256(m.outstandingCh) * WAD) / (4 * uint256(q.requiredCh)), WAD);
            }
            return (true, fPrice, fCapacity);
        }
        if (m.capacityPflopsWad < q.requiredCapacityPflopsWad) return (false, 0, 0);
        if (q.requiredCapacityPflopsWad != 0) {
            fCapacity = _min((uint256(m.capacityPflopsWad) * WAD) / (2 * uint256(q.requiredCapacityPflopsWad)), WAD);
        }
        if (q.mode == IProviderMatcher.Mode.Executor && q.budgetPriceWad != 0) {
            if (m.askPriceWad == 0 || m.askPriceWad > q.budgetPriceWad) return (false, 0, 0);
            // @dev Rounds down: the cheaper, the higher.
            fPrice = ((uint256(q.budgetPriceWad) - m.askPriceWad) * WAD) / q.budgetPriceWad;
        }
        return (true, fPrice, fCapacity);
    }

    /// @dev Weighted history factors (bps × WAD): uptime, reputation (Laplace-smoothed completed share), slash
    ///      rate (slashes per job, capped at 1) and stake (vs the norm, capped at 1). All round down.
    function _quality(
        IProviderRegistry.MatchingProfile memory m,
        IProviderMatcher.Weights memory w,
        uint256 stakeNormDps
    ) private pure returns (uint256 sum) {
        uint256 jobs = uint256(m.completed) + m.failed;
        sum = uint256(w.uptime) * _min(m.uptimeWad, WAD);
        sum += (uint256(w.reputation) * ((uint256(m.completed) + 1) * WAD)) / (jobs + 2);
        sum += uint256(w.slashRate) * (WAD - _min((uint256(m.slashCount) * WAD) / (jobs + 1), WAD));
        sum += uint256(w.stake) * (stakeNormDps == 0 ? WAD : _min((uint256(m.stakedDps) * WAD) / stakeNormDps, WAD));
    }

    /// @notice Whether (scoreA, keyA) ranks above (scoreB, keyB).
    function ranksAbove(uint256 scoreA, uint256 keyA, uint256 scoreB, uint256 keyB) internal pure returns (bool) {
        return scoreA > scoreB || (scoreA == scoreB && keyA > keyB);
    }

    /// @notice Inserts a candidate into a descending top-k list held in memory (insertion sort, O(k)).
    /// @param picked Addresses, best first.
    /// @param scores Their scores.
    /// @param keys Their tie-break keys.
    /// @param filled Entries used so far.
    /// @param who Candidate.
    /// @param s Its score.
    /// @param key Its key.
    /// @return The new fill count.
    function insertTopK(
        address[] memory picked,
        uint256[] memory scores,
        uint256[] memory keys,
        uint256 filled,
        address who,
        uint256 s,
        uint256 key
    ) internal pure returns (uint256) {
        uint256 k = picked.length;
        if (filled == k && !ranksAbove(s, key, scores[k - 1], keys[k - 1])) return filled;
        uint256 i = filled < k ? filled : k - 1;
        while (i > 0 && ranksAbove(s, key, scores[i - 1], keys[i - 1])) {
            picked[i] = picked[i - 1];
            scores[i] = scores[i - 1];
            keys[i] = keys[i - 1];
            --i;
        }
        picked[i] = who;
        scores[i] = s;
        keys[i] = key;
        return filled < k ? filled + 1 : filled;
    }
}
