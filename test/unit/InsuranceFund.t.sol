// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OracleInsuranceBase} from "../helpers/OracleInsuranceBase.sol";
import {IInsuranceFund} from "../../contracts/interfaces/clearing/IInsuranceFund.sol";
import {IInsuranceFundEvents} from "../../contracts/interfaces/clearing/IInsuranceFundEvents.sol";
import {IInsuranceFundErrors} from "../../contracts/interfaces/clearing/IInsuranceFundErrors.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";

/// @notice InsuranceFund unit tests: staking, pro-rata losses (worked numbers), fee share, cooldown and window,
///         guarantor floor, surplus, pause and access control; every revert by error name.
contract InsuranceFundTest is OracleInsuranceBase {
    address internal alice = address(0xA11CE);
    address internal bob = address(0xB0B);
    address internal guarantor = address(0x6AA);

    function setUp() public {
        _deployOracleAndFund();
    }

    // ---------------------------------------------------------------- staking

    function test_stake_firstStakerGetsOffsetShares_andEmitsPostState() public {
        usdc.mint(alice, 1_000e6);
        vm.startPrank(alice);
        usdc.approve(address(fund), 1_000e6);
        vm.expectEmit(address(fund));
        // 1,000 USDC × (0 + 1e6) / (0 + 1) = 1e15 shares.
        emit IInsuranceFundEvents.InsuranceStaked(alice, alice, 1_000e6, 1e15, 1e15, 1e15, 1_000e6);
        uint256 shares = fund.stake(1_000e6);
        vm.stopPrank();
        assertEq(shares, 1e15);
        assertEq(fund.totalAssets(), 1_000e6);
        assertEq(fund.totalShares(), 1e15);
        assertEq(fund.guarantorStake(alice), 1_000e6);
        assertEq(usdc.balanceOf(address(fund)), 1_000e6);
    }

    function test_stakeFor_creditsTheBeneficiary() public {
        usdc.mint(bob, 500e6);
        vm.startPrank(bob);
        usdc.approve(address(fund), 500e6);
        vm.expectEmit(address(fund));
        emit IInsuranceFundEvents.InsuranceStaked(guarantor, bob, 500e6, 5e14, 5e14, 5e14, 500e6);
        fund.stakeFor(guarantor, 500e6);
        vm.stopPrank();
        assertEq(fund.sharesOf(guarantor), 5e14);
        assertEq(fund.sharesOf(bob), 0);
    }

    function test_stake_revertsOnZero_andOnZeroShares() public {
        vm.expectRevert(IInsuranceFundErrors.InsuranceZeroAmount.selector);
        fund.stake(0);
        // 1 unit staked, then 10 USDC of fees: one share is now worth more than 1 unit.
        _stakeAs(alice, 1);
        _fees(10e6);
        usdc.mint(bob, 1);
        vm.startPrank(bob);
        usdc.approve(address(fund), 1);
        vm.expectRevert(abi.encodeWithSelector(IInsuranceFundErrors.InsuranceZeroShares.selector, 1));
        fund.stake(1);
        vm.stopPrank();
    }

    function test_stake_pausedByGuardian_butWithdrawStaysOpen() public {
        _stakeAs(alice, 100e6);
        vm.prank(alice);
        fund.requestWithdraw(1e14);
        bytes32 feature = fund.STAKE_FEATURE();
        vm.prank(guardian);
        fund.pauseFeature(feature);
        usdc.mint(bob, 1e6);
        vm.startPrank(bob);
        usdc.approve(address(fund), 1e6);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, feature));
        fund.stake(1e6);
        vm.stopPrank();
        vm.warp(block.timestamp + COOLDOWN);
        vm.prank(alice);
        assertEq(fund.withdraw(1e14, alice), 100e6);
    }

    // ---------------------------------------------------------------- losses and fees (worked numbers)

    function test_coverBadDebt_lossIsProRata_workedNumbers() public {
        _stakeAs(alice, 1_000e6);
        _stakeAs(bob, 3_000e6);
        assertEq(fund.sharesOf(bob), 3e15);
        vm.expectEmit(address(fund));
        emit IInsuranceFundEvents.InsuranceBadDebtCovered(clearing, 400e6, 400e6, 0, 3_600e6, 4e15);
        assertEq(_cover(400e6), 400e6);
        assertEq(usdc.balanceOf(clearing), 400e6);
        // 10 % loss each: 1e15 × (3,600e6 + 1) / (4e15 + 1e6) = 900,000,000.
        assertEq(fund.guarantorStake(alice), 900e6);
        assertEq(fund.guarantorStake(bob), 2_700e6);
        assertEq(_exitAll(alice), 900e6);
    }

    function test_coverBadDebt_paysAtMostTheFund_neverNegative_andResetsShares() public {
        _stakeAs(alice, 1_000e6);
        vm.expectEmit(address(fund));
        emit IInsuranceFundEvents.InsuranceSharesReset(1, 1e15, 0);
        vm.expectEmit(address(fund));
        emit IInsuranceFundEvents.InsuranceBadDebtCovered(clearing, 5_000e6, 1_000e6, 4_000e6, 0, 0);
        assertEq(_cover(5_000e6), 1_000e6);
        assertEq(fund.totalAssets(), 0);
        assertEq(_cover(1), 0);
        // The wiped-out staker's shares are void; a new staker starts at the initial share price.
        assertEq(fund.shareEpoch(), 1);
        assertEq(fund.sharesOf(alice), 0);
        assertEq(fund.totalShares(), 0);
        assertEq(_stakeAs(bob, 10e6), 10e12);
        assertEq(_stakeAs(alice, 10e6), 10e12);
        assertEq(fund.guarantorStake(alice), 10e6);
    }

    function test_coverBadDebt_nearTotalLossResetsShares_oldRequestVoid() public {
        _stakeAs(alice, 1_000e6); // 1e15 shares
        vm.prank(alice);
        fund.requestWithdraw(1e15);
        // Leaves 999 units: 999 × 1e12 < 1e15 shares → reset; the 999 units stay for future stakers.
        vm.expectEmit(address(fund));
        emit IInsuranceFundEvents.InsuranceSharesReset(1, 1e15, 999);
        _cover(1_000e6 - 999);
        assertEq(fund.withdrawRequest(alice).shares, 0);
        vm.warp(block.timestamp + COOLDOWN);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IInsuranceFundErrors.InsuranceInsufficientShares.selector, alice, 1e15, 0)
        );
        fund.withdraw(1e15, alice);
    }

    function test_depositFees_sharedProRata_workedNumbers() public {
        _stakeAs(alice, 1_000e6);
        _stakeAs(bob, 3_000e6);
        usdc.mint(clearing, 400e6);
        vm.startPrank(clearing);
        usdc.approve(address(fund), 400e6);
        vm.expectEmit(address(fund));
        emit IInsuranceFundEvents.InsuranceFeesDeposited(clearing, 400e6, 4_400e6, 4e15);
        fund.depositFees(400e6);
        vm.stopPrank();
        // 1e15 × 4,400,000,001 / 4,000,000,001e6 = 1,099,999,999.75 → rounded down (ACC-05).
        assertEq(fund.guarantorStake(alice), 1_099_999_999);
        assertEq(fund.guarantorStake(bob), 3_299_999_999);
        vm.expectRevert(IInsuranceFundErrors.InsuranceZeroAmount.selector);
        vm.prank(clearing);
        fund.depositFees(0);
    }

    // ---------------------------------------------------------------- cooldown

    function test_withdraw_cooldownAndWindow() public {
        _stakeAs(alice, 1_000e6);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IInsuranceFundErrors.InsuranceNoWithdrawRequest.selector, alice));
        fund.withdraw(1, alice);

        uint64 ready = uint64(block.timestamp) + COOLDOWN;
        vm.expectEmit(address(fund));
        emit IInsuranceFundEvents.InsuranceWithdrawRequested(alice, 4e14, ready, ready + WINDOW);
        vm.prank(alice);
        (uint64 readyAt, uint64 expiresAt) = fund.requestWithdraw(4e14);
        assertEq(readyAt, ready);
        assertEq(expiresAt, ready + WINDOW);

        vm.warp(ready - 1);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IInsuranceFundErrors.InsuranceCooldownActive.selector, alice, ready, ready - 1)
        );
        fund.withdraw(4e14, alice);

        vm.warp(ready);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IInsuranceFundErrors.InsuranceExceedsRequest.selector, alice, 4e14, 4e14 + 1)
        );
        fund.withdraw(4e14 + 1, alice);

        vm.expectEmit(address(fund));
        emit IInsuranceFundEvents.InsuranceWithdrawn(alice, bob, 1e14, 100e6, 9e14, 3e14, 9e14, 900e6);
        vm.prank(alice);
        assertEq(fund.withdraw(1e14, bob), 100e6);
        assertEq(usdc.balanceOf(bob), 100e6);
        assertEq(fund.withdrawRequest(alice).shares, 3e14);

        vm.warp(ready + WINDOW + 1);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(
                IInsuranceFundErrors.InsuranceWithdrawWindowExpired.selector,
                alice,
                ready + WINDOW,
                ready + WINDOW + 1
            )
        );
        fund.withdraw(1e14, alice);
    }

    function test_withdraw_lossDuringCooldownIsBorne() public {
        _stakeAs(alice, 1_000e6);
        _stakeAs(bob, 1_000e6);
        vm.prank(alice);
        fund.requestWithdraw(1e15);
        _cover(500e6); // 25 % loss while alice cools down
        vm.warp(block.timestamp + COOLDOWN);
        vm.prank(alice);
        // 1e15 × (1,500e6 + 1) / (2e15 + 1e6) = 750,000,000.1 → 750,000,000.
        assertEq(fund.withdraw(1e15, alice), 750e6);
    }

    function test_requestWithdraw_reverts_andCancel() public {
        _stakeAs(alice, 1_000e6);
        vm.startPrank(alice);
        vm.expectRevert(IInsuranceFundErrors.InsuranceZeroAmount.selector);
        fund.requestWithdraw(0);
        vm.expectRevert(
            abi.encodeWithSelector(IInsuranceFundErrors.InsuranceInsufficientShares.selector, alice, 1e15 + 1, 1e15)
        );
        fund.requestWithdraw(1e15 + 1);
        vm.expectRevert(abi.encodeWithSelector(IInsuranceFundErrors.InsuranceNoWithdrawRequest.selector, alice));
        fund.cancelWithdraw();
        fund.requestWithdraw(1e15);
        vm.expectEmit(address(fund));
        emit IInsuranceFundEvents.InsuranceWithdrawCancelled(alice);
        fund.cancelWithdraw();
        vm.stopPrank();
        assertEq(fund.withdrawRequest(alice).shares, 0);
    }

    // ---------------------------------------------------------------- guarantor floor

    function test_guarantorFloor_blocksRequestAndWithdraw() public {
        _stakeAs(guarantor, 1_000e6);
        vm.expectEmit(address(fund));
        emit IInsuranceFundEvents.InsuranceGuarantorRequirementSet(guarantor, 600e6, 1_000e6);
        vm.prank(clearing);
        fund.setGuarantorRequirement(guarantor, 600e6);
        assertEq(fund.guarantorRequirement(guarantor), 600e6);
        assertEq(fund.guarantorShortfall(guarantor), 0);

        vm.prank(guarantor);
        vm.expectRevert(
            abi.encodeWithSelector(IInsuranceFundErrors.InsuranceGuarantorFloor.selector, guarantor, 600e6, 500e6)
        );
        fund.requestWithdraw(5e14);

        vm.prank(guarantor);
        fund.requestWithdraw(4e14); // leaves exactly 600 USDC
        vm.prank(clearing);
        fund.setGuarantorRequirement(guarantor, 700e6); // risk grew during the cooldown
        vm.warp(block.timestamp + COOLDOWN);
        vm.prank(guarantor);
        vm.expectRevert(
            abi.encodeWithSelector(IInsuranceFundErrors.InsuranceGuarantorFloor.selector, guarantor, 700e6, 600e6)
        );
        fund.withdraw(4e14, guarantor);
        vm.prank(guarantor);
        assertEq(fund.withdraw(3e14, guarantor), 300e6);
        assertEq(fund.guarantorStake(guarantor), 700e6);

        _cover(70e6); // a loss takes the guarantor under its requirement
        assertEq(fund.guarantorShortfall(guarantor), 70e6);
    }

    // ---------------------------------------------------------------- surplus, cooldown config, access

    function test_sweepSurplus_onlyMovesUsdcOutsideTheLedger() public {
        _stakeAs(alice, 100e6);
        vm.expectRevert(IInsuranceFundErrors.InsuranceNoSurplus.selector);
        fund.sweepSurplus(bob);
        usdc.mint(address(fund), 42e6); // an accidental transfer
        assertEq(fund.totalAssets(), 100e6);
        vm.expectEmit(address(fund));
        emit IInsuranceFundEvents.InsuranceSurplusSwept(bob, 42e6);
        assertEq(fund.sweepSurplus(bob), 42e6);
        assertEq(fund.totalAssets(), 100e6);
        assertEq(usdc.balanceOf(address(fund)), 100e6);
    }

    function test_setCooldown_validatesAndEmits() public {
        vm.expectRevert(abi.encodeWithSelector(IInsuranceFundErrors.InsuranceInvalidCooldown.selector, 1 days, 0));
        fund.setCooldown(1 days, 0);
        vm.expectEmit(address(fund));
        emit IInsuranceFundEvents.InsuranceCooldownSet(3 days, 1 days);
        fund.setCooldown(3 days, 1 days);
        (uint64 c, uint64 w) = fund.cooldown();
        assertEq(c, 3 days);
        assertEq(w, 1 days);
    }

    function test_SEC01_clearingAndGovernanceFunctionsAreRestricted() public {
        address stranger = address(0xBAD);
        vm.startPrank(stranger);
        vm.expectRevert(_unauthorized(stranger));
        fund.coverBadDebt(1, stranger);
        vm.expectRevert(_unauthorized(stranger));
        fund.depositFees(1);
        vm.expectRevert(_unauthorized(stranger));
        fund.setGuarantorRequirement(stranger, 0);
        vm.expectRevert(_unauthorized(stranger));
        fund.setCooldown(1, 1);
        vm.expectRevert(_unauthorized(stranger));
        fund.sweepSurplus(stranger);
        vm.expectRevert(_unauthorized(stranger));
        fund.pauseFeature(keccak256("insurance.stake"));
        vm.stopPrank();
        assertEq(fund.asset(), address(usdc));
    }
}
