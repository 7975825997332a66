// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
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
    function release(GuarantorPoolStorage.GuarantorState storage g, IGuarantorPool.Income storage inc) internal {
        uint256 unvested = inc.unvestedUsdc;
        if (unvested == 0) return;
        uint256 out = GuarantorRules.vestedPart(unvested, inc.vestStart, inc.vestEnd, block.timestamp);
        if (out == 0) return;
        // Safe downcast: out ≤ unvested, a uint128.
        inc.unvestedUsdc = uint128(unvested - out);
        inc.vestStart = uint64(block.timestamp);
        g.capitalUsdc = (g.capitalUsdc + out).toUint128();
    }

    /// @notice Capital including the income vested since the last release (what a deposit or withdrawal now prices).
    function capitalNow(
        GuarantorPoolStorage.GuarantorState storage g,
        IGuarantorPool.Income storage inc
    ) internal view returns (uint256) {
        return g.capitalUsdc + GuarantorRules.vestedPart(inc.unvestedUsdc, inc.vestStart, inc.vestEnd, block.timestamp);
    }

    /// @notice Adds `amountUsdc` to the guarantor's income: vesting linearly over vestSec from now (what was still
    ///         unvested restarts with it, never faster), or straight into capital when vestSec is 0.
    function vest(
        GuarantorPoolStorage.Layout storage $,
        GuarantorPoolStorage.GuarantorState storage g,
        address guarantor,
        uint256 amountUsdc
    ) internal {
        IGuarantorPool.Income storage inc = $.income[guarantor];
        release(g, inc);
        uint256 vestSec = $.backstop.vestSec;
        if (vestSec == 0) {
            g.capitalUsdc = (g.capitalUsdc + amountUsdc).toUint128();
        } else {
            uint256 unvested = inc.unvestedUsdc + amountUsdc;
            uint64 end = uint64(block.timestamp + vestSec);
            inc.unvestedUsdc = unvested.toUint128();
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
        IGuarantorPool.Income storage inc = $.income[guarantor];
        amountUsdc = inc.pendingUsdc;
        if (amountUsdc == 0) revert IGuarantorPoolErrors.PoolZeroAmount();
        uint256 funded = $.incomeFunded;
        if (amountUsdc > funded) revert IGuarantorPoolErrors.PoolIncomeUnfunded(amountUsdc, funded);
        // Safe downcast: smaller than the uint96 it was read from.
        $.incomeFunded = uint96(funded - amountUsdc);
        inc.pendingUsdc = 0;
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
    ///         the ClearingHouse until it pays it in).
    function accrue(
        GuarantorPoolStorage.Layout storage $,
        address guarantor,
        address account,
        uint256 feeUsdc
    ) internal {
        uint256 share = Math.mulDiv(feeUsdc, $.backstop.feeShareBps, 10_000);
        if (share == 0) return;
        IGuarantorPool.Income storage inc = $.income[guarantor];
        uint256 pending = inc.pendingUsdc + share;
        uint256 owed = $.incomeOwed + share;
        // Σ pending (owed + funded) stays within 96 bits (reverts SafeCastOverflowedUintDowncast otherwise, the fill
        // with it: nothing changes), so `fund` and `collect` move amounts between the two without a check, and every
        // guarantor's pending (≤ Σ pending) fits its uint128.
        (owed + $.incomeFunded).toUint96();
        inc.pendingUsdc = uint128(pending);
        $.incomeOwed = uint96(owed);
        emit IGuarantorPoolEvents.IncomeAccrued(guarantor, account, share, pending);
    }
}
