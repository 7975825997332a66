// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {VaultLocks} from "../../contracts/libraries/vault/VaultLocks.sol";
import {LiquidityVaultStore} from "../../contracts/libraries/vault/VaultStorage.sol";
import {ILiquidityVaultErrors} from "../../contracts/interfaces/markets/ILiquidityVaultErrors.sol";

/// @notice VaultLocks against a reference ledger over random deposits (a lock on the minted shares), transfers and the
///         passing of time among three holders: each holder's locked shares never exceed its balance, a transfer
///         moves unlocked shares first and carries the rest's lock (Σ locked is unchanged by a transfer), an
///         arriving lock never brings an unlock time forward, and a later one moves it to the share-weighted average
///         rounded up. The test contract is the harness (it holds the vault's storage struct).
contract VaultLocksTest is Test {
    LiquidityVaultStore.LiquidityVaultStorage internal s;

    uint256 internal constant LOCK = 1 days;

    function requireExt(address owner, uint256 shares, uint256 balance) external view {
        VaultLocks.requireUnlocked(s, owner, shares, balance);
    }

    function _held(address a) internal view returns (uint256 shares, uint256 until) {
        return VaultLocks.lockOf(s, a);
    }

    /// @dev The share-weighted rule on one lock: joins when no later, weighted average rounded up otherwise.
    function testFuzz_lock_weightedAverageReference(uint128 held, uint128 shares, uint32 ahead0, uint32 ahead1) public {
        vm.warp(1_000_000);
        held = uint128(bound(held, 1, type(uint128).max));
        address a = address(0xA);
        uint256 u0 = block.timestamp + bound(ahead0, 1, 365 days);
        uint256 u1 = block.timestamp + bound(ahead1, 0, 365 days);
        VaultLocks.lock(s, a, held, u0);
        VaultLocks.lock(s, a, shares, u1);
        (uint256 total, uint256 until) = _held(a);
        uint256 ref =
            u1 <= u0 ? u0 : (uint256(held) * u0 + uint256(shares) * u1 + held + shares - 1) / (uint256(held) + shares);
        assertEq(total, uint256(held) + shares);
        assertEq(until, ref);
        assertGe(until, u0, "an arriving lock never ends the lock earlier");
        assertLe(until, u1 > u0 ? u1 : u0);
    }

    /// @dev Random deposits, transfers and waits over three holders against a balance ledger.
    function testFuzz_locks_matchLedger(uint256 seed, uint256 steps) public {
        steps = bound(steps, 1, 40);
        vm.warp(1_000_000);
        uint256[3] memory bal;
        for (uint256 i; i < steps; ++i) {
            uint256 r = uint256(keccak256(abi.encode(seed, i)));
            uint256 op = r % 3;
            if (op == 0) _deposit(bal, (r >> 8) % 3, ((r >> 16) % 1_000) * 1e18);
            else if (op == 1) _transfer(bal, (r >> 8) % 3, r);
            else vm.warp(block.timestamp + ((r >> 40) % (LOCK / 2)));
            for (uint256 k; k < 3; ++k) {
                address h = address(uint160(0xA + k));
                (uint256 locked, ) = _held(h);
                assertLe(locked, bal[k], "locked beyond balance");
                assertEq(VaultLocks.unlocked(s, h, bal[k]), bal[k] - locked);
            }
        }
    }

    function _deposit(uint256[3] memory bal, uint256 ia, uint256 minted) internal {
        address a = address(uint160(0xA + ia));
        (, uint256 before) = _held(a);
        VaultLocks.lock(s, a, minted, block.timestamp + LOCK);
        bal[ia] += minted;
        (, uint256 afterLock) = _held(a);
        if (before != 0 && minted != 0) assertGe(afterLock, before, "lock brought forward");
    }

    function _transfer(uint256[3] memory bal, uint256 ia, uint256 r) internal {
        uint256 ib = (ia + 1 + ((r >> 24) % 2)) % 3;
        address a = address(uint160(0xA + ia));
        address b = address(uint160(0xA + ib));
        uint256 value = bal[ia] == 0 ? 0 : (r >> 32) % (bal[ia] + 1);
        (uint256 la, ) = _held(a);
        (uint256 lb, ) = _held(b);
        uint256 free = bal[ia] - la;
        VaultLocks.onTransfer(s, a, b, value, bal[ia]);
        bal[ia] -= value;
        bal[ib] += value;
        (uint256 la2, ) = _held(a);
        (uint256 lb2, ) = _held(b);
        assertEq(la2 + lb2, la + lb, "a transfer changes the locked total");
        assertEq(la - la2, value > free ? value - free : 0, "unlocked shares move first");
    }

    /// @dev requireUnlocked reverts exactly above the unlocked part, naming the unlock time; nothing once it ends.
    function testFuzz_requireUnlocked_boundary(uint128 locked, uint128 extra, uint256 ask, uint32 wait) public {
        vm.warp(1_000_000);
        address a = address(0xA);
        VaultLocks.lock(s, a, locked, block.timestamp + LOCK);
        uint256 balance = uint256(locked) + extra;
        ask = bound(ask, 0, balance);
        vm.warp(block.timestamp + bound(wait, 0, 2 * LOCK));
        bool live = block.timestamp < 1_000_000 + LOCK;
        uint256 free = live ? extra : balance;
        if (ask > free) {
            vm.expectRevert(
                abi.encodeWithSelector(ILiquidityVaultErrors.VaultSharesLocked.selector, a, ask, free, 1_000_000 + LOCK)
            );
        }
        this.requireExt(a, ask, balance);
    }
}
