// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../helpers/PerpSolBase.sol";
import {PerpOrderSteps} from "../helpers/PerpOrderSteps.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {ILiquidityVault} from "../../contracts/interfaces/markets/ILiquidityVault.sol";
import {ILiquidityVaultErrors} from "../../contracts/interfaces/markets/ILiquidityVaultErrors.sol";

/// @notice LiquidityVault security regressions (issue 17): share locks that a third party cannot extend.
contract LiquidityVaultTest is PerpSolBase {
    uint32 internal constant LOCK = 1 days;
    address internal victim = makeAddr("victim");
    address internal attacker = makeAddr("attacker");

    function setUp() public {
        _deployPerps();
        _setRole(address(vault), ILiquidityVault.allocate.selector, Roles.KEEPER);
        _grant(Roles.KEEPER, address(this));
        vault.setLimits(1e15, LOCK);
    }

    function _deposit(address from, uint256 amountUsdc, address receiver) internal returns (uint256 shares) {
        _mintUsdc(from, amountUsdc);
        vm.startPrank(from);
        usdcApprove(address(vault), amountUsdc);
        shares = vault.deposit(amountUsdc, receiver);
        vm.stopPrank();
    }

    // ───────────────────────────── item 10: locks ─────────────────────────────

    /// Issue 17 item 10: `deposit(1, victim)` just before the victim's unlock used to reset the victim's whole lock.
    function test_thirdPartyDustDeposit_cannotExtendVictimLock() public {
        uint256 own = _deposit(victim, 1_000e6, victim);
        vm.warp(block.timestamp + LOCK - 1);
        _deposit(attacker, 1, victim);
        vm.warp(block.timestamp + 3);
        // the victim's own shares are free at their own unlock time
        vm.prank(victim);
        assertEq(vault.redeem(own, victim, victim), 1_000e6);
    }

    /// The same through a share transfer: shares arriving may move the receiver's lock only by the share-weighted
    /// average of what arrives (so extending it costs the attacker what it gives away), never lock unlocked shares.
    function test_transferToVictim_extendsLockOnlyInProportion() public {
        uint256 t0 = block.timestamp;
        uint256 own = _deposit(victim, 1_000e6, victim);
        vm.warp(t0 + LOCK - 1);
        uint256 gift = _deposit(attacker, 1e6, attacker);
        vm.prank(attacker);
        vault.transfer(victim, gift);
        // weighted: (own·(t0 + L) + gift·(t0 + 2L − 1)) / (own + gift), rounded up
        uint256 expected = t0 + LOCK + ((LOCK - 1) * gift + own + gift - 1) / (own + gift);
        (uint256 locked, uint256 unlock) = vault.lockOf(victim);
        assertEq(locked, own + gift);
        assertEq(unlock, expected);
        assertLe(unlock - (t0 + LOCK), 87); // 1 USDC on 1,000 buys ≈ 1/1001 of a day
        vm.warp(unlock - 1);
        vm.prank(victim);
        vm.expectRevert(
            abi.encodeWithSelector(ILiquidityVaultErrors.VaultSharesLocked.selector, victim, own, 0, unlock)
        );
        vault.redeem(own, victim, victim);
        vm.warp(unlock);
        vm.prank(victim);
        assertEq(vault.redeem(own + gift, victim, victim), 1_001e6);
    }

    /// A victim whose shares are all unlocked keeps them unlocked when locked shares arrive.
    function test_transferToUnlockedVictim_locksOnlyTheArrivingShares() public {
        uint256 own = _deposit(victim, 1_000e6, victim);
        vm.warp(block.timestamp + LOCK);
        uint256 gift = _deposit(attacker, 1e6, attacker);
        vm.prank(attacker);
        vault.transfer(victim, gift);
        (uint256 locked, uint256 unlock) = vault.lockOf(victim);
        assertEq(locked, gift);
        assertEq(unlock, block.timestamp + LOCK);
        assertEq(vault.maxRedeem(victim), own);
        vm.prank(victim);
        assertEq(vault.redeem(own, victim, victim), 1_000e6);
    }

    /// Depositing for another address does not bypass the lock: the minted shares are locked at the receiver.
    function test_depositForFreshAddress_mintedSharesStayLocked() public {
        address fresh = makeAddr("fresh");
        uint256 shares = _deposit(attacker, 1_000e6, fresh);
        assertEq(vault.maxRedeem(fresh), 0);
        vm.prank(fresh);
        vm.expectRevert(
            abi.encodeWithSelector(
                ILiquidityVaultErrors.VaultSharesLocked.selector,
                fresh,
                shares,
                0,
                block.timestamp + LOCK
            )
        );
        vault.redeem(shares, fresh, fresh);
    }

    /// Moving locked shares out carries their lock: the sender's unlocked shares move first, the rest stay locked.
    function test_transferLockedShares_carriesTheLock() public {
        uint256 old = _deposit(victim, 500e6, victim);
        vm.warp(block.timestamp + LOCK);
        uint256 fresh = _deposit(victim, 500e6, victim);
        address other = makeAddr("other");
        vm.prank(victim);
        vault.transfer(other, old + fresh / 2); // all unlocked shares and half the locked ones
        (uint256 lockedV, uint256 unlockV) = vault.lockOf(victim);
        (uint256 lockedO, uint256 unlockO) = vault.lockOf(other);
        assertEq(lockedV, fresh - fresh / 2);
        assertEq(lockedO, fresh / 2);
        assertEq(unlockO, unlockV);
        assertEq(vault.maxRedeem(other), old);
        assertEq(vault.maxRedeem(victim), 0);
        vm.warp(unlockO);
        (lockedO, unlockO) = vault.lockOf(other);
        assertEq(lockedO + unlockO, 0);
        assertEq(vault.maxRedeem(other), old + fresh / 2);
    }

    // ───────────────────────────── items 27–29: ERC-4626 limits ─────────────────────────────

    /// @dev An LP with 10,000 USDC all in the perp pool; a trader 10,000 CH long at 10; the price to 12: the
    ///      trader's 20,000 profit exceeds LP equity.
    function _makeInsolvent() internal {
        vault.setLimits(1e15, 0);
        _deposit(victim, 10_000e6, victim);
        vault.allocate(address(perp), 10_000e6);
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(attacker, guarantor, 30_000e6);
        PerpOrderSteps.mustTrade(perp, attacker, 10_000e18);
        index.setPrice(12e18);
    }

    /// Issue 17 item 27: while the vault is insolvent, deposit and mint revert VaultInsolvent, so the max views
    /// must say 0 (ERC-4626: max* must not overstate what the action accepts).
    function test_insolventVault_maxDepositAndMintAreZero() public {
        _makeInsolvent();
        assertLt(int256(0), int256(vault.totalSupply()));
        assertEq(vault.totalAssets(), 0);
        assertEq(vault.maxDeposit(attacker), 0);
        assertEq(vault.maxMint(attacker), 0);
    }

    /// Issue 17 item 28: after `withdraw(maxWithdraw)` the shares left are worth 0 assets; maxRedeem must not offer
    /// them (redeem reverts VaultZeroAmount for shares worth nothing).
    function test_dustAfterMaxWithdraw_maxRedeemIsZero() public {
        vault.setLimits(1e15, 0);
        _deposit(victim, 1_000e6, victim);
        _deposit(attacker, 1_003e6, attacker);
        // fees paid into the pool lift the share price above 1: a withdrawal's shares round up, dust is left
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(makeAddr("trader"), guarantor, 10_000e6);
        PerpOrderSteps.mustTrade(perp, makeAddr("trader"), 1_000e18);
        assertLt(vault.maxWithdraw(victim), vault.liquidUsdc()); // the owner's value binds, not liquidity
        vm.startPrank(victim);
        vault.withdraw(vault.maxWithdraw(victim), victim, victim);
        vm.stopPrank();
        uint256 left = vault.balanceOf(victim);
        assertGt(left, 0);
        assertEq(vault.previewRedeem(left), 0);
        assertEq(vault.maxRedeem(victim), 0);
    }

    /// Issue 17 item 29: with a stale oracle the ERC-4626 views must not revert: the max views return 0 (every
    /// action would revert), totalAssets and the conversions count the markets that cannot be valued as 0.
    function test_staleOracle_viewsDoNotRevert() public {
        vault.setLimits(1e15, 0);
        uint256 shares = _deposit(victim, 1_000e6, victim);
        vault.allocate(address(perp), 600e6);
        index.setStale(true);
        assertEq(vault.totalAssets(), 400e6);
        assertGt(vault.convertToShares(1e6), 0);
        assertGt(vault.convertToAssets(shares), 0);
        assertEq(vault.maxDeposit(victim), 0);
        assertEq(vault.maxMint(victim), 0);
        assertEq(vault.maxWithdraw(victim), 0);
        assertEq(vault.maxRedeem(victim), 0);
        assertGt(vault.sharePriceWad(), 0);
        // the actions themselves still value every market strictly
        vm.prank(victim);
        vm.expectRevert();
        vault.redeem(shares, victim, victim);
        index.setStale(false);
        assertEq(vault.totalAssets(), 1_000e6);
    }
}
