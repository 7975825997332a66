// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FixedPointMath} from "./math/FixedPointMath.sol";

/// @title PerpMath
/// @notice Pure math of the perpetual: skew-based fill price, maker/taker fee, and the velocity funding model
///         integrated over one interval (IPerpMarket explains the model). Signed values are WAD unless named.
library PerpMath {
    int256 internal constant WAD = 1e18;
    /// @dev size (1e18) × index (1e18) / 1e30 = USDC (1e6).
    int256 internal constant SIZE_INDEX_TO_USDC = 1e30;
    int256 internal constant DAY = 1 days;

    /// @notice Fill price of a trade moving the skew from `skewCh` to `skewCh + deltaCh`:
    ///         index × (1 + (skew + skew') / (2 · skewScale)).
    /// @dev The premium and the price round against the trader (a buy up, a sell down), so splitting a trade into
    ///      pieces (whose exact costs telescope to the same total) can only cost more. Returns premium too.
    /// @return fillPriceWad The fill price (0 when the premium is ≤ −100 %: the caller reverts).
    /// @return premiumWad The signed premium.
    function fillPrice(
        uint256 indexPriceWad,
        int256 skewCh,
        int256 deltaCh,
        uint256 skewScaleCh
    ) internal pure returns (uint256 fillPriceWad, int256 premiumWad) {
        int256 num = (2 * skewCh + deltaCh) * WAD;
        int256 den = 2 * int256(skewScaleCh);
        premiumWad = deltaCh > 0 ? FixedPointMath.divUp(num, den) : FixedPointMath.divDown(num, den);
        if (premiumWad <= -WAD) return (0, premiumWad);
        uint256 factor = uint256(WAD + premiumWad);
        fillPriceWad =
            deltaCh > 0
                ? FixedPointMath.wadMulUp(indexPriceWad, factor)
                : FixedPointMath.wadMulDown(indexPriceWad, factor);
    }

    /// @notice The fee of a trade: the part reducing |skew| pays `makerBps`, the rest `takerBps`, on notional at
    ///         the fill price; rounded up.
    function feeUsdc(
        int256 skewCh,
        int256 deltaCh,
        uint256 fillPriceWad,
        uint256 makerBps,
        uint256 takerBps
    ) internal pure returns (uint256) {
        uint256 absDelta = FixedPointMath.abs(deltaCh);
        uint256 makerPart;
        if (skewCh != 0 && (skewCh > 0) != (deltaCh > 0)) {
            uint256 absSkew = FixedPointMath.abs(skewCh);
            makerPart = absDelta < absSkew ? absDelta : absSkew;
        }
        uint256 weighted = makerPart * makerBps + (absDelta - makerPart) * takerBps;
        // @dev Σ size·bps × price / (1e30 · 1e4): the fee is owed by the trader, so it rounds up.
        return FixedPointMath.mulDivUp(weighted, fillPriceWad, FixedPointMath.WAD_PRODUCT_TO_USDC * FixedPointMath.BPS);
    }

    /// @notice The funding rate and index after `dt` seconds at a constant skew.
    /// @dev r(t) = r0 + v·t / 1 day with v = clamp(skew / skewScale, −1, 1) × maxVelocity, |r| ≤ maxRate; r0 is
    ///      reset to 0 when its sign differs from the skew's (and r = 0 while the skew is 0), so the majority side
    ///      always pays (MKT-02). Δindex = ∫r dt / 1 day × index price, computed from twice the integral (exact for
    ///      the trapezoid) and truncated toward zero once; the crossing time of the bound truncates to a second.
    /// @return newIndexWad Funding index after.
    /// @return newRateWad Funding rate after.
    function accrue(
        int256 indexWad,
        int256 rateWad,
        uint256 dt,
        int256 skewCh,
        uint256 skewScaleCh,
        uint256 maxVelocityWad,
        uint256 maxRateWad,
        uint256 priceWad
    ) internal pure returns (int256 newIndexWad, int256 newRateWad) {
        if (skewCh == 0) return (indexWad, 0);
        if (rateWad != 0 && (rateWad > 0) != (skewCh > 0)) rateWad = 0;
        int256 bound = skewCh > 0 ? int256(maxRateWad) : -int256(maxRateWad);
        if (FixedPointMath.abs(rateWad) > maxRateWad) rateWad = bound;
        if (dt == 0) return (indexWad, rateWad);
        int256 s = (skewCh * WAD) / int256(skewScaleCh);
        if (s > WAD) s = WAD;
        if (s < -WAD) s = -WAD;
        int256 twiceIntegral;
        (twiceIntegral, newRateWad) = _integrate(rateWad, (s * int256(maxVelocityWad)) / WAD, int256(dt), bound);
        newIndexWad = indexWad + (twiceIntegral * int256(priceWad)) / (2 * DAY * WAD);
    }

    /// @dev Twice ∫r dt over [0, t] for r(τ) = r0 + v·τ / 1 day capped at `bound` (same sign as v), and r(t).
    function _integrate(int256 r0, int256 v, int256 t, int256 bound) private pure returns (int256, int256) {
        int256 rEnd = r0 + (v * t) / DAY;
        if (FixedPointMath.abs(rEnd) <= FixedPointMath.abs(bound)) return ((r0 + rEnd) * t, rEnd);
        // v ≠ 0 here: the rate moved past the bound within t
        int256 tHit = ((bound - r0) * DAY) / v;
        if (tHit > t) tHit = t;
        return ((r0 + bound) * tHit + 2 * bound * (t - tHit), bound);
    }

    /// @notice Funding an account owes for holding `sizeCh` from `fromIndexWad` to `toIndexWad`, USDC, rounded
    ///         toward +∞ (owed by a trader rounds up, owed to a trader rounds down; ACC-05).
    function fundingOwedUsdc(int256 sizeCh, int256 fromIndexWad, int256 toIndexWad) internal pure returns (int256) {
        if (sizeCh == 0 || fromIndexWad == toIndexWad) return 0;
        return FixedPointMath.divUp(sizeCh * (toIndexWad - fromIndexWad), SIZE_INDEX_TO_USDC);
    }
}
