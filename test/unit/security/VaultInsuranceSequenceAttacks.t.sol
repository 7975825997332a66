// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../../helpers/PerpSolBase.sol";
import {PerpOrderSteps} from "../../helpers/PerpOrderSteps.sol";
import {OracleInsuranceBase} from "../../helpers/OracleInsuranceBase.sol";
import {ClearingUnitBase} from "../../helpers/ClearingUnitBase.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";
import {ILiquidityVault} from "../../../contracts/interfaces/markets/ILiquidityVault.sol";
import {ILiquidityVaultErrors} from "../../../contracts/interfaces/markets/ILiquidityVaultErrors.sol";
import {IInsuranceFundErrors} from "../../../contracts/interfaces/clearing/IInsuranceFundErrors.sol";

/// @notice Round 49: sequence attacks on the LiquidityVault (a paused neighbour market, donations to the contracts
///         behind its valuation, a governance change of the lock between deposit and redeem).
contract VaultSequenceAttacksTest is PerpSolBase {
    address internal lp = makeAddr("lp");
    address internal lp2 = makeAddr("lp2");
    address internal trader = makeAddr("trader");
    address internal attacker = makeAddr("attacker");

    function setUp() public {
        _deployPerps();
        _setRole(address(vault), ILiquidityVault.allocate.selector, Roles.KEEPER);
        _grant(Roles.KEEPER, address(this));
        vault.setLimits(1e15, 0);
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(trader, guarantor, 50_000e6);
    }

    function _lpDeposit(address who, uint256 amountUsdc) internal returns (uint256 shares) {
        _mintUsdc(who, amountUsdc);
        vm.startPrank(who);
        usdcApprove(address(vault), amountUsdc);
        shares = vault.deposit(amountUsdc, who);
        vm.stopPrank();
    }

    /// Sequence: LPs fund the perp pool, a trader opens, then the perp market (perp.trade) and the ClearingHouse's
    /// market feature are paused for new risk, and an LP redeems more than the vault holds idle. LIQ-05 / SEC-05: a
    /// new-risk pause of a neighbour never traps LP capital: the redemption pulls the shortfall from the paused
    /// market at the loss-free share price and the other LP's shares keep their value.
    function test_redeemWhileMarketPausedForNewRisk_pullsFromTheMarket() public {
        uint256 shares = _lpDeposit(lp, 40_000e6);
        _lpDeposit(lp2, 40_000e6);
        vault.allocate(address(perp), 70_000e6);
        PerpOrderSteps.mustTrade(perp, trader, 1_000e18);
        _pause(address(perp), "perp.trade");
        _pause(address(chouse), "clearing.market");
        uint256 expected = vault.previewRedeem(shares);
        uint256 priceBefore = vault.sharePriceWad();
        assertGt(expected, vault.idleUsdc(), "the redemption needs capital from the market");
        assertEq(vault.maxRedeem(lp), shares, "the pause does not close the exit");
        vm.prank(lp);
        assertEq(vault.redeem(shares, lp, lp), expected);
        assertEq(usdc.balanceOf(lp), expected);
        assertGe(vault.sharePriceWad(), priceBefore, "the LP left behind is not diluted");
    }

    /// Sequence: the attacker makes the first 1-unit deposit, the keeper allocates it, the attacker donates 1e12 USDC
    /// directly to the vault, the perp market and the ClearingHouse (every contract behind the vault's valuation),
    /// then a victim deposits. ACC-04: valuation reads internal ledgers only, so the victim's shares are worth
    /// >= V (1 - 1e-6) and the attacker's one unit cannot grow.
    function test_firstDepositThenDonationToEveryLedgerHolder_victimNotDiluted() public {
        _lpDeposit(attacker, 1);
        vault.allocate(address(perp), 1);
        uint256 gift = 1e12;
        _mintUsdc(attacker, 3 * gift);
        vm.startPrank(attacker);
        usdc.transfer(address(vault), gift);
        usdc.transfer(address(perp), gift);
        usdc.transfer(address(chouse), gift);
        vm.stopPrank();
        assertLe(vault.totalAssets(), 1, "no donation reaches totalAssets");
        uint256 v = 1_000e6;
        uint256 victimShares = _lpDeposit(lp, v);
        assertGe(vault.convertToAssets(victimShares), v - v / 1e6, "ACC-04: victim keeps >= V(1 - 1e-6)");
        assertLe(vault.convertToAssets(vault.balanceOf(attacker)), 1, "the attacker's unit does not grow");
    }

    /// Sequence: an LP deposits under a 1-day lock and approves a spender (a router, or an attacker it trusted), who
    /// tries redeem and withdraw for the owner, and transferFrom to a fresh address to redeem there. ACC-03 / issue 17
    /// item 10: the lock binds the shares, not the caller: every path reverts or carries the lock until its time.
    function test_approvedSpenderCannotShedTheLock() public {
        vault.setLimits(1e15, 1 days);
        uint256 shares = _lpDeposit(lp, 1_000e6);
        (, uint256 unlock) = vault.lockOf(lp);
        vm.prank(lp);
        vault.approve(attacker, type(uint256).max);
        vm.startPrank(attacker);
        vm.expectRevert(
            abi.encodeWithSelector(ILiquidityVaultErrors.VaultSharesLocked.selector, lp, shares, 0, unlock)
        );
        vault.redeem(shares, attacker, lp);
        vm.expectRevert();
        vault.withdraw(1e6, attacker, lp);
        vault.transferFrom(lp, attacker, shares);
        vm.expectRevert(
            abi.encodeWithSelector(ILiquidityVaultErrors.VaultSharesLocked.selector, attacker, shares, 0, unlock)
        );
        vault.redeem(shares, attacker, attacker);
        vm.stopPrank();
        (uint256 lockedA, uint256 unlockA) = vault.lockOf(attacker);
        assertEq(lockedA, shares);
        assertEq(unlockA, unlock, "the lock travelled with the shares");
        assertEq(vault.maxRedeem(attacker), 0);
    }

    /// Sequence: an LP deposits under a 1-day lock, governance raises the lock to 30 days, then lowers it to 0, and a
    /// third party tops up the LP's position. ACC-03 / issue 17 item 10: a lock already taken keeps its own unlock time
    /// (a later parameter change neither extends nor shortens it); only shares minted after a change take the new
    /// period.
    function test_lockChangedBetweenDepositAndRedeem_existingLockKeepsItsTime() public {
        vault.setLimits(1e15, 1 days);
        uint256 t0 = block.timestamp;
        uint256 shares = _lpDeposit(lp, 1_000e6);
        vault.setLimits(1e15, 30 days);
        (uint256 locked, uint256 unlock) = vault.lockOf(lp);
        assertEq(locked, shares);
        assertEq(unlock, t0 + 1 days, "raising the period does not extend a lock already taken");
        vault.setLimits(1e15, 0);
        vm.prank(lp);
        vm.expectRevert(
            abi.encodeWithSelector(ILiquidityVaultErrors.VaultSharesLocked.selector, lp, shares, 0, t0 + 1 days)
        );
        vault.redeem(shares, lp, lp);
        vm.warp(t0 + 1 days);
        vm.prank(lp);
        assertEq(vault.redeem(shares, lp, lp), 1_000e6);
    }
}

