// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IRiskEngine} from "../interfaces/clearing/IRiskEngine.sol";
import {FixedPointMath} from "./math/FixedPointMath.sol";

/// @title RiskMath
/// @notice The margin-rate rule of IRiskEngine, in one place for the RiskEngine and the ClearingHouse's cached copy:
///         initialRate = max(imFloor, σ × imMultiple), maintenanceRate = max(mmFloor, σ × mmMultiple), products rounded
///         up, initial capped at 100 %, maintenance at most initial.
library RiskMath {
    uint256 internal constant WAD = FixedPointMath.WAD;

    /// @notice Margin rates of a market with parameters `p` at volatility `sigmaWad`.
    /// @return imRateWad Initial-margin rate, WAD.
    /// @return mmRateWad Maintenance-margin rate, WAD.
    function marginRates(
        IRiskEngine.MarketRiskParams memory p,
        uint256 sigmaWad
    ) internal pure returns (uint256 imRateWad, uint256 mmRateWad) {
        imRateWad = Math.max(p.imFloorWad, FixedPointMath.wadMulUp(sigmaWad, p.imMultipleWad));
        mmRateWad = Math.max(p.mmFloorWad, FixedPointMath.wadMulUp(sigmaWad, p.mmMultipleWad));
        if (imRateWad > WAD) imRateWad = WAD;
        if (mmRateWad > imRateWad) mmRateWad = imRateWad;
    }
}
