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
///         Entries are read in batches (one registry call per batch). If count + extraSamples samples leave seats
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
        uint256 w = DrawProfile.weight(word);
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
                uint256 m = _batch(count - r.filled, budget - k);
                _samples(r, k, m);
                k += m;
            }
            uint256 sweep = budget < n ? budget : n;
            uint256 start = uint256(keccak256(abi.encode(seed, "sweep")));
            for (uint256 i; i < sweep && r.filled < count;) {
                uint256 m = _batch(count - r.filled, sweep - i);
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

    /// @dev Samples k .. k + m − 1: one registry read, then each accepted entry is offered.
    function _samples(Run memory r, uint256 k, uint256 m) private view {
        uint256[] memory hs = new uint256[](m);
        uint256[] memory idx = new uint256[](m);
        uint256 n = r.q.candidates;
        for (uint256 j; j < m; ++j) {
            uint256 h = sampleHash(r.seed, k + j);
            hs[j] = h;
            idx[j] = index(h, n);
        }
        (address[] memory who, uint256[] memory words, uint256 ref) = r.reg.drawSample(idx, r.q.atBlock);
        for (uint256 j; j < m; ++j) if (accepts(hs[j], words[j], ref)) _offer(r, who[j], words[j]);
    }

    /// @dev Fallback: entries from, from + 1, … (mod n), eligibility alone (the sweep starts at a seeded entry).
    function _sweep(Run memory r, uint256 from, uint256 m) private view {
        uint256[] memory idx = new uint256[](m);
        uint256 n = r.q.candidates;
        for (uint256 j; j < m; ++j) idx[j] = (from + j) % n;
        (address[] memory who, uint256[] memory words, ) = r.reg.drawSample(idx, r.q.atBlock);
        for (uint256 j; j < m; ++j) _offer(r, who[j], words[j]);
    }

    /// @dev Batch size: the open seats plus one (a rejection or a duplicate rarely costs a second call), within
    ///      the samples left.
    function _batch(uint256 open, uint256 left) private pure returns (uint256) {
        return open + 1 < left ? open + 1 : left;
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