/// @notice Round 49: sequence attacks on the InsuranceFund (a restake inside the withdrawal window, a re-request to
///         roll the window, a late staker after a loss, a wipe-out during a request, a third party's stakeFor on a
///         pending withdrawal).
contract InsuranceSequenceAttacksTest is OracleInsuranceBase {
    address internal alice = address(0xA11CE);
    address internal bob = address(0xB0B);
    address internal carol = address(0xCA201);

    function setUp() public {
        _deployOracleAndFund();
    }

    /// Sequence: alice requests half her shares, the cooldown passes, she stakes again inside the window, a loss is
    /// covered, she withdraws. LIQ-06: the fund falls only by the cooled-down request: the new stake does not ride
    /// the open window (the withdrawal stays capped at the requested shares), and the loss is borne pro rata by
    /// every share, the fresh ones included.
    function test_restakeInsideWindow_withdrawCappedAtRequest_freshStakeStays() public {
        uint256 s = _stakeAs(alice, 1_000e6); // 1e15 shares
        _stakeAs(bob, 1_000e6);
        vm.prank(alice);
        (uint64 readyAt, ) = fund.requestWithdraw(s / 2);
        vm.warp(readyAt);
        uint256 fresh = _stakeAs(alice, 1_000e6);
        assertEq(fresh, 1e15, "restaked at par");
        _cover(600e6); // 20 % of 3,000
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IInsuranceFundErrors.InsuranceExceedsRequest.selector, alice, s / 2, s / 2 + 1)
        );
        fund.withdraw(s / 2 + 1, alice);
        vm.prank(alice);
        uint256 out = fund.withdraw(s / 2, alice);
        // 5e14 × (2,400e6 + 1) / (3e15 + 1e6) = 400,000,000.03... → 400,000,000 (rounded down)
        assertEq(out, 400e6);
        assertEq(fund.sharesOf(alice), s / 2 + fresh, "the fresh stake stays in the fund");
        assertEq(fund.withdrawRequest(alice).shares, 0);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IInsuranceFundErrors.InsuranceNoWithdrawRequest.selector, alice));
        fund.withdraw(1, alice);
    }

    /// Sequence: alice's window is open; she re-requests (more shares) to keep a withdrawal ready. LIQ-06: a new
    /// request replaces the old one and restarts the cooldown, so nobody can hold a window open indefinitely; after
    /// a cancel nothing is withdrawable.
    function test_reRequestInsideWindow_restartsCooldown_cannotRollTheWindow() public {
        uint256 s = _stakeAs(alice, 1_000e6);
        vm.prank(alice);
        (uint64 readyAt, ) = fund.requestWithdraw(s / 4);
        vm.warp(readyAt + 1);
        vm.prank(alice);
        (uint64 ready2, uint64 expires2) = fund.requestWithdraw(s);
        assertEq(ready2, block.timestamp + COOLDOWN);
        assertEq(expires2, ready2 + WINDOW);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(
                IInsuranceFundErrors.InsuranceCooldownActive.selector,
                alice,
                ready2,
                block.timestamp
            )
        );
        fund.withdraw(1, alice);
        vm.warp(ready2);
        vm.prank(alice);
        fund.cancelWithdraw();
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IInsuranceFundErrors.InsuranceNoWithdrawRequest.selector, alice));
        fund.withdraw(1, alice);
    }

    /// Sequence: alice stakes, a loss is covered, bob stakes after the loss, fees arrive, both exit. ACC-01 / ACC-05:
    /// the late staker neither pays for the earlier loss nor takes the earlier staker's part of the later fees
    /// (worked numbers, rounded down), and the fund's ledger ends at the dust it kept.
    function test_lateStakerAfterLoss_sharesOnlyLaterFees_workedNumbers() public {
        _stakeAs(alice, 1_000e6); // 1e15 shares
        _cover(500e6); // alice's shares now worth ~500
        uint256 bobShares = _stakeAs(bob, 500e6);
        // 500e6 × (1e15 + 1e6) / (500e6 + 1) = 999,999,999,000,000.998 → 999,999,999,000,000 (rounded down)
        assertEq(bobShares, 999_999_999_000_000);
        _fees(300e6); // 1,300 in the fund, shared about half and half
        uint256 outBob = _exitAll(bob);
        uint256 outAlice = _exitAll(alice);
        // bob: 999,999,999,000,000 × (1,300e6 + 1) / (1,999,999,999,000,000 + 1e6) → 649,999,999
        assertEq(outBob, 649_999_999, "bob gets his 500 and half of the later fees, rounded down");
        // alice: the rest, 650,000,001: her half plus the rounding dust bob's stake left in the fund
        assertEq(outAlice, 650_000_001, "alice recovers only her share of the later fees (+ dust)");
        assertEq(fund.totalAssets(), 1_300e6 - outBob - outAlice, "ledger = what is left");
        assertEq(usdc.balanceOf(address(fund)), fund.totalAssets(), "ACC-01: balance = ledger");
    }

    /// Sequence: alice requests all her shares, her window opens, a near-total loss wipes the shares out, and she
    /// stakes again inside what was her window. LIQ-06: the new stake starts clean in the new share epoch: the old
    /// request is void and cannot release the fresh stake without its own cooldown.
    function test_wipeoutDuringOpenWindow_restakeInheritsNoRequest() public {
        uint256 s = _stakeAs(alice, 1_000e6);
        vm.prank(alice);
        (uint64 readyAt, ) = fund.requestWithdraw(s);
        vm.warp(readyAt);
        _cover(1_000e6 - 999); // leaves 999 units: 999 × 1e12 < 1e15 → shares reset
        assertEq(fund.shareEpoch(), 1);
        _stakeAs(alice, 2_000e6);
        assertEq(fund.withdrawRequest(alice).shares, 0, "the old request is void");
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IInsuranceFundErrors.InsuranceNoWithdrawRequest.selector, alice));
        fund.withdraw(1, alice);
        // and a fresh request cools down in full
        uint256 fresh = fund.sharesOf(alice);
        vm.prank(alice);
        (uint64 ready2, ) = fund.requestWithdraw(fresh);
        assertEq(ready2, block.timestamp + COOLDOWN);
    }

    /// Sequence: alice (a guarantor) has a pending withdrawal; carol stakes for her (stakeFor) during the cooldown,
    /// then a loss is covered. LIQ-06 / CLR-01: a third party cannot reset, extend or cancel another staker's
    /// request by staking for it (the request keeps its shares and times), and the floor is checked on the
    /// post-loss price at withdrawal.
    function test_stakeForDuringCooldown_cannotMoveTheRequest_floorAtPostLossPrice() public {
        uint256 s = _stakeAs(alice, 1_000e6);
        vm.prank(clearing);
        fund.setGuarantorRequirement(alice, 500e6);
        vm.prank(alice);
        (uint64 readyAt, uint64 expiresAt) = fund.requestWithdraw(s / 2);
        usdc.mint(carol, 1e6);
        vm.startPrank(carol);
        usdc.approve(address(fund), 1e6);
        fund.stakeFor(alice, 1e6);
        vm.stopPrank();
        assertEq(fund.withdrawRequest(alice).shares, s / 2);
        assertEq(fund.withdrawRequest(alice).readyAt, readyAt);
        assertEq(fund.withdrawRequest(alice).expiresAt, expiresAt);
        _cover(101e6); // alice's remaining half would be worth ~450 < 500 after the loss
        vm.warp(readyAt);
        vm.prank(alice);
        vm.expectPartialRevert(IInsuranceFundErrors.InsuranceGuarantorFloor.selector);
        fund.withdraw(s / 2, alice);
        // a withdrawal that keeps the floor on the post-loss price goes through
        vm.prank(alice);
        assertGt(fund.withdraw(s / 10, alice), 0);
        assertGe(fund.guarantorStake(alice), 500e6);
    }
}

