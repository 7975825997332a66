// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../../helpers/PerpSolBase.sol";
import {PerpOrderSteps} from "../../helpers/PerpOrderSteps.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";
import {ILiquidityVault} from "../../../contracts/interfaces/markets/ILiquidityVault.sol";
import {IPerpMarket, IPerpMarketErrors} from "../../../contracts/interfaces/markets/IPerpMarket.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";

/// @notice Round 48: sequence attacks on the perp market and its LP vault (two LPs, a winner, a poke, a pause and
///         a governance change between two steps).
contract MarketSequenceAttacksTest is PerpSolBase {
    address internal lpA = makeAddr("lpA");
    address internal lpB = makeAddr("lpB");
    address internal trader = makeAddr("trader");
    address internal keeper = makeAddr("keeper");

    function setUp() public {
        _deployPerps();
        _setRole(address(vault), ILiquidityVault.allocate.selector, Roles.KEEPER);
        _grant(Roles.KEEPER, address(this));
        vault.setLimits(1e15, 0);
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(trader, guarantor, 50_000e6);
    }

    function _lpDeposit(address lp, uint256 amountUsdc) internal returns (uint256 shares) {
        _mintUsdc(lp, amountUsdc);
        vm.startPrank(lp);
        usdcApprove(address(vault), amountUsdc);
        shares = vault.deposit(amountUsdc, lp);
        vm.stopPrank();
    }

    function _assetsOf(address lp) internal view returns (uint256) {
        return vault.convertToAssets(vault.balanceOf(lp));
    }

    /// ACC-03 / CLR-05: a trader holds a large winning long; LP A redeems all it may between the win and the close.
    /// The exit must be priced with the trader's unrealised profit as LP loss (A takes its share of the loss with
    /// it), the winner must still be paid in full, and LP B must not be left worse per share than A.
    function test_lpRedeemsBetweenWinAndClose_winnerPaidAndLossShared() public {
        uint256 sharesA = _lpDeposit(lpA, 50_000e6);
        uint256 sharesB = _lpDeposit(lpB, 50_000e6);
        vault.allocate(address(perp), 60_000e6);
        PerpOrderSteps.mustTrade(perp, trader, 5_000e18);
        int256 collBefore = chouse.collateralOf(trader);
        index.setPrice(12e18); // ~10,000 USDC profit to the trader, loss to the LPs

        uint256 priceBefore = vault.sharePriceWad();
        assertLt(priceBefore, 1e18, "the unrealised trader profit is in the share price");
        uint256 maxA = vault.maxRedeem(lpA);
        vm.prank(lpA);
        assertGt(maxA, 0, "A may leave with part of its shares");
        uint256 outA = vault.redeem(maxA, lpA, lpA);
        // A was paid at most its shares' value at the loss-bearing price
        assertLe(outA, (maxA * priceBefore) / 1e18 + 1, "no exit at the pre-loss price");

        PerpOrderSteps.close(perp, trader, 0);
        assertEq(chouse.positionOf(trader, address(perp)).sizeCh, 0, "the winner can close");
        assertGt(chouse.collateralOf(trader) - collBefore, 9_000e6, "the winner is paid its profit");

        // B per share is not worse than what A got per share
        if (maxA > 0) {
            assertGe((_assetsOf(lpB) * 1e18) / sharesB + 1e6, (outA * 1e18) / maxA, "B does not carry A's share");
        }
        assertLe(maxA, sharesA);
    }

    /// ACC-03 / MKT-01: an LP deposits right before a funding poke and redeems right after (the same block, no lock): the
    /// funding accrued by the poke is already in totalAssets, so the sandwich earns nothing.
    function test_depositBeforeFundingPoke_redeemAfter_earnsNothing() public {
        _lpDeposit(lpA, 100_000e6);
        vault.allocate(address(perp), 80_000e6);
        PerpOrderSteps.mustTrade(perp, trader, 10_000e18); // skew: longs pay funding to the pool
        vm.warp(block.timestamp + 3 days);
        uint256 shares = _lpDeposit(lpB, 100_000e6);
        vm.prank(keeper);
        try perp.pokeFunding() {} catch {}
        vm.prank(lpB);
        uint256 out = vault.redeem(shares, lpB, lpB);
        assertLe(out, 100_000e6, "no gain from a deposit sandwiching the funding poke");
    }

    /// OPS-01 / MKT-01: a funding poke twice in the same block: the second one reverts PerpAlreadyDone (no second bounty,
    /// no double accrual), and the funding index does not move between the two.
    function test_pokeFundingTwiceSameBlock_secondRevertsNoDoubleBounty() public {
        _lpDeposit(lpA, 100_000e6);
        vault.allocate(address(perp), 80_000e6);
        PerpOrderSteps.mustTrade(perp, trader, 10_000e18);
        vm.warp(block.timestamp + 2 days);
        vm.prank(keeper);
        perp.pokeFunding();
        int256 idx = perp.marketState().fundingIndexWad;
        uint256 bounty = perp.keeperBountyOf(keeper);
        vm.prank(keeper);
        vm.expectRevert();
        perp.pokeFunding();
        assertEq(perp.marketState().fundingIndexWad, idx);
        assertEq(perp.keeperBountyOf(keeper), bounty);
    }

    /// ORC-01 / MKT-01: a poke across an index staleness window must not accrue (or pay a bounty) at a stale price; once
    /// fresh again, one poke accrues the whole interval exactly once.
    function test_pokeAcrossStaleWindow_noAccrualWhileStale() public {
        _lpDeposit(lpA, 100_000e6);
        vault.allocate(address(perp), 80_000e6);
        PerpOrderSteps.mustTrade(perp, trader, 10_000e18);
        vm.warp(block.timestamp + 1 days);
        index.setStale(true);
        int256 idx = perp.marketState().fundingIndexWad;
        vm.prank(keeper);
        try perp.pokeFunding() {
            // a poke that succeeds while stale must not have changed the index at a stale price
            assertEq(perp.marketState().fundingIndexWad, idx, "no accrual at a stale index");
        } catch {}
        uint256 bountyStale = perp.keeperBountyOf(keeper);
        index.setStale(false);
        vm.prank(keeper);
        perp.pokeFunding();
        assertGt(perp.marketState().fundingIndexWad, idx, "the interval accrues once fresh");
        assertEq(perp.marketState().lastFundingTime, block.timestamp);
        assertEq(bountyStale, 0, "no bounty for a stale poke");
    }

    /// SEC-05: governance lowers the open-interest cap below the current OI between open and close: the
    /// close (risk-reducing) still fills and OI falls; a new opening order is refused by the lowered cap.
    function test_oiCapLoweredBelowOi_closeStillFills_openRefused() public {
        _lpDeposit(lpA, 200_000e6);
        vault.allocate(address(perp), 150_000e6);
        PerpOrderSteps.mustTrade(perp, trader, 10_000e18);
        IPerpMarket.PerpParams memory p = perp.params();
        p.maxOpenInterestCh = 1_000e18;
        perp.setParams(p);
        address other = makeAddr("other");
        _setupTrader(other, guarantor, 20_000e6);
        (bool filled, ) = PerpOrderSteps.trade(perp, other, 100e18, 0);
        assertFalse(filled, "opening above the lowered cap is refused");
        (filled, ) = PerpOrderSteps.close(perp, trader, 0);
        assertTrue(filled, "a close is never blocked by the OI cap");
        assertEq(perp.marketState().longOiCh, 0);
    }

    /// ACC-03 (delayed orders, issue 17 item 15): an order committed, the market paused and unpaused before execution: the order still executes at
    /// the round in force at commit + delay (not at the later price the trader waited for).
    function test_pauseUnpauseBetweenCommitAndExecute_fillsAtCommitRound() public {
        _lpDeposit(lpA, 200_000e6);
        vault.allocate(address(perp), 150_000e6);
        vm.prank(trader);
        uint256 priceTime = perp.commitOrder(1_000e18, 0);
        vm.warp(priceTime + 1);
        uint80 roundAtCommit = index.roundAt(priceTime);
        _pause(address(perp), "perp.trade");
        IChxModule(address(perp)).unpauseFeature(keccak256("perp.trade"));
        vm.warp(block.timestamp + 20);
        index.setPrice(11e18); // the later price the trader would like
        uint80 later = index.roundAt(block.timestamp);
        assertTrue(later != roundAtCommit, "a later round exists");
        vm.prank(trader); // the trader tries to execute its own order at the later round
        try perp.executeOrder(trader, later) {} catch {}
        if (chouse.positionOf(trader, address(perp)).sizeCh == 0 && perp.pendingOrder(trader).priceTime != 0) {
            vm.prank(trader);
            perp.executeOrder(trader, roundAtCommit);
        }
        // filled at ~10 (plus the skew premium), not at 11
        assertLt(chouse.positionOf(trader, address(perp)).openNotionalUsdc, 10_200e6);
        assertEq(chouse.positionOf(trader, address(perp)).sizeCh, 1_000e18);
    }

    /// ACC-03 / CLR-05: an LP deposits while a trader sits on a large loss that is about to be realised as bad debt; the
    /// entry must be priced at the LP-side gain (the trader's loss) capped by what the trader can pay, so the
    /// depositor cannot take a share of value that never arrives.
    function test_depositBeforeBadDebtClose_depositorDoesNotProfit() public {
        _lpDeposit(lpA, 100_000e6);
        vault.allocate(address(perp), 80_000e6);
        address thin = makeAddr("thin");
        _setupTrader(thin, guarantor, 1_500e6);
        PerpOrderSteps.mustTrade(perp, thin, 1_000e18);
        index.setPrice(7e18); // the trader's loss (~3,000) exceeds its collateral
        uint256 shares = _lpDeposit(lpB, 100_000e6);
        (bool f, ) = PerpOrderSteps.close(perp, thin, 0);
        assertTrue(f, "the loser's close fills");
        vm.prank(lpB);
        uint256 out = vault.redeem(shares, lpB, lpB);
        // the loss (its uncollectable part included) was already in the entry price: B earns only its pro-rata
        // part of the close's fee (about 0.5 USDC here), nothing of the loss itself
        assertLe(out, 100_000e6 + 1e6, "the depositor does not take a share of the realised loss");
        assertLt(chouse.collateralOf(thin), 0, "the trader's deficit stays with its account, not the LPs");
    }

    /// SEC-05 / CLR-05: while a trader sits on a large unrealised win, the keeper pulls capital back to the vault
    /// (deallocate) and an LP then redeems: the market keeps what it owes the winner (deallocating more than
    /// withdrawableToVaultUsdc reverts), so the winner's close is still paid in full.
    function test_deallocateDuringWin_thenClose_winnerStillPaid() public {
        _lpDeposit(lpA, 30_000e6);
        vault.allocate(address(perp), 30_000e6);
        PerpOrderSteps.mustTrade(perp, trader, 10_000e18);
        int256 collBefore = chouse.collateralOf(trader);
        index.setPrice(12e18); // ~20,000 profit against 30,000 of pool
        _setRole(address(vault), ILiquidityVault.deallocate.selector, Roles.KEEPER);
        uint256 free = perp.withdrawableToVaultUsdc();
        vm.expectRevert(abi.encodeWithSelector(IPerpMarketErrors.PerpWithdrawableTooLow.selector, free + 1, free));
        vault.deallocate(address(perp), free + 1);
        if (free > 0) vault.deallocate(address(perp), free);
        uint256 maxA = vault.maxRedeem(lpA);
        if (maxA > 0) {
            vm.prank(lpA);
            vault.redeem(maxA, lpA, lpA);
        }
        (bool filled, ) = PerpOrderSteps.close(perp, trader, 0);
        assertTrue(filled, "the winner can close");
        assertGt(chouse.collateralOf(trader) - collBefore, 19_000e6, "the winner is paid in full");
    }

    /// ACC-03 (delayed orders): a trader lets an order expire, it is cancelled and the trader re-commits in the same
    /// block after the price moved: the new order can only fill at a round after its own commit, never at the old
    /// order's round (re-committing does not buy an option on a past price).
    function test_expiredCancelRecommitSameBlock_cannotFillAtOldRound() public {
        _lpDeposit(lpA, 200_000e6);
        vault.allocate(address(perp), 150_000e6);
        vm.prank(trader);
        uint256 oldPriceTime = perp.commitOrder(1_000e18, 0);
        uint80 oldRound = index.roundAt(oldPriceTime);
        vm.warp(perp.pendingOrder(trader).expiresAt + 1);
        index.setPrice(11e18);
        vm.prank(keeper);
        perp.cancelOrder(trader);
        vm.prank(trader);
        uint256 newPriceTime = perp.commitOrder(1_000e18, 0);
        assertGt(newPriceTime, oldPriceTime);
        vm.warp(newPriceTime + 1);
        vm.prank(trader);
        vm.expectRevert();
        perp.executeOrder(trader, oldRound);
        assertEq(chouse.positionOf(trader, address(perp)).sizeCh, 0);
        vm.prank(trader);
        perp.executeOrder(trader, index.roundAt(newPriceTime));
        assertGt(chouse.positionOf(trader, address(perp)).openNotionalUsdc, 11_000e6, "filled at the new price");
    }
}
