// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IInsuranceFund
/// @notice The third layer of the default waterfall (account → guarantor capital → insurance fund → socialised
///         loss, SPEC section 7). Guarantors and the treasury stake USDC, outside stakers deposit for a share of
///         fees. The clearing layer (LiquidationEngine, holding Roles.CLEARING) draws on it to cover bad debt.
/// @dev Only the functions the clearing layer and guarantors depend on; the implementation (branch `oracle`)
///      adds staking, cooldowns and its own events.
interface IInsuranceFund {
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
}
