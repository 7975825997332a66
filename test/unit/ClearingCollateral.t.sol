// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingCollateralBase} from "./clearing/ClearingCollateralBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IClearingHouseCollateral} from "../../contracts/interfaces/clearing/IClearingHouseCollateral.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {MockERC20} from "../../contracts/mocks/MockERC20.sol";
import {MockClearingMarket} from "../../contracts/mocks/MockClearingMarket.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";

/// @notice Collateral beyond USDC (issue 20 item 5, docs/clearing.md "Non-USDC collateral"): attack tests first
///         (a crash with token seizure, DPS without feed, a feed going stale, a flash deposit, fee-on-transfer, a
///         donation, a paused neighbour), then configuration, valuation and access.
contract ClearingCollateralTest is ClearingCollateralBase {
    // ───────────── attacks ─────────────

    /// The index falls 40 % in one step under an account long CH and holding CH collateral (the correlated case the
    /// σ haircut is for): the liquidator buys the CH at its haircut value, the close leaves a deficit smaller by
    /// exactly those proceeds, and the waterfall absorbs the rest (LIQ-03, ACC-01 for USDC, token ledger empty).
    function test_crash40_chCollateralSeized_waterfallAbsorbsRest() public {
        _setupTrader(alice, guarantor, 10e6);
        _depositCh(alice, 20e18); // 20 × 10 × 0.88 = 176 USDC
        vm.prank(alice);
        market.trade(100e18); // notional 1,000, IM 100
        assertEq(chouse.marginState(alice).equityUsdc, 186e6);

        oracle.setPrice(6e18); // −40 %
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        assertEq(s.tokenCollateralUsdc, 105.6e6); // 20 × 6 × 0.88
        assertEq(s.equityUsdc, 10e6 - 400e6 + 105.6e6);

        (uint256 guarantorBefore, , , ) = _guarantorCapital();
        _fundKeeper(200e6);
        vm.prank(keeper);
        liq.liquidate(alice);

        assertEq(chTok.balanceOf(keeper), 20e18, "liquidator bought the CH");
        assertEq(usdc.balanceOf(keeper), 200e6 - 105.6e6, "at the haircut value");
        assertEq(coll.tokenCollateralOf(alice, address(chTok)), 0);
        assertEq(chouse.collateralOf(alice), 0, "deficit absorbed");
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 0);
        (uint256 guarantorAfter, , , ) = _guarantorCapital();
        assertEq(guarantorBefore - guarantorAfter, 284.4e6, "the guarantor paid loss - USDC - proceeds");
        _assertUsdcLedger(_accounts());
        _assertTokenLedger(address(chTok), _accounts());
    }

    /// A smaller drop makes a solvent account liquidatable: the CH is sold first (equity unchanged: it was counted at
    /// that value), then the usual partial close restores health. Nothing is left for the waterfall.
    function test_liquidation_sellsChAtHaircut_thenPartialClose() public {
        _setupTrader(alice, guarantor, 1e6);
        _depositCh(alice, 10e18);
        vm.prank(alice);
        market.trade(50e18); // notional 500, IM 50, equity 1 + 88
        oracle.setPrice(8.7e18); // equity 1 − 65 + 76.56 = 12.56 < MM 21.75
        (bool liquidatable, int256 equity, ) = liq.isLiquidatable(alice);
        assertTrue(liquidatable);
        assertEq(equity, 12.56e6);

        _fundKeeper(100e6);
        vm.prank(keeper);
        (uint256 fraction, uint256 bounty) = liq.liquidate(alice);
        assertLt(fraction, 1e18, "partial close");
        assertGt(bounty, 0);
        assertEq(chTok.balanceOf(keeper), 10e18);
        assertEq(usdc.balanceOf(keeper), 100e6 - 76.56e6 + bounty, "paid the haircut value, got the bounty");
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        assertEq(s.tokenMask, 0);
        assertGe(s.equityUsdc, int256(s.maintenanceMarginUsdc));
        assertGt(chouse.collateralOf(alice), 0);
        _assertUsdcLedger(_accounts());
    }

    /// DPS listed without a feed is off: a deposit is rejected (a balance that counts 0 would only be a trap). Once a
    /// feed is set it counts at its haircut value; turned off again, existing balances count 0 and stay withdrawable.
    function test_dpsWithoutFeed_depositRejected_thenCountsOnceFeedSet() public {
        dps.transfer(alice, 100e18);
        vm.startPrank(alice);
        dps.approve(address(chouse), 100e18);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseCollateral.ClearingCollateralTokenDisabled.selector, address(dps))
        );
        coll.depositToken(address(dps), 100e18);
        vm.stopPrank();

        coll.setCollateralToken(address(dps), _dpsConfig(address(dpsFeed)));
        _depositDps(alice, 100e18);
        assertEq(chouse.marginState(alice).tokenCollateralUsdc, 152e6); // 100 × 2 × (1 − 0.2 − 2 · 0.02)

        coll.setCollateralToken(address(dps), _dpsConfig(address(0)));
        assertEq(chouse.marginState(alice).tokenCollateralUsdc, 0);
        vm.prank(alice);
        coll.withdrawToken(address(dps), 100e18, alice);
        assertEq(dps.balanceOf(alice), 200e18); // the first 100 never left, the deposited 100 came back
    }

    /// The DPS feed goes stale between deposit and withdrawal: the DPS counts 0, so the withdrawal that would leave
    /// the positions it backs uncovered reverts, and the liquidation that follows does not revert either — it takes no
    /// unpriced DPS (the account is solvent) and closes as usual.
    function test_feedStaleBetweenDepositAndWithdraw_countsZero_liquidationStillRuns() public {
        coll.setCollateralToken(address(dps), _dpsConfig(address(dpsFeed)));
        _setupTrader(alice, guarantor, 100e6);
        _depositDps(alice, 100e18); // 152 USDC
        vm.startPrank(alice);
        market.trade(50e18); // IM 50, MM 25
        chouse.withdraw(90e6, alice); // backed by the DPS now
        vm.stopPrank();

        vm.warp(block.timestamp + HEARTBEAT + 1);
        assertEq(chouse.marginState(alice).tokenCollateralUsdc, 0, "stale feed counts 0");
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingInsufficientMargin.selector, alice, 50e6, int256(10e6))
        );
        coll.withdrawToken(address(dps), 1e18, alice);

        vm.prank(keeper);
        liq.liquidate(alice); // no USDC needed: nothing priced to buy
        assertEq(coll.tokenCollateralOf(alice, address(dps)), 100e18, "a solvent account keeps unpriced DPS");
        assertLt(chouse.positionOf(alice, address(market)).sizeCh, 50e18);

        dpsFeed.setAnswer(2e8); // fresh again: counts again
        assertEq(chouse.marginState(alice).tokenCollateralUsdc, 152e6);
    }

    /// Flash collateral: CH deposited to withdraw USDC against positions cannot leave in the same block — the token
    /// withdrawal runs the margin check without it.
    function test_flashDepositCh_withdrawUsdc_thenChWithdrawalBlocked() public {
        _aliceLong50(); // 100 USDC, IM 50
        _depositCh(alice, 100e18);
        vm.startPrank(alice);
        chouse.withdraw(90e6, alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingInsufficientMargin.selector, alice, 50e6, int256(10e6))
        );
        coll.withdrawToken(address(chTok), 100e18, alice);
        // what is not needed may leave: 50 − 10 = 40 USDC of IM needs ⌈40 / 8.8⌉ = 5 CH
        coll.withdrawToken(address(chTok), 95e18, alice);
        vm.stopPrank();
        assertEq(coll.tokenCollateralOf(alice, address(chTok)), 5e18);
    }

    /// A fee-on-transfer token listed by mistake credits nothing: the deposit reverts on the balance difference.
    function test_feeOnTransferToken_depositRejected() public {
        address fee = deployCode("MockFeeOnTransferERC20.sol:MockFeeOnTransferERC20");
        coll.setCollateralToken(fee, _chConfig());
        MockERC20(fee).mint(alice, 100e18);
        vm.startPrank(alice);
        MockERC20(fee).approve(address(chouse), 100e18);
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseCollateral.ClearingCollateralTransferMismatch.selector,
                fee,
                100e18,
                99e18
            )
        );
        coll.depositToken(fee, 100e18);
        vm.stopPrank();
    }

    /// A second account donating CH to the ClearingHouse inflates nobody's collateral: balances are recorded, never
    /// read from balanceOf; the donor cannot take it back and the depositor cannot take more than it deposited.
    function test_donation_countsForNobody() public {
        _depositCh(alice, 10e18);
        chTok.mint(bob, 100e18);
        vm.prank(bob);
        chTok.transfer(address(chouse), 100e18);
        assertEq(chouse.marginState(alice).tokenCollateralUsdc, 88e6);
        assertEq(chouse.marginState(bob).tokenCollateralUsdc, 0);
        (, , uint256 total) = coll.collateralToken(address(chTok));
        assertEq(total, 10e18);
        vm.prank(bob);
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseCollateral.ClearingInsufficientTokenCollateral.selector,
                bob,
                address(chTok),
                1,
                0
            )
        );
        coll.withdrawToken(address(chTok), 1, bob);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseCollateral.ClearingInsufficientTokenCollateral.selector,
                alice,
                address(chTok),
                11e18,
                10e18
            )
        );
        coll.withdrawToken(address(chTok), 11e18, alice);
        _assertTokenLedger(address(chTok), _accounts());
    }

    /// A paused neighbour market (its new risk frozen) changes nothing for token collateral: withdrawals within margin
    /// and a liquidation with token seizure both run.
    function test_pausedNeighbourMarket_tokenWithdrawAndSeizureRun() public {
        MockClearingMarket other = MockClearingMarket(
            deployCode(
                "MockClearingMarket.sol:MockClearingMarket",
                abi.encode(address(chouse), address(oracle), address(usdc))
            )
        );
        chouse.registerMarket(address(other));
        IChxModule(address(chouse)).pauseFeature(keccak256(abi.encode(keccak256("clearing.market"), address(other))));
        _setupTrader(alice, guarantor, 1e6);
        _depositCh(alice, 12e18);
        vm.startPrank(alice);
        market.trade(50e18);
        coll.withdrawToken(address(chTok), 2e18, alice);
        vm.stopPrank();
        oracle.setPrice(8.7e18);
        _fundKeeper(100e6);
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(chTok.balanceOf(keeper), 10e18);
        _assertUsdcLedger(_accounts());
    }

    /// A bankrupt account whose DPS cannot be priced (stale feed) does not walk away with it after the waterfall paid
    /// its deficit: the unpriced remainder goes to the insurance fund.
    function test_bankruptWithUnpricedDps_remainderToInsuranceFund() public {
        coll.setCollateralToken(address(dps), _dpsConfig(address(dpsFeed)));
        _setupTrader(alice, guarantor, 10e6);
        _depositDps(alice, 100e18);
        vm.prank(alice);
        market.trade(100e18); // IM 100 ≤ 10 + 152
        vm.warp(block.timestamp + HEARTBEAT + 1);
        oracle.setPrice(6e18);
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(dps.balanceOf(address(insurance)), 100e18);
        assertEq(coll.tokenCollateralOf(alice, address(dps)), 0);
        assertEq(chouse.collateralOf(alice), 0);
        (, , uint256 total) = coll.collateralToken(address(dps));
        assertEq(total, 0);
    }

    // ───────────── valuation ─────────────

    /// h = min(max, base + k·σ): the haircut widens when the RiskEngine's σ rises, and stops at its ceiling.
    function test_haircutWidensWithSigma_cappedAtMax() public {
        _depositCh(alice, 10e18);
        _mintUsdc(address(risk), 10e6);
        vm.prank(keeper);
        risk.updateVolatility();
        vm.warp(block.timestamp + 1 hours);
        oracle.setPrice(16.5e18);
        vm.prank(keeper);
        uint256 sigma = risk.updateVolatility();
        uint256 h = CH_BASE + (uint256(CH_K) * sigma + 1e18 - 1) / 1e18;
        assertGt(h, 0.12e18);
        uint256 expected = (165e6 * (1e18 - h)) / 1e18;
        assertEq(chouse.marginState(alice).tokenCollateralUsdc, expected);
        IClearingHouseCollateral.CollateralTokenConfig memory c = _chConfig();
        c.sigmaMultipleWad = 18e18;
        coll.setCollateralToken(address(chTok), c);
        assertEq(chouse.marginState(alice).tokenCollateralUsdc, 82.5e6); // 165 × (1 − 0.5)
    }

    /// Feed answers that are not a price count 0: non-positive, incomplete round, from the future; 8-decimal and
    /// 20-decimal feeds scale to WAD.
    function test_feedPrice_invalidAnswersCountZero_decimalsScale() public {
        coll.setCollateralToken(address(dps), _dpsConfig(address(dpsFeed)));
        _depositDps(alice, 100e18);
        dpsFeed.setAnswer(0);
        assertEq(chouse.marginState(alice).tokenCollateralUsdc, 0);
        dpsFeed.setIncompleteRound(2e8, 1);
        assertEq(chouse.marginState(alice).tokenCollateralUsdc, 0);
        dpsFeed.setRound(2e8, block.timestamp, block.timestamp + 1);
        assertEq(chouse.marginState(alice).tokenCollateralUsdc, 0);
        address feed20 = deployCode("MockAggregatorV3.sol:MockAggregatorV3", abi.encode(20, "DPS / USD", 2e20));
        coll.setCollateralToken(address(dps), _dpsConfig(feed20));
        assertEq(chouse.marginState(alice).tokenCollateralUsdc, 152e6);
    }

    /// Without positions a token withdrawal reads no price (SEC-05): it works while the oracle is down.
    function test_withdrawToken_noPositions_readsNoPrice() public {
        _depositCh(alice, 10e18);
        oracle.setInvalid(true);
        vm.prank(alice);
        coll.withdrawToken(address(chTok), 10e18, bob);
        assertEq(chTok.balanceOf(bob), 10e18);
        IClearingHouse.MarginState memory s;
        oracle.setInvalid(false);
        s = chouse.marginState(alice);
        assertEq(s.tokenMask, 0);
    }

    // ───────────── configuration and access ─────────────

    function test_setCollateralToken_validation() public {
        IClearingHouseCollateral.CollateralTokenConfig memory c = _chConfig();
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        coll.setCollateralToken(address(chTok), c);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseCollateral.ClearingInvalidCollateralToken.selector, address(usdc))
        );
        coll.setCollateralToken(address(usdc), c);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseCollateral.ClearingInvalidCollateralToken.selector, address(0))
        );
        coll.setCollateralToken(address(0), c);
        address six = deployCode("MockERC20.sol:MockERC20", abi.encode("Six", "SIX", uint8(6)));
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseCollateral.ClearingInvalidCollateralToken.selector, six));
        coll.setCollateralToken(six, c);
        c.maxHaircutWad = 1e18;
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseCollateral.ClearingInvalidCollateralToken.selector, address(chTok))
        );
        coll.setCollateralToken(address(chTok), c);
        c.maxHaircutWad = 0.05e18; // below the base
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseCollateral.ClearingInvalidCollateralToken.selector, address(chTok))
        );
        coll.setCollateralToken(address(chTok), c);
        // eight tokens at most (the mask's bits); relisting keeps the id
        c = _chConfig();
        for (uint256 i = 2; i < 8; ++i) {
            coll.setCollateralToken(deployCode("MockERC20.sol:MockERC20", abi.encode("T", "T", uint8(18))), c);
        }
        address ninth = deployCode("MockERC20.sol:MockERC20", abi.encode("T", "T", uint8(18)));
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseCollateral.ClearingInvalidCollateralToken.selector, ninth)
        );
        coll.setCollateralToken(ninth, c);
        coll.setCollateralToken(address(chTok), c);
        (IClearingHouseCollateral.CollateralTokenConfig memory got, uint256 id, ) = coll.collateralToken(
            address(chTok)
        );
        assertEq(id, 1);
        assertTrue(got.indexPriced);
        assertEq(got.maxHaircutWad, CH_MAX);
    }

    function test_depositToken_capZeroAndUnlisted() public {
        IClearingHouseCollateral.CollateralTokenConfig memory c = _chConfig();
        c.depositCap = 15e18;
        coll.setCollateralToken(address(chTok), c);
        _depositCh(alice, 10e18);
        chTok.mint(bob, 10e18);
        vm.startPrank(bob);
        chTok.approve(address(chouse), 10e18);
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseCollateral.ClearingCollateralCapExceeded.selector,
                address(chTok),
                20e18,
                15e18
            )
        );
        coll.depositToken(address(chTok), 10e18);
        vm.expectRevert(IClearingHouseErrors.ClearingZeroAmount.selector);
        coll.depositToken(address(chTok), 0);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseCollateral.ClearingCollateralTokenDisabled.selector, address(usdc))
        );
        coll.depositToken(address(usdc), 1);
        vm.expectRevert(IClearingHouseErrors.ClearingZeroAmount.selector);
        coll.withdrawToken(address(chTok), 0, bob);
        vm.expectRevert(IChxModule.ChxZeroAddress.selector);
        coll.withdrawToken(address(chTok), 1, address(0));
        vm.stopPrank();
    }

    function test_depositAndWithdrawToken_pausable() public {
        IChxModule(address(chouse)).pauseFeature(keccak256("clearing.deposit"));
        chTok.mint(alice, 1e18);
        vm.prank(alice);
        vm.expectRevert();
        coll.depositToken(address(chTok), 1e18);
        IChxModule(address(chouse)).unpauseFeature(keccak256("clearing.deposit"));
        _depositCh(alice, 1e18);
        IChxModule(address(chouse)).pauseFeature(keccak256("clearing.withdraw"));
        vm.prank(alice);
        vm.expectRevert();
        coll.withdrawToken(address(chTok), 1e18, alice);
    }

    function test_seizeTokenCollateral_onlyEngine_residualOnlyBankrupt() public {
        _depositCh(alice, 1e18);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingOnlyLiquidationEngine.selector, address(this))
        );
        coll.seizeTokenCollateral(alice, address(this), PRICE0, false);
        vm.prank(address(liq));
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseCollateral.ClearingNotBankrupt.selector, alice));
        coll.seizeTokenCollateral(alice, address(this), PRICE0, true);
    }

    // ───────────── helpers ─────────────

    function _fundKeeper(uint256 amountUsdc) internal {
        _mintUsdc(keeper, amountUsdc);
        vm.prank(keeper);
        usdc.approve(address(chouse), amountUsdc);
    }

    function _guarantorCapital() internal view returns (uint256, uint256, uint256, uint256) {
        return (usdc.balanceOf(address(pool)), 0, 0, 0);
    }

    function _accounts() internal view returns (address[] memory a) {
        a = new address[](3);
        (a[0], a[1], a[2]) = (alice, bob, keeper);
    }
}
