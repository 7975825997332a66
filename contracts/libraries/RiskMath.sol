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

    /// @notice λ^n in WAD (exponentiation by squaring: ≤ 2·log2(n) products, each rounded up so the old variance's
    ///         weight is never understated).
    function powWadUp(uint256 lambdaWad, uint256 n) internal pure returns (uint256 r) {
        r = WAD;
        uint256 b = lambdaWad;
        while (n != 0) {
            if (n & 1 != 0) r = FixedPointMath.wadMulUp(r, b);
            n >>= 1;
            if (n != 0) b = FixedPointMath.wadMulUp(b, b);
        }
    }

    /// @notice One EWMA step over `elapsedSec` seconds (≥ `intervalSec`): the return r = |p − p₀| / p₀ (rounded up)
    ///         is spread over the n = elapsed / interval intervals it covers (per-interval sample r² · interval /
    ///         elapsed, so a late update neither inflates nor dilutes the per-interval variance) and the old variance
    ///         decays by λ^⌊n⌋: v ← λ^⌊n⌋ · v + (1 − λ^⌊n⌋) · r² · interval / elapsed. Rounded up.
    /// @return newVarianceWad The variance after, WAD.
    /// @return returnWad |r|, WAD.
    function foldReturn(
        uint256 varianceWad,
        uint256 lambdaWad,
        uint256 lastPriceWad,
        uint256 priceWad,
        uint256 elapsedSec,
        uint256 intervalSec
    ) internal pure returns (uint256 newVarianceWad, uint256 returnWad) {
        uint256 diff = priceWad > lastPriceWad ? priceWad - lastPriceWad : lastPriceWad - priceWad;
        returnWad = Math.mulDiv(diff, WAD, lastPriceWad, Math.Rounding.Ceil);
        if (elapsedSec < intervalSec) elapsedSec = intervalSec;
        uint256 sample = Math.mulDiv(
            Math.mulDiv(returnWad, returnWad, WAD, Math.Rounding.Ceil),
            intervalSec,
            elapsedSec,
            Math.Rounding.Ceil
        );
        uint256 decay = powWadUp(lambdaWad, elapsedSec / intervalSec);
        newVarianceWad = Math.mulDiv(varianceWad * decay + (WAD - decay) * sample, 1, WAD, Math.Rounding.Ceil);
    }

    /// @notice σ = √v, WAD, rounded up.
    function sigmaOf(uint256 varianceWad) internal pure returns (uint256) {
        return Math.sqrt(varianceWad * WAD, Math.Rounding.Ceil);
    }
}
