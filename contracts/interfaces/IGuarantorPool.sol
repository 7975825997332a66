// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IGuarantorPool
/// @notice Clearing members (SPEC section 7). A guarantor posts USDC capital and stakes DPS, admits customers and
///         sets per-customer limits, gates every risk-increasing trade of its customers, and pays first when a
///         customer's collateral cannot cover a default. Capital is share-based: the guarantor itself and, for an
///         OPEN guarantor, any outside wallet deposit USDC for shares; losses and income move the share price
///         pro rata. Shares use a virtual offset against the first-depositor inflation attack (ACC-04). An open
///         guarantor also admits any wallet that asks, within its default customer limit.
/// @dev One contract holds every guarantor's capital, keyed by the guarantor's address, apart from customer
///      collateral (held by the ClearingHouse, LIQ-07). Amounts in USDC (6 decimals), DPS in WAD.
interface IGuarantorPool {
    /// @notice A guarantor's state.
    /// @param registered Whether registered.
    /// @param open Whether outside capital and self-admission are allowed.
    /// @param capitalUsdc Capital (total assets of its shares), USDC.
    /// @param totalShares Σ shares.
    /// @param exposureUsdc Σ gross open notional of its customers, USDC.
    /// @param dpsStaked DPS staked, WAD.
    /// @param defaultLimitUsdc Exposure limit given to self-admitted customers, USDC.
    struct Guarantor {
        bool registered;
        bool open;
        uint256 capitalUsdc;
        uint256 totalShares;
        uint256 exposureUsdc;
        uint256 dpsStaked;
        uint256 defaultLimitUsdc;
    }

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
    /// @notice A capital provider's notice to withdraw shares of one guarantor (CLR-02).
    /// @param shares Shares that may be withdrawn from `readyAt` to `expiresAt`.
    /// @param readyAt First second the withdrawal may execute.
    /// @param expiresAt Last second it may execute.
    /// @param epoch The guarantor's share epoch the notice belongs to (a wipe-out voids it).
    struct CapitalNotice {
        uint256 shares;
        uint64 readyAt;
        uint64 expiresAt;
        uint64 epoch;
    }

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

    /// @notice Registers the caller as a guarantor.
    /// @param open Allow outside capital and self-admission.
    /// @param defaultLimitUsdc Exposure limit of self-admitted customers.
    function registerGuarantor(bool open, uint256 defaultLimitUsdc) external;

    /// @notice Changes the caller's openness and default limit.
    /// @param open Openness.
    /// @param defaultLimitUsdc Default limit.
    function configureGuarantor(bool open, uint256 defaultLimitUsdc) external;

    /// @notice Deposits USDC capital into `guarantor` for shares (only the guarantor itself unless open).
    ///         Shares = amount × (totalShares + 10^6) / (capital + 1), rounded down (ACC-04, ACC-05).
    /// @param guarantor The guarantor.
    /// @param amountUsdc USDC.
    /// @return shares Shares minted.
    function depositCapital(address guarantor, uint256 amountUsdc) external returns (uint256 shares);

    /// @notice Redeems shares for USDC at the current share price (rounded down). Once governance set a notice
    ///         period, only shares under a notice whose period has passed and whose window is open (CLR-02): the
    ///         capital keeps bearing its customers' losses meanwhile. The guarantor's capital after must still
    ///         cover its customers' exposure / max leverage (the lock while the exposure needs it).
    /// @param guarantor The guarantor.
    /// @param shares Shares to burn.
    /// @param to Recipient.
    /// @return amountUsdc USDC paid.
    function withdrawCapital(address guarantor, uint256 shares, address to) external returns (uint256 amountUsdc);

    /// @notice Gives notice to withdraw `shares` of `guarantor` (replaces an earlier notice). Refused when the
    ///         guarantor's capital without them would not cover its customers' exposure / max leverage.
    /// @param guarantor The guarantor.
    /// @param shares Shares (≤ held).
    /// @return readyAt First second the withdrawal may execute.
    /// @return expiresAt Last second it may execute.
    function requestCapitalWithdrawal(
        address guarantor,
        uint256 shares
    ) external returns (uint64 readyAt, uint64 expiresAt);

    /// @notice Cancels the caller's notice for `guarantor`.
    /// @param guarantor The guarantor.
    function cancelCapitalWithdrawal(address guarantor) external;

    /// @notice Sets the capital withdrawal notice (ADMIN). Both 0: no notice (local networks; the deploy sets one).
    /// @param noticeSec Seconds from a notice to the first possible withdrawal.
    /// @param windowSec Seconds the withdrawal stays possible after that (> 0 when a notice is set).
    function setCapitalNotice(uint64 noticeSec, uint64 windowSec) external;

    /// @notice The capital withdrawal notice.
    /// @return noticeSec Notice period.
    /// @return windowSec Window after it.
    function capitalNotice() external view returns (uint64 noticeSec, uint64 windowSec);

