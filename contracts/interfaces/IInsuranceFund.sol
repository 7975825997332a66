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

    // ------------------------------------------------------------------ staking, cooldown, guarantor floor

    /// @notice A staker's pending withdrawal request.
    /// @param shares Shares asked for.
    /// @param readyAt First second the withdrawal may execute.
    /// @param expiresAt Last second the withdrawal may execute (then the request lapses).
    struct WithdrawRequest {
        uint256 shares;
        uint64 readyAt;
        uint64 expiresAt;
    }

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

    /// @notice Sets a guarantor's required stake (pushed by the clearing layer from the risk engine). The
    ///         guarantor cannot withdraw below it.
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

    /// @notice A guarantor's required stake.
    /// @param guarantor The guarantor.
    /// @return requiredUsdc The requirement, USDC.
    function guarantorRequirement(address guarantor) external view returns (uint256 requiredUsdc);

    /// @notice How much a guarantor's stake falls short of its requirement (0 when covered).
    /// @param guarantor The guarantor.
    /// @return shortfallUsdc The shortfall, USDC.
    function guarantorShortfall(address guarantor) external view returns (uint256 shortfallUsdc);

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
