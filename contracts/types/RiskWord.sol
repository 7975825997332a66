// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IRiskEngine} from "../interfaces/clearing/IRiskEngine.sol";

/// @notice A market's pushed IRiskEngine.MarketRiskParams in one word, as the ClearingHouse keeps them: imMultiple
///         (bits 0-63), mmMultiple (64-127), imFloor (128-187), mmFloor (188-247) — floors are < 1 WAD < 2^60, checked
///         by the RiskEngine — and the risk-engine generation that pushed them (248-255). Zero: no copy.
type RiskWord is uint256;

using RiskWordLib for RiskWord global;

/// @title RiskWordLib
/// @notice Packing and getters of a RiskWord.
library RiskWordLib {
    uint256 private constant MASK60 = (1 << 60) - 1;

    /// @notice Whether `p` fit the word (each floor < 2^60; the multiples are uint64 by type).
    function fits(IRiskEngine.MarketRiskParams memory p) internal pure returns (bool) {
        return p.imFloorWad < 1 << 60 && p.mmFloorWad < 1 << 60;
    }

    /// @notice Packs `p` (which must fit) pushed under risk-engine generation `gen`.
    function pack(IRiskEngine.MarketRiskParams memory p, uint256 gen) internal pure returns (RiskWord) {
        return
            RiskWord.wrap(
                uint256(p.imMultipleWad) |
                    (uint256(p.mmMultipleWad) << 64) |
                    (uint256(p.imFloorWad) << 128) |
                    (uint256(p.mmFloorWad) << 188) |
                    (uint256(uint8(gen)) << 248)
            );
    }

    /// @notice Initial-margin multiple of σ, WAD.
    function imMultiple(RiskWord w) internal pure returns (uint64) {
        return uint64(RiskWord.unwrap(w));
    }

    /// @notice Maintenance-margin multiple of σ, WAD.
    function mmMultiple(RiskWord w) internal pure returns (uint64) {
        return uint64(RiskWord.unwrap(w) >> 64);
    }

    /// @notice Initial-margin floor rate, WAD.
    function imFloor(RiskWord w) internal pure returns (uint64) {
        return uint64((RiskWord.unwrap(w) >> 128) & MASK60);
    }

    /// @notice Maintenance-margin floor rate, WAD.
    function mmFloor(RiskWord w) internal pure returns (uint64) {
        return uint64((RiskWord.unwrap(w) >> 188) & MASK60);
    }

    /// @notice The risk-engine generation that pushed the word.
    function generation(RiskWord w) internal pure returns (uint256) {
        return RiskWord.unwrap(w) >> 248;
    }

    /// @notice Whether the word is a copy pushed by risk-engine `gen` (a copy always has a non-zero floor).
    function isCurrent(RiskWord w, uint256 gen) internal pure returns (bool) {
        return generation(w) == gen && imFloor(w) != 0;
    }

    /// @notice The parameters the word holds.
    function params(RiskWord w) internal pure returns (IRiskEngine.MarketRiskParams memory) {
        return IRiskEngine.MarketRiskParams(imMultiple(w), mmMultiple(w), imFloor(w), mmFloor(w));
    }
}
