// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title CapacitySamples
/// @notice A 15-day ring of daily capacity samples packed four per storage word (uint64 each, in
///         nano-PetaFLOPs), and the median rule of the emission module.
/// @dev Median rule (docs/emission.md): only days with a sample count; with an odd count the middle value, with an
///      even count the mean of the two middle values rounded down (rounding favours the protocol). No sample → 0.
library CapacitySamples {
    /// @notice Days per epoch, hence samples per ring.
    uint256 internal constant DAYS = 15;
    /// @notice GFL wei per stored unit: samples are kept in nano-PetaFLOPs (1e18 / 1e9).
    uint256 internal constant UNIT = 1e9;
    uint256 private constant MASK64 = 0xffffffffffffffff;

    /// @notice Reads day `day`'s sample (in stored units) from the packed ring.
    /// @param ring The four packed words.
    /// @param day Day 0-14.
    /// @return The stored sample.
    function get(uint256[4] storage ring, uint256 day) internal view returns (uint256) {
        return (ring[day >> 2] >> ((day & 3) << 6)) & MASK64;
    }

    /// @notice Writes day `day`'s sample (in stored units, < 2^64) into the packed ring.
    /// @param ring The four packed words.
    /// @param day Day 0-14.
    /// @param value The sample.
    function set(uint256[4] storage ring, uint256 day, uint256 value) internal {
        uint256 shift = (day & 3) << 6;
        uint256 word = ring[day >> 2];
        ring[day >> 2] = (word & ~(MASK64 << shift)) | (value << shift);
    }

    /// @notice Median of the days whose bit is set in `mask` (stored units).
    /// @param ring The four packed words.
    /// @param mask Bit d set when day d has a sample.
    /// @return med The median (0 when the mask is empty).
    /// @return count Number of samples.
    function median(uint256[4] storage ring, uint256 mask) internal view returns (uint256 med, uint256 count) {
        mask &= (1 << DAYS) - 1; // only days 0-14 exist
        if (mask == 0) return (0, 0);
        uint256[DAYS] memory vals;
        // @dev unchecked: count ≤ 15, every index below it; a word whose four days are all missing is not read.
        unchecked {
            for (uint256 w; w < 4; ++w) {
                uint256 bits = (mask >> (w << 2)) & 0xf;
                if (bits == 0) continue;
                uint256 word = ring[w];
                for (uint256 j; bits != 0; ++j) {
                    if (bits & 1 == 1) {
                        uint256 v = (word >> (j << 6)) & MASK64;
                        // Insertion sort: at most 15 elements.
                        uint256 i = count;
                        while (i > 0 && vals[i - 1] > v) {
                            vals[i] = vals[i - 1];
                            --i;
                        }
                        vals[i] = v;
                        ++count;
                    }
                    bits >>= 1;
                }
            }
        }
        uint256 mid = count >> 1;
        // @dev even count: mean of the two middle values, rounded down (favours the protocol).
        med = count & 1 == 1 ? vals[mid] : (vals[mid - 1] + vals[mid]) >> 1;
    }
}
