// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IInsuranceFundErrors} from "./IInsuranceFundErrors.sol";
import {IInsuranceFundEvents} from "./IInsuranceFundEvents.sol";

/// @title IInsuranceFund
/// @notice The third layer of the default waterfall (account → guarantor capital → insurance fund → socialised
///         loss, SPEC section 7). Guarantors and the treasury stake USDC, outside stakers deposit for a share of
///         fees. The clearing layer (LiquidationEngine, holding Roles.CLEARING) draws on it to cover bad debt.
/// @dev Only the functions the clearing layer and guarantors depend on; the implementation (branch `oracle`)
///      adds staking, cooldowns and its own events.
interface IInsuranceFund is IInsuranceFundErrors, IInsuranceFundEvents {
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

    // ------------------------------------------------------------------ staking, cooldown, guarantor floor

    /// @notice Stakes `amountUsdc` for the caller.
    /// @param amountUsdc USDC to stake (pulled from the caller).
    /// @return shares Shares minted (rounded down).
    function stake(uint256 amountUsdc) external returns (uint256 shares);

    /// @notice Stakes `amountUsdc` paid by the caller for `staker` (e.g. a guarantor pool staking for its guarantor).
    /// @param staker Who receives the shares.
    /// @param amountUsdc USDC to stake.
    /// @return shares Shares minted (rounded down).
    function stakeFor(address staker, uint256 amountUsdc) external returns (uint256 shares);

    /// @notice Starts the cooldown for `shares` (replaces any earlier request). The shares keep earning fees and
    ///         bearing losses until withdrawn.
    /// @param shares Shares to withdraw later.
    /// @return readyAt First second the withdrawal may execute.
    /// @return expiresAt Last second it may execute.
    function requestWithdraw(uint256 shares) external returns (uint64 readyAt, uint64 expiresAt);

    /// @notice Cancels the caller's withdrawal request.
    function cancelWithdraw() external;

    /// @notice Burns `shares` of a cooled-down request and pays their value (at the current share price,
    ///         rounded down) to `receiver`.
    /// @param shares Shares to burn (≤ the request).
    /// @param receiver Who receives the USDC.
    /// @return amountUsdc USDC paid.
    function withdraw(uint256 shares, address receiver) external returns (uint256 amountUsdc);

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

    /// @notice The USDC asset.
    /// @return The token address.
    function asset() external view returns (address);

    /// @notice Total shares outstanding.
    /// @return Shares.
    function totalShares() external view returns (uint256);

    /// @notice A staker's shares.
    /// @param staker The staker.
    /// @return Shares.
    function sharesOf(address staker) external view returns (uint256);

    /// @notice The current share epoch (bumped when a near-total loss cancels every share).
    /// @return The epoch.
    function shareEpoch() external view returns (uint64);

    /// @notice A staker's pending withdrawal request.
    /// @param staker The staker.
    /// @return The request (zero when none).
    function withdrawRequest(address staker) external view returns (WithdrawRequest memory);

    /// @notice A guarantor's required stake: max(governance floor, GuarantorPool.requiredInsuranceUsdc).
    /// @param guarantor The guarantor.
    /// @return requiredUsdc The requirement, USDC.
    function guarantorRequirement(address guarantor) external view returns (uint256 requiredUsdc);

    /// @notice How much a guarantor's stake falls short of its requirement (0 when covered).
    /// @param guarantor The guarantor.
    /// @return shortfallUsdc The shortfall, USDC.
    function guarantorShortfall(address guarantor) external view returns (uint256 shortfallUsdc);

    /// @notice Sets the GuarantorPool whose computed requirements the withdrawal floor reads (ADMIN; 0: none).
    /// @param pool The GuarantorPool.
    function setGuarantorPool(address pool) external;

    /// @notice The GuarantorPool whose computed requirements the withdrawal floor reads.
    /// @return The address (0: none).
    function guarantorPool() external view returns (address);

    /// @notice Shares `amountUsdc` would mint now (rounded down).
    /// @param amountUsdc USDC.
    /// @return shares Shares.
    function previewStake(uint256 amountUsdc) external view returns (uint256 shares);

    /// @notice USDC `shares` would pay now (rounded down).
    /// @param shares Shares.
    /// @return amountUsdc USDC.
    function previewWithdraw(uint256 shares) external view returns (uint256 amountUsdc);

    /// @notice The cooldown configuration.
    /// @return cooldownSec Seconds from request to the first possible withdrawal.
    /// @return windowSec Seconds the withdrawal stays possible.
    function cooldown() external view returns (uint64 cooldownSec, uint64 windowSec);
}
