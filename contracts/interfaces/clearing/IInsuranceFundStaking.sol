// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IInsuranceFundStaking
/// @notice The staking side of IInsuranceFund: stake (for oneself or for another), request a withdrawal, cancel it,
///         withdraw after the cooldown inside the window.
interface IInsuranceFundStaking {
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
}
