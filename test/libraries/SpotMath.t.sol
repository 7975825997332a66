// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {SpotMath} from "../../contracts/libraries/SpotMath.sol";

/// @notice SpotMath against plain-arithmetic references (inputs bounded so the reference cannot overflow): a payer's
///         quote rounds up, a receiver's down, the fee up, the insurance share down (ACC-05).
contract SpotMathTest is Test {
    function testFuzz_quotes_matchReference(uint256 amountCh, uint256 priceWad) public pure {
        amountCh = bound(amountCh, 0, 1e30);
        priceWad = bound(priceWad, 0, 1e30);
        uint256 p = amountCh * priceWad;
        assertEq(SpotMath.quoteUsdcDown(amountCh, priceWad), p / 1e30);
        assertEq(SpotMath.quoteUsdcUp(amountCh, priceWad), (p + 1e30 - 1) / 1e30);
    }

    /// @dev A buyer (up) never pays less than a seller (down) receives for the same fill, and at most 1 wei more.
    function testFuzz_quotes_payerCoversReceiver(uint256 amountCh, uint256 priceWad) public pure {
        amountCh = bound(amountCh, 0, type(uint128).max);
        priceWad = bound(priceWad, 0, type(uint128).max);
        uint256 up = SpotMath.quoteUsdcUp(amountCh, priceWad);
        uint256 down = SpotMath.quoteUsdcDown(amountCh, priceWad);
        assertGe(up, down);
        assertLe(up - down, 1);
    }

    function testFuzz_fee_matchesReference(uint256 quote, uint256 feeBps, uint256 discountBps) public pure {
        quote = bound(quote, 0, 1e30);
        feeBps = bound(feeBps, 0, 10_000);
        discountBps = bound(discountBps, 0, 10_000);
        uint256 num = quote * feeBps * (10_000 - discountBps);
        assertEq(SpotMath.feeUsdcUp(quote, feeBps, discountBps), (num + 1e8 - 1) / 1e8);
    }

    function testFuzz_bpsDown_matchesReference(uint256 amount, uint256 bps) public pure {
        amount = bound(amount, 0, 1e60);
        bps = bound(bps, 0, 10_000);
        assertEq(SpotMath.bpsDown(amount, bps), (amount * bps) / 10_000);
        // the two shares of a split never exceed the whole
        assertLe(SpotMath.bpsDown(amount, bps) + SpotMath.bpsDown(amount, 10_000 - bps), amount);
    }

    function test_worked() public pure {
        // 2.5 CH at 1.3333333 USDC/CH = 3.33333325 USDC
        assertEq(SpotMath.quoteUsdcDown(2.5e18, 1.3333333e18), 3_333_333);
        assertEq(SpotMath.quoteUsdcUp(2.5e18, 1.3333333e18), 3_333_334);
        // fee 30 bps on 1,000 USDC with a 50 % seat discount = 1.5 USDC
        assertEq(SpotMath.feeUsdcUp(1_000e6, 30, 5_000), 1.5e6);
        // 1 wei of quote at any positive fee costs 1 wei (rounds up)
        assertEq(SpotMath.feeUsdcUp(1, 1, 0), 1);
        assertEq(SpotMath.feeUsdcUp(1, 1, 10_000), 0); // full discount: no fee
    }
}
