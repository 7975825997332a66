// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IGuarantorPoolEvents
/// @notice The events of IGuarantorPool, declared once and inherited by it (same selectors).
interface IGuarantorPoolEvents {
    /// @notice Emitted when a guarantor registers or changes its openness.
    /// @param guarantor The guarantor.
    /// @param open Openness after.
    /// @param defaultLimitUsdc Default customer limit after.
    event GuarantorConfigured(address indexed guarantor, bool open, uint256 defaultLimitUsdc);

    /// @notice Emitted when capital is deposited.
    /// @param guarantor The guarantor.
    /// @param depositor The depositor.
    /// @param amountUsdc USDC.
    /// @param shares Shares minted.
    /// @param capitalUsdc Capital after.
    /// @param totalShares Shares after.
    event CapitalDeposited(
        address indexed guarantor,
        address indexed depositor,
        uint256 amountUsdc,
        uint256 shares,
        uint256 capitalUsdc,
        uint256 totalShares
    );

    /// @notice Emitted when capital is withdrawn.
    /// @param guarantor The guarantor.
    /// @param holder The redeemer.
    /// @param amountUsdc USDC paid.
    /// @param shares Shares burned.
    /// @param capitalUsdc Capital after.
    /// @param totalShares Shares after.
    event CapitalWithdrawn(
        address indexed guarantor,
        address indexed holder,
        uint256 amountUsdc,
        uint256 shares,
        uint256 capitalUsdc,
        uint256 totalShares
    );

    /// @notice Emitted when income (fee share, donation) is added to a guarantor's capital.
    /// @param guarantor The guarantor.
    /// @param from Payer.
    /// @param amountUsdc USDC.
    /// @param capitalUsdc Capital after.
    event IncomeCredited(address indexed guarantor, address indexed from, uint256 amountUsdc, uint256 capitalUsdc);

    /// @notice Emitted when a guarantor's DPS stake changes.
    /// @param guarantor The guarantor.
    /// @param delta Signed change.
    /// @param dpsStaked Stake after.
    event DpsStakeChanged(address indexed guarantor, int256 delta, uint256 dpsStaked);

    /// @notice Emitted when DPS stake is slashed.
    /// @param guarantor The guarantor.
    /// @param amount DPS slashed.
    /// @param to Recipient.
    /// @param dpsStaked Stake after.
    event DpsSlashed(address indexed guarantor, uint256 amount, address to, uint256 dpsStaked);

    /// @notice Emitted when a customer is admitted or its limit changes.
    /// @param account The customer.
    /// @param guarantor Its guarantor.
    /// @param limitUsdc Its exposure limit.
    event CustomerAdmitted(address indexed account, address indexed guarantor, uint256 limitUsdc);

    /// @notice Emitted when a customer leaves its guarantor.
    /// @param account The customer.
    /// @param guarantor The former guarantor.
    event CustomerLeft(address indexed account, address indexed guarantor);

    /// @notice Emitted when a customer's exposure is recorded.
    /// @param account The customer.
    /// @param guarantor Its guarantor.
    /// @param exposureUsdc Customer exposure after.
    /// @param guarantorExposureUsdc Guarantor exposure after.
    event ExposureChanged(
        address indexed account,
        address indexed guarantor,
        uint256 exposureUsdc,
        uint256 guarantorExposureUsdc
    );

    /// @notice Emitted when a guarantor's capital pays for a customer's default (the only capital → clearing
    ///         movement, LIQ-07).
    /// @param guarantor The guarantor.
    /// @param account The defaulted customer.
    /// @param askedUsdc Deficit presented.
    /// @param paidUsdc USDC paid.
    /// @param capitalUsdc Capital after.
    event LossCovered(
        address indexed guarantor,
        address indexed account,
        uint256 askedUsdc,
        uint256 paidUsdc,
        uint256 capitalUsdc
    );

    /// @notice Emitted when a capital provider gives notice to withdraw (replacing any earlier notice).
    /// @param guarantor The guarantor.
    /// @param holder The holder.
    /// @param shares Shares under notice.
    /// @param readyAt First second the withdrawal may execute.
    /// @param expiresAt Last second it may execute.
    event CapitalWithdrawalRequested(
        address indexed guarantor,
        address indexed holder,
        uint256 shares,
        uint64 readyAt,
        uint64 expiresAt
    );

    /// @notice Emitted when a capital provider cancels its notice.
    /// @param guarantor The guarantor.
    /// @param holder The holder.
    event CapitalWithdrawalCancelled(address indexed guarantor, address indexed holder);

    /// @notice Emitted when a loss leaves a guarantor's share price below 1e-6 of its initial value: every share is
    ///         cancelled at once (O(1): balances of an older epoch read as zero), as the insurance fund does, so
    ///         repeated wipe-outs can never overflow later deposits' share amounts.
    /// @param guarantor The guarantor.
    /// @param epoch The new share epoch.
    /// @param sharesCancelled Shares outstanding before.
    /// @param capitalUsdc Capital left (credited to the next depositors).
    event GuarantorSharesReset(address indexed guarantor, uint64 epoch, uint256 sharesCancelled, uint256 capitalUsdc);

    /// @notice Emitted when governance sets the capital withdrawal notice.
    /// @param noticeSec Seconds from a notice to the first possible withdrawal (0 with window 0: no notice).
    /// @param windowSec Seconds the withdrawal stays possible after that.
    event CapitalNoticeSet(uint64 noticeSec, uint64 windowSec);

    /// @notice Emitted when governance changes pool parameters.
    /// @param minDpsStake Minimum DPS stake to gate new trades.
    /// @param maxLeverageWad Exposure / capital cap, WAD.
    event PoolParamsSet(uint256 minDpsStake, uint256 maxLeverageWad);
}