    /// @notice A holder's notice for one guarantor (zero when none or voided by a wipe-out).
    /// @param guarantor The guarantor.
    /// @param holder The holder.
    /// @return The notice.
    function withdrawalNotice(address guarantor, address holder) external view returns (CapitalNotice memory);

    /// @notice A guarantor's share epoch (bumped by every wipe-out, see GuarantorSharesReset).
    /// @param guarantor The guarantor.
    /// @return The epoch.
    function shareEpoch(address guarantor) external view returns (uint64);

    /// @notice Adds USDC to a guarantor's capital without minting shares (fee share, donation).
    /// @param guarantor The guarantor.
    /// @param amountUsdc USDC pulled from the caller.
    function creditIncome(address guarantor, uint256 amountUsdc) external;

    /// @notice Stakes the caller's DPS as guarantor bond.
    /// @param amount DPS.
    function stakeDps(uint256 amount) external;

    /// @notice Unstakes DPS; below the minimum only while no customer has exposure.
    /// @param amount DPS.
    function unstakeDps(uint256 amount) external;

    /// @notice Slashes a guarantor's DPS (Roles.GUARANTOR_SLASHER).
    /// @param guarantor The guarantor.
    /// @param amount DPS.
    /// @param to Recipient.
    function slashDps(address guarantor, uint256 amount, address to) external;

    /// @notice The caller (a guarantor) admits `account` or changes its limit.
    /// @param account The customer.
    /// @param limitUsdc Exposure limit, USDC.
    function admitCustomer(address account, uint256 limitUsdc) external;

    /// @notice The caller joins an open guarantor with its default limit (not while its collateral is negative).
    /// @param guarantor The guarantor.
    function joinOpenGuarantor(address guarantor) external;

    /// @notice The caller leaves its guarantor, or a guarantor removes a customer: only with no market in the account's
    ///         ClearingHouse set (no position, no held obligation) and collateral ≥ 0 (a deficit is the guarantor's
    ///         first loss, LIQ-03).
    /// @param account The customer.
    function removeCustomer(address account) external;

    /// @notice The pre-trade gate, callable only by the ClearingHouse set at initialisation (checked by address
    ///         rather than through the AccessManager: it runs on every trade and liquidation). Records `account`'s gross open notional;
    ///         when `increasing`, reverts unless the account has a guarantor with enough DPS staked, the
    ///         customer's limit holds and the guarantor's exposure stays within capital × max leverage.
    /// @param account The customer.
    /// @param newExposureUsdc Gross open notional after the trade.
    /// @param increasing Whether the trade adds risk.
    function onExposureChanged(address account, uint256 newExposureUsdc, bool increasing) external;

    /// @notice Pays up to `amountUsdc` of `account`'s deficit from its guarantor's capital to `recipient`
    ///         (Roles.CLEARING: the LiquidationEngine), never below zero (LIQ-03).
    /// @param account The defaulted customer.
    /// @param amountUsdc Deficit.
    /// @param recipient The ClearingHouse.
    /// @return paidUsdc USDC paid.
    function coverLoss(address account, uint256 amountUsdc, address recipient) external returns (uint256 paidUsdc);

    /// @notice Sets governance parameters (ADMIN).
    /// @param minDpsStake Minimum DPS stake.
    /// @param maxLeverageWad Max exposure / capital, WAD.
    function setParams(uint256 minDpsStake, uint256 maxLeverageWad) external;

    /// @notice A guarantor's state.
    /// @param guarantor The guarantor.
    /// @return The state.
    function guarantorInfo(address guarantor) external view returns (Guarantor memory);

    /// @notice The guarantor of `account` (zero if none).
    /// @param account The customer.
    /// @return The guarantor.
    function guarantorOf(address account) external view returns (address);

    /// @notice A customer's limit and recorded exposure.
    /// @param account The customer.
    /// @return limitUsdc Limit.
    /// @return exposureUsdc Exposure.
    function customerInfo(address account) external view returns (uint256 limitUsdc, uint256 exposureUsdc);

    /// @notice Shares of `holder` in `guarantor`.
    /// @param guarantor The guarantor.
    /// @param holder The holder.
    /// @return Shares.
    function sharesOf(address guarantor, address holder) external view returns (uint256);

    /// @notice USDC value of `shares` of `guarantor`, rounded down.
    /// @param guarantor The guarantor.
    /// @param shares Shares.
    /// @return USDC.
    function convertToAssets(address guarantor, uint256 shares) external view returns (uint256);

    /// @notice Parameters.
    /// @return minDpsStake Minimum DPS stake.
    /// @return maxLeverageWad Max leverage, WAD.
    function params() external view returns (uint256 minDpsStake, uint256 maxLeverageWad);
}
