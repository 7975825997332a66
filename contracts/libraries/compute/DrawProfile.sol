// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title DrawProfile
/// @notice The packed, checkpointed profile that draws read (TSK-07). The ProviderRegistry records a provider's word
///         at every change of what a draw looks at (stake, attestation, a slash, a reputation step) under the block
///         number; a draw committed at block B reads each candidate's word as of B, so nothing done after B — and the
///         seed is only known after B — changes who is eligible or how heavily it weighs.
/// @dev Word (208 bits, one OpenZeppelin Checkpoints.Trace208 value):
///      bits   0..39  attestation expiry (timestamp)
///      bits  40..55  attested workload class
///      bits  56..143 attested capacity, PFLOPS WAD
///      bits 144..198 stake, whole DPS (rounded down, capped at 2^55 − 1)
///      bits 199..206 reputation factor, percent (REP_MIN_PCT..REP_MAX_PCT; docs/compute.md "Reputation")
///      bit  207      stake ≥ the minimum stake in force when the word was recorded
///      A word of 0 (never recorded) is never eligible. Draw weight = stake units × reputation percent (issue 21
///      item 3): linear in stake, so splitting a stake over Sybil providers never adds weight.
library DrawProfile {
    uint256 internal constant MAX_STAKE_UNITS = (1 << 55) - 1;
    /// @notice Query value meaning "any workload class".
    uint16 internal constant ANY_CLASS = type(uint16).max;
    /// @notice Reputation factor bounds and the neutral factor of a provider without history, percent.
    uint256 internal constant REP_MIN_PCT = 50;
    uint256 internal constant REP_NEUTRAL_PCT = 100;
    uint256 internal constant REP_MAX_PCT = 150;
    /// @notice The largest weight one provider carries in a draw (50,000 DPS at the neutral factor, the matcher's
    ///         stake norm); a heavier word counts as this. It also bounds the draw's reference weight (the acceptance
    ///         denominator), so a whale cannot push every other provider's acceptance below weight / WEIGHT_CAP.
    uint256 internal constant WEIGHT_CAP = 50_000 * REP_NEUTRAL_PCT;

    /// @notice Packs a profile into its word.
    function encode(
        uint256 expiresAt,
        uint16 workloadClass,
        uint256 capacityPflopsWad,
        uint256 stakedDps,
        uint256 reputationPct,
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
                    (uint256(uint8(reputationPct)) << 199) |
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

    /// @notice Reputation factor of a word, percent.
    function repPct(uint256 word) internal pure returns (uint256) {
        return uint8(word >> 199);
    }

    /// @notice Draw weight of a word: stake units × reputation percent, capped at WEIGHT_CAP.
    function weight(uint256 word) internal pure returns (uint256 w) {
        w = stakeUnits(word) * repPct(word);
        if (w > WEIGHT_CAP) w = WEIGHT_CAP;
    }
}
