// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {SpotSolBase} from "../helpers/SpotSolBase.sol";
import {SpotMarket} from "../../contracts/core/markets/SpotMarket.sol";
import {ISpotMarket} from "../../contracts/interfaces/ISpotMarket.sol";
import {IChxModule} from "../../contracts/interfaces/IChxModule.sol";
import {ISpotMarketErrors} from "../../contracts/interfaces/ISpotMarketErrors.sol";

/// @notice Edge paths of SpotMarket: private orders matched by someone else, cancelling a settled deal, fee-free
///         fills, oversized amounts and the governance setters' bounds and zero-address guards.
contract SpotEdgesTest is SpotSolBase {
    uint256 internal constant MAKER_KEY = 0xA11CE;
    uint256 internal constant OTHER_KEY = 0xB0B;
    address internal maker;
    address internal other;
    address internal taker = makeAddr("taker");

    function setUp() public {
        _deploySpot();
        maker = vm.addr(MAKER_KEY);
        other = vm.addr(OTHER_KEY);
        _fund(maker);
        _fund(other);
        _fund(taker);
    }

    function _order(address who, bool isBuy, address onlyTaker) internal view returns (ISpotMarket.Order memory) {
        return
            ISpotMarket.Order({
                maker: who,
                isBuy: isBuy,
                amountCh: 10e18,
                priceWad: 2e18,
                nonce: 1,
                expiry: uint64(block.timestamp + 1 days),
                taker: onlyTaker
            });
    }

    function test_match_privateOrdersOnlyByTheirTaker() public {
        address named = makeAddr("named");
        ISpotMarket.Order memory buy = _order(maker, true, named);
        ISpotMarket.Order memory sell = _order(other, false, address(0));
        bytes memory buySig = _sign(MAKER_KEY, buy);
        bytes memory sellSig = _sign(OTHER_KEY, sell);
        bytes memory err = abi.encodeWithSelector(
            ISpotMarketErrors.SpotTakerNotAllowed.selector,
            spot.orderDigest(buy),
            taker,
            named
        );
        vm.prank(taker);
        vm.expectRevert(err);
        spot.matchOrders(buy, buySig, sell, sellSig, 1e18);
        buy = _order(maker, true, address(0));
        sell = _order(other, false, named);
        buySig = _sign(MAKER_KEY, buy);
        sellSig = _sign(OTHER_KEY, sell);
        err = abi.encodeWithSelector(
            ISpotMarketErrors.SpotTakerNotAllowed.selector,
            spot.orderDigest(sell),
            taker,
            named
        );
        vm.prank(taker);
        vm.expectRevert(err);
        spot.matchOrders(buy, buySig, sell, sellSig, 1e18);
        assertEq(spot.orderState(spot.orderDigest(sell)).filledCh, 0);
    }

    function test_deal_cannotBeCancelledOnceSettled() public {
        ISpotMarket.Deal memory deal = ISpotMarket.Deal({
            seller: taker,
            buyer: maker,
            amountCh: 5e18,
            priceWad: 2e18,
            nonce: 7,
            expiry: uint64(block.timestamp + 1 days)
        });
        bytes32 hash = spot.dealDigest(deal);
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(MAKER_KEY, hash);
        vm.prank(taker);
        spot.settleDeal(deal, "", abi.encodePacked(r, s, v));
        vm.prank(maker);
        vm.expectRevert(abi.encodeWithSelector(ISpotMarketErrors.SpotDealSettled.selector, hash));
        spot.cancelDeal(deal);
        assertFalse(spot.orderState(hash).cancelled);
        assertEq(spot.orderState(hash).filledCh, 5e18);
    }

    function test_fill_withoutFeesAccruesNothing() public {
        spot.setFees(0, 0, 5_000);
        ISpotMarket.Order memory o = _order(maker, false, address(0));
        bytes memory sig = _sign(MAKER_KEY, o);
        uint256 before = usdc.balanceOf(maker);
        vm.prank(taker);
        spot.fillOrder(o, sig, 10e18);
        assertEq(spot.pendingFeesUsdc(), 0);
        assertEq(usdc.balanceOf(maker) - before, 20e6); // 10 CH × 2 USDC, no fee
    }

    function test_fill_amountBeyondPackedRangeRejected() public {
        ISpotMarket.Order memory o = _order(maker, false, address(0));
        o.amountCh = uint256(type(uint128).max) + 1;
        bytes memory sig = _sign(MAKER_KEY, o);
        vm.prank(taker);
        vm.expectRevert(abi.encodeWithSelector(ISpotMarketErrors.SpotInvalidAmount.selector, o.amountCh));
        spot.fillOrder(o, sig, 1e18);
    }

    function test_setters_bounds() public {
        vm.expectRevert(abi.encodeWithSelector(ISpotMarketErrors.SpotBpsTooHigh.selector, 101, 100));
        spot.setFees(0, 101, 0);
        uint256 big = uint256(type(uint80).max) + 1;
        vm.expectRevert(abi.encodeWithSelector(ISpotMarketErrors.SpotInvalidAmount.selector, big));
        spot.setTwapParams(1 hours, uint128(big));
        vm.expectRevert(IChxModule.ChxZeroAddress.selector);
        spot.setFeeRecipients(address(0), address(fund));
        vm.expectRevert(IChxModule.ChxZeroAddress.selector);
        spot.setFeeRecipients(treasury, address(0));
        (uint256 makerFeeBps, uint256 takerFeeBps, ) = spot.fees();
        assertLe(makerFeeBps, 100);
        assertLe(takerFeeBps, 100);
    }

    function test_init_rejectsZeroTokens() public {
        address impl = address(new SpotMarket());
        address authority = address(0xA0);
        vm.expectRevert(IChxModule.ChxZeroAddress.selector);
        new ERC1967Proxy(
            impl,
            abi.encodeCall(
                SpotMarket.initialize,
                (authority, address(ch), address(usdc), address(0), treasury, address(fund))
            )
        );
    }
}
