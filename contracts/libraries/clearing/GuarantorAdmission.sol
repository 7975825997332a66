// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IGuarantorPoolErrors} from "../../interfaces/clearing/IGuarantorPoolErrors.sol";
import {IGuarantorPoolEvents} from "../../interfaces/clearing/IGuarantorPoolEvents.sol";
import {GuarantorPoolStorage} from "./GuarantorStorage.sol";
import {GuarantorBackstop} from "./GuarantorBackstop.sol";
import {GuarantorRules} from "./GuarantorRules.sol";

/// @title GuarantorAdmission
/// @notice The GuarantorPool's customers and limits: admission (by the guarantor, or self-admission to an open one
///         without a deficit), leaving (flat and without a deficit, LIQ-03), and the pre-trade gate on every exposure
///         change (DPS bond, customer limit, capacity = capital × max leverage, insurance requirement CLR-01).
///         Internal: inlined into the GuarantorPool (the gate is on every trade's path).
library GuarantorAdmission {
    /// @notice Makes `guarantor` the guarantor of `account` with `limitUsdc` (a customer of another guarantor must
    ///         leave it first).
    function admit(
        GuarantorPoolStorage.Layout storage $,
        address account,
        address guarantor,
        uint256 limitUsdc
    ) internal {
        GuarantorPoolStorage.Customer storage c = $.customers[account];
        address current = c.guarantor;
        if (current != address(0) && current != guarantor) {
            revert IGuarantorPoolErrors.PoolCustomerHasPositions(account, current);
        }
        if (limitUsdc > type(uint96).max) revert IGuarantorPoolErrors.PoolInvalidParams();
        c.guarantor = guarantor;
        c.limitUsdc = limitUsdc;
        emit IGuarantorPoolEvents.CustomerAdmitted(account, guarantor, limitUsdc);
    }

    /// @notice `account` leaves its guarantor (called by either): flat, without a deficit; its recorded exposure
    ///         leaves the guarantor's aggregate with it.
    function remove(GuarantorPoolStorage.Layout storage $, address account) internal {
        GuarantorPoolStorage.Customer storage c = $.customers[account];
        address guarantor = c.guarantor;
        if (guarantor == address(0)) revert IGuarantorPoolErrors.PoolNoGuarantor(account);
        if (msg.sender != account && msg.sender != guarantor) revert IGuarantorPoolErrors.PoolNotGuarantor(msg.sender);
        (int256 collateral, uint256 marketCount) = $.clearingHouse.accountOf(account);
        if (marketCount != 0) revert IGuarantorPoolErrors.PoolCustomerHasPositions(account, guarantor);
        // LIQ-03: the guarantor of the account when a deficit arose (self-close, funding, futures settlement) pays it
        // first; it cannot walk away and leave it to the insurance fund.
        if (collateral < 0) revert IGuarantorPoolErrors.PoolCustomerInDeficit(account, guarantor, collateral);
        // The exposure still recorded (a reduction or a liquidation does not refresh it) leaves with the customer:
        // off the old guarantor's aggregate, and zeroed (the account is flat), so it neither locks the old guarantor's
        // capital nor is later subtracted from the next guarantor's aggregate.
        uint256 exposure = c.exposureUsdc;
        if (exposure != 0) {
            GuarantorPoolStorage.GuarantorState storage g = $.guarantors[guarantor];
            uint256 gExposure = g.exposureUsdc;
            gExposure = gExposure > exposure ? gExposure - exposure : 0;
            g.exposureUsdc = uint96(gExposure);
            c.exposureUsdc = 0;
            emit IGuarantorPoolEvents.ExposureChanged(account, guarantor, 0, gExposure);
        }
        c.guarantor = address(0);
        c.limitUsdc = 0;
        emit IGuarantorPoolEvents.CustomerLeft(account, guarantor);
    }

    /// @notice The exposure update and, on new risk, the guarantor's gate (bond, customer limit, capacity, insurance
    ///         requirement). Returns the account's guarantor.
    function onExposure(
        GuarantorPoolStorage.Layout storage $,
        address account,
        uint256 newExposureUsdc,
        bool increasing
    ) internal returns (address guarantor) {
        GuarantorPoolStorage.Customer storage c = $.customers[account];
        guarantor = c.guarantor;
        uint256 old = c.exposureUsdc;
        // @dev Saturating (never reverts, so a risk-reducing trade is never blocked): a saturated value only
        //      overstates the guarantor's aggregate later (conservative). Unreachable with real notionals.
        uint96 packed = newExposureUsdc > type(uint96).max ? type(uint96).max : uint96(newExposureUsdc);
        if (guarantor == address(0)) {
            if (increasing) revert IGuarantorPoolErrors.PoolNoGuarantor(account);
            if (old != newExposureUsdc) c.exposureUsdc = packed;
            return guarantor;
        }
        GuarantorPoolStorage.GuarantorState storage g = $.guarantors[guarantor];
        uint256 gExposure = g.exposureUsdc;
        // @dev Saturating: exposure recorded before an account changed guarantor is never subtracted twice.
        gExposure = gExposure > old ? gExposure - old : 0;
        gExposure += newExposureUsdc;
        if (increasing) _gate($, c, g, account, guarantor, newExposureUsdc, gExposure);
        c.exposureUsdc = packed;
        // @dev Saturating (as before, now at 96 bits) on a reduction only: new risk past the bound fails the gate.
        g.exposureUsdc = gExposure > type(uint96).max ? type(uint96).max : uint96(gExposure);
        emit IGuarantorPoolEvents.ExposureChanged(account, guarantor, newExposureUsdc, gExposure);
    }

    /// @dev The pre-trade gate of new risk: the bond, the customer's limit, the guarantor's capacity and CLR-01.
    function _gate(
        GuarantorPoolStorage.Layout storage $,
        GuarantorPoolStorage.Customer storage c,
        GuarantorPoolStorage.GuarantorState storage g,
        address account,
        address guarantor,
        uint256 newExposureUsdc,
        uint256 gExposure
    ) private view {
        uint256 minDps = $.minDpsStake;
        if (g.dpsStaked < minDps) revert IGuarantorPoolErrors.PoolStakeTooLow(guarantor, minDps, g.dpsStaked);
        uint256 limit = c.limitUsdc;
        if (newExposureUsdc > limit) {
            revert IGuarantorPoolErrors.PoolCustomerLimitExceeded(account, limit, newExposureUsdc);
        }
        // Capped at the stored width of the aggregate exposure (capital × leverage may exceed it).
        uint256 capacity = Math.min(GuarantorRules.capacity(g.capitalUsdc, $.maxLeverageWad), type(uint96).max);
        if (gExposure > capacity) revert IGuarantorPoolErrors.PoolCapacityExceeded(guarantor, capacity, gExposure);
        GuarantorBackstop.checkRequirement($.backstop, guarantor, gExposure);
    }
}
