// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IInsuranceFundErrors
/// @notice The errors of IInsuranceFund, declared once and inherited by it (same selectors).
interface IInsuranceFundErrors {
    /// @notice Thrown when an amount or share count is zero.
    error InsuranceZeroAmount();

    /// @notice Thrown when a stake is too small to mint a single share.
    /// @param amountUsdc The stake.
    error InsuranceZeroShares(uint256 amountUsdc);

    /// @notice Thrown when a withdrawal asks for more shares than the staker holds.
    /// @param staker The staker.
    /// @param requested Shares asked for.
    /// @param held Shares held.
    error InsuranceInsufficientShares(address staker, uint256 requested, uint256 held);

    /// @notice Thrown when withdrawing without a live request.
    /// @param staker The staker.
    error InsuranceNoWithdrawRequest(address staker);

    /// @notice Thrown when withdrawing before the cooldown has passed.
    /// @param staker The staker.
    /// @param readyAt When the withdrawal becomes possible.
    /// @param nowSec The current time.
    error InsuranceCooldownActive(address staker, uint256 readyAt, uint256 nowSec);

    /// @notice Thrown when withdrawing after the request's window closed (request again).
    /// @param staker The staker.
    /// @param expiredAt When the window closed.
    /// @param nowSec The current time.
    error InsuranceWithdrawWindowExpired(address staker, uint256 expiredAt, uint256 nowSec);

    /// @notice Thrown when withdrawing more shares than the request covers.
    /// @param staker The staker.
    /// @param requested Shares the request covers.
    /// @param shares Shares asked for now.
    error InsuranceExceedsRequest(address staker, uint256 requested, uint256 shares);

    /// @notice Thrown when a guarantor's withdrawal would leave its stake under the clearing requirement.
    /// @param guarantor The guarantor.
    /// @param requiredUsdc The requirement.
    /// @param remainingUsdc The stake's value after the withdrawal.
    error InsuranceGuarantorFloor(address guarantor, uint256 requiredUsdc, uint256 remainingUsdc);

    /// @notice Thrown when the cooldown configuration is invalid.
    /// @param cooldownSec The cooldown.
    /// @param windowSec The withdrawal window.
    error InsuranceInvalidCooldown(uint256 cooldownSec, uint256 windowSec);

    /// @notice Thrown when there is no surplus (USDC held beyond the ledger) to sweep.
    error InsuranceNoSurplus();
}
