// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IGuarantorPoolErrors} from "./IGuarantorPoolErrors.sol";
import {IGuarantorPoolEvents} from "./IGuarantorPoolEvents.sol";

/// @title IGuarantorPool
/// @notice Clearing members (SPEC section 7). A guarantor posts USDC capital and stakes DPS, admits customers and
///         sets per-customer limits, gates every risk-increasing trade of its customers, and pays first when a
///         customer's collateral cannot cover a default. Capital is share-based: the guarantor itself and, for an
///         OPEN guarantor, any outside wallet deposit USDC for shares; losses and income move the share price
///         pro rata. Shares use a virtual offset against the first-depositor inflation attack (ACC-04). An open
///         guarantor also admits any wallet that asks, within its default customer limit.
/// @dev One contract holds every guarantor's capital, keyed by the guarantor's address, apart from customer
///      collateral (held by the ClearingHouse, LIQ-07). Amounts in USDC (6 decimals), DPS in WAD.
interface IGuarantorPool is IGuarantorPoolErrors, IGuarantorPoolEvents {
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

    /// @notice Backstop parameters (governance): the insurance requirement, its grace period and slash rule, the
    ///         guarantors' fee share and the vesting of income. Two slots.
    /// @param insuranceFund The InsuranceFund whose stakes meet the requirement (0: requirement off).
    /// @param stressWad Stress loss per unit of cleared exposure, WAD: requirement = exposure × stressWad, rounded up.
    /// @param dpsSink Receives DPS slashed by rule (0: rule slashes off).
    /// @param graceSec Seconds a flagged shortfall may last before a rule slash.
    /// @param slashBps Share of the remaining DPS bond one rule slash takes, basis points (≤ 10,000).
    /// @param feeShareBps Share of a customer's risk-increasing trade fee credited to its guarantor, bps (≤ 10,000).
    /// @param vestSec Seconds over which credited income enters the share price (0: at once).
    struct BackstopParams {
        address insuranceFund;
        uint64 stressWad;
        address dpsSink;
        uint32 graceSec;
        uint16 slashBps;
        uint16 feeShareBps;
        uint32 vestSec;
    }

    /// @notice A guarantor's income and insurance-shortfall state.
    /// @param pendingUsdc Fee income accrued and not yet collected (collectIncome), USDC.
    /// @param unvestedUsdc Collected income not yet in the share price, USDC.
    /// @param vestStart Second the unvested income last released from.
    /// @param vestEnd Second by which all unvested income is released.
    /// @param shortSince Second its insurance shortfall was flagged (0: none flagged).
    struct Income {
        uint128 pendingUsdc;
        uint128 unvestedUsdc;
        uint64 vestStart;
        uint64 vestEnd;
        uint64 shortSince;
    }

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

    /// @notice onExposureChanged(account, newExposureUsdc, true) for a risk-increasing trade, plus the guarantor's
    ///         share of its fee: feeUsdc × feeShareBps / 10,000, rounded down, accrued as pending income that the
    ///         ClearingHouse pays in at its next fee flush (ClearingHouse only).
    /// @param account The trader.
    /// @param newExposureUsdc Gross open notional after the trade.
    /// @param feeUsdc The trade's fee, USDC.
    function onRiskIncrease(address account, uint256 newExposureUsdc, uint256 feeUsdc) external;

    /// @notice Pays `amountUsdc` of accrued fee income into the pool (ClearingHouse only, from its fee flush;
    ///         at most incomeOwed()).
    /// @param amountUsdc USDC pulled from the caller.
    function fundIncome(uint256 amountUsdc) external;

    /// @notice Moves a guarantor's accrued fee income into its vesting (permissionless): it enters the share price
    ///         linearly over vestSec, so capital deposited just before cannot take it and leave (fee sniping).
    /// @param guarantor The guarantor.
    /// @return amountUsdc USDC collected.
    function collectIncome(address guarantor) external returns (uint256 amountUsdc);

    /// @notice Starts or stops a guarantor's grace clock (permissionless): flags it when its insurance stake is
    ///         below the requirement, clears the flag when it is not.
    /// @param guarantor The guarantor.
    /// @return short Whether it is short now.
    function flagShortfall(address guarantor) external returns (bool short);

    /// @notice Slashes slashBps of the DPS bond of a guarantor whose flagged shortfall outlasted the grace period
    ///         (permissionless; restarts the grace clock, so at most one slash per grace period).
    /// @param guarantor The guarantor.
    /// @return amount DPS slashed.
    function slashShortfall(address guarantor) external returns (uint256 amount);

    /// @notice Sets the backstop parameters (ADMIN).
    /// @param p The parameters.
    function setBackstopParams(BackstopParams calldata p) external;

    /// @notice The backstop parameters.
    /// @return The parameters.
    function backstopParams() external view returns (BackstopParams memory);

    /// @notice The insurance stake a guarantor's cleared exposure requires: exposure × stressWad, rounded up
    ///         (0 while the requirement is off). Read by the InsuranceFund's withdrawal floor.
    /// @param guarantor The guarantor.
    /// @return requiredUsdc USDC.
    function requiredInsuranceUsdc(address guarantor) external view returns (uint256 requiredUsdc);

    /// @notice A guarantor's income and shortfall state.
    /// @param guarantor The guarantor.
    /// @return The state.
    function incomeOf(address guarantor) external view returns (Income memory);

    /// @notice Fee income accrued to guarantors and not yet paid in by the ClearingHouse, USDC.
    /// @return USDC.
    function incomeOwed() external view returns (uint256);

    /// @notice Pays up to `amountUsdc` of `account`'s deficit from its guarantor's capital to `recipient`
    ///         (the trusted engine governance registered, else Roles.CLEARING through AccessManager), never below
    ///         zero (LIQ-03).
    /// @param account The defaulted customer.
    /// @param amountUsdc Deficit.
    /// @param recipient The ClearingHouse.
    /// @return paidUsdc USDC paid.
    function coverLoss(address account, uint256 amountUsdc, address recipient) external returns (uint256 paidUsdc);

    /// @notice Registers the LiquidationEngine `coverLoss` admits with one SLOAD instead of an AccessManager check
    ///         (ADMIN). Re-pointing or clearing it (address(0)) removes the old engine's fast path at once; any other
    ///         caller still needs Roles.CLEARING through AccessManager.
    /// @param engine The LiquidationEngine proxy, or address(0).
    function setTrustedEngine(address engine) external;

    /// @notice The LiquidationEngine `coverLoss` admits without an AccessManager check (address(0): none).
    /// @return The engine.
    function trustedEngine() external view returns (address);

    /// @notice Sets governance parameters (ADMIN).
    /// @param minDpsStake Minimum DPS stake.
    /// @param maxLeverageWad Max exposure / capital, WAD, at most type(uint64).max (~18.4x; else PoolInvalidParams).
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
