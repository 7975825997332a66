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

    /// @notice Emitted when governance sets the backstop parameters (insurance requirement, grace, slash rule, fee
    ///         share, income vesting).
    /// @param insuranceFund The InsuranceFund whose stakes meet the requirement (0: requirement off).
    /// @param stressWad Stress loss per unit of cleared exposure, WAD (the requirement's factor; 0: off).
    /// @param graceSec Seconds a flagged shortfall may last before the DPS bond is slashed.
    /// @param slashBps Share of the DPS bond one rule slash takes, basis points.
    /// @param dpsSink Receives slashed DPS (0: rule slashes off).
    /// @param feeShareBps Share of a customer's trading fee credited to its guarantor, basis points.
    /// @param vestSec Seconds over which credited income enters the share price.
    event BackstopParamsSet(
        address insuranceFund,
        uint256 stressWad,
        uint256 graceSec,
        uint256 slashBps,
        address dpsSink,
        uint256 feeShareBps,
        uint256 vestSec
    );

    /// @notice Emitted when a guarantor's insurance stake is found below its requirement (the grace clock starts).
    /// @param guarantor The guarantor.
    /// @param requiredUsdc Stake required, USDC.
    /// @param stakedUsdc Stake held, USDC.
    /// @param graceEndsAt First second its DPS bond may be slashed for it.
    event GuarantorShortfallFlagged(
        address indexed guarantor,
        uint256 requiredUsdc,
        uint256 stakedUsdc,
        uint64 graceEndsAt
    );

    /// @notice Emitted when a flagged guarantor meets its requirement again (the grace clock stops).
    /// @param guarantor The guarantor.
    /// @param requiredUsdc Stake required, USDC.
    /// @param stakedUsdc Stake held, USDC.
    event GuarantorShortfallCleared(address indexed guarantor, uint256 requiredUsdc, uint256 stakedUsdc);

    /// @notice Emitted when a guarantor's DPS bond is slashed by rule: reason 1, it failed to cover a customer's
    ///         loss; reason 2, its insurance shortfall outlasted the grace period.
    /// @param guarantor The guarantor.
    /// @param reason 1 uncovered loss, 2 insurance shortfall.
    /// @param basisUsdc The uncovered loss or the shortfall, USDC.
    /// @param amount DPS slashed (≤ slashBps of the bond).
    /// @param to Recipient (the configured sink).
    /// @param dpsStaked Bond after.
    event DpsSlashedByRule(
        address indexed guarantor,
        uint8 reason,
        uint256 basisUsdc,
        uint256 amount,
        address to,
        uint256 dpsStaked
    );

    /// @notice Emitted when a customer's risk-increasing trade accrues the guarantor's share of its fee.
    /// @param guarantor The guarantor.
    /// @param account The customer.
    /// @param shareUsdc USDC accrued.
    /// @param pendingUsdc The guarantor's accrued, uncollected income after.
    event IncomeAccrued(address indexed guarantor, address indexed account, uint256 shareUsdc, uint256 pendingUsdc);

    /// @notice Emitted when the ClearingHouse pays accrued fee income into the pool.
    /// @param amountUsdc USDC received.
    /// @param fundedUsdc Received and not yet collected, after.
    /// @param owedUsdc Accrued and not yet received, after.
    event IncomeFunded(uint256 amountUsdc, uint256 fundedUsdc, uint256 owedUsdc);

    /// @notice Emitted when income starts vesting into a guarantor's share price.
    /// @param guarantor The guarantor.
    /// @param unvestedUsdc Income not yet in the share price, after.
    /// @param vestEnd Second by which all of it is.
    event IncomeVesting(address indexed guarantor, uint256 unvestedUsdc, uint64 vestEnd);

    /// @notice Emitted when governance registers the LiquidationEngine `coverLoss` trusts by address.
    /// @param engine The engine trusted now (address(0): none; the previous one is refused from now on).
    event TrustedEngineSet(address indexed engine);
}