/// @notice Round 49: the insurance layer of the waterfall under a repeated liquidation (ClearingUnitBase, mock fund,
///         the ClearingAdl shock: bob's 150 deficit, a 60-USDC guarantor, 40 in the fund, 50 left to an ADL round
///         against the shorts dave, carol and erin).
contract InsuranceCoverSequenceTest is ClearingUnitBase {
    address internal carol = makeAddr("carol");
    address internal dave = makeAddr("dave");
    address internal thin = makeAddr("thin guarantor");

    function setUp() public override {
        super.setUp();
        _setupGuarantor(thin, false, 60e6);
        _setupTrader(bob, thin, 100e6);
        _short(dave, 30e18, 60e6);
        _short(carol, 20e18, 100e6);
        vm.prank(bob);
        market.trade(50e18);
        _fundInsurance(40e6);
        oracle.setPrice(5e18);
        liq.liquidate(bob); // guarantor 60, fund 40, ADL claim for the 50 left
    }

    function _short(address who, uint256 sizeCh, uint256 collateralUsdc) internal {
        _setupTrader(who, guarantor, collateralUsdc);
        vm.prank(who);
        market.trade(-int256(sizeCh));
    }

    /// Sequence: the ADL round for bob's last 50 is open and dave nominated; the fund is refilled; a keeper calls
    /// liquidate(bob) again, which draws the 50 from the refilled fund; the round is then executed. LIQ-03 / CLR-03:
    /// one loss is covered once: once the fund has paid the deficit, the ADL round must not also take it from the
    /// winners (dave keeps his position and collateral), and the fund is drawn exactly the deficit.
    function test_liquidateAgainAfterRefill_thenExecuteAdl_lossCoveredOnce() public {
        assertEq(insurance.totalCovered(), 40e6);
        assertEq(chouse.collateralOf(bob), -50e6);
        liq.nominateAdl(bob, dave);
        _fundInsurance(1_000e6);
        liq.liquidate(bob); // the deficit-only waterfall: the refilled fund pays the 50
        assertEq(insurance.totalCovered(), 90e6, "the fund paid the deficit once");
        assertEq(chouse.collateralOf(bob), 0);
        int256 daveColl = chouse.collateralOf(dave);
        vm.warp(block.timestamp + liq.adlWindow());
        try liq.executeAdl(bob) {} catch {}
        assertEq(chouse.positionOf(dave, address(market)).sizeCh, -30e18, "dave is not deleveraged for a paid loss");
        assertEq(chouse.collateralOf(dave), daveColl, "dave's collateral untouched");
        assertEq(insurance.totalCovered(), 90e6, "the fund is not drawn again");
        assertEq(liq.adlClaim(bob).market, address(0), "the claim is closed");
    }

    /// Sequence: the same open round, the fund refilled, and nobody calls liquidate again: the round's execution draws
    /// the fund first (ClearingAdl's refilled-fund rule) and a later liquidate(bob) finds nothing to cover. LIQ-03: the
    /// fund pays the 50 once whichever path runs first.
    function test_executeAdlAfterRefill_thenLiquidateAgain_lossCoveredOnce() public {
        liq.nominateAdl(bob, dave);
        _fundInsurance(1_000e6);
        vm.warp(block.timestamp + liq.adlWindow());
        liq.executeAdl(bob);
        assertEq(insurance.totalCovered(), 90e6);
        try liq.liquidate(bob) {} catch {}
        assertEq(insurance.totalCovered(), 90e6, "the fund is not drawn again");
        assertEq(chouse.positionOf(dave, address(market)).sizeCh, -30e18);
    }
}
