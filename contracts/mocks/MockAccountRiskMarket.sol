// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {MockClearingMarket} from "./MockClearingMarket.sol";

/// @title MockAccountRiskMarket
/// @notice Test-only: a MockClearingMarket that reports what an account holds beyond its ClearingHouse position
///         (IMarketAccountRisk.accountRisk), as set by the test — owed funding as a negative equity adjustment, a
///         spread or delivery bond as extra margin — and can release an account it holds (ClearingHouse
///         `releaseAccount`). `lastLiquidation` records the hook's last call.
contract MockAccountRiskMarket is MockClearingMarket {
    struct Risk {
        int256 equityAdjustmentUsdc;
        uint256 extraInitialUsdc;
        uint256 extraMaintenanceUsdc;
    }

    /// @notice What each account holds beyond its position, as the test set it.
    mapping(address account => Risk) public risk;
    /// @notice Size delta of the last liquidation hook call (type(int256).min before any).
    int256 public lastLiquidationDelta = type(int256).min;
    /// @notice Whether the liquidation hook releases the account (calls back `releaseAccount`).
    bool public releaseOnLiquidation;

    /// @param clearingHouse_ The ClearingHouse.
    /// @param oracle_ The index.
    /// @param usdc_ USDC.
    constructor(
        address clearingHouse_,
        address oracle_,
        address usdc_
    ) MockClearingMarket(clearingHouse_, oracle_, usdc_) {}

    /// @notice Test hook: sets what `account` holds here beyond its position.
    /// @param account The account.
    /// @param equityAdjustmentUsdc Added to its equity (negative: owed).
    /// @param extraInitialUsdc Added to its initial margin.
    /// @param extraMaintenanceUsdc Added to its maintenance margin.
    function setRisk(
        address account,
        int256 equityAdjustmentUsdc,
        uint256 extraInitialUsdc,
        uint256 extraMaintenanceUsdc
    ) external {
        risk[account] = Risk(equityAdjustmentUsdc, extraInitialUsdc, extraMaintenanceUsdc);
    }

    /// @notice Test hook: whether the liquidation hook releases the account.
    /// @param release True to release.
    function setReleaseOnLiquidation(bool release) external {
        releaseOnLiquidation = release;
    }

    /// @notice Test hook: releases `account` (ClearingHouse.releaseAccount).
    /// @param account The account.
    function release(address account) external {
        clearingHouse.releaseAccount(account);
    }

    /// @notice IMarketAccountRisk: what the test set, independent of the price.
    /// @param account The account.
    /// @return equityAdjustmentUsdc Equity adjustment.
    /// @return extraInitialUsdc Extra initial margin.
    /// @return extraMaintenanceUsdc Extra maintenance margin.
    function accountRisk(
        address account,
        uint256
    ) external view returns (int256 equityAdjustmentUsdc, uint256 extraInitialUsdc, uint256 extraMaintenanceUsdc) {
        Risk memory r = risk[account];
        return (r.equityAdjustmentUsdc, r.extraInitialUsdc, r.extraMaintenanceUsdc);
    }

    /// @notice Records the call; with `releaseOnLiquidation`, clears the account's extra risk and releases it.
    /// @param account The account.
    /// @param sizeDeltaCh Size closed.
    function onPositionLiquidated(address account, int256 sizeDeltaCh, uint256, int256) external override {
        lastLiquidationDelta = sizeDeltaCh;
        emit HouseTookOver(account, sizeDeltaCh);
        if (releaseOnLiquidation) {
            delete risk[account];
            clearingHouse.releaseAccount(account);
        }
    }
}
