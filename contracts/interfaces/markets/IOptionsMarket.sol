// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IKeeperCompatible} from "../keepers/IKeeperCompatible.sol";
import {IERC5267} from "@openzeppelin/contracts/interfaces/IERC5267.sol";
// re-exported: callers import {IOptionsMarket, IOptionsMarketTypes} from this file
// solhint-disable-next-line no-unused-import
import {IOptionsMarketTypes} from "./IOptionsMarketTypes.sol";
import {IOptionsMarketErrors} from "./IOptionsMarketErrors.sol";
import {IOptionsMarketEvents} from "./IOptionsMarketEvents.sol";
import {IMarketScenarioRisk} from "../callback/IMarketScenarioRisk.sol";
import {IMarketAccountRisk} from "../callback/IMarketAccountRisk.sol";
import {ILiquidatableMarket} from "../callback/ILiquidatableMarket.sol";

/// @title IOptionsMarket
/// @notice European calls and puts on the CH index (cash-settled in USDC) and on futures series (exercise opens the
///         futures position at the strike through IFuturesExercise) — SPEC section 6, seed 000 sections 10.3–10.4.
///
///         Writers are fully collateralised from their ClearingHouse account: writing moves the collateral into this
///         market's PnL pool (`IClearingHouse.settle(writer, −collateral)`); every payout, premium, release and
///         bounty is a `settle` back to an account. Collateral per CH: a put's strike; a call's payoff cap
///         (`capWad`: every call is a call spread whose payoff per CH is min(max(S − K, 0), cap)). A written option's
///         payout never exceeds its posted collateral; a series never pays out more than it was posted (MKT-07).
///
///         Positions are internal balances per (series, account): `longCh` (held options, transferable) and
///         `shortCh` (written options, with their `collateralUsdc`; not transferable). Writing gives the writer
///         both a short and the matching long; the long is then sold through EIP-712 signed offers (`fillOffer`)
///         or moved with `transferLong`. A seller sells its longs first and writes the remainder.
///
///         Expiry: after `expiry` anyone fixes the settlement price from the oracle (`fixSettlementPrice`); during
///         `disputeWindowSec` the guardian may correct it (`correctSettlementPrice`); then it is final and every
///         position settles: pulled by anyone for one account (`exercise`) or paged by keepers (`settleSeries`,
///         with a bounded bounty per credited account). In-the-money options are exercised automatically; worthless
///         ones expire and their writers get all their collateral back.
/// @dev Units: sizes in CH wei (18 decimals); strikes, caps, premiums and prices in USDC per CH as WAD; `*Usdc` in
///      USDC units (6 decimals). Conversions use SpotMath: USDC = sizeCh · priceWad / 1e30. Collateral and a writer's
///      obligation round up, holder payouts and writer releases round down (ACC-05).
///      EIP-712 domain: ERC-5267 `eip712Domain()` (OpenZeppelin EIP712Upgradeable; name "CHX Options", version "1").
interface IOptionsMarket is
    IOptionsMarketErrors,
    IOptionsMarketEvents,
    IKeeperCompatible,
    IERC5267,
    IMarketScenarioRisk,
    IMarketAccountRisk,
    ILiquidatableMarket
{
    // ---------------------------------------------------------------- listing

    /// @notice Lists a series (ADMIN). Puts' cap is the strike; calls need a cap. Futures options need the futures
    ///         market set and a trading futures series expiring at or after the option.
    /// @param p The series.
    /// @return seriesId The new id.
    function listSeries(SeriesParams calldata p) external returns (uint256 seriesId);

    /// @notice Lists a cash-settled index series by the permissionless rule: expiry on the standard grid within
    ///         [now + minTimeToExpiry, now + maxHorizon]; strike a multiple of strikeStepWad within
    ///         maxStrikeDeviationBps of the index; calls capped at strike · callCapBps; at most maxLiveSeries live.
    ///         The caller posts a bond of listingBondPerDayUsdc per started day to expiry from its ClearingHouse
    ///         collateral (its initial margin elsewhere must still hold), refunded when the price is fixed if the
    ///         series produced at least that much fee income, else fee income. Pausable ("options.list").
    /// @param kind Call or put.
    /// @param strikeWad Strike.
    /// @param expiry Expiry.
    /// @return seriesId The new id.
    function listStandardSeries(OptionKind kind, uint128 strikeWad, uint64 expiry) external returns (uint256 seriesId);

    /// @notice `listStandardSeries` for an option on a STANDARD futures series (listed on a tenor's grid by anyone,
    ///         `IFuturesExercise.isStandardSeries`), trading and expiring no earlier than the option's expiry plus
    ///         the dispute window (its exercise opens futures then): same expiry, cap, live-series and bond rules; the
    ///         strike a multiple of strikeStepWad / 10 within maxStrikeDeviationBps of the futures' forward (its last
    ///         trade within a day, else its quoted mid), not of the index; exercised into that futures series.
    ///         Pausable ("options.list").
    /// @param kind Call or put.
    /// @param strikeWad Strike.
    /// @param expiry Expiry.
    /// @param futuresSeriesId The standard futures series.
    /// @return seriesId The new id.
    function listStandardFuturesSeries(
        OptionKind kind,
        uint128 strikeWad,
        uint64 expiry,
        uint64 futuresSeriesId
    ) external returns (uint256 seriesId);

    /// @notice Removes a permissionless listing nobody has used (no account ever held a position) once
    ///         LISTING_GRACE_SEC has passed since it was listed and before its price is fixed: frees its live slot and
    ///         its key. The lister's bond is forfeited: the caller gets min(bountyUsdc, bond), the rest is fee income.
    ///         Permissionless (issue 17 item 25: slots cannot be squatted by listings nobody trades).
    /// @param seriesId The series.
    function delistSeries(uint256 seriesId) external;

    // ---------------------------------------------------------------- trading

    /// @notice Writes `sizeCh` options: debits collateral (size · capWad, rounded up) from the caller's ClearingHouse
    ///         account and gives the caller the short and the matching long. Pausable ("options.write").
    /// @param seriesId The series (before expiry).
    /// @param sizeCh Size, CH wei.
    /// @return collateralUsdc Collateral posted.
    function write(uint256 seriesId, uint256 sizeCh) external returns (uint256 collateralUsdc);

    /// @notice Writes `sizeCh` options margined (issue 20 item 3): no collateral moves; the short counts in the
    ///         caller's ClearingHouse portfolio margin (the market holds the account there and answers its scenario
    ///         risk), which must cover initial margin afterwards. Gives the caller the short and the matching long
    ///         like `write`. Cash-settled index options only; uncapped calls (`capWad` = UNCAPPED) are writable only
    ///         this way. The caller needs a ClearingHouse guarantor like any trader. Pausable ("options.write").
    /// @param seriesId The series (before expiry).
    /// @param sizeCh Size, CH wei.
    function writeMargined(uint256 seriesId, uint256 sizeCh) external;

    /// @notice `account`'s margined shorts in `seriesId`.
    /// @param seriesId The series.
    /// @param account The account.
    /// @return The record.
    function marginedOf(uint256 seriesId, address account) external view returns (MarginedShort memory);

    /// @notice Series in which `account` has margined shorts counting in its margin (≤ MAX_MARGINED_SERIES).
    /// @param account The account.
    /// @return The series ids.
    function marginedSeriesOf(address account) external view returns (uint256[] memory);

    /// @notice The margined-shorts state of `seriesId`.
    /// @param seriesId The series.
    /// @return The record.
    function marginedSeries(uint256 seriesId) external view returns (MarginedSeries memory);

    /// @notice Burns `sizeCh` of the caller's longs against its own shorts before expiry and returns the
    ///         proportional collateral (rounded down). Never paused (risk-reducing).
    /// @param seriesId The series.
    /// @param sizeCh Size.
    /// @return releasedUsdc Collateral returned to the caller's ClearingHouse account.
    function close(uint256 seriesId, uint256 sizeCh) external returns (uint256 releasedUsdc);

    /// @notice Moves longs to another account before expiry. Pausable ("options.trade").
    /// @param seriesId The series.
    /// @param to Recipient.
    /// @param sizeCh Size.
    function transferLong(uint256 seriesId, address to, uint256 sizeCh) external;

    /// @notice Fills `sizeCh` of a signed offer against the caller. The buyer pays the premium (rounded up) plus its
    ///         fee; the seller receives the premium (rounded down) less its fee and delivers its longs first, writing
    ///         the rest (posting collateral). Premiums move between ClearingHouse accounts. Pausable
    ///         ("options.trade"; writing also needs "options.write").
    /// @param offer The offer.
    /// @param signature The maker's EIP-712 signature (ECDSA or ERC-1271).
    /// @param sizeCh Size to fill.
    /// @return filledAfterCh The offer's filled size after.
    function fillOffer(
        Offer calldata offer,
        bytes calldata signature,
        uint256 sizeCh
    ) external returns (uint256 filledAfterCh);

    /// @notice Cancels an offer (its maker only).
    /// @param offer The offer.
    function cancelOffer(Offer calldata offer) external;

    /// @notice Voids every offer of the caller with a nonce below `newMinNonce`.
    /// @param newMinNonce The new minimum (must increase).
    function raiseMinNonce(uint256 newMinNonce) external;

    // ---------------------------------------------------------------- expiry and settlement

    /// @notice Fixes the settlement price from the oracle's index after expiry (permissionless; a bounty from fees).
    ///         Reverts with OptionsAlreadyDone(FixPrice) when already fixed.
    /// @param seriesId The series.
    /// @return priceWad The price fixed.
    function fixSettlementPrice(uint256 seriesId) external returns (uint256 priceWad);

    /// @notice Corrects the settlement price inside the dispute window (GUARDIAN). The window does not restart.
    /// @param seriesId The series.
    /// @param priceWad The corrected price.
    function correctSettlementPrice(uint256 seriesId, uint256 priceWad) external;

    /// @notice Settles one account of a series whose price is final (permissionless, no bounty): pays its longs'
    ///         payout and releases its shorts' collateral; for an in-the-money futures option, exercises its longs
    ///         against the next writers (at most MAX_PAIRS_PER_CALL pairs; call again for the rest).
    /// @param seriesId The series.
    /// @param account The account.
    /// @return payoutUsdc Cash paid to the account.
    function exercise(uint256 seriesId, address account) external returns (uint256 payoutUsdc);

    /// @notice Settles up to `maxSteps` accounts (or holder–writer pairs) of a series whose price is final, in list
    ///         order, paying the caller a bounty of min(bountyUsdc, credit) per credited account. Permissionless;
    ///         reverts with OptionsAlreadyDone(Settle) when the series is settled.
    /// @param seriesId The series.
    /// @param maxSteps Page size.
    /// @return steps Steps done.
    /// @return done True when the series is fully settled.
    function settleSeries(uint256 seriesId, uint256 maxSteps) external returns (uint256 steps, bool done);

    /// @notice Sends pending fee income out of the PnL pool to the fee recipient (permissionless).
    /// @return amountUsdc Sent.
    function withdrawFees() external returns (uint256 amountUsdc);

    // ---------------------------------------------------------------- governance

    /// @notice Sets the parameters (ADMIN).
    /// @param p The parameters.
    function setParams(Params calldata p) external;

    /// @notice Sets the futures market that futures options exercise into (ADMIN). The OptionsMarket needs the
    ///         function role for `IFuturesExercise.openFromExercise` on it.
    /// @param futuresMarket The IFuturesExercise implementation.
    function setFuturesMarket(address futuresMarket) external;

    /// @notice Sets the settlement module (ADMIN): stateless logic run by delegatecall in this market's storage;
    ///         replacing it is an upgrade of that logic.
    /// @param module The OptionsSettlement logic contract.
    function setSettlementModule(address module) external;

    /// @notice The settlement module.
    /// @return The OptionsSettlement logic contract.
    function settlementModule() external view returns (address);

    /// @notice Sets the fee recipient (ADMIN).
    /// @param feeRecipient The recipient.
    function setFeeRecipient(address feeRecipient) external;

    // ---------------------------------------------------------------- views

    /// @notice A series.
    /// @param seriesId The id.
    /// @return The series.
    function series(uint256 seriesId) external view returns (Series memory);

    /// @notice A series' life-cycle status.
    /// @param seriesId The id.
    /// @return The status.
    function seriesStatus(uint256 seriesId) external view returns (SeriesStatus);

    /// @notice Payoff per CH of option at `priceWad`: calls min(max(S − K, 0), cap), puts max(K − S, 0).
    /// @param seriesId The series.
    /// @param priceWad The underlying price.
    /// @return payoffWad USDC per CH, WAD.
    function payoffPerCh(uint256 seriesId, uint256 priceWad) external view returns (uint256 payoffWad);

    /// @notice Collateral needed to write `sizeCh` (rounded up).
    /// @param seriesId The series.
    /// @param sizeCh The size.
    /// @return USDC.
    function collateralFor(uint256 seriesId, uint256 sizeCh) external view returns (uint256);

    /// @notice An account's position in a series.
    /// @param seriesId The series.
    /// @param account The account.
    /// @return The position.
    function positionOf(uint256 seriesId, address account) external view returns (Position memory);

    /// @notice The account at `index` in a series' settlement list.
    /// @param seriesId The series.
    /// @param index Index < accountCount.
    /// @return The account.
    function accountAt(uint256 seriesId, uint256 index) external view returns (address);

    /// @notice Number of series listed (ids are 1..seriesCount).
    /// @return The count.
    function seriesCount() external view returns (uint256);

    /// @notice Series not yet fully settled (keeper-enumerable).
    /// @return ids Their ids.
    function pendingSeries() external view returns (uint256[] memory ids);

    /// @notice Live series (listed, price not yet fixed).
    /// @return The count.
    function liveSeries() external view returns (uint256);

    /// @notice Filled size and cancellation of an offer.
    /// @param offerHash The hash.
    /// @return filledCh Filled size.
    /// @return cancelled Whether cancelled.
    function offerState(bytes32 offerHash) external view returns (uint256 filledCh, bool cancelled);

    /// @notice The EIP-712 hash of an offer.
    /// @param offer The offer.
    /// @return The digest the maker signs.
    function offerHash(Offer calldata offer) external view returns (bytes32);

    /// @notice A maker's minimum nonce.
    /// @param maker The maker.
    /// @return The minimum.
    function minNonce(address maker) external view returns (uint256);

    /// @notice Pending fee income (inside the PnL pool) and the collateral the pool must hold for open series.
    /// @return feesUsdc Pending fees.
    /// @return reservedUsdc Σ over series of posted − paid − released.
    function poolClaims() external view returns (uint256 feesUsdc, uint256 reservedUsdc);

    /// @notice The parameters.
    /// @return The parameters.
    function params() external view returns (Params memory);

    /// @notice Module addresses.
    /// @return clearingHouse The ClearingHouse.
    /// @return oracle The CH index oracle.
    /// @return futuresMarket The futures market (0 until set).
    /// @return feeRecipient The fee recipient.
    function modules()
        external
        view
        returns (address clearingHouse, address oracle, address futuresMarket, address feeRecipient);
}
