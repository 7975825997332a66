// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingPortfolioBase} from "./clearing/ClearingPortfolioBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";

/// @notice Portfolio margin (issue 20 item 3, CLR-04): options in the account's margin with their scenario risk,
///         offsets with perps through the grid, margined writing, liquidation of an options-only account.
contract ClearingPortfolioTest is ClearingPortfolioBase {
    /// A covered short call (long perp + short call) is margined at its worst grid loss — less than the two legs
    /// stand-alone (the offset is recognised) and never less than the grid's worst loss or the basis floor (not
    /// over-credited) — CLR-04.
    function test_shortCallHedgedByPerp_offsetRecognisedNotOverCredited_CLR04() public {
        _setupTrader(alice, guarantor, 300e6);
        _setupTrader(bob, guarantor, 300e6);
        opts.trade(bob, true, 10e18, -100e18, 0); // naked short call, stand-alone
        vm.prank(bob);
        market.trade(100e18); // perp alone elsewhere: 1,000 notional × 10 %
        opts.trade(alice, true, 10e18, -100e18, 0);
        vm.prank(alice);
        market.trade(100e18);
        IClearingHouse.MarginState memory hedged = chouse.marginState(alice);
        // stand-alone: call 100 (+R), perp 100 (−R) → 200; hedged: the perp pays the call's up-move, −R still loses 100
        assertEq(hedged.initialMarginUsdc, _worstLoss(alice, 10e18, 0.1e18));
        assertApproxEqAbs(hedged.initialMarginUsdc, 100e6, 2);
        assertGe(hedged.initialMarginUsdc, 25e6, "basis floor: 25 % of the perp's 100");
        assertGe(hedged.maintenanceMarginUsdc, _worstLoss(alice, 10e18, 0.05e18));
    }

    /// A short straddle hedged by perps after the index moved: the hedge lowers the requirement to the grid's worst
    /// loss, but the floor keeps at least 25 % of the perps' stand-alone requirement (CLR-04).
    function test_shortStraddleHedgedByPerps_offsetBounded_CLR04() public {
        _setupTrader(alice, guarantor, 1_000e6);
        opts.trade(alice, true, 10e18, -100e18, 0);
        opts.trade(alice, false, 10e18, -100e18, 0);
        uint256 naked = chouse.marginState(alice).initialMarginUsdc;
        assertEq(naked, _worstLoss(alice, 10e18, 0.1e18));
        oracle.setPrice(11e18); // the call is in the money: delta −100
        vm.prank(alice);
        market.trade(100e18);
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        assertEq(s.initialMarginUsdc, _worstLoss(alice, 11e18, 0.1e18));
        (uint256 imRate, ) = risk.marginRates(address(market));
        uint256 perpAlone = (((100e18 * 11e18) / 1e30) * imRate + 1e18 - 1) / 1e18;
        assertGe(s.initialMarginUsdc, (perpAlone + 3) / 4);
        assertLt(s.initialMarginUsdc, naked + perpAlone, "offset recognised");
    }

    /// A naked short call through a jump beyond the grid: the account is under maintenance, and the same
    /// liquidation engine liquidates it although it holds only options (the market closes them at their value and
    /// releases the account; the deficit goes down the waterfall).
    function test_nakedShortCall_jump_optionsOnlyAccountLiquidated() public {
        _setupTrader(alice, guarantor, 150e6);
        opts.trade(alice, true, 10e18, -100e18, 30e6); // margined writing: premium in, no collateral posted
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        assertApproxEqAbs(s.collateralUsdc, 180e6, 1); // the 1-wei hold trade rounds one unit against the account
        assertApproxEqAbs(s.initialMarginUsdc, 100e6, 2);
        oracle.setPrice(13e18); // +30 %: the call is worth 300
        s = chouse.marginState(alice);
        assertApproxEqAbs(s.equityUsdc, -120e6, 1);
        (bool liquidatable, , ) = liq.isLiquidatable(alice);
        assertTrue(liquidatable);
        liq.liquidate(alice);
        assertEq(opts.optionsOf(alice).length, 0, "options closed");
        assertEq(chouse.marketsOf(alice).length, 0, "released");
        assertEq(chouse.collateralOf(alice), 0, "deficit absorbed");
    }

    /// A writer cannot withdraw the margin its margined short needs right after writing.
    function test_writerWithdrawsRightAfterMarginedWriting_reverts() public {
        _setupTrader(alice, guarantor, 150e6);
        opts.trade(alice, true, 10e18, -100e18, 30e6);
        uint256 im = chouse.marginState(alice).initialMarginUsdc;
        int256 collateral = chouse.collateralOf(alice);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingInsufficientMargin.selector,
                alice,
                im,
                collateral - 101e6
            )
        );
        chouse.withdraw(101e6, alice);
        vm.prank(alice);
        chouse.withdraw(uint256(collateral) - im, alice);
    }

    /// A paused options market (its new risk frozen) is still counted in its accounts' margin.
    function test_pausedOptionsMarket_stillCountedInMargin() public {
        _setupTrader(alice, guarantor, 150e6);
        opts.trade(alice, true, 10e18, -100e18, 30e6);
        uint256 before = chouse.marginState(alice).initialMarginUsdc;
        IChxModule(address(chouse)).pauseFeature(keccak256(abi.encode(keccak256("clearing.market"), address(opts))));
        assertEq(chouse.marginState(alice).initialMarginUsdc, before);
        vm.prank(alice);
        vm.expectRevert();
        chouse.withdraw(101e6, alice);
    }

    /// Uncapped margined calls: a long call gives equity (its value) and its scenario gains never lower the
    /// requirement below the perp's basis floor.
    function test_longCall_valueInEquity() public {
        _setupTrader(alice, guarantor, 300e6);
        opts.trade(alice, true, 9e18, 100e18, -100e6);
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        assertApproxEqAbs(s.equityUsdc, 300e6, 1, "premium out, value 100 in");
        assertEq(s.initialMarginUsdc, _worstLoss(alice, 10e18, 0.1e18));
    }
}
