// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SpotSolBase} from "../helpers/SpotSolBase.sol";
import {ISpotMarket} from "../../contracts/interfaces/markets/ISpotMarket.sol";
import {Vm} from "forge-std/Vm.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {ISpotMarketEvents} from "../../contracts/interfaces/markets/ISpotMarketEvents.sol";
import {SignedOrders} from "../../contracts/libraries/orders/SignedOrders.sol";

/// @notice Attacks on the fill path of the spot market (issue 18 item 4, round 37 gas pass; docs/spot.md "Gas"):
///         replay after a partial fill, a cancel between partial fills, a second account racing the maker's
///         minimum-nonce raise, a paused token under a fill, and fee accounting across partial fills.
///         MKT-06 (never beyond the amount, after a cancel, below the minimum nonce), SEC-03 (replay), ACC-01
///         (conservation: the market holds exactly its pending fee income), ACC-05 (rounding for the protocol).
contract SpotFillAttacksTest is SpotSolBase {
    uint256 internal constant MAKER_KEY = 0xA11CE;
    uint256 internal constant MAKER2_KEY = 0xB0B;
    address internal maker;
    address internal maker2;
    address internal taker = makeAddr("taker");
    address internal taker2 = makeAddr("taker2");
    address internal matcher = makeAddr("matcher");

    function setUp() public {
        _deploySpot();
        maker = vm.addr(MAKER_KEY);
        maker2 = vm.addr(MAKER2_KEY);
        _fund(maker);
        _fund(maker2);
        _fund(taker);
        _fund(taker2);
        _fund(matcher);
    }

    function _order(
        address who,
        bool isBuy,
        uint256 nonce,
        uint256 amountCh,
        uint256 priceWad
    ) internal view returns (ISpotMarket.Order memory) {
        return
            ISpotMarket.Order({
                maker: who,
                isBuy: isBuy,
                amountCh: amountCh,
                priceWad: priceWad,
                nonce: nonce,
                expiry: uint64(block.timestamp + 1 days),
                taker: address(0)
            });
    }

    function _filled(ISpotMarket.Order memory o) internal view returns (uint256) {
        return spot.orderState(o.maker, o.nonce, spot.orderDigest(o)).filledCh;
    }

    /// @notice SEC-03 / MKT-06: after a partial fill the same signature, replayed by a second account, fills only
    ///         what is left; an order with altered terms on the same signature and nonce is refused (another digest:
    ///         NonceUsed, it never reaches a fill); once the rest is filled every replay reverts Overfill.
    function test_replayAfterPartialFill_fillsOnlyTheRest_MKT06_SEC03() public {
        ISpotMarket.Order memory o = _order(maker, false, 1, 10e18, 2e18);
        bytes memory sig = _sign(MAKER_KEY, o);
        bytes32 hash = spot.orderDigest(o);
        vm.prank(taker);
        spot.fillOrder(o, sig, 4e18);
        // replay beyond what is left
        vm.prank(taker2);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderOverfill.selector, hash, 7e18, 6e18));
        spot.fillOrder(o, sig, 7e18);
        // the maker's signature on altered terms (a larger amount, a lower price): another digest on a claimed nonce
        ISpotMarket.Order memory bigger = _order(maker, false, 1, 100e18, 2e18);
        vm.prank(taker2);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, 1));
        spot.fillOrder(bigger, sig, 1e18);
        ISpotMarket.Order memory cheaper = _order(maker, false, 1, 10e18, 1e18);
        vm.prank(taker2);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceUsed.selector, maker, 1));
        spot.fillOrder(cheaper, sig, 1e18);
        // the rest, by the second account, then nothing more
        uint256 chBefore = ch.balanceOf(taker2);
        vm.prank(taker2);
        spot.fillOrder(o, sig, 6e18);
        assertEq(ch.balanceOf(taker2) - chBefore, 6e18);
        assertEq(_filled(o), 10e18);
        vm.prank(taker);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderOverfill.selector, hash, 1, 0));
        spot.fillOrder(o, sig, 1);
        assertEq(ch.balanceOf(maker), 1e30 - 10e18, "the maker sold exactly its amount");
    }

    /// @notice MKT-06: a cancel between two partial fills (in a match, the second fill is on the other side) stops
    ///         every later fill and match; the fills before it stand and the books balance (ACC-01).
    function test_cancelBetweenPartialFills_stopsFillsAndMatches_MKT06() public {
        ISpotMarket.Order memory sell = _order(maker, false, 1, 10e18, 2e18);
        bytes memory sellSig = _sign(MAKER_KEY, sell);
        bytes32 sellHash = spot.orderDigest(sell);
        ISpotMarket.Order memory buy = _order(maker2, true, 1, 10e18, 3e18);
        bytes memory buySig = _sign(MAKER2_KEY, buy);
        vm.prank(taker);
        spot.fillOrder(sell, sellSig, 2e18);
        vm.prank(matcher);
        spot.matchOrders(buy, buySig, sell, sellSig, 3e18);
        vm.prank(maker);
        spot.cancelOrder(sell);
        vm.prank(taker2);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderCancelled.selector, sellHash));
        spot.fillOrder(sell, sellSig, 1e18);
        vm.prank(matcher);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderCancelled.selector, sellHash));
        spot.matchOrders(buy, buySig, sell, sellSig, 1e18);
        assertEq(_filled(sell), 5e18);
        assertEq(_filled(buy), 3e18, "the buy side keeps its fill and stays open");
        assertEq(usdc.balanceOf(address(spot)), spot.pendingFeesUsdc(), "ACC-01");
    }

    /// @notice MKT-06: a second account's fill ordered after the maker's minimum-nonce raise (same block) reverts,
    ///         for a fresh order and for the rest of a partly filled one, in a fill and in a match; an order at the
    ///         new minimum still fills. Nothing moves for the voided orders.
    function test_fillRacingMinNonceRaise_voided_MKT06() public {
        ISpotMarket.Order memory partly = _order(maker, false, 5, 10e18, 2e18);
        bytes memory partlySig = _sign(MAKER_KEY, partly);
        ISpotMarket.Order memory fresh = _order(maker, false, 6, 10e18, 2e18);
        bytes memory freshSig = _sign(MAKER_KEY, fresh);
        ISpotMarket.Order memory atMin = _order(maker, false, 7, 10e18, 2e18);
        bytes memory atMinSig = _sign(MAKER_KEY, atMin);
        ISpotMarket.Order memory buy = _order(maker2, true, 1, 10e18, 3e18);
        bytes memory buySig = _sign(MAKER2_KEY, buy);
        vm.prank(taker);
        spot.fillOrder(partly, partlySig, 1e18);
        // the maker's raise lands first in the block
        vm.prank(maker);
        spot.raiseMinNonce(7);
        uint256 makerCh = ch.balanceOf(maker);
        uint256 pending = spot.pendingFeesUsdc();
        vm.prank(taker2);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceBelowMinimum.selector, maker, 5, 7));
        spot.fillOrder(partly, partlySig, 1e18);
        vm.prank(taker2);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceBelowMinimum.selector, maker, 6, 7));
        spot.fillOrder(fresh, freshSig, 1e18);
        vm.prank(matcher);
        vm.expectRevert(abi.encodeWithSelector(SignedOrders.SignedOrderNonceBelowMinimum.selector, maker, 6, 7));
        spot.matchOrders(buy, buySig, fresh, freshSig, 1e18);
        assertEq(ch.balanceOf(maker), makerCh);
        assertEq(spot.pendingFeesUsdc(), pending);
        assertFalse(spot.nonceUsed(maker, 6), "a voided order claims nothing");
        vm.prank(taker2);
        spot.fillOrder(atMin, atMinSig, 1e18);
        assertEq(_filled(atMin), 1e18);
    }

    /// @notice A paused neighbour: when a token refuses transfers (paused CH or USDC) the whole fill reverts — no
    ///         order record, no fee income, no TWAP move — and the order fills normally once the token works again.
    function test_pausedToken_revertsWholeFill() public {
        ISpotMarket.Order memory o = _order(maker, false, 3, 10e18, 2e18);
        bytes memory sig = _sign(MAKER_KEY, o);
        ISpotMarket.Order memory first = _order(maker, false, 2, 1e18, 2e18);
        bytes memory firstSig = _sign(MAKER_KEY, first);
        vm.prank(taker);
        spot.fillOrder(first, firstSig, 1e18); // TWAP initialised, some fee income
        uint256 pending = spot.pendingFeesUsdc();
        (uint256 lastPrice, , uint256 count) = spot.twapState();
        address[2] memory tokens = [address(ch), address(usdc)];
        for (uint256 i = 0; i < 2; ++i) {
            vm.mockCallRevert(tokens[i], abi.encodeWithSelector(IERC20.transferFrom.selector), bytes("paused"));
            vm.prank(taker);
            vm.expectRevert(bytes("paused"));
            spot.fillOrder(o, sig, 4e18);
            vm.clearMockedCalls();
            assertFalse(spot.nonceUsed(maker, 3), "no record");
            assertEq(spot.pendingFeesUsdc(), pending, "no fee income");
            (uint256 p, , uint256 c) = spot.twapState();
            assertEq(p, lastPrice);
            assertEq(c, count);
        }
        // the market's own pause flag: same, and it does not block the maker's cancel path
        bytes32 feature = spot.FEATURE_TRADE();
        spot.pauseFeature(feature);
        vm.prank(taker);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, feature));
        spot.fillOrder(o, sig, 4e18);
        spot.unpauseFeature(feature);
        vm.prank(taker);
        spot.fillOrder(o, sig, 4e18);
        assertEq(_filled(o), 4e18);
        assertEq(usdc.balanceOf(address(spot)), spot.pendingFeesUsdc(), "ACC-01");
    }

    /// @notice ACC-01 / ACC-05: fee accounting is exact across odd partial fills and a match — every USDC unit the
    ///         buyers pay reaches a seller, the matcher or the market, the market's balance equals its pending fee
    ///         income, and a distribution pays out exactly that (no dust created or lost).
    function test_feeAccountingExactAcrossPartialFills_ACC01() public {
        ISpotMarket.Order memory sell = _order(maker, false, 1, 10e18, 1.333333333333333333e18);
        bytes memory sellSig = _sign(MAKER_KEY, sell);
        ISpotMarket.Order memory buy = _order(maker2, true, 1, 10e18, 1.777777777777777777e18);
        bytes memory buySig = _sign(MAKER2_KEY, buy);
        address[5] memory who = [maker, maker2, taker, taker2, matcher];
        uint256 totalBefore;
        for (uint256 i = 0; i < 5; ++i) totalBefore += usdc.balanceOf(who[i]);
        uint256[4] memory parts = [uint256(0.333333333333333333e18), 1.000000000000000001e18, 7e12 + 3, 2.5e18];
        for (uint256 i = 0; i < 4; ++i) {
            vm.prank(i % 2 == 0 ? taker : taker2);
            spot.fillOrder(sell, sellSig, parts[i]);
        }
        vm.prank(taker2);
        spot.fillOrder(buy, buySig, 0.999999999999999999e18);
        vm.prank(matcher);
        spot.matchOrders(buy, buySig, sell, sellSig, 1.234567890123456789e18);
        uint256 totalAfter;
        for (uint256 i = 0; i < 5; ++i) totalAfter += usdc.balanceOf(who[i]);
        uint256 pending = spot.pendingFeesUsdc();
        assertGt(pending, 0);
        assertEq(usdc.balanceOf(address(spot)), pending, "market balance = pending fee income");
        assertEq(totalBefore - totalAfter, pending, "nothing created or lost");
        assertEq(ch.balanceOf(address(spot)), 0, "the market never holds CH");
        (uint256 toFund, uint256 toTreasury) = spot.distributeFees();
        assertEq(toFund + toTreasury, pending);
        assertEq(usdc.balanceOf(address(spot)), 0);
        assertEq(spot.pendingFeesUsdc(), 0);
    }

    /// @notice ACC-01: the pending fee income is the market's USDC balance (round 37: no ledger word is written per
    ///         fill). FeesAccrued's `pendingAfterUsdc` is the balance once the fill lands; a donation becomes fee
    ///         income and is distributed with it, in full.
    function test_feeIncomeIsTheBalance_donationDistributed_ACC01() public {
        ISpotMarket.Order memory o = _order(maker, false, 1, 10e18, 2e18);
        bytes memory sig = _sign(MAKER_KEY, o);
        vm.recordLogs();
        vm.prank(taker);
        spot.fillOrder(o, sig, 3e18);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        bool seen;
        for (uint256 i = 0; i < logs.length; ++i) {
            if (logs[i].topics[0] != ISpotMarketEvents.FeesAccrued.selector) continue;
            (uint256 amount, uint256 pendingAfter) = abi.decode(logs[i].data, (uint256, uint256));
            assertEq(amount, usdc.balanceOf(address(spot)), "first income: the whole balance");
            assertEq(pendingAfter, usdc.balanceOf(address(spot)), "pendingAfter = balance after the fill");
            seen = true;
        }
        assertTrue(seen, "FeesAccrued emitted");
        usdc.mint(address(spot), 5e6); // a donation
        uint256 pending = spot.pendingFeesUsdc();
        assertEq(pending, usdc.balanceOf(address(spot)));
        vm.prank(taker2);
        spot.fillOrder(o, sig, 2e18);
        uint256 afterSecond = spot.pendingFeesUsdc();
        assertGt(afterSecond, pending);
        uint256 treasuryBefore = usdc.balanceOf(treasury);
        uint256 fundBefore = usdc.balanceOf(address(fund));
        (uint256 toFund, uint256 toTreasury) = spot.distributeFees();
        assertEq(toFund + toTreasury, afterSecond, "distributed in full");
        assertEq(usdc.balanceOf(treasury) - treasuryBefore, toTreasury);
        assertEq(usdc.balanceOf(address(fund)) - fundBefore, toFund);
        assertEq(spot.pendingFeesUsdc(), 0);
        (uint256 again, uint256 again2) = spot.distributeFees();
        assertEq(again + again2, 0, "nothing twice");
    }
}
