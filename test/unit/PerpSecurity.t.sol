// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../helpers/PerpSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {ILiquidityVault} from "../../contracts/interfaces/ILiquidityVault.sol";

/// @notice PerpMarket security regressions (issue 17): LP equity and open-skew premium.
contract PerpSecurityTest is PerpSolBase {
    address internal victim = makeAddr("victimLp");
    address internal attacker = makeAddr("attackerLp");
    address[5] internal accounts;

    function setUp() public {
        _deployPerps();
        _setRole(address(vault), ILiquidityVault.allocate.selector, Roles.KEEPER);
        _grant(Roles.KEEPER, address(this));
        _setupGuarantor(guarantor, false, 1_000_000e6);
        for (uint256 i; i < 5; ++i) {
            accounts[i] = makeAddr(string.concat("attackerTrader", vm.toString(i)));
            _setupTrader(accounts[i], guarantor, 20_000e6);
        }
    }

    function _lpDeposit(address lp, uint256 amountUsdc) internal returns (uint256 shares) {
        _mintUsdc(lp, amountUsdc);
        vm.startPrank(lp);
        usdcApprove(address(vault), amountUsdc);
        shares = vault.deposit(amountUsdc, lp);
        vm.stopPrank();
    }

    function _trade(address account, int256 sizeCh) internal {
        vm.prank(account);
        perp.trade(sizeCh, 0);
    }

    /// Issue 17 item 2: a 50 % LP opens skew-increasing positions (their premium counted as LP equity at the index),
    /// redeems at the inflated share price, then closes (the premium comes back). The other LP must not pay for it.
    function test_lpOpensSkewRedeemsCloses_cannotTakeOtherLpsValue() public {
        _lpDeposit(victim, 500_000e6);
        uint256 attackerShares = _lpDeposit(attacker, 500_000e6);
        vault.allocate(address(perp), 300_000e6);
        uint256 victimBefore = vault.convertToAssets(vault.balanceOf(victim));
        int256 tradersBefore;
        for (uint256 i; i < 5; ++i) tradersBefore += chouse.collateralOf(accounts[i]);

        for (uint256 i; i < 5; ++i) _trade(accounts[i], 10_000e18); // skew 0 → 50,000: 2.5 % average premium
        vm.prank(attacker);
        uint256 redeemed = vault.redeem(attackerShares, attacker, attacker);
        for (uint256 i; i < 5; ++i) _trade(accounts[i], -10_000e18);

        int256 tradersAfter;
        for (uint256 i; i < 5; ++i) tradersAfter += chouse.collateralOf(accounts[i]);
        int256 attackerGain = int256(redeemed) - 500_000e6 + tradersAfter - tradersBefore;
        assertLe(attackerGain, 0, "the round trip must not pay");
        assertGe(vault.convertToAssets(vault.balanceOf(victim)), victimBefore, "the other LP keeps its value");
    }
}
