// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IInsuranceFundEvents
/// @notice The events of IInsuranceFund, declared once and inherited by it (same selectors).
interface IInsuranceFundEvents {
    /// @notice Emitted when USDC is staked.
    /// @param staker Who receives the shares.
    /// @param payer Who paid the USDC.
    /// @param amountUsdc USDC staked.
    /// @param shares Shares minted.
    /// @param stakerShares The staker's shares after.
    /// @param totalShares Total shares after.
    /// @param totalAssetsUsdc Total assets after.
    event InsuranceStaked(
        address indexed staker,
        address indexed payer,
        uint256 amountUsdc,
        uint256 shares,
        uint256 stakerShares,
        uint256 totalShares,
        uint256 totalAssetsUsdc
    );

    /// @notice Emitted when a staker requests a withdrawal (replacing any earlier request).
    /// @param staker The staker.
    /// @param shares Shares requested.
    /// @param readyAt First second the withdrawal may execute.
    /// @param expiresAt Last second it may execute.
    event InsuranceWithdrawRequested(address indexed staker, uint256 shares, uint64 readyAt, uint64 expiresAt);

    /// @notice Emitted when a staker cancels its withdrawal request.
    /// @param staker The staker.
    event InsuranceWithdrawCancelled(address indexed staker);

    /// @notice Emitted when a cooled-down withdrawal executes.
    /// @param staker The staker.
    /// @param receiver Who received the USDC.
    /// @param shares Shares burned.
    /// @param amountUsdc USDC paid.
    /// @param stakerShares The staker's shares after.
    /// @param requestShares Shares left in the staker's request after.
    /// @param totalShares Total shares after.
    /// @param totalAssetsUsdc Total assets after.
    event InsuranceWithdrawn(
        address indexed staker,
        address indexed receiver,
        uint256 shares,
        uint256 amountUsdc,
        uint256 stakerShares,
        uint256 requestShares,
        uint256 totalShares,
        uint256 totalAssetsUsdc
    );

    /// @notice Emitted when the fund covers bad debt (LIQ-03 waterfall step "insurance fund").
    /// @param recipient Who received the cover.
    /// @param requestedUsdc Bad debt presented.
    /// @param coveredUsdc Bad debt paid.
    /// @param uncoveredUsdc Bad debt left for the next layer (socialised loss).
    /// @param totalAssetsUsdc Total assets after.
    /// @param totalShares Total shares (unchanged: the loss is in the share price).
    event InsuranceBadDebtCovered(
        address indexed recipient,
        uint256 requestedUsdc,
        uint256 coveredUsdc,
        uint256 uncoveredUsdc,
        uint256 totalAssetsUsdc,
        uint256 totalShares
    );

    /// @notice Emitted when a loss leaves less than 1 USDC unit per 1e12 shares: every outstanding share is
    ///         cancelled (their holders were wiped out) and the residual dust stays for future stakers.
    /// @param shareEpoch The new share epoch (balances of older epochs read as zero).
    /// @param cancelledShares Shares cancelled.
    /// @param residualAssetsUsdc Assets left in the fund.
    event InsuranceSharesReset(uint64 shareEpoch, uint256 cancelledShares, uint256 residualAssetsUsdc);

    /// @notice Emitted when fee income arrives.
    /// @param from Who paid.
    /// @param amountUsdc Fees, USDC.
    /// @param totalAssetsUsdc Total assets after.
    /// @param totalShares Total shares.
    event InsuranceFeesDeposited(
        address indexed from,
        uint256 amountUsdc,
        uint256 totalAssetsUsdc,
        uint256 totalShares
    );

    /// @notice Emitted when clearing sets a guarantor's required stake.
    /// @param guarantor The guarantor.
    /// @param requiredUsdc The new requirement.
    /// @param stakeUsdc The guarantor's stake value now.
    event InsuranceGuarantorRequirementSet(address indexed guarantor, uint256 requiredUsdc, uint256 stakeUsdc);

    /// @notice Emitted when governance changes the cooldown.
    /// @param cooldownSec New cooldown.
    /// @param windowSec New withdrawal window.
    event InsuranceCooldownSet(uint64 cooldownSec, uint64 windowSec);

    /// @notice Emitted when governance sweeps USDC sent to the fund outside the ledger (never stakers' assets).
    /// @param to Recipient.
    /// @param amountUsdc Amount swept.
    event InsuranceSurplusSwept(address indexed to, uint256 amountUsdc);

    /// @notice Emitted when governance sets the GuarantorPool whose requirements the withdrawal floor reads.
    /// @param pool The GuarantorPool (0: none).
    event InsuranceGuarantorPoolSet(address pool);
}
