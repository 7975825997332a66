// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FixedPointMath} from "./math/FixedPointMath.sol";

/// @title ClearingMath
/// @notice Conversions between CH sizes (WAD), prices (USDC per CH, WAD) and USDC amounts (6 decimals), and the
///         average-cost position update. The rounding direction is in every name and always favours the protocol
///         (ACC-05): values credited to a trader round down, costs and requirements round up. The primitives live
///         in FixedPointMath; these names are the clearing vocabulary its callers use.
library ClearingMath {
    /// @dev size (1e18) × price (1e18) / 1e30 = USDC (1e6).
    uint256 internal constant SIZE_PRICE_TO_USDC = FixedPointMath.WAD_PRODUCT_TO_USDC;
    uint256 internal constant WAD = FixedPointMath.WAD;

    /// @notice |size| × price in USDC, rounded up (notional for margin requirements).
    function notionalUsdcUp(uint256 absSizeCh, uint256 priceWad) internal pure returns (uint256) {
        return FixedPointMath.wadToUsdcUp(absSizeCh, priceWad);
    }

    /// @notice size × price in USDC, signed, rounded toward −∞ (a position's value credited to its holder).
    function valueUsdcDown(int256 sizeCh, uint256 priceWad) internal pure returns (int256) {
        return FixedPointMath.signedWadToUsdcDown(sizeCh, priceWad);
    }

    /// @notice size × price in USDC, signed, rounded toward +∞ (cost basis of a new position: a long pays more, a
    ///         short is credited less).
    function valueUsdcUp(int256 sizeCh, uint256 priceWad) internal pure returns (int256) {
        return FixedPointMath.signedWadToUsdcUp(sizeCh, priceWad);
    }

    /// @notice Applies a trade of `deltaCh` at `priceWad` to a position with average-cost accounting.
    /// @dev The closed part's cost basis is removed pro rata, rounded toward −∞ so the remaining basis stays on
    ///      the conservative side; realised PnL = closed value (rounded down) − removed basis. The opening part's
    ///      basis rounds up (valueUsdcUp).
    /// @return newSizeCh Size after.
    /// @return newOpenUsdc Cost basis after.
    /// @return realisedPnlUsdc PnL realised on the closed part.
    function applyTrade(
        int256 sizeCh,
        int256 openUsdc,
        int256 deltaCh,
        uint256 priceWad
    ) internal pure returns (int256 newSizeCh, int256 newOpenUsdc, int256 realisedPnlUsdc) {
        if (sizeCh == 0 || (sizeCh > 0) == (deltaCh > 0)) {
            return (sizeCh + deltaCh, openUsdc + valueUsdcUp(deltaCh, priceWad), 0);
        }
        uint256 absSize = FixedPointMath.abs(sizeCh);
        uint256 absDelta = FixedPointMath.abs(deltaCh);
        uint256 closeAbs = absDelta < absSize ? absDelta : absSize;
        int256 closedBasis;
        if (closeAbs == absSize) {
            closedBasis = openUsdc;
        } else {
            closedBasis = FixedPointMath.signedMulDivDown(openUsdc, closeAbs, absSize);
        }
        int256 closedSize = sizeCh > 0 ? int256(closeAbs) : -int256(closeAbs);
        realisedPnlUsdc = valueUsdcDown(closedSize, priceWad) - closedBasis;
        newSizeCh = sizeCh + deltaCh;
        newOpenUsdc = openUsdc - closedBasis;
        if (absDelta > absSize) newOpenUsdc = valueUsdcUp(newSizeCh, priceWad);
    }
}
