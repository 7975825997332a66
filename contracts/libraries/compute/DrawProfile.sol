// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title DrawProfile
/// @notice The packed, checkpointed profile that draws read (TSK-07). The ProviderRegistry records a provider's word
///         at every change of what a draw looks at (stake, attestation, a slash) under the block number; a draw
///         committed at block B reads each candidate's word as of B, so nothing done after B — and the seed is only
///         known after B — changes who is eligible.
/// @dev Word (208 bits, one OpenZeppelin Checkpoints.Trace208 value):
///      bits   0..39  attestation expiry (timestamp)
///      bits  40..55  attested workload class
///      bits  56..143 attested capacity, PFLOPS WAD
///      bits 144..206 stake, whole DPS (rounded down, capped at 2^63 − 1) — the weight a score-weighted draw can use
///      bit  207      stake ≥ the minimum stake in force when the word was recorded
///      A word of 0 (never recorded) is never eligible.
library DrawProfile {
    uint256 internal constant MAX_STAKE_UNITS = (1 << 63) - 1;
    /// @notice Query value meaning "any workload class".
    uint16 internal constant ANY_CLASS = type(uint16).max;

    /// @notice Packs a profile into its word.
    function encode(
        uint256 expiresAt,
        uint16 workloadClass,
        uint256 capacityPflopsWad,
        uint256 stakedDps,
        bool minStakeMet
    ) internal pure returns (uint208) {
        uint256 units = stakedDps / 1e18;
        if (units > MAX_STAKE_UNITS) units = MAX_STAKE_UNITS;
        return
            uint208(
                uint256(uint40(expiresAt)) |
                    (uint256(workloadClass) << 40) |
                    (uint256(uint88(capacityPflopsWad)) << 56) |
                    (units << 144) |
                    (minStakeMet ? uint256(1) << 207 : 0)
            );
    }

    /// @notice Whether a word qualifies for a draw: minimum stake met, attestation live at `atTime`, the class asked
    ///         (or any), at least the capacity asked.
    function eligible(
        uint256 word,
        uint16 workloadClass,
        uint256 requiredCapacityPflopsWad,
        uint256 atTime
    ) internal pure returns (bool) {
        if (word >> 207 == 0) return false;
        if (uint40(word) < atTime) return false;
        if (workloadClass != ANY_CLASS && uint16(word >> 40) != workloadClass) return false;
        return uint88(word >> 56) >= requiredCapacityPflopsWad;
    }

    /// @notice Stake of a word, whole DPS.
    function stakeUnits(uint256 word) internal pure returns (uint256) {
        return (word >> 144) & MAX_STAKE_UNITS;
    }
}
