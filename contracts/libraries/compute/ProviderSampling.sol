// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IProviderMatcher} from "../../interfaces/compute/IProviderMatcher.sol";
import {DrawProfile} from "./DrawProfile.sol";

/// @title ProviderSampling
/// @notice The council draw (TSK-07, issue 21 item 3): weighted random sampling from the ProviderRegistry's draw
///         snapshot. Sample k hashes h = keccak256(seed, k); its entry is uint128(h) mod candidates and it is
///         accepted with probability min(weight, ref) / ref, decided by the other half of the same hash
///         ((h >> 128) mod ref < weight), where weight is the entry's DrawProfile weight (stake × reputation) and ref
///         the largest capped stake weight at the neutral factor recorded, both as of the commit block. So each sample lands on a provider with
///         probability proportional to its weight, and the whole outcome is a function of the seed and the snapshot.
///         Entries are read in batches (one registry call per batch, `drawSampleWeighted`, which decides acceptance
///         from the draw-list entry's weight when it is unchanged since the commit block — one SLOAD for a rejected
///         sample — and otherwise from the checkpointed word: the outcome is the same either way). If count + extraSamples samples leave seats
///         empty (a small, sparse or very unequal list), a sweep of as many consecutive entries from a seeded start
///         fills them on eligibility alone. Internal: inlined into ProviderMatcher and the TaskRegistry's
///         TaskCouncil library (which calls the registry directly: no matcher hop on the hot path).
library ProviderSampling {
    /// @dev The draw list index a sample hash selects among `n` entries.
    function index(uint256 h, uint256 n) internal pure returns (uint256) {
        return uint128(h) % n;
    }

    /// @dev Whether a sample hash accepts an entry of `word` against reference weight `ref`.
    function accepts(uint256 h, uint256 word, uint256 ref) internal pure returns (bool) {
        return acceptsWeight(h, DrawProfile.weight(word), ref);
    }

    /// @dev Whether a sample hash accepts an entry of draw weight `w` against reference weight `ref`.
    function acceptsWeight(uint256 h, uint256 w, uint256 ref) internal pure returns (bool) {
        return w >= ref || (h >> 128) % ref < w;
    }

    /// @dev The hash of sample `k`.
    function sampleHash(bytes32 seed, uint256 k) internal pure returns (uint256 h) {
        assembly ("memory-safe") {
            mstore(0, seed)
            mstore(0x20, k)
            h := keccak256(0, 0x40)
        }
    }

    /// @dev A draw in progress (one memory struct keeps the helpers' stacks shallow).
    struct Run {
        IProviderRegistry reg;
        IProviderMatcher.DrawQuery q;
        address[] excluded;
        bytes32 seed;
        address[] drawn;
        uint256 filled;
    }

    /// @notice Draws up to `count` distinct eligible providers not in `excluded` (fewer only when the snapshot has
    ///         fewer to give); see the library notice.
    function draw(
        IProviderRegistry reg,
        IProviderMatcher.DrawQuery memory q,
        address[] memory excluded,
        bytes32 seed,
        uint256 count
    ) internal view returns (address[] memory drawn) {
        Run memory r = Run(reg, q, excluded, seed, new address[](count), 0);
        uint256 n = q.candidates;
        if (n != 0 && count != 0) {
            uint256 budget = count + q.extraSamples;
            for (uint256 k; k < budget && r.filled < count;) {
                k += _samples(r, k, _batch(2 * (count - r.filled) + 1, budget - k));
            }
            uint256 sweep = budget < n ? budget : n;
            uint256 start = uint256(keccak256(abi.encode(seed, "sweep")));
            for (uint256 i; i < sweep && r.filled < count;) {
                uint256 m = _batch(count - r.filled + 1, sweep - i);
                _sweep(r, start + i, m);
                i += m;
            }
        }
        drawn = r.drawn;
        uint256 filled = r.filled;
        assembly ("memory-safe") {
            mstore(drawn, filled)
        }
    }

    /// @dev Samples from k, at most m: one registry call reads them in order until the open seats are accepted
    ///      (skipping the excluded and the seats already filled before reading their words), then each accepted
    ///      entry is offered. Returns the samples consumed (≥ 1); unread hashes cost only their computation.
    function _samples(Run memory r, uint256 k, uint256 m) private view returns (uint256 used) {
        uint256[] memory hs = new uint256[](m);
        for (uint256 j; j < m; ++j) hs[j] = sampleHash(r.seed, k + j);
        address[] memory skip = new address[](r.excluded.length + r.filled);
        for (uint256 j; j < r.excluded.length; ++j) skip[j] = r.excluded[j];
        for (uint256 j; j < r.filled; ++j) skip[r.excluded.length + j] = r.drawn[j];
        address[] memory who;
        uint256[] memory words;
        (who, words, used) = r.reg.drawSampleWeighted(hs, r.q.candidates, r.q.atBlock, r.drawn.length - r.filled, skip);
        for (uint256 j; j < used; ++j) if (who[j] != address(0)) _offer(r, who[j], words[j]);
    }

    /// @dev Fallback: entries from, from + 1, … (mod n), eligibility alone (the sweep starts at a seeded entry).
    function _sweep(Run memory r, uint256 from, uint256 m) private view {
        uint256[] memory idx = new uint256[](m);
        uint256 n = r.q.candidates;
        for (uint256 j; j < m; ++j) idx[j] = (from + j) % n;
        (address[] memory who, uint256[] memory words, ) = r.reg.drawSample(idx, r.q.atBlock);
        for (uint256 j; j < m; ++j) _offer(r, who[j], words[j]);
    }

    /// @dev Batch size: `want` (twice the open seats plus one: a sample the registry does not need to read costs only
    ///      its hash, so a rejection or a repeat rarely costs a second call), within the samples left.
    function _batch(uint256 want, uint256 left) private pure returns (uint256) {
        return want < left ? want : left;
    }

    /// @dev Draws `who` when a seat is open, its snapshot word is eligible and it is neither excluded nor drawn.
    function _offer(Run memory r, address who, uint256 word) private pure {
        uint256 filled = r.filled;
        address[] memory drawn = r.drawn;
        if (filled == drawn.length) return;
        IProviderMatcher.DrawQuery memory q = r.q;
        if (!DrawProfile.eligible(word, q.workloadClass, q.requiredCapacityPflopsWad, q.atTime)) return;
        address[] memory ex = r.excluded;
        for (uint256 j; j < ex.length; ++j) if (ex[j] == who) return;
        for (uint256 j; j < filled; ++j) if (drawn[j] == who) return;
        drawn[filled] = who;
        r.filled = filled + 1;
    }
}
