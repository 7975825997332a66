// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FixedPointMath} from "./math/FixedPointMath.sol";

/// @title FuturesMath
/// @notice Pure maths of the FuturesMarket: the skew premium that converges to zero at expiry, average entry prices,
///         pro-rata delivery shares and the UTC calendar grid of standard expiries.
library FuturesMath {
    uint256 internal constant WAD = FixedPointMath.WAD;
    uint256 internal constant BPS = FixedPointMath.BPS;
    uint256 internal constant SIZE_PRICE_TO_USDC = FixedPointMath.WAD_PRODUCT_TO_USDC;

    /// @notice Premium over the index, WAD, signed: (skewSum / 2) / skewScale, capped at ±maxPremium, times
    ///         min(timeToExpiry, horizon) / horizon — zero at expiry (MKT-04).
    /// @param skewSumCh Trader skew before + after the trade (twice the mid skew), CH WAD, signed (+ net long).
    /// @param skewScaleCh Skew that moves the premium by 100 % at full horizon, CH WAD (> 0).
    /// @param maxPremiumBps Cap, bps (< 10,000).
    /// @param timeToExpirySec Seconds to expiry.
    /// @param horizonSec Horizon, seconds (> 0).
    /// @return p Signed premium, WAD.
    function premiumWad(
        int256 skewSumCh,
        uint256 skewScaleCh,
        uint256 maxPremiumBps,
        uint256 timeToExpirySec,
        uint256 horizonSec
    ) internal pure returns (int256 p) {
        int256 cap = int256(maxPremiumBps * 1e14);
        // @dev Rounds toward zero; the trade price itself is rounded against the trader in `seriesPrice`.
        p = (skewSumCh * int256(WAD)) / (2 * int256(skewScaleCh));
        if (p > cap) p = cap;
        else if (p < -cap) p = -cap;
        uint256 t = timeToExpirySec < horizonSec ? timeToExpirySec : horizonSec;
        p = (p * int256(t)) / int256(horizonSec);
    }

    /// @notice index × (1 + premium): rounded up for a buy, down for a sell (against the trader).
    /// @param indexWad Index, WAD.
    /// @param premium Signed premium, WAD (> −1).
    /// @param isBuy Whether the trader buys.
    /// @return priceWad The series price, WAD.
    function seriesPrice(uint256 indexWad, int256 premium, bool isBuy) internal pure returns (uint256 priceWad) {
        uint256 factor = uint256(int256(WAD) + premium);
        return isBuy ? FixedPointMath.wadMulUp(indexWad, factor) : FixedPointMath.wadMulDown(indexWad, factor);
    }

    /// @notice New average entry price after a trade of `deltaCh` at `priceWad` on a position of `sizeCh`.
    /// @dev Increases average by size (rounded down: the entry is informational, cash flows use the trade price);
    ///      reductions keep the entry; a flip starts at the trade price; a close resets to 0.
    function entryAfter(
        int256 sizeCh,
        uint256 entryWad,
        int256 deltaCh,
        uint256 priceWad
    ) internal pure returns (uint256) {
        int256 newSize = sizeCh + deltaCh;
        if (newSize == 0) return 0;
        if (sizeCh == 0 || (sizeCh > 0) == (deltaCh > 0)) {
            uint256 a = FixedPointMath.abs(sizeCh);
            uint256 d = FixedPointMath.abs(deltaCh);
            return (a * entryWad + d * priceWad) / (a + d);
        }
        if ((newSize > 0) == (sizeCh > 0)) return entryWad;
        return priceWad;
    }

    /// @notice `amountCh × priceWad` in USDC, rounded down.
    function usdcDown(uint256 amountCh, uint256 priceWad) internal pure returns (uint256) {
        return FixedPointMath.wadToUsdcDown(amountCh, priceWad);
    }

    /// @notice `amountCh × priceWad` in USDC, rounded up.
    function usdcUp(uint256 amountCh, uint256 priceWad) internal pure returns (uint256) {
        return FixedPointMath.wadToUsdcUp(amountCh, priceWad);
    }

    /// @notice Signed `sizeCh × priceWad` in USDC rounded toward −∞ (credits).
    function valueDown(int256 sizeCh, uint256 priceWad) internal pure returns (int256) {
        return FixedPointMath.signedWadToUsdcDown(sizeCh, priceWad);
    }

    /// @notice Signed `sizeCh × priceWad` in USDC rounded toward +∞ (costs).
    function valueUp(int256 sizeCh, uint256 priceWad) internal pure returns (int256) {
        return FixedPointMath.signedWadToUsdcUp(sizeCh, priceWad);
    }

    /// @notice A short's delivery assignment: ceil(base × deliverable / assignable) (an obligation rounds up).
    function assignment(uint256 baseCh, uint256 deliverableCh, uint256 assignableCh) internal pure returns (uint256) {
        if (deliverableCh == 0 || assignableCh == 0) return 0;
        return FixedPointMath.mulDivUp(baseCh, deliverableCh, assignableCh);
    }

    // ───────────────────────────── UTC calendar ─────────────────────────────

    /// @notice The next standard expiry strictly after `fromSec`: tenor 0 daily 00:00 UTC, 1 weekly Friday 00:00,
    ///         2 monthly the 1st 00:00, 3 quarterly 1 Jan/Apr/Jul/Oct 00:00.
    function nextExpiry(uint256 tenor, uint256 fromSec) internal pure returns (uint256) {
        uint256 day = fromSec / 1 days;
        if (tenor == 0) return (day + 1) * 1 days;
        if (tenor == 1) {
            // 1970-01-01 was a Thursday: (day + 3) % 7 is the weekday with Monday = 0; Friday = 4.
            uint256 toFriday = (4 + 7 - ((day + 3) % 7)) % 7;
            if (toFriday == 0) toFriday = 7;
            return (day + toFriday) * 1 days;
        }
        (uint256 y, uint256 m, ) = civilFromDays(day);
        uint256 nm = tenor == 2 ? m + 1 : ((m - 1) / 3 + 1) * 3 + 1;
        if (nm > 12) {
            nm -= 12;
            y += 1;
        }
        return daysFromCivil(y, nm, 1) * 1 days;
    }

    /// @notice Gregorian date of a day number since 1970-01-01 (H. Hinnant's civil_from_days, days ≥ 0).
    function civilFromDays(uint256 z) internal pure returns (uint256 y, uint256 m, uint256 d) {
        z += 719_468;
        uint256 era = z / 146_097;
        uint256 doe = z - era * 146_097;
        uint256 yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        y = yoe + era * 400;
        uint256 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        uint256 mp = (5 * doy + 2) / 153;
        d = doy - (153 * mp + 2) / 5 + 1;
        m = mp < 10 ? mp + 3 : mp - 9;
        if (m <= 2) y += 1;
    }

    /// @notice Day number since 1970-01-01 of a Gregorian date (H. Hinnant's days_from_civil, year ≥ 1970).
    function daysFromCivil(uint256 y, uint256 m, uint256 d) internal pure returns (uint256) {
        if (m <= 2) y -= 1;
        uint256 era = y / 400;
        uint256 yoe = y - era * 400;
        uint256 doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
        uint256 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }
}
