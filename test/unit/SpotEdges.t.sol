// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {SpotSolBase} from "../helpers/SpotSolBase.sol";
import {SpotMarket} from "../../contracts/core/markets/SpotMarket.sol";
import {ISpotMarket} from "../../contracts/interfaces/markets/ISpotMarket.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {SignedOrders} from "../../contracts/libraries/orders/SignedOrders.sol";
import {ISpotMarketErrors} from "../../contracts/interfaces/markets/ISpotMarketErrors.sol";
import {signDigest} from "../utils/Signatures.sol";

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
        assertEq(spot.orderState(sell.maker, sell.nonce, spot.orderDigest(sell)).filledCh, 0);
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
        vm.prank(taker);
        spot.settleDeal(deal, "", signDigest(MAKER_KEY, hash));
        vm.prank(maker);
        vm.expectRevert(abi.encodeWithSelector(ISpotMarketErrors.SpotDealSettled.selector, hash));
        spot.cancelDeal(deal);
        assertFalse(spot.dealState(hash).cancelled);
        assertEq(spot.dealState(hash).filledCh, 5e18);
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
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderInvalidAmount.selector, o.amountCh));
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

    /// @notice ACC-01: the market's USDC balance is its pending fee income, so USDC may not double as CH or the seat
    ///         token (seat stakes would otherwise be distributed as fees); CH and DPS must differ too.
    function test_init_rejectsRepeatedTokens() public {
        address impl = address(new SpotMarket());
        address authority = address(0xA0);
        address[3][3] memory sets = [
            [address(usdc), address(usdc), address(dps)],
            [address(ch), address(usdc), address(usdc)],
            [address(ch), address(usdc), address(ch)]
        ];
        address[3] memory repeated = [address(usdc), address(usdc), address(ch)];
        for (uint256 i = 0; i < 3; ++i) {
            vm.expectRevert(abi.encodeWithSelector(ISpotMarketErrors.SpotSameToken.selector, repeated[i]));
            new ERC1967Proxy(
                impl,
                abi.encodeCall(
                    SpotMarket.initialize,
                    (authority, sets[i][0], sets[i][1], sets[i][2], treasury, address(fund))
                )
            );
        }
    }

    /// @dev The digests come from a domain separator built from constant name/version hashes; it must equal the
    ///      ERC-5267 domain the SDK signs under and OpenZeppelin's `_domainSeparatorV4()`.
    function test_digests_useTheErc5267Domain() public view {
        (, string memory name, string memory version, uint256 chainId, address verifying, , ) = spot.eip712Domain();
        bytes32 domain = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256(bytes(name)),
                keccak256(bytes(version)),
                chainId,
                verifying
            )
        );
        assertEq(domain, spot.domainSeparator());
        ISpotMarket.Order memory o = _order(maker, false, taker);
        bytes32 orderHash = keccak256(
            abi.encode(
                keccak256(
                    "Order(address maker,bool isBuy,uint256 amountCh,uint256 priceWad,uint256 nonce,uint64 expiry,address taker)"
                ),
                o.maker,
                o.isBuy,
                o.amountCh,
                o.priceWad,
                o.nonce,
                o.expiry,
                o.taker
            )
        );
        assertEq(spot.orderDigest(o), keccak256(abi.encodePacked("\x19\x01", domain, orderHash)));
        ISpotMarket.Deal memory d = ISpotMarket.Deal(maker, other, 5e18, 2e18, 7, uint64(block.timestamp + 1));
        bytes32 dealHash = keccak256(
            abi.encode(
                keccak256(
                    "Deal(address seller,address buyer,uint256 amountCh,uint256 priceWad,uint256 nonce,uint64 expiry)"
                ),
                d.seller,
                d.buyer,
                d.amountCh,
                d.priceWad,
                d.nonce,
                d.expiry
            )
        );
        assertEq(spot.dealDigest(d), keccak256(abi.encodePacked("\x19\x01", domain, dealHash)));
    }

    /// @dev The has-tiers flag a fill reads instead of the tier word follows every `setSeatTiers`, including
    ///      clearing the tiers: a staker gets the discount while tiers exist and none after they are cleared.
    function test_seatTiers_setThenCleared_discountFollows() public {
        vm.prank(taker);
        spot.stakeSeat(1_000e18);
        assertEq(spot.seatDiscountBps(taker), 0);
        uint256[] memory minStake = new uint256[](1);
        uint256[] memory discount = new uint256[](1);
        minStake[0] = 100e18;
        discount[0] = 5_000;
        spot.setSeatTiers(minStake, discount);
        assertEq(spot.seatDiscountBps(taker), 5_000);
        spot.setSeatTiers(new uint256[](0), new uint256[](0));
        assertEq(spot.seatDiscountBps(taker), 0);
    }

    /// @dev The TWAP interval now lives in the TWAP's cursor word: `setTwapParams` must still govern when a fill
    ///      adds an observation (none inside the interval, one after it).
    function test_twapInterval_setByGovernance_governsObservations() public {
        spot.setTwapParams(1 hours, 0);
        ISpotMarket.Order memory o = _order(maker, false, address(0));
        o.amountCh = 100e18;
        bytes memory sig = _sign(MAKER_KEY, o);
        vm.startPrank(taker);
        spot.fillOrder(o, sig, 1e18);
        (, , uint256 count) = spot.twapState();
        assertEq(count, 1);
        vm.warp(block.timestamp + 30 minutes);
        spot.fillOrder(o, sig, 1e18);
        (, , count) = spot.twapState();
        assertEq(count, 1);
        vm.warp(block.timestamp + 31 minutes);
        spot.fillOrder(o, sig, 1e18);
        (, , count) = spot.twapState();
        assertEq(count, 2);
        vm.stopPrank();
    }
}
