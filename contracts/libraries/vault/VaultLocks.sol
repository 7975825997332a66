// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ILiquidityVaultErrors} from "../../interfaces/markets/ILiquidityVaultErrors.sol";
import {ILiquidityVaultEvents} from "../../interfaces/markets/ILiquidityVaultEvents.sol";
import {LiquidityVaultStore} from "./VaultStorage.sol";

/// @title VaultLocks
/// @notice The LiquidityVault's share locks (issue 17 item 10): the shares a deposit mints are locked for the lock
///         period; locked shares share one unlock time per owner and keep their lock when transferred.
library VaultLocks {
    using Math for uint256;

    /// @dev Adds `shares` locked until `until` to `owner`'s lock. Locked shares share one unlock time: an incoming
    ///      lock that ends no later than the current one joins it; a later one moves the unlock time to the
    ///      share-weighted average, rounded up (Aave's staked-token cooldown rule). So nobody can lock someone
    ///      else's shares for longer at less than the cost of the shares it gives away, and no lock ever ends
    ///      earlier because shares arrive.
    function lock(
        LiquidityVaultStore.LiquidityVaultStorage storage $,
        address owner,
        uint256 shares,
        uint256 until
    ) internal {
        LiquidityVaultStore.Lock memory lk = $.locks[owner];
        uint256 held = block.timestamp < lk.unlocksAt ? lk.shares : 0;
        uint256 unlock = until;
        if (held != 0 && until <= lk.unlocksAt) unlock = lk.unlocksAt;
        else if (held != 0) unlock = (held * lk.unlocksAt + shares * until).ceilDiv(held + shares);
        uint256 total = held + shares;
        $.locks[owner] = LiquidityVaultStore.Lock(uint192(total), uint64(unlock));
        emit ILiquidityVaultEvents.SharesLocked(owner, total, unlock);
    }

    /// @dev A transfer of `value` from `from` (holding `balance`) moves its unlocked shares first; locked shares it
    ///      moves stay locked at `to` until the sender's unlock time, so a lock cannot be shed by moving shares.
    function onTransfer(
        LiquidityVaultStore.LiquidityVaultStorage storage $,
        address from,
        address to,
        uint256 value,
        uint256 balance
    ) internal {
        LiquidityVaultStore.Lock memory lk = $.locks[from];
        uint256 held = block.timestamp < lk.unlocksAt ? lk.shares : 0;
        uint256 free = balance - held;
        if (value > free && value <= balance) {
            uint256 moved = value - free;
            $.locks[from].shares = uint192(held - moved);
            emit ILiquidityVaultEvents.SharesLocked(from, held - moved, lk.unlocksAt);
            lock($, to, moved, lk.unlocksAt);
        }
    }

    /// @dev The owner's shares (of `balance`) outside its lock (a lock that has ended holds nothing).
    function unlocked(
        LiquidityVaultStore.LiquidityVaultStorage storage $,
        address owner,
        uint256 balance
    ) internal view returns (uint256) {
        LiquidityVaultStore.Lock memory lk = $.locks[owner];
        uint256 held = block.timestamp < lk.unlocksAt ? lk.shares : 0;
        return balance > held ? balance - held : 0;
    }

    /// @dev Reverts unless `shares` of the owner's `balance` are unlocked.
    function requireUnlocked(
        LiquidityVaultStore.LiquidityVaultStorage storage $,
        address owner,
        uint256 shares,
        uint256 balance
    ) internal view {
        uint256 free = unlocked($, owner, balance);
        if (shares > free) {
            revert ILiquidityVaultErrors.VaultSharesLocked(owner, shares, free, $.locks[owner].unlocksAt);
        }
    }

    /// @dev The owner's lock while it holds (zeros once it has ended).
    function lockOf(
        LiquidityVaultStore.LiquidityVaultStorage storage $,
        address owner
    ) internal view returns (uint256 lockedShares, uint256 unlocksAt) {
        LiquidityVaultStore.Lock memory lk = $.locks[owner];
        if (block.timestamp < lk.unlocksAt) return (lk.shares, lk.unlocksAt);
    }
}
