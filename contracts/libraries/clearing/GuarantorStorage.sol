// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolErrors} from "../../interfaces/clearing/IGuarantorPoolErrors.sol";

/// @title GuarantorPoolStorage
/// @notice The GuarantorPool's ERC-7201 storage records, inherited by the GuarantorPool (so the upgrade-safety gate
///         sees its namespace) and used by the Guarantor* libraries through GuarantorStorage.layout().
abstract contract GuarantorPoolStorage {
    /// @dev Slot 0 is all a risk-reducing trade touches (guarantor and exposure); the limit is read on new risk
    ///      only. The exposure shares its slot with the guarantor address, so a customer's first trade rewrites a
    ///      non-zero slot instead of creating one.
    struct Customer {
        address guarantor;
        uint96 exposureUsdc;
        uint256 limitUsdc;
    }

    /// @dev The storage form of IGuarantorPool.Guarantor: capital, exposure (read on every gate and written on every
    ///      exposure change) and the pending fee income (written by the fee accrual of the same fill) share slot 0;
    ///      the DPS bond, flags and share epoch slot 1 (read on new risk). Bounds, all USDC (6 decimals):
    ///      capital + unvested income ≤ type(uint96).max (deposit and vest check it, so a release never overflows);
    ///      exposure saturates at type(uint96).max (the gate caps the capacity there, so new risk never passes it);
    ///      pending ≤ type(uint64).max (≈ 1.8e13 USDC; the accrual checks it).
    struct GuarantorState {
        uint96 capitalUsdc;
        uint96 exposureUsdc;
        uint64 pendingIncomeUsdc;
        uint128 dpsStaked;
        bool registered;
        bool open;
        uint64 shareEpoch;
        uint256 totalShares;
        uint256 defaultLimitUsdc;
    }

    /// @dev The storage form of IGuarantorPool.BackstopParams (setBackstopParams / backstopParams convert): the fee
    ///      share sits in slot 0 beside the insurance fund and the stress every risk-increasing gate reads, so the
    ///      fee accrual of that fill reads no second slot; slot 1 holds what only the rules and vesting read.
    struct Backstop {
        address insuranceFund;
        uint64 stressWad;
        uint16 feeShareBps;
        address dpsSink;
        uint32 graceSec;
        uint16 slashBps;
        uint32 vestSec;
    }

    /// @dev The storage form of IGuarantorPool.Income (incomeOf converts): the pending income moved into
    ///      GuarantorState slot 0 (round 41), so its old place is retired and always zero.
    struct IncomeState {
        uint128 __deprecated_pendingUsdc;
        uint128 unvestedUsdc;
        uint64 vestStart;
        uint64 vestEnd;
        uint64 shortSince;
    }

    /// @dev A holder's shares of one guarantor and the share epoch they belong to (older epochs read as zero).
    struct Holding {
        uint192 shares;
        uint64 epoch;
    }

    /// @custom:storage-location erc7201:chx.storage.GuarantorPool
    struct Layout {
        IERC20 usdc;
        IERC20 dps;
        IClearingHouse clearingHouse;
        uint96 minDpsStake;
        /// @dev Retired: the max leverage lives beside the income totals (read with them on every gated fill).
        uint256 __deprecated_maxLeverageWad;
        mapping(address guarantor => GuarantorState) guarantors;
        mapping(address guarantor => mapping(address holder => Holding)) shares;
        mapping(address account => Customer) customers;
        uint64 noticeSec;
        uint64 windowSec;
        mapping(address guarantor => mapping(address holder => IGuarantorPool.CapitalNotice)) notices;
        Backstop backstop;
        mapping(address guarantor => IncomeState) income;
        /// @dev Σ pending income not yet paid in by the ClearingHouse / paid in and not yet collected:
        ///      Σ pendingIncomeUsdc = incomeOwed + incomeFunded ≤ type(uint96).max at all times (GuarantorIncome.accrue
        ///      checks the bound). The max leverage (≤ type(uint64).max, setParams checks) shares their slot: the
        ///      gate reads it cold and the fee accrual of the same fill writes the slot warm.
        uint96 incomeOwed;
        uint96 incomeFunded;
        uint64 maxLeverageWad;
        /// @dev The LiquidationEngine governance registered: `coverLoss` admits it with this one SLOAD instead of an
        ///      AccessManager round trip (address(0): everyone goes through AccessManager).
        address trustedEngine;
    }
}

/// @title GuarantorStorage
/// @notice The GuarantorPool's storage pointer, share-book constants and the lookups every Guarantor* library shares.
library GuarantorStorage {
    /// @notice Virtual shares of every guarantor's share book (ACC-04): an attacker's donation is shared with 1e24
    ///         virtual shares, so it costs the attacker and a victim loses < 1e-6 of a deposit of at least
    ///         donation / 1e18.
    uint256 internal constant VIRTUAL_SHARES = 1e24;
    /// @notice The virtual assets (1 USDC unit) paired with VIRTUAL_SHARES in every share price.
    uint256 internal constant VIRTUAL_ASSETS = 1;

    // keccak256(abi.encode(uint256(keccak256("chx.storage.GuarantorPool")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant LOCATION = 0x4ca377fbe4b391b2d39fe6c95f5af099b0cc9be45c1421a7dc0d31ccc6b69000;

    /// @notice The GuarantorPool's storage.
    function layout() internal pure returns (GuarantorPoolStorage.Layout storage $) {
        assembly {
            $.slot := LOCATION
        }
    }

    /// @notice The registered guarantor's state; reverts PoolNotGuarantor otherwise.
    function guarantor(
        GuarantorPoolStorage.Layout storage $,
        address who
    ) internal view returns (GuarantorPoolStorage.GuarantorState storage g) {
        g = $.guarantors[who];
        if (!g.registered) revert IGuarantorPoolErrors.PoolNotGuarantor(who);
    }

    /// @notice A holder's shares in the guarantor's current epoch.
    function held(
        GuarantorPoolStorage.Layout storage $,
        GuarantorPoolStorage.GuarantorState storage g,
        address who,
        address holder
    ) internal view returns (uint256) {
        GuarantorPoolStorage.Holding storage h = $.shares[who][holder];
        return h.epoch == g.shareEpoch ? h.shares : 0;
    }
}
