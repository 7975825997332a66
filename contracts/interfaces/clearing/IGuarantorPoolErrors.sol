// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IGuarantorPoolErrors
/// @notice The errors of IGuarantorPool, declared once and inherited by it (same selectors).
interface IGuarantorPoolErrors {
    /// @notice Thrown when an amount of zero is passed.
    error PoolZeroAmount();

    /// @notice Thrown when `guarantor` is not registered.
    /// @param guarantor The address.
    error PoolNotGuarantor(address guarantor);

    /// @notice Thrown when registering twice.
    /// @param guarantor The address.
    error PoolAlreadyRegistered(address guarantor);

    /// @notice Thrown when an outside wallet deposits into, or self-admits to, a closed guarantor.
    /// @param guarantor The guarantor.
    error PoolNotOpen(address guarantor);

    /// @notice Thrown when a risk-increasing trade comes from an account without a guarantor.
    /// @param account The account.
    error PoolNoGuarantor(address account);

    /// @notice Thrown when withdrawing capital without a notice in force (the notice period is set).
    /// @param guarantor The guarantor.
    /// @param holder The holder.
    error PoolNoticeRequired(address guarantor, address holder);

    /// @notice Thrown when withdrawing before the notice period has passed.
    /// @param holder The holder.
    /// @param readyAt First second the withdrawal may execute.
    /// @param nowSec The current block timestamp.
    error PoolNoticeNotElapsed(address holder, uint64 readyAt, uint256 nowSec);

    /// @notice Thrown when withdrawing after the notice's window closed (a new notice is needed).
    /// @param holder The holder.
    /// @param expiresAt Last second it could execute.
    /// @param nowSec The current block timestamp.
    error PoolNoticeExpired(address holder, uint64 expiresAt, uint256 nowSec);

    /// @notice Thrown when withdrawing more shares than the notice covers.
    /// @param holder The holder.
    /// @param noticeShares Shares under notice.
    /// @param shares Shares asked.
    error PoolExceedsNotice(address holder, uint256 noticeShares, uint256 shares);

    /// @notice Thrown when a guarantor's DPS stake is below the minimum and it gates a new trade.
    /// @param guarantor The guarantor.
    /// @param required Minimum DPS.
    /// @param staked Staked DPS.
    error PoolStakeTooLow(address guarantor, uint256 required, uint256 staked);

    /// @notice Thrown when a customer's exposure would exceed its limit.
    /// @param account The customer.
    /// @param limitUsdc Its limit.
    /// @param exposureUsdc Exposure after the trade.
    error PoolCustomerLimitExceeded(address account, uint256 limitUsdc, uint256 exposureUsdc);

    /// @notice Thrown when a guarantor's total exposure would exceed capital × max leverage.
    /// @param guarantor The guarantor.
    /// @param capacityUsdc Capital × max leverage.
    /// @param exposureUsdc Exposure after.
    error PoolCapacityExceeded(address guarantor, uint256 capacityUsdc, uint256 exposureUsdc);

    /// @notice Thrown when an account with open positions tries to change or leave its guarantor.
    /// @param account The account.
    /// @param guarantor Its current guarantor.
    error PoolCustomerHasPositions(address account, address guarantor);

    /// @notice Thrown when an account with negative collateral would leave its guarantor or join another: the guarantor
    ///         it had when the deficit arose pays first (LIQ-03).
    /// @param account The account.
    /// @param guarantor Its guarantor (for a join: the guarantor it asked to join).
    /// @param collateralUsdc Its ClearingHouse collateral.
    error PoolCustomerInDeficit(address account, address guarantor, int256 collateralUsdc);

    /// @notice Thrown when redeeming more shares than held.
    /// @param holder The holder.
    /// @param shares Shares asked.
    /// @param balance Shares held.
    error PoolInsufficientShares(address holder, uint256 shares, uint256 balance);

    /// @notice Thrown when unstaking more DPS than staked, or below the minimum while customers have exposure.
    /// @param guarantor The guarantor.
    /// @param amount DPS asked.
    /// @param staked DPS staked.
    error PoolUnstakeNotAllowed(address guarantor, uint256 amount, uint256 staked);

    /// @notice Thrown when a parameter is out of range.
    error PoolInvalidParams();

    /// @notice Thrown when the pre-trade gate is called by anyone but the ClearingHouse.
    /// @param caller The caller.
    error PoolOnlyClearingHouse(address caller);

    /// @notice A risk-increasing trade of a customer of `guarantor` would leave the guarantor's insurance stake
    ///         below the requirement its cleared exposure sets (CLR-01). Top up in the InsuranceFund (stakeFor).
    /// @param guarantor The guarantor.
    /// @param requiredUsdc Stake required after the trade, USDC.
    /// @param stakedUsdc Stake held, USDC.
    error PoolInsuranceBelowRequirement(address guarantor, uint256 requiredUsdc, uint256 stakedUsdc);

    /// @notice The guarantor has no flagged shortfall of its insurance requirement to act on.
    /// @param guarantor The guarantor.
    /// @param requiredUsdc Stake required, USDC.
    /// @param stakedUsdc Stake held, USDC.
    error PoolNoShortfall(address guarantor, uint256 requiredUsdc, uint256 stakedUsdc);

    /// @notice The guarantor's grace period to top up its insurance stake has not ended yet.
    /// @param guarantor The guarantor.
    /// @param graceEndsAt First second a slash may happen.
    /// @param nowSec Current timestamp.
    error PoolGraceNotOver(address guarantor, uint64 graceEndsAt, uint256 nowSec);

    /// @notice The guarantor's accrued fee income has not reached the pool yet (ClearingHouse.flushFees first).
    /// @param pendingUsdc Income accrued to the guarantor, USDC.
    /// @param fundedUsdc Fee income received by the pool and not yet collected, USDC.
    error PoolIncomeUnfunded(uint256 pendingUsdc, uint256 fundedUsdc);
}
