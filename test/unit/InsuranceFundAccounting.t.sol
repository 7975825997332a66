// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OracleInsuranceBase} from "../helpers/OracleInsuranceBase.sol";

/// @notice InsuranceFund accounting properties: ACC-03 (no free value), ACC-04 (inflation attack), ACC-05
///         (rounding direction), fuzzed and with worked numbers.
contract InsuranceFundAccountingTest is OracleInsuranceBase {
    address internal alice = address(0xA11CE);
    address internal bob = address(0xB0B);
    address internal attacker = address(0xA77AC);
    address internal victim = address(0x71C7);

    function setUp() public {
        _deployOracleAndFund();
        fund.setCooldown(0, 1 days); // round trips without waiting (the cooldown is tested elsewhere)
    }

    /// @notice ACC-03: stake then immediate full withdrawal returns ≤ the stake, whatever the fund's state.
    function testFuzz_ACC03_roundTripNeverProfits(uint64 seed, uint64 fees, uint64 loss, uint64 amount) public {
        vm.assume(amount > 0);
        _stakeAs(bob, uint256(seed) + 1);
        if (fees > 0) _fees(fees);
        _cover(loss);
        if (fund.previewStake(amount) == 0) return; // would revert InsuranceZeroShares
        _stakeAs(alice, amount);
        uint256 out = _exitAll(alice);
        assertLe(out, amount);
        assertEq(usdc.balanceOf(alice), out);
    }

    /// @notice ACC-03: a thousand 1-unit round trips never increase a balance (non-integer share price).
    function test_ACC03_thousandOneUnitRoundTrips() public {
        _stakeAs(bob, 1_000e6);
        _fees(333_333); // share price is no longer a round number
        usdc.mint(alice, 1_000);
        vm.startPrank(alice);
        usdc.approve(address(fund), type(uint256).max);
        for (uint256 i = 0; i < 1_000; ++i) {
            uint256 shares = fund.stake(1);
            fund.requestWithdraw(shares);
            fund.withdraw(shares, alice);
        }
        vm.stopPrank();
        assertLe(usdc.balanceOf(alice), 1_000);
        assertGe(fund.totalAssets(), 1_000e6 + 333_333);
    }

    /// @notice ACC-04: attacker stakes 1 unit and donates up to 1e24 by transfer; the victim's shares are worth
    ///         ≥ V·(1 − 1e-6) and the attacker does not profit.
    function testFuzz_ACC04_inflationAttackByDonation(uint256 donation, uint256 victimAmount) public {
        donation = bound(donation, 1, 1e24);
        victimAmount = bound(victimAmount, 1, 1e18);
        _stakeAs(attacker, 1);
        usdc.mint(attacker, donation);
        vm.prank(attacker);
        usdc.transfer(address(fund), donation);
        _stakeAs(victim, victimAmount);
        uint256 victimValue = fund.guarantorStake(victim);
        assertGe(victimValue * 1e6, victimAmount * (1e6 - 1), "victim diluted");
        uint256 attackerOut = _exitAll(attacker);
        assertLe(attackerOut, 1, "attacker profited");
        assertGe(_exitAll(victim), (victimAmount * (1e6 - 1)) / 1e6);
    }

    /// @notice ACC-04 with the ledger path: even a fee deposit right after a 1-unit first stake (the clearing
    ///         role, never an outsider, can deposit fees) leaves the first staker unable to profit from a victim.
    function testFuzz_ACC04_feeDonationDoesNotLetAttackerProfit(uint256 donation, uint256 victimAmount) public {
        donation = bound(donation, 1, 1e24);
        victimAmount = bound(victimAmount, 1, 1e18);
        _stakeAs(attacker, 1);
        _fees(donation);
        if (fund.previewStake(victimAmount) == 0) return; // the victim's stake would revert, not lose
        _stakeAs(victim, victimAmount);
        uint256 attackerOut = _exitAll(attacker);
        // The attacker can never take more than its stake plus the donation it "paid" for (no theft from V).
        assertLe(attackerOut, donation + 1);
        assertLe(_exitAll(victim), victimAmount + donation);
    }

    /// @notice ACC-05: conversions round against the user — worked numbers at a non-integer share price.
    function test_ACC05_roundingDirection_workedNumbers() public {
        _stakeAs(bob, 3e6); // 3e12 shares
        _fees(1); // assets 3,000,001: price = 3,000,002 / 3,000,001,000,000 per share (with the offset)
        // stake 10 units → 10 × 3,000,001,000,000 / 3,000,002 = 9,999,996.66… → 9,999,996 shares (down)
        assertEq(fund.previewStake(10), 9_999_996);
        // 9,999,996 shares → 9,999,996 × 3,000,002 / 3,000,001,000,000 = 9.9999… → 9 units (down)
        assertEq(fund.previewWithdraw(9_999_996), 9);
        // cover rounds nothing: pays exactly min(amount, assets)
        assertEq(_cover(7), 7);
        assertEq(fund.totalAssets(), 2_999_994);
    }
}
