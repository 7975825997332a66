// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title FixedPointMath
/// @notice The protocol's arithmetic primitives, each defined once and each naming its rounding direction:
///         `Down` rounds toward zero for unsigned results and toward −∞ for signed ones, `Up` toward +∞, `Exact`
///         cannot round. Units: WAD (1e18) for sizes in CH, prices, rates and ratios; USDC has 6 decimals, so
///         sizeWad × priceWad / 1e30 is a USDC amount and a USDC amount × 1e12 is the same value in WAD.
/// @dev Callers pick the direction that favours the protocol (ACC-05): what a trader pays or owes, a requirement
///      or an obligation rounds up; what a trader is credited or receives rounds down. Every full-precision product
///      goes through `_mulDivDown` / `_mulDivUp`: one 256-bit product when it cannot wrap, else OpenZeppelin's
///      512-bit `Math.mulDiv`, so no intermediate overflows before the final result (the same result either way).
library FixedPointMath {
    /// @notice 1.0 in WAD.
    uint256 internal constant WAD = 1e18;
    /// @notice sizeWad (1e18) × priceWad (1e18) / WAD_PRODUCT_TO_USDC = USDC (1e6).
    uint256 internal constant WAD_PRODUCT_TO_USDC = 1e30;
    /// @notice USDC (1e6) × USDC_TO_WAD = the same value in WAD (1e18).
    uint256 internal constant USDC_TO_WAD = 1e12;
    /// @notice 100 % in basis points.
    uint256 internal constant BPS = 10_000;

    // ───────────────────────────── unsigned ─────────────────────────────

    /// @notice a × b / d, rounded down (full precision).
    function mulDivDown(uint256 a, uint256 b, uint256 d) internal pure returns (uint256) {
        return _mulDivDown(a, b, d);
    }

    /// @notice a × b / d, rounded up (full precision).
    function mulDivUp(uint256 a, uint256 b, uint256 d) internal pure returns (uint256) {
        return _mulDivUp(a, b, d);
    }

    /// @notice a × b / 1e18, rounded down.
    function wadMulDown(uint256 a, uint256 b) internal pure returns (uint256) {
        return _mulDivDown(a, b, WAD);
    }

    /// @notice a × b / 1e18, rounded up.
    function wadMulUp(uint256 a, uint256 b) internal pure returns (uint256) {
        return _mulDivUp(a, b, WAD);
    }

    /// @notice sizeWad × priceWad in USDC (÷ 1e30), rounded down: what a receiver is credited.
    function wadToUsdcDown(uint256 sizeWad, uint256 priceWad) internal pure returns (uint256) {
        return _mulDivDown(sizeWad, priceWad, WAD_PRODUCT_TO_USDC);
    }

    /// @notice sizeWad × priceWad in USDC (÷ 1e30), rounded up: what a payer pays, a notional for a requirement.
    function wadToUsdcUp(uint256 sizeWad, uint256 priceWad) internal pure returns (uint256) {
        return _mulDivUp(sizeWad, priceWad, WAD_PRODUCT_TO_USDC);
    }

    /// @notice A USDC amount (1e6) in WAD (× 1e12): exact.
    function usdcToWadExact(uint256 amountUsdc) internal pure returns (uint256) {
        return amountUsdc * USDC_TO_WAD;
    }

    /// @notice amount × bps / 10,000, rounded down.
    function bpsDown(uint256 amount, uint256 bps) internal pure returns (uint256) {
        return (amount * bps) / BPS;
    }

    /// @notice amount × bps / 10,000, rounded up.
    function bpsUp(uint256 amount, uint256 bps) internal pure returns (uint256) {
        return _mulDivUp(amount, bps, BPS);
    }

    // ───────────────────────────── signed ─────────────────────────────

    /// @notice |x|; reverts (checked negation) on type(int256).min.
    function abs(int256 x) internal pure returns (uint256) {
        return x >= 0 ? uint256(x) : uint256(-x);
    }

    /// @notice a / b rounded toward −∞ (b ≠ 0).
    function divDown(int256 a, int256 b) internal pure returns (int256 q) {
        q = a / b;
        if (a % b != 0 && (a > 0) != (b > 0)) q -= 1;
    }

    /// @notice a / b rounded toward +∞ (b ≠ 0).
    function divUp(int256 a, int256 b) internal pure returns (int256 q) {
        q = a / b;
        if (a % b != 0 && (a > 0) == (b > 0)) q += 1;
    }

    /// @notice Signed sizeWad × priceWad in USDC, rounded toward −∞ (a value credited to its holder).
    function signedWadToUsdcDown(int256 sizeWad, uint256 priceWad) internal pure returns (int256) {
        // @dev calls the private helpers directly (no nested hop: these sit on the perp and clearing hot paths)
        if (sizeWad >= 0) return int256(_mulDivDown(uint256(sizeWad), priceWad, WAD_PRODUCT_TO_USDC));
        return -int256(_mulDivUp(uint256(-sizeWad), priceWad, WAD_PRODUCT_TO_USDC));
    }

    /// @notice Signed sizeWad × priceWad in USDC, rounded toward +∞ (a cost: a long pays more, a short is credited
    ///         less).
    function signedWadToUsdcUp(int256 sizeWad, uint256 priceWad) internal pure returns (int256) {
        if (sizeWad >= 0) return int256(_mulDivUp(uint256(sizeWad), priceWad, WAD_PRODUCT_TO_USDC));
        return -int256(_mulDivDown(uint256(-sizeWad), priceWad, WAD_PRODUCT_TO_USDC));
    }

    /// @notice Signed x × n / d with n, d > 0, rounded toward −∞ (full precision on |x| × n).
    function signedMulDivDown(int256 x, uint256 n, uint256 d) internal pure returns (int256) {
        if (x >= 0) return int256(_mulDivDown(uint256(x), n, d));
        return -int256(_mulDivUp(uint256(-x), n, d));
    }

    // ───────────────────────────── the product ─────────────────────────────

    /// @dev a × b / d rounded down. When a × b fits 256 bits (a = 0, or the wrapped product divided by a gives b back)
    ///      and d ≠ 0, the quotient of the one product is exactly Math.mulDiv's (a few dozen gas instead of a few
    ///      hundred); otherwise Math.mulDiv itself, which computes the 512-bit product and reverts as before (Panic
    ///      0x12 on d = 0, 0x11 when the quotient exceeds 256 bits).
    function _mulDivDown(uint256 a, uint256 b, uint256 d) private pure returns (uint256 q) {
        bool fits;
        assembly ("memory-safe") {
            let p := mul(a, b)
            fits := and(gt(d, 0), or(iszero(a), eq(div(p, a), b)))
            q := div(p, d)
        }
        if (!fits) q = Math.mulDiv(a, b, d);
    }

    /// @dev a × b / d rounded up (toward +∞): the quotient rounded down plus one when the exact remainder is not
    ///      zero, which is how Math.mulDiv rounds up. Fast path as `_mulDivDown` (q + 1 cannot wrap: a remainder means
    ///      d ≥ 2); else Math.mulDiv and the 512-bit remainder (`mulmod`), checked, reverting where Math.mulDiv does.
    function _mulDivUp(uint256 a, uint256 b, uint256 d) private pure returns (uint256 q) {
        bool fits;
        assembly ("memory-safe") {
            let p := mul(a, b)
            fits := and(gt(d, 0), or(iszero(a), eq(div(p, a), b)))
            q := add(div(p, d), gt(mod(p, d), 0))
        }
        if (!fits) {
            q = Math.mulDiv(a, b, d);
            if (mulmod(a, b, d) != 0) ++q;
        }
    }
}
