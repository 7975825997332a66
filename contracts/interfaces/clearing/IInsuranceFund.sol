// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IInsuranceFundErrors} from "./IInsuranceFundErrors.sol";
import {IInsuranceFundEvents} from "./IInsuranceFundEvents.sol";
import {IInsuranceFundStaking} from "./IInsuranceFundStaking.sol";
import {IInsuranceFundViews} from "./IInsuranceFundViews.sol";

/// @title IInsuranceFund
/// @notice The third layer of the default waterfall (account → guarantor capital → insurance fund → socialised
///         loss, SPEC section 7). Guarantors and the treasury stake USDC, outside stakers deposit for a share of
///         fees. The clearing layer (LiquidationEngine, holding Roles.CLEARING) draws on it to cover bad debt.
/// @dev Only the functions the clearing layer and guarantors depend on; the implementation (branch `oracle`)
///      adds staking, cooldowns and its own events. Staking is in IInsuranceFundStaking, the views in
///      IInsuranceFundViews.
interface IInsuranceFund is IInsuranceFundErrors, IInsuranceFundEvents, IInsuranceFundStaking, IInsuranceFundViews {
    /// @notice A staker's pending withdrawal request.
    /// @param shares Shares asked for.
    /// @param readyAt First second the withdrawal may execute.
    /// @param expiresAt Last second the withdrawal may execute (then the request lapses).
    struct WithdrawRequest {
        uint256 shares;
        uint64 readyAt;
        uint64 expiresAt;
    }

    /// @notice Pays up to `amountUsdc` of bad debt to `recipient` (the ClearingHouse), never more than the fund
    ///         holds, so the fund never goes negative (LIQ-03, LIQ-06). Roles.CLEARING only.
    /// @param amountUsdc Bad debt to cover, USDC (6 decimals).
    /// @param recipient Receives the USDC (the ClearingHouse).
    /// @return coveredUsdc USDC actually paid, ≤ amountUsdc.
    function coverBadDebt(uint256 amountUsdc, address recipient) external returns (uint256 coveredUsdc);

    /// @notice Pulls `amountUsdc` from the caller (SafeERC20 transferFrom) as fee income for stakers.
    /// @param amountUsdc USDC to pull.
    function depositFees(uint256 amountUsdc) external;

    /// @notice USDC currently staked by `guarantor` in the fund.
    /// @param guarantor The guarantor (clearing member) address.
    /// @return amountUsdc Staked USDC.
    function guarantorStake(address guarantor) external view returns (uint256 amountUsdc);

    /// @notice USDC the fund can pay out (all stakes and fees, net of losses).
    /// @return amountUsdc Total assets, USDC.
    function totalAssets() external view returns (uint256 amountUsdc);

    // ------------------------------------------------------------------ governance: cooldown, guarantor floor

    /// @notice Sets a guarantor's governance floor (Roles.CLEARING). The requirement in force is the larger of it
    ///         and the one the GuarantorPool computes from the guarantor's cleared exposure (CLR-01); the guarantor
    ///         cannot withdraw below it.
    /// @param guarantor The guarantor.
    /// @param requiredUsdc The requirement, USDC.
    function setGuarantorRequirement(address guarantor, uint256 requiredUsdc) external;

    /// @notice Sets the withdrawal cooldown and window. Governance.
    /// @param cooldownSec Seconds between request and the first possible withdrawal.
    /// @param windowSec Seconds the withdrawal stays possible after the cooldown (> 0).
    function setCooldown(uint64 cooldownSec, uint64 windowSec) external;

    /// @notice Sends USDC held beyond the ledger (accidental transfers) to `to`. Governance. Never touches
    ///         `totalAssets()` (LIQ-06).
    /// @param to Recipient.
    /// @return amountUsdc Amount swept.
    function sweepSurplus(address to) external returns (uint256 amountUsdc);

    /// @notice Sets the GuarantorPool whose computed requirements the withdrawal floor reads (ADMIN; 0: none).
    /// @param pool The GuarantorPool.
    function setGuarantorPool(address pool) external;
}
