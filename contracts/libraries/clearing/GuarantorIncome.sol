// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IGuarantorPoolErrors} from "../../interfaces/clearing/IGuarantorPoolErrors.sol";
import {IGuarantorPoolEvents} from "../../interfaces/clearing/IGuarantorPoolEvents.sol";
import {GuarantorPoolStorage} from "./GuarantorStorage.sol";
import {GuarantorRules} from "./GuarantorRules.sol";

/// @title GuarantorIncome
/// @notice The GuarantorPool's fee income: the guarantor's share of its customers' risk-increasing fees accrues as
///         pending income (owed by the ClearingHouse until it pays it in), is collected into vesting and enters the
///         share price linearly over `vestSec` (what was still unvested restarts with new income, never faster).
///         Internal: inlined into the GuarantorPool (token pulls stay in the entry).
library GuarantorIncome {
    using SafeCast for uint256;

    /// @notice Moves the income vested since the last release into capital (the share price).
    function release(
        GuarantorPoolStorage.GuarantorState storage g,
        GuarantorPoolStorage.IncomeState storage inc
    ) internal {
        uint256 unvested = inc.unvestedUsdc;
        if (unvested == 0) return;
        uint256 out = GuarantorRules.vestedPart(unvested, inc.vestStart, inc.vestEnd, block.timestamp);
        if (out == 0) return;
        // Safe downcast: out ≤ unvested, a uint128.
        inc.unvestedUsdc = uint128(unvested - out);
        inc.vestStart = uint64(block.timestamp);
        // Safe downcast: capital + unvested ≤ type(uint96).max (deposit and vest check it) and out ≤ unvested.
        g.capitalUsdc = uint96(g.capitalUsdc + out);
    }

    /// @notice Capital including the income vested since the last release (what a deposit or withdrawal now prices).
    function capitalNow(
        GuarantorPoolStorage.GuarantorState storage g,
        GuarantorPoolStorage.IncomeState storage inc
    ) internal view returns (uint256) {
        return g.capitalUsdc + GuarantorRules.vestedPart(inc.unvestedUsdc, inc.vestStart, inc.vestEnd, block.timestamp);
    }

    /// @notice Adds `amountUsdc` to the guarantor's income: vesting linearly over vestSec from now (what was still
    ///         unvested restarts with it, never faster), or straight into capital when vestSec is 0. Reverts
    ///         SafeCastOverflowedUintDowncast(96, …) when capital + unvested would pass type(uint96).max.
    function vest(
        GuarantorPoolStorage.Layout storage $,
        GuarantorPoolStorage.GuarantorState storage g,
        address guarantor,
        uint256 amountUsdc
    ) internal {
        GuarantorPoolStorage.IncomeState storage inc = $.income[guarantor];
        release(g, inc);
        uint256 vestSec = $.backstop.vestSec;
        uint256 capital = g.capitalUsdc;
        uint256 unvested = inc.unvestedUsdc + amountUsdc;
        // The bound that keeps every later release within the capital's 96 bits.
        (capital + unvested).toUint96();
        if (vestSec == 0) {
            g.capitalUsdc = uint96(capital + amountUsdc);
        } else {
            uint64 end = uint64(block.timestamp + vestSec);
            inc.unvestedUsdc = uint128(unvested);
            inc.vestStart = uint64(block.timestamp);
            inc.vestEnd = end;
            emit IGuarantorPoolEvents.IncomeVesting(guarantor, unvested, end);
        }
        emit IGuarantorPoolEvents.IncomeCredited(guarantor, msg.sender, amountUsdc, g.capitalUsdc);
    }

    /// @notice Vests the guarantor's pending income (paid in by the ClearingHouse); returns the amount.
    function collect(
        GuarantorPoolStorage.Layout storage $,
        GuarantorPoolStorage.GuarantorState storage g,
        address guarantor
    ) internal returns (uint256 amountUsdc) {
        amountUsdc = g.pendingIncomeUsdc;
        if (amountUsdc == 0) revert IGuarantorPoolErrors.PoolZeroAmount();
        uint256 funded = $.incomeFunded;
        if (amountUsdc > funded) revert IGuarantorPoolErrors.PoolIncomeUnfunded(amountUsdc, funded);
        // Safe downcast: smaller than the uint96 it was read from.
        $.incomeFunded = uint96(funded - amountUsdc);
        g.pendingIncomeUsdc = 0;
        vest($, g, guarantor, amountUsdc);
    }

    /// @notice Records `amountUsdc` of owed income as paid in by the ClearingHouse (the entry pulls it).
    function fund(GuarantorPoolStorage.Layout storage $, uint256 amountUsdc) internal {
        uint256 owed = $.incomeOwed;
        if (amountUsdc == 0 || amountUsdc > owed) revert IGuarantorPoolErrors.PoolInvalidParams();
        uint256 funded = $.incomeFunded + amountUsdc;
        // Safe downcasts: funded + owed is the unchanged Σ pending, which `accrue` keeps within a uint96.
        $.incomeOwed = uint96(owed - amountUsdc);
        $.incomeFunded = uint96(funded);
        emit IGuarantorPoolEvents.IncomeFunded(amountUsdc, funded, owed - amountUsdc);
    }

    /// @notice Accrues the guarantor's `feeShareBps` of a customer's risk-increasing fee as pending income (owed by
    ///         the ClearingHouse until it pays it in), in the guarantor's slot 0 the gate of the same fill just wrote.
    function accrue(
        GuarantorPoolStorage.Layout storage $,
        address guarantor,
        address account,
        uint256 feeUsdc
    ) internal {
        uint256 share = Math.mulDiv(feeUsdc, $.backstop.feeShareBps, 10_000);
        if (share == 0) return;
        GuarantorPoolStorage.GuarantorState storage g = $.guarantors[guarantor];
        uint256 pending = g.pendingIncomeUsdc + share;
        uint256 owed = $.incomeOwed + share;
        // The guarantor's pending stays within its 64 bits and Σ pending (owed + funded) within 96 (each reverts
        // SafeCastOverflowedUintDowncast otherwise, the fill with it: nothing changes), so `fund` and `collect` move
        // amounts between the two totals without a check.
        g.pendingIncomeUsdc = pending.toUint64();
        (owed + $.incomeFunded).toUint96();
        $.incomeOwed = uint96(owed);
        emit IGuarantorPoolEvents.IncomeAccrued(guarantor, account, share, pending);
    }
}
