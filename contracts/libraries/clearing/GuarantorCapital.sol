// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolErrors} from "../../interfaces/clearing/IGuarantorPoolErrors.sol";
import {IGuarantorPoolEvents} from "../../interfaces/clearing/IGuarantorPoolEvents.sol";
import {GuarantorPoolStorage, GuarantorStorage} from "./GuarantorStorage.sol";
import {GuarantorBackstop} from "./GuarantorBackstop.sol";
import {GuarantorIncome} from "./GuarantorIncome.sol";
import {GuarantorRules} from "./GuarantorRules.sol";

/// @title GuarantorCapital
/// @notice The GuarantorPool's share book: USDC capital deposited for shares with a virtual offset (ACC-04, both
///         directions rounding down, ACC-05), withdrawals at the share price of now under a notice (CLR-02) and only
///         while the capital left carries the exposure, losses taken from capital first (first loss, LIQ-03), and the
///         guarantor's DPS bond. Internal: inlined into the
///         GuarantorPool, which pulls and pays the tokens after these effects.
library GuarantorCapital {
    using SafeCast for uint256;

    /// @dev A loss that leaves less than 1 unit of capital per 1e30 shares (the share price under 1e-6 of its initial
    ///      1 unit per 1e24 shares) cancels every share (GuarantorSharesReset), as the insurance fund does: without it,
    ///      each near-total loss multiplies what later deposits mint until they overflow. Keeps
    ///      totalShares ≤ 1e30 × capital + a deposit's own shares.
    uint256 private constant MIN_ASSETS_PER_SHARE_INV = 1e30;
    /// @notice Credits shares for `amountUsdc` deposited by the caller into `guarantor` (the entry pulls the USDC).
    ///         Reverts SafeCastOverflowedUintDowncast(96, …) when capital + unvested income would pass type(uint96).max.
    function deposit(
        GuarantorPoolStorage.Layout storage $,
        address guarantor,
        uint256 amountUsdc
    ) internal returns (uint256 shares) {
        if (amountUsdc == 0) revert IGuarantorPoolErrors.PoolZeroAmount();
        GuarantorPoolStorage.GuarantorState storage g = GuarantorStorage.guarantor($, guarantor);
        if (msg.sender != guarantor && !g.open) revert IGuarantorPoolErrors.PoolNotOpen(guarantor);
        GuarantorPoolStorage.IncomeState storage inc = $.income[guarantor];
        GuarantorIncome.release(g, inc);
        uint256 capital = g.capitalUsdc;
        // The bound that keeps every later release within the capital's 96 bits.
        (capital + amountUsdc + inc.unvestedUsdc).toUint96();
        // @dev Shares credited round down (ACC-05).
        shares = Math.mulDiv(
            amountUsdc,
            g.totalShares + GuarantorStorage.VIRTUAL_SHARES,
            capital + GuarantorStorage.VIRTUAL_ASSETS
        );
        if (shares == 0) revert IGuarantorPoolErrors.PoolZeroAmount();
        g.capitalUsdc = uint96(capital + amountUsdc);
        g.totalShares += shares;
        GuarantorPoolStorage.Holding storage h = $.shares[guarantor][msg.sender];
        uint64 epoch = g.shareEpoch;
        uint256 prior = h.epoch == epoch ? h.shares : 0;
        h.shares = (prior + shares).toUint192();
        h.epoch = epoch;
        emit IGuarantorPoolEvents.CapitalDeposited(
            guarantor,
            msg.sender,
            amountUsdc,
            shares,
            g.capitalUsdc,
            g.totalShares
        );
    }

    /// @notice Burns `shares` of the caller for the USDC they are worth now (the entry pays it).
    function withdraw(
        GuarantorPoolStorage.Layout storage $,
        address guarantor,
        uint256 shares
    ) internal returns (uint256 amountUsdc) {
        if (shares == 0) revert IGuarantorPoolErrors.PoolZeroAmount();
        GuarantorPoolStorage.GuarantorState storage g = GuarantorStorage.guarantor($, guarantor);
        uint256 owned = GuarantorStorage.held($, g, guarantor, msg.sender);
        if (shares > owned) revert IGuarantorPoolErrors.PoolInsufficientShares(msg.sender, shares, owned);
        if ($.windowSec != 0) _spendNotice($, g.shareEpoch, guarantor, shares);
        GuarantorIncome.release(g, $.income[guarantor]);
        // @dev USDC paid rounds down (ACC-05), at the share price of now: losses during the notice are borne.
        amountUsdc = Math.mulDiv(
            shares,
            g.capitalUsdc + GuarantorStorage.VIRTUAL_ASSETS,
            g.totalShares + GuarantorStorage.VIRTUAL_SHARES
        );
        if (amountUsdc > g.capitalUsdc) amountUsdc = g.capitalUsdc;
        // Safe downcast: owned − shares ≤ the stored uint192.
        $.shares[guarantor][msg.sender].shares = uint192(owned - shares);
        g.totalShares -= shares;
        g.capitalUsdc -= uint96(amountUsdc);
        GuarantorRules.checkCapacity(guarantor, g.exposureUsdc, g.capitalUsdc, $.maxLeverageWad);
        emit IGuarantorPoolEvents.CapitalWithdrawn(
            guarantor,
            msg.sender,
            amountUsdc,
            shares,
            g.capitalUsdc,
            g.totalShares
        );
    }

    /// @notice Records the caller's notice to withdraw `shares` (refused up front when the exposure needs that
    ///         capital; checked again at the withdrawal).
    function requestWithdrawal(
        GuarantorPoolStorage.Layout storage $,
        address guarantor,
        uint256 shares
    ) internal returns (uint64 readyAt, uint64 expiresAt) {
        if (shares == 0) revert IGuarantorPoolErrors.PoolZeroAmount();
        GuarantorPoolStorage.GuarantorState storage g = GuarantorStorage.guarantor($, guarantor);
        uint256 owned = GuarantorStorage.held($, g, guarantor, msg.sender);
        if (shares > owned) revert IGuarantorPoolErrors.PoolInsufficientShares(msg.sender, shares, owned);
        GuarantorIncome.release(g, $.income[guarantor]);
        uint256 capital = g.capitalUsdc;
        uint256 value = Math.mulDiv(
            shares,
            capital + GuarantorStorage.VIRTUAL_ASSETS,
            g.totalShares + GuarantorStorage.VIRTUAL_SHARES
        );
        // The lock while the exposure needs the capital: customers' exposure ≤ capital after × max leverage.
        GuarantorRules.checkCapacity(
            guarantor,
            g.exposureUsdc,
            value < capital ? capital - value : 0,
            $.maxLeverageWad
        );
        readyAt = uint64(block.timestamp) + $.noticeSec;
        expiresAt = readyAt + $.windowSec;
        $.notices[guarantor][msg.sender] = IGuarantorPool.CapitalNotice(shares, readyAt, expiresAt, g.shareEpoch);
        emit IGuarantorPoolEvents.CapitalWithdrawalRequested(guarantor, msg.sender, shares, readyAt, expiresAt);
    }

    /// @notice Adds `amount` DPS to the caller's bond (the entry pulls it).
    function stake(GuarantorPoolStorage.Layout storage $, uint256 amount) internal {
        if (amount == 0) revert IGuarantorPoolErrors.PoolZeroAmount();
        GuarantorPoolStorage.GuarantorState storage g = GuarantorStorage.guarantor($, msg.sender);
        g.dpsStaked = (g.dpsStaked + amount).toUint128();
        emit IGuarantorPoolEvents.DpsStakeChanged(msg.sender, int256(amount), g.dpsStaked);
    }

    /// @notice Takes `amount` DPS off the caller's bond (the entry pays it): never below the minimum while it
    ///         guarantees exposure.
    function unstake(GuarantorPoolStorage.Layout storage $, uint256 amount) internal {
        if (amount == 0) revert IGuarantorPoolErrors.PoolZeroAmount();
        GuarantorPoolStorage.GuarantorState storage g = GuarantorStorage.guarantor($, msg.sender);
        uint256 staked = g.dpsStaked;
        if (amount > staked || (staked - amount < $.minDpsStake && g.exposureUsdc > 0)) {
            revert IGuarantorPoolErrors.PoolUnstakeNotAllowed(msg.sender, amount, staked);
        }
        g.dpsStaked = uint128(staked - amount);
        emit IGuarantorPoolEvents.DpsStakeChanged(msg.sender, -int256(amount), g.dpsStaked);
    }

    /// @notice Takes up to `amountUsdc` of `account`'s loss from its guarantor's capital, then from its unvested
    ///         income (the entry pays it out); slashes the bond by rule for what stays uncovered; cancels every share
    ///         when the capital left is dust. Returns what it pays (0 without a guarantor).
    function coverLoss(
        GuarantorPoolStorage.Layout storage $,
        address account,
        uint256 amountUsdc
    ) internal returns (uint256 paidUsdc) {
        address guarantor = $.customers[account].guarantor;
        if (guarantor == address(0) || amountUsdc == 0) return 0;
        GuarantorPoolStorage.GuarantorState storage g = $.guarantors[guarantor];
        GuarantorPoolStorage.IncomeState storage inc = $.income[guarantor];
        GuarantorIncome.release(g, inc);
        uint256 capital = g.capitalUsdc;
        // Capital first, then income still vesting (it belongs to the same holders).
        uint256 unvested = inc.unvestedUsdc;
        paidUsdc = Math.min(amountUsdc, capital + unvested);
        uint256 capitalAfter = paidUsdc <= capital ? capital - paidUsdc : 0;
        g.capitalUsdc = uint96(capitalAfter);
        if (paidUsdc > capital) {
            unvested -= paidUsdc - capital;
            inc.unvestedUsdc = uint128(unvested);
        }
        emit IGuarantorPoolEvents.LossCovered(guarantor, account, amountUsdc, paidUsdc, capitalAfter);
        // A guarantor that fails to cover its customer's loss loses part of its DPS bond (bounded, by rule).
        if (paidUsdc < amountUsdc) {
            GuarantorBackstop.slashByRule(guarantor, GuarantorBackstop.SLASH_UNCOVERED_LOSS, amountUsdc - paidUsdc);
        }
        uint256 sharesOutstanding = g.totalShares;
        if (sharesOutstanding != 0 && (capitalAfter + unvested) * MIN_ASSETS_PER_SHARE_INV < sharesOutstanding) {
            // Every share is cancelled at once (O(1): holdings of an older epoch read as zero).
            uint64 epoch = g.shareEpoch + 1;
            g.shareEpoch = epoch;
            g.totalShares = 0;
            emit IGuarantorPoolEvents.GuarantorSharesReset(guarantor, epoch, sharesOutstanding, capitalAfter);
        }
    }

    /// @dev Consumes `shares` of the caller's notice (GuarantorRules.spendNotice, CLR-02).
    function _spendNotice(
        GuarantorPoolStorage.Layout storage $,
        uint64 epoch,
        address guarantor,
        uint256 shares
    ) private {
        IGuarantorPool.CapitalNotice storage n = $.notices[guarantor][msg.sender];
        uint256 left = GuarantorRules.spendNotice(n, epoch, guarantor, msg.sender, shares);
        if (left == 0) delete $.notices[guarantor][msg.sender];
        else n.shares = left;
    }
}
