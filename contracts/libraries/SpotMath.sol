// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FixedPointMath} from "./math/FixedPointMath.sol";

/// @title SpotMath
/// @notice The one place where the spot market converts CH (18 decimals) at a WAD price into USDC (6 decimals),
///         and computes fees. Rounding direction is in every name and always favours the protocol (ACC-05).
library SpotMath {
    /// @dev amountCh (1e18) · priceWad (1e18) / 1e30 = USDC (1e6).
    uint256 internal constant CH_WAD_TO_USDC = FixedPointMath.WAD_PRODUCT_TO_USDC;
    uint256 internal constant BPS = FixedPointMath.BPS;

    /// @notice USDC owed for `amountCh` CH at `priceWad`, rounded up: what a payer pays.
    /// @dev Rounds up so a buyer never pays less than the exact quote.
    function quoteUsdcUp(uint256 amountCh, uint256 priceWad) internal pure returns (uint256) {
        // @dev both operands below 2^128 (every fill: amounts are bounded by 2^128): the product cannot overflow and
        //      adding the divisor − 1 (< 2^100) neither, so plain arithmetic gives the same result as the 512-bit
        //      mulDiv at a fraction of its cost
        if ((amountCh | priceWad) >> 128 == 0) {
            unchecked {
                return (amountCh * priceWad + (CH_WAD_TO_USDC - 1)) / CH_WAD_TO_USDC;
            }
        }
        return FixedPointMath.wadToUsdcUp(amountCh, priceWad);
    }

    /// @notice USDC due for `amountCh` CH at `priceWad`, rounded down: what a receiver gets.
    /// @dev Rounds down so a seller never receives more than the exact quote.
    function quoteUsdcDown(uint256 amountCh, uint256 priceWad) internal pure returns (uint256) {
        // @dev the same exact fast path as `quoteUsdcUp`
        if ((amountCh | priceWad) >> 128 == 0) {
            unchecked {
                return (amountCh * priceWad) / CH_WAD_TO_USDC;
            }
        }
        return FixedPointMath.wadToUsdcDown(amountCh, priceWad);
    }

    /// @notice Fee on `quoteUsdc` at `feeBps` less a seat discount of `discountBps` (of the fee), rounded up.
    /// @dev fee = ceil(quote · feeBps · (10,000 − discountBps) / 1e8): a debt to the protocol rounds up.
    function feeUsdcUp(uint256 quoteUsdc, uint256 feeBps, uint256 discountBps) internal pure returns (uint256) {
        uint256 rate = feeBps * (BPS - discountBps);
        // @dev exact fast path when nothing can overflow (quote and rate below 2^128; BPS² − 1 < 2^27)
        if ((quoteUsdc | rate) >> 128 == 0) {
            unchecked {
                return (quoteUsdc * rate + (BPS * BPS - 1)) / (BPS * BPS);
            }
        }
        return FixedPointMath.mulDivUp(quoteUsdc, rate, BPS * BPS);
    }

    /// @notice `amount · bps / 10,000`, rounded down (the insurance share of fee income; the rest is the treasury's).
    function bpsDown(uint256 amount, uint256 bps) internal pure returns (uint256) {
        return FixedPointMath.bpsDown(amount, bps);
    }
}
