// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../helpers/PerpSolBase.sol";
import {PerpOrderSteps} from "../helpers/PerpOrderSteps.sol";
import {IClearingHouseErrors} from "../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IClearingHouseEvents} from "../../contracts/interfaces/clearing/IClearingHouseEvents.sol";
import {Vm} from "forge-std/Vm.sol";
import {IPerpMarketErrors} from "../../contracts/interfaces/markets/IPerpMarketErrors.sol";

/// @notice The deep-profile finding of round 44 (VaultLimits, `test_regression_deep44_maxAmountAccepted`) as attacks:
///         a trade realises a loss beyond the trader's collateral, the pool is credited with all of it, and before
///         the waterfall collects the deficit an LP exits through the vault. The pool's uncollected credit must not be
///         paid out of another account's margin (ACC-01: USDC held ≥ the claims on it). The ClearingHouse books
///         Σ max(0, −collateral) (`uncoveredCollateralUsdc`); pool withdrawals stop at pool − that, and the market's
///         withdrawable (the vault's `maxWithdraw`) leaves it out.
contract PoolCashUncoveredTest is PerpSolBase {
    address internal lp = makeAddr("lp");
    address internal bystander = makeAddr("bystander");
    address internal loser = makeAddr("loser");

    uint256 internal constant LP_USDC = 100_000e6;
    uint256 internal constant BYSTANDER_USDC = 50_000e6;
    uint256 internal constant LOSER_USDC = 10_000e6;

    function setUp() public {
        _deployPerps();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _fundPerpPool(lp, LP_USDC, LP_USDC); // the vault's whole capital in the market's pool
        _setupTrader(bystander, guarantor, BYSTANDER_USDC);
        _setupTrader(loser, guarantor, LOSER_USDC);
    }

    /// @dev `loser` goes long 5,000 CH at 10 (50k notional on 10k margin); the index falls 30 % before any keeper
    ///      liquidates, and `loser` closes: a 15k loss on 10k collateral. Returns the loser's collateral after.
    function _realiseLossBeyondCollateral() internal returns (int256 collateral) {
        PerpOrderSteps.mustTrade(perp, loser, 5_000e18);
        index.setPrice(7e18);
        (bool ok, bytes memory reason) = PerpOrderSteps.close(perp, loser, 0);
        assertTrue(ok, string(reason));
        collateral = chouse.collateralOf(loser);
        assertLt(collateral, 0, "the close leaves a deficit on the account");
    }

    function _pool() internal view returns (int256 poolUsdc) {
        (, poolUsdc) = chouse.marketInfo(address(perp));
    }

    /// The attack: the LP redeems everything the vault says it may, between the bad debt and its collection. Before
    /// the fix the pull took the uncollected credit out of the bystander's margin, and the bystander's full
    /// withdrawal then failed for want of USDC (ERC20InsufficientBalance).
    function test_lpExitBetweenBadDebtAndWaterfall_neverPaidFromOtherMargin() public {
        int256 deficit = -_realiseLossBeyondCollateral();
        assertEq(chouse.uncoveredCollateralUsdc(), uint256(deficit), "the deficit is booked");
        assertGt(_pool(), int256(LP_USDC) + deficit, "the pool holds the whole realised loss as credit");

        uint256 maxOut = vault.maxWithdraw(lp);
        assertLe(int256(maxOut), _pool() - deficit, "maxWithdraw leaves the uncollected credit out");
        vm.prank(lp);
        vault.withdraw(maxOut, lp, lp); // ERC-4626: maxWithdraw is accepted

        vm.prank(bystander);
        chouse.withdraw(BYSTANDER_USDC, bystander);
        assertEq(usdc.balanceOf(bystander), BYSTANDER_USDC, "the bystander's margin is whole");
        _assertCashCoversClaims();
    }

    /// The same pull made directly by the market (its MARKET role), past the pool's cash: the ClearingHouse refuses.
    function test_marketPullPastCash_reverts() public {
        int256 deficit = -_realiseLossBeyondCollateral();
        int256 pool = _pool();
        uint256 cash = uint256(pool - deficit);
        vm.prank(address(perp));
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingPoolCashShort.selector,
                address(perp),
                cash + 1,
                pool,
                uint256(deficit)
            )
        );
        chouse.withdrawMarketPool(cash + 1, address(perp));
        vm.prank(address(perp));
        chouse.withdrawMarketPool(cash, lp); // up to the cash is still paid
        assertEq(usdc.balanceOf(address(chouse)), BYSTANDER_USDC + _fees(), "what is left is the bystander's margin");
    }

    /// The vault's keeper path asks the market for more than its withdrawable: the market refuses first.
    function test_vaultDeallocatePastCash_revertsInMarket() public {
        int256 deficit = -_realiseLossBeyondCollateral();
        uint256 available = perp.withdrawableToVaultUsdc();
        assertLe(int256(available), _pool() - deficit);
        vm.prank(address(vault));
        vm.expectRevert(
            abi.encodeWithSelector(IPerpMarketErrors.PerpWithdrawableTooLow.selector, available + 1, available)
        );
        perp.returnToVault(available + 1);
    }

    /// The deficit's collection frees the credit: the loser paying it in (a deposit) clears the booking, and the
    /// pool's cash is whole again.
    function test_depositCoveringTheDeficit_releasesTheCredit() public {
        int256 deficit = -_realiseLossBeyondCollateral();
        uint256 before = perp.withdrawableToVaultUsdc();
        _mintUsdc(loser, uint256(deficit) + 1e6);
        vm.startPrank(loser);
        usdcApprove(address(chouse), uint256(deficit) + 1e6);
        chouse.deposit(uint256(deficit) + 1e6);
        vm.stopPrank();
        assertEq(chouse.uncoveredCollateralUsdc(), 0);
        assertEq(perp.withdrawableToVaultUsdc(), before + uint256(deficit), "the credit became cash");
        _assertCashCoversClaims();
    }

    /// A partial deposit shrinks the booking by what it paid in, no more.
    function test_partialDeposit_shrinksTheBookingByItsAmount() public {
        int256 deficit = -_realiseLossBeyondCollateral();
        _depositFor(loser, 1_000e6);
        assertEq(chouse.uncoveredCollateralUsdc(), uint256(deficit) - 1_000e6);
        assertEq(chouse.uncoveredCollateralUsdc(), uint256(-chouse.collateralOf(loser)));
    }

    /// The waterfall (guarantor, then insurance fund) collects the deficit through the liquidation engine: the booking
    /// follows the account to zero and the LP's full exit is paid again.
    function test_waterfallCollects_thenLpExitsWhole() public {
        _fundInsurance(100_000e6);
        int256 deficit = -_realiseLossBeyondCollateral();
        uint256 before = perp.withdrawableToVaultUsdc();
        liq.liquidate(loser);
        assertGe(chouse.collateralOf(loser), 0, "the guarantor and the fund covered it");
        assertEq(chouse.uncoveredCollateralUsdc(), 0);
        uint256 maxOut = vault.maxWithdraw(lp);
        assertEq(perp.withdrawableToVaultUsdc(), before + uint256(deficit), "the collected credit became cash");
        // the vault holds no idle USDC: maxWithdraw is the market's, less the share conversion's rounding down
        assertApproxEqAbs(maxOut, before + uint256(deficit), 1);
        vm.prank(lp);
        vault.withdraw(maxOut, lp, lp);
        vm.prank(bystander);
        chouse.withdraw(BYSTANDER_USDC, bystander);
        _assertCashCoversClaims();
    }

    /// A funding settlement that takes an account below zero (ClearingHouse.settle) is booked the same way as a trade.
    function test_settleIntoDeficit_isBooked() public {
        vm.prank(address(perp));
        chouse.settle(loser, -int256(LOSER_USDC) - 250e6);
        assertEq(chouse.uncoveredCollateralUsdc(), 250e6);
        vm.prank(address(perp));
        chouse.settle(loser, 100e6);
        assertEq(chouse.uncoveredCollateralUsdc(), 150e6);
        vm.prank(address(perp));
        chouse.settle(loser, 1_000e6);
        assertEq(chouse.uncoveredCollateralUsdc(), 0);
        assertEq(chouse.collateralOf(loser), 850e6);
    }

    /// Round 47: every booking that writes the total emits it after (post-state); a solvent account's settle emits
    /// nothing, a second account's deficit adds to the reported total rather than replacing it, and one account's
    /// cover leaves the other's part reported.
    function test_uncoveredCollateralChanged_reportsTheTotalAfter() public {
        vm.recordLogs();
        vm.prank(address(perp));
        chouse.settle(bystander, -1e6); // solvent before and after
        assertEq(_uncoveredReports(), 0, "a solvent account books nothing");
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.UncoveredCollateralChanged(250e6);
        vm.prank(address(perp));
        chouse.settle(loser, -int256(LOSER_USDC) - 250e6);
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.UncoveredCollateralChanged(250e6 + 40e6);
        vm.prank(address(perp));
        chouse.settle(bystander, -int256(BYSTANDER_USDC) + 1e6 - 40e6);
        _mintUsdc(loser, 300e6);
        vm.startPrank(loser);
        usdcApprove(address(chouse), 300e6);
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.UncoveredCollateralChanged(40e6);
        chouse.deposit(300e6); // −250 → +50: the loser's part leaves, the bystander's stays
        vm.stopPrank();
        assertEq(chouse.uncoveredCollateralUsdc(), 40e6);
        vm.recordLogs();
        vm.prank(address(perp));
        chouse.settle(loser, 1e6); // +50 → +51: solvent on both sides
        assertEq(_uncoveredReports(), 0, "a solvent account books nothing");
    }

    /// Round 47 removed the ClearingHouse's open-interest copy, the one aggregate that followed every position move,
    /// including the ones that bypass the market's trade path. The attack: a liquidation close (and an ADL step,
    /// which calls the same `onPositionLiquidated` hook) moves ClearingHouse positions without a market trade; if the
    /// market's own OI did not follow, its cap and funding skew would drift. After opens on both sides, a bankrupt
    /// close and the waterfall, the market's OI equals Σ ClearingHouse sizes per side.
    function test_marketOpenInterest_followsLiquidationClose() public {
        _fundInsurance(100_000e6);
        PerpOrderSteps.mustTrade(perp, bystander, -2_000e18);
        PerpOrderSteps.mustTrade(perp, loser, 5_000e18);
        _assertOiIsPositions();
        index.setPrice(7e18);
        liq.liquidate(loser);
        assertEq(chouse.positionOf(loser, address(perp)).sizeCh, 0, "the close flattened the loser");
        _assertOiIsPositions();
    }

    function _assertOiIsPositions() internal view {
        address[] memory holders = new address[](2);
        (holders[0], holders[1]) = (loser, bystander);
        _assertPerpBookMirrorsClearing(holders);
    }

    function _uncoveredReports() internal returns (uint256 n) {
        Vm.Log[] memory logs = vm.getRecordedLogs();
        for (uint256 i; i < logs.length; ++i)
            if (logs[i].topics[0] == IClearingHouseEvents.UncoveredCollateralChanged.selector) ++n;
    }

    function _fees() internal view returns (uint256 fees) {
        (fees, ) = chouse.totals();
    }

    /// ACC-01 for the three accounts here: USDC held ≥ positive margin + the pool's cash + accrued fees, and the
    /// booking is exactly Σ max(0, −collateral).
    function _assertCashCoversClaims() internal view {
        _assertPoolCash([lp, bystander, loser], _pool());
    }
}
