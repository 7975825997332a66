// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SpotSolBase} from "../helpers/SpotSolBase.sol";
import {ISpotMarket} from "../../contracts/interfaces/markets/ISpotMarket.sol";
import {ISpotMarketErrors} from "../../contracts/interfaces/markets/ISpotMarketErrors.sol";
import {SignedOrders} from "../../contracts/libraries/orders/SignedOrders.sol";

/// @notice Fuzzed settlement arithmetic (ACC-05, ACC-01) and replay across a real chain-id change (SEC-03).
contract SpotUnitTest is SpotSolBase {
    uint256 internal constant MAKER_KEY = 0xA11CE;
    address internal maker;
    address internal taker = makeAddr("taker");

    function setUp() public {
        _deploySpot();
        maker = vm.addr(MAKER_KEY);
        _fund(maker);
        _fund(taker);
    }

    function _order(bool isBuy, uint256 amountCh, uint256 priceWad) internal view returns (ISpotMarket.Order memory) {
        return
            ISpotMarket.Order({
                maker: maker,
                isBuy: isBuy,
                amountCh: amountCh,
                priceWad: priceWad,
                nonce: 1,
                expiry: uint64(block.timestamp + 1 days),
                taker: address(0)
            });
    }

    /// @notice ACC-05/ACC-01: the buyer pays at least the exact quote, the seller receives at most it, and every
    ///         USDC unit the buyer pays lands with the seller or the market (nothing created or lost).
    function testFuzz_fill_roundsForProtocolAndConserves(uint256 amountCh, uint256 priceWad, bool isBuy) public {
        amountCh = bound(amountCh, 1e12, 1_000_000e18);
        priceWad = bound(priceWad, 1e15, 1_000e18);
        ISpotMarket.Order memory o = _order(isBuy, amountCh, priceWad);
        bytes memory sig = _sign(MAKER_KEY, o);
        (address buyer, address seller) = isBuy ? (maker, taker) : (taker, maker);
        uint256 buyerBefore = usdc.balanceOf(buyer);
        uint256 sellerBefore = usdc.balanceOf(seller);
        vm.prank(taker);
        try spot.fillOrder(o, sig, amountCh) {
            uint256 paid = buyerBefore - usdc.balanceOf(buyer);
            uint256 received = usdc.balanceOf(seller) - sellerBefore;
            // exact quote in 1e-36 USDC units: amount·price; paid·1e30 ≥ it ≥ received·1e30
            assertGe(paid * 1e30, amountCh * priceWad, "buyer paid less than the quote");
            assertLe(received * 1e30, amountCh * priceWad, "seller got more than the quote");
            assertEq(paid, received + usdc.balanceOf(address(spot)), "USDC conservation");
            assertEq(usdc.balanceOf(address(spot)), spot.pendingFeesUsdc(), "ledger");
            assertEq(ch.balanceOf(address(spot)), 0, "market holds CH");
        } catch (bytes memory err) {
            // only a dust fill (seller would get nothing) may fail
            assertEq(bytes4(err), ISpotMarketErrors.SpotFillTooSmall.selector);
        }
    }

    /// @notice MKT-06: two fills together never exceed the order's amount.
    function testFuzz_partialFills_neverExceedAmount(uint256 first, uint256 second) public {
        ISpotMarket.Order memory o = _order(false, 100e18, 2e18);
        bytes memory sig = _sign(MAKER_KEY, o);
        first = bound(first, 1e15, 100e18);
        second = bound(second, 1e15, 200e18);
        vm.startPrank(taker);
        spot.fillOrder(o, sig, first);
        if (first + second > 100e18) {
            vm.expectRevert(
                abi.encodeWithSelector(
                    SignedOrders.SignedOrderOverfill.selector,
                    spot.orderDigest(o),
                    second,
                    100e18 - first
                )
            );
        }
        spot.fillOrder(o, sig, second);
        vm.stopPrank();
        assertLe(spot.orderState(o.maker, o.nonce, spot.orderDigest(o)).filledCh, 100e18);
    }

    /// @notice SEC-03: after a fork to another chain id the same signed order no longer verifies.
    function test_fill_revertsAfterChainIdChange() public {
        ISpotMarket.Order memory o = _order(false, 10e18, 2e18);
        bytes memory sig = _sign(MAKER_KEY, o);
        vm.chainId(block.chainid + 1);
        bytes32 digest = spot.orderDigest(o);
        vm.prank(taker);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderInvalidSignature.selector, maker, digest));
        spot.fillOrder(o, sig, 1e18);
    }
}
