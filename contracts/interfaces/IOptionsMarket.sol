// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IKeeperCompatible} from "./IKeeperCompatible.sol";
import {IERC5267} from "@openzeppelin/contracts/interfaces/IERC5267.sol";

/// @title IOptionsMarketTypes
/// @notice The enums, structs, errors and events of IOptionsMarket (shared by the market and its settlement module).
interface IOptionsMarketTypes {
    /// @notice Call (right to buy at the strike) or put (right to sell at the strike).
    enum OptionKind {
        Call,
        Put
    }

    /// @notice A series' life cycle.
    /// @dev None: unknown id. Trading: before expiry. Expired: expiry passed, price not fixed. Disputable: price fixed,
    ///      dispute window open. Final: price final, positions being settled. Settled: every account settled.
    enum SeriesStatus {
        None,
        Trading,
        Expired,
        Disputable,
        Final,
        Settled
    }

    /// @notice Keeper work items, carried by OptionsAlreadyDone.
    enum Work {
        FixPrice,
        Settle
    }

    /// @notice What governance lists (and what a permissionless listing derives).
    /// @param kind Call or put.
    /// @param onFutures True: exercise opens a futures position on `futuresSeriesId`; false: cash-settled on the index.
    /// @param futuresSeriesId The futures series (ignored when `onFutures` is false).
    /// @param expiry Unix seconds; for futures options ≤ the futures series' expiry.
    /// @param strikeWad Strike, USDC per CH (WAD, > 0).
    /// @param capWad Calls: maximum payoff per CH (the call-spread width, > 0). Puts: ignored (the cap is the strike).
    struct SeriesParams {
        OptionKind kind;
        bool onFutures;
        uint64 futuresSeriesId;
        uint64 expiry;
        uint128 strikeWad;
        uint128 capWad;
    }

    /// @notice A listed series and its running totals.
    /// @param expiry Unix seconds.
    /// @param kind Call or put.
    /// @param onFutures Exercise opens a futures position.
    /// @param futuresSeriesId The futures series.
    /// @param priceFixedAt When the settlement price was fixed (0 until then); final at + disputeWindowSec.
    /// @param strikeWad Strike, WAD.
    /// @param capWad Maximum payoff per CH (calls: the cap; puts: the strike) = collateral per CH.
    /// @param openInterestCh Σ shorts = Σ longs outstanding, CH wei.
    /// @param postedUsdc Σ collateral ever posted to the series (MKT-07: paid + released ≤ posted).
    /// @param accountCount Accounts listed for settlement (an account is listed when its position becomes non-zero).
    /// @param settlementPriceWad The settlement price (0 until fixed).
    /// @param paidUsdc Σ paid to holders (and to holders in a futures-exercise cash fallback).
    /// @param releasedUsdc Σ collateral returned to writers (close, settlement, futures exercise).
    /// @param cursor Next account to settle (cash and out-of-the-money series; holders of in-the-money futures options).
    /// @param writerCursor Next writer to pair with a holder (in-the-money futures options).
    /// @param pendingIndex Position + 1 in the pending-series list (0 once settled).
    /// @param settled True once every account is settled.
    /// @param oraclePriceWad The index the price was fixed at, recorded by the first correction (0 until then; without a
    ///        correction it is `settlementPriceWad`): corrections stay within maxCorrectionBps of it.
    /// @param lister Who listed it by the permissionless rule (zero for a governance listing).
    /// @param listingBondUsdc The lister's bond still held (refunded or forfeited when the price is fixed).
    /// @param listedAt When it was listed, unix seconds.
    /// @param feesUsdc Fee income its fills produced while its listing bond was held, up to the first fill that reached
    ///        the bond (the bond is refunded at the fix if this reached it; not counted for unbonded series).
    struct Series {
        uint64 expiry;
        OptionKind kind;
        bool onFutures;
        uint64 futuresSeriesId;
        uint64 priceFixedAt;
        uint128 strikeWad;
        uint128 capWad;
        uint96 openInterestCh;
        uint128 postedUsdc;
        uint32 accountCount;
        uint128 settlementPriceWad;
        uint128 paidUsdc;
        uint128 releasedUsdc;
        uint32 cursor;
        uint32 writerCursor;
        uint32 pendingIndex;
        bool settled;
        uint128 oraclePriceWad;
        address lister;
        uint64 listingBondUsdc;
        uint32 listedAt;
        uint64 feesUsdc;
    }

    /// @notice One account's position in one series (one storage word).
    /// @param longCh Options held, CH wei.
    /// @param shortCh Options written and outstanding, CH wei.
    /// @param collateralUsdc Collateral backing `shortCh`, USDC (≥ shortCh · capWad / 1e30 at all times).
    struct Position {
        uint96 longCh;
        uint96 shortCh;
        uint64 collateralUsdc;
    }

    /// @notice A signed offer to buy or sell options of one series (EIP-712 type `Offer`).
    /// @param maker The signer (EOA or ERC-1271 wallet) whose ClearingHouse account pays or receives the premium.
    /// @param seriesId The series.
    /// @param isBuy True: the maker buys options (pays the premium). False: the maker sells (its longs first, then
    ///        it writes the rest, posting collateral).
    /// @param sizeCh Total size the offer may trade, CH wei.
    /// @param premiumWad Premium per CH of option, USDC per CH (WAD).
    /// @param nonce Offer id; offers below the maker's minimum nonce are void.
    /// @param expiry Unix seconds after which the offer can no longer be filled.
    /// @param taker The only account allowed to fill it, or address(0) for anyone.
    struct Offer {
        address maker;
        uint256 seriesId;
        bool isBuy;
        uint256 sizeCh;
        uint256 premiumWad;
        uint256 nonce;
        uint64 expiry;
        address taker;
    }

    /// @notice Governance parameters.
    /// @param makerFeeBps Fee on the premium paid by an offer's maker (≤ MAX_FEE_BPS), rounded up.
    /// @param takerFeeBps Fee on the premium paid by an offer's taker (≤ MAX_FEE_BPS), rounded up.
    /// @param disputeWindowSec Time after the price is fixed during which the guardian may correct it.
    /// @param expiryGridSec Permissionless listing: expiries are `k · expiryGridSec + expiryOffsetSec`.
    /// @param expiryOffsetSec Offset of the expiry grid (e.g. 8 h: 08:00 UTC).
    /// @param minTimeToExpirySec Permissionless listing: expiry ≥ now + this.
    /// @param maxHorizonSec Permissionless listing: expiry ≤ now + this.
    /// @param maxStrikeDeviationBps Permissionless listing: |strike − index| ≤ index · this / 10,000.
    /// @param callCapBps Permissionless listing: a call's cap = strike · this / 10,000.
    /// @param maxLiveSeries Series listed and not yet expired-and-fixed, at most (permissionless listing only).
    /// @param bountyUsdc Keeper bounty: per settled account (from its credit) and per fixed price (from fees).
    /// @param strikeStepWad Permissionless listing: strikes are multiples of this.
    /// @param maxCorrectionBps Largest distance of a guardian's correction from the oracle's fixed price, bps (≤ 5,000).
    /// @param listingBondPerDayUsdc Permissionless listing: bond per started day to expiry, USDC (≤ 1,000 USDC).
    struct Params {
        uint16 makerFeeBps;
        uint16 takerFeeBps;
        uint32 disputeWindowSec;
        uint32 expiryGridSec;
        uint32 expiryOffsetSec;
        uint32 minTimeToExpirySec;
        uint32 maxHorizonSec;
        uint16 maxStrikeDeviationBps;
        uint16 callCapBps;
        uint16 maxLiveSeries;
        uint64 bountyUsdc;
        uint128 strikeStepWad;
        uint16 maxCorrectionBps;
        uint48 listingBondPerDayUsdc;
    }

    // ---------------------------------------------------------------- errors

    /// @notice Thrown when a series id is unknown.
    /// @param seriesId The id.
    error OptionsUnknownSeries(uint256 seriesId);
    /// @notice Thrown when writing, trading or transferring a series at or after its expiry.
    /// @param seriesId The series.
    /// @param expiry Its expiry.
    /// @param nowSec The block timestamp.
    error OptionsSeriesExpired(uint256 seriesId, uint256 expiry, uint256 nowSec);
    /// @notice Thrown when fixing the settlement price before expiry.
    /// @param seriesId The series.
    /// @param expiry Its expiry.
    /// @param nowSec The block timestamp.
    error OptionsSeriesNotExpired(uint256 seriesId, uint256 expiry, uint256 nowSec);
    /// @notice Thrown when settling before the settlement price is final.
    /// @param seriesId The series.
    /// @param finalAt When it becomes final (0: not fixed yet).
    /// @param nowSec The block timestamp.
    error OptionsSettlementNotFinal(uint256 seriesId, uint256 finalAt, uint256 nowSec);
    /// @notice Thrown by keeper functions when the work was already done (racing keepers treat it as success).
    /// @param seriesId The series.
    /// @param work FixPrice or Settle.
    error OptionsAlreadyDone(uint256 seriesId, Work work);
    /// @notice Thrown when correcting a price that is not fixed or whose dispute window has closed.
    /// @param seriesId The series.
    /// @param disputeEndsAt End of the window (0: price not fixed).
    /// @param nowSec The block timestamp.
    error OptionsNotDisputable(uint256 seriesId, uint256 disputeEndsAt, uint256 nowSec);
    /// @notice Thrown when a size is zero or does not fit a position (uint96).
    /// @param sizeCh The size.
    error OptionsInvalidSize(uint256 sizeCh);
    /// @notice Thrown when an account's ClearingHouse collateral cannot pay a debit (collateral, premium, fee).
    /// @param account The account.
    /// @param requiredUsdc The debit.
    /// @param collateralUsdc Its ClearingHouse collateral.
    error OptionsInsufficientCollateral(address account, uint256 requiredUsdc, int256 collateralUsdc);
    /// @notice Thrown when a debit would leave an account with open ClearingHouse positions below initial margin.
    /// @param account The account.
    /// @param requiredUsdc Initial margin.
    /// @param equityUsdc Equity after the debit.
    error OptionsInsufficientMargin(address account, uint256 requiredUsdc, int256 equityUsdc);
    /// @notice Thrown when closing or transferring more longs than held.
    /// @param seriesId The series.
    /// @param account The account.
    /// @param requestedCh Size asked for.
    /// @param longCh Longs held.
    error OptionsInsufficientLong(uint256 seriesId, address account, uint256 requestedCh, uint256 longCh);
    /// @notice Thrown when closing more than written.
    /// @param seriesId The series.
    /// @param account The account.
    /// @param requestedCh Size asked for.
    /// @param shortCh Shorts outstanding.
    error OptionsInsufficientShort(uint256 seriesId, address account, uint256 requestedCh, uint256 shortCh);
    /// @notice Thrown when a strike or cap is zero or does not fit.
    /// @param strikeWad The strike.
    /// @param capWad The cap.
    error OptionsInvalidStrike(uint256 strikeWad, uint256 capWad);
    /// @notice Thrown when a listing's expiry is in the past, too close, too far or off the standard grid.
    /// @param expiry The expiry asked for.
    error OptionsInvalidExpiry(uint256 expiry);
    /// @notice Thrown when a permissionless strike is off the grid or too far from the index.
    /// @param strikeWad The strike.
    /// @param indexWad The index price.
    /// @param stepWad The strike grid step.
    error OptionsStrikeNotListable(uint256 strikeWad, uint256 indexWad, uint256 stepWad);
    /// @notice Thrown when a permissionless listing would exceed the live-series bound.
    /// @param live Live series now.
    /// @param max The bound.
    error OptionsTooManyLiveSeries(uint256 live, uint256 max);
    /// @notice Thrown when the same series is listed twice.
    /// @param seriesId The existing series.
    error OptionsSeriesExists(uint256 seriesId);
    /// @notice Thrown when listing a futures option before the futures market is set.
    error OptionsFuturesMarketNotSet();
    /// @notice Thrown when the futures series does not trade or expires before the option.
    /// @param futuresSeriesId The futures series.
    /// @param futuresExpiry Its expiry (0: unknown).
    /// @param optionExpiry The option's expiry.
    error OptionsInvalidFuturesSeries(uint256 futuresSeriesId, uint256 futuresExpiry, uint256 optionExpiry);
    /// @notice Thrown when exercising into futures failed without a reason (out of gas): retry with more gas.
    /// @param seriesId The series.
    error OptionsExerciseOutOfGas(uint256 seriesId);
    /// @notice Thrown when a signature does not come from `signer` for `digest`.
    /// @param signer The expected signer.
    /// @param digest The EIP-712 digest.
    error OptionsInvalidSignature(address signer, bytes32 digest);
    /// @notice Thrown when an offer is filled after its expiry.
    /// @param offerHash The offer hash.
    /// @param expiry Its expiry.
    /// @param nowSec The block timestamp.
    error OptionsOfferExpired(bytes32 offerHash, uint256 expiry, uint256 nowSec);
    /// @notice Thrown when an offer was cancelled.
    /// @param offerHash The offer hash.
    error OptionsOfferCancelled(bytes32 offerHash);
    /// @notice Thrown when a fill would exceed the offer's size.
    /// @param offerHash The offer hash.
    /// @param requestedCh Size asked for.
    /// @param remainingCh Size still fillable.
    error OptionsOverfill(bytes32 offerHash, uint256 requestedCh, uint256 remainingCh);
    /// @notice Thrown when an offer's nonce is below its maker's minimum.
    /// @param maker The maker.
    /// @param nonce The offer's nonce.
    /// @param minNonce The maker's minimum.
    error OptionsNonceBelowMinimum(address maker, uint256 nonce, uint256 minNonce);
    /// @notice Thrown when a minimum nonce is not raised.
    /// @param maker The maker.
    /// @param currentMinNonce Its current minimum.
    /// @param requested The value asked for.
    error OptionsNonceNotIncreasing(address maker, uint256 currentMinNonce, uint256 requested);
    /// @notice Thrown when a private offer is filled by another account.
    /// @param offerHash The offer hash.
    /// @param caller The caller.
    /// @param taker The only allowed taker.
    error OptionsTakerNotAllowed(bytes32 offerHash, address caller, address taker);
    /// @notice Thrown when someone other than the maker cancels an offer.
    /// @param caller The caller.
    /// @param maker The maker.
    error OptionsNotMaker(address caller, address maker);
    /// @notice Thrown when a maker fills its own offer or transfers to itself.
    /// @param account The account.
    error OptionsSelfTrade(address account);
    /// @notice Thrown when a fill is so small that the seller would receive no premium after rounding and fees.
    /// @param sizeCh The size.
    /// @param premiumWad The premium.
    error OptionsFillTooSmall(uint256 sizeCh, uint256 premiumWad);
    /// @notice Thrown when a parameter is outside its bounds.
    /// @param what The parameter's name.
    /// @param value The value given.
    error OptionsInvalidParam(string what, uint256 value);
    /// @notice Thrown when a corrected settlement price is zero or does not fit.
    /// @param priceWad The price.
    error OptionsInvalidPrice(uint256 priceWad);
    /// @notice Thrown by `delistSeries` for a series that is not an unused permissionless listing past its grace day.
    /// @param seriesId The series.
    /// @param accountCount Accounts that have held positions in it (must be 0).
    /// @param delistableAt When it can be delisted if unused (0: never, a governance listing or a fixed price).
    error OptionsNotDelistable(uint256 seriesId, uint256 accountCount, uint256 delistableAt);
    /// @notice Thrown when a correction lies more than maxCorrectionBps from the price the oracle fixed.
    /// @param seriesId The series.
    /// @param oraclePriceWad The oracle's fixed price.
    /// @param correctedWad The correction asked for.
    /// @param maxBps maxCorrectionBps.
    error OptionsCorrectionTooLarge(uint256 seriesId, uint256 oraclePriceWad, uint256 correctedWad, uint256 maxBps);
    /// @notice Thrown when `performUpkeep` is given data that is not a due work item.
    error OptionsInvalidUpkeep();

    // ---------------------------------------------------------------- events

    /// @notice Emitted when an unused permissionless listing is removed (its slot is free again, its key relistable).
    /// @param seriesId The series (unknown from now on).
    /// @param caller Who removed it.
    /// @param bondUsdc The lister's bond, forfeited: the caller's bounty, the rest fee income.
    /// @param bountyUsdc Paid to the caller.
    /// @param liveSeries Live series after.
    event SeriesDelisted(
        uint256 indexed seriesId,
        address indexed caller,
        uint256 bondUsdc,
        uint256 bountyUsdc,
        uint256 liveSeries
    );
    /// @notice Emitted when a series' price is fixed and its listing bond is released.
    /// @param seriesId The series.
    /// @param lister The lister.
    /// @param bondUsdc The bond.
    /// @param refunded True: back to the lister (the series produced at least the bond in fees); false: fee income.
    /// @param seriesFeesUsdc Fee income the series produced.
    event ListingBondReleased(
        uint256 indexed seriesId,
        address indexed lister,
        uint256 bondUsdc,
        bool refunded,
        uint256 seriesFeesUsdc
    );

    /// @notice Emitted when a series is listed.
    /// @param seriesId The new id (1, 2, …).
    /// @param kind Call or put.
    /// @param onFutures Exercise opens a futures position.
    /// @param futuresSeriesId The futures series (0 for index options).
    /// @param expiry Unix seconds.
    /// @param strikeWad Strike.
    /// @param capWad Maximum payoff per CH (= collateral per CH).
    /// @param listedBy The caller (governance or a permissionless lister).
    /// @param liveSeries Live series after.
    event SeriesListed(
        uint256 indexed seriesId,
        OptionKind kind,
        bool onFutures,
        uint256 futuresSeriesId,
        uint256 expiry,
        uint256 strikeWad,
        uint256 capWad,
        address indexed listedBy,
        uint256 liveSeries
    );

    /// @notice Emitted after every change of an account's position (post-state).
    /// @param seriesId The series.
    /// @param account The account.
    /// @param longCh Longs after.
    /// @param shortCh Shorts after.
    /// @param collateralUsdc Collateral after.
    event PositionUpdated(
        uint256 indexed seriesId,
        address indexed account,
        uint256 longCh,
        uint256 shortCh,
        uint256 collateralUsdc
    );

    /// @notice Emitted when options are written (by `write`, or by a seller without enough longs in `fillOffer`).
    /// @param seriesId The series.
    /// @param writer The writer.
    /// @param sizeCh Size written.
    /// @param collateralUsdc Collateral posted for it (rounded up).
    /// @param openInterestCh Series open interest after.
    /// @param postedUsdc Series Σ posted after.
    event OptionsWritten(
        uint256 indexed seriesId,
        address indexed writer,
        uint256 sizeCh,
        uint256 collateralUsdc,
        uint256 openInterestCh,
        uint256 postedUsdc
    );

    /// @notice Emitted when an account closes longs against its own shorts before expiry.
    /// @param seriesId The series.
    /// @param account The account.
    /// @param sizeCh Size closed.
    /// @param releasedUsdc Collateral returned (rounded down).
    /// @param openInterestCh Series open interest after.
    /// @param seriesReleasedUsdc Series Σ released after.
    event OptionsClosed(
        uint256 indexed seriesId,
        address indexed account,
        uint256 sizeCh,
        uint256 releasedUsdc,
        uint256 openInterestCh,
        uint256 seriesReleasedUsdc
    );

    /// @notice Emitted when longs move between accounts without a premium (`transferLong`).
    /// @param seriesId The series.
    /// @param from Sender.
    /// @param to Recipient.
    /// @param sizeCh Size.
    event LongTransferred(uint256 indexed seriesId, address indexed from, address indexed to, uint256 sizeCh);

    /// @notice Emitted for every fill of a signed offer.
    /// @param offerHash The EIP-712 hash.
    /// @param maker The offer's maker.
    /// @param taker The filler.
    /// @param seriesId The series.
    /// @param isBuy True when the maker bought.
    /// @param sizeCh Size traded.
    /// @param premiumWad Premium per CH.
    /// @param buyerPaidUsdc Premium paid by the buyer (rounded up) plus its fee.
    /// @param sellerReceivedUsdc Premium received by the seller (rounded down) less its fee.
    /// @param feesUsdc Fee income kept by the market (both fees plus rounding).
    /// @param filledAfterCh The offer's filled size after.
    event OfferFilled(
        bytes32 indexed offerHash,
        address indexed maker,
        address indexed taker,
        uint256 seriesId,
        bool isBuy,
        uint256 sizeCh,
        uint256 premiumWad,
        uint256 buyerPaidUsdc,
        uint256 sellerReceivedUsdc,
        uint256 feesUsdc,
        uint256 filledAfterCh
    );

    /// @notice Emitted when a maker cancels an offer.
    /// @param offerHash The hash.
    /// @param maker The maker.
    /// @param nonce Its nonce.
    /// @param filledCh Size filled before.
    event OfferCancelled(bytes32 indexed offerHash, address indexed maker, uint256 nonce, uint256 filledCh);

    /// @notice Emitted when a maker voids every offer below a nonce.
    /// @param maker The maker.
    /// @param minNonce The new minimum.
    event MinNonceRaised(address indexed maker, uint256 minNonce);

    /// @notice Emitted when the settlement price is fixed from the oracle after expiry.
    /// @param seriesId The series.
    /// @param priceWad The index price.
    /// @param payoffPerChWad Payoff per CH at that price (capped).
    /// @param fixedBy The caller.
    /// @param disputeEndsAt When the price becomes final.
    /// @param bountyUsdc Bounty credited to the caller (from fees).
    /// @param liveSeries Live series after.
    event SettlementPriceFixed(
        uint256 indexed seriesId,
        uint256 priceWad,
        uint256 payoffPerChWad,
        address indexed fixedBy,
        uint256 disputeEndsAt,
        uint256 bountyUsdc,
        uint256 liveSeries
    );

    /// @notice Emitted when the guardian corrects a settlement price inside the dispute window.
    /// @param seriesId The series.
    /// @param oldPriceWad The replaced price.
    /// @param newPriceWad The new price.
    /// @param payoffPerChWad Payoff per CH at the new price.
    /// @param correctedBy The caller.
    /// @param disputeEndsAt Unchanged end of the window.
    event SettlementPriceCorrected(
        uint256 indexed seriesId,
        uint256 oldPriceWad,
        uint256 newPriceWad,
        uint256 payoffPerChWad,
        address indexed correctedBy,
        uint256 disputeEndsAt
    );

    /// @notice Emitted when an account's position in a settled series is paid out and released (cash settlement,
    ///         and every position of an out-of-the-money futures option).
    /// @param seriesId The series.
    /// @param account The account.
    /// @param longCh Longs settled.
    /// @param shortCh Shorts settled.
    /// @param payoutUsdc Paid to the account for its longs (rounded down).
    /// @param releasedUsdc Collateral returned for its shorts (collateral − obligation rounded up).
    /// @param bountyUsdc Deducted from the account's credit for the keeper.
    /// @param seriesPaidUsdc Series Σ paid after.
    /// @param seriesReleasedUsdc Series Σ released after.
    event PositionSettled(
        uint256 indexed seriesId,
        address indexed account,
        uint256 longCh,
        uint256 shortCh,
        uint256 payoutUsdc,
        uint256 releasedUsdc,
        uint256 bountyUsdc,
        uint256 seriesPaidUsdc,
        uint256 seriesReleasedUsdc
    );

    /// @notice Emitted for each holder–writer pair of an in-the-money futures option: the futures position opened at
    ///         the strike (`openedFutures`), or, when opening failed, the intrinsic value paid in cash from the
    ///         writer's collateral.
    /// @param seriesId The series.
    /// @param holder The option holder.
    /// @param writer The assigned writer.
    /// @param sizeCh Size exercised.
    /// @param openedFutures True when the futures position opened.
    /// @param payoutUsdc Cash paid to the holder (0 when the futures opened).
    /// @param releasedUsdc Collateral returned to the writer.
    /// @param seriesPaidUsdc Series Σ paid after.
    /// @param seriesReleasedUsdc Series Σ released after.
    event FuturesExercised(
        uint256 indexed seriesId,
        address indexed holder,
        address indexed writer,
        uint256 sizeCh,
        bool openedFutures,
        uint256 payoutUsdc,
        uint256 releasedUsdc,
        uint256 seriesPaidUsdc,
        uint256 seriesReleasedUsdc
    );

    /// @notice Emitted after each settlement page (and each pull exercise) with the series' progress.
    /// @param seriesId The series.
    /// @param cursor Accounts settled (or holders processed).
    /// @param writerCursor Writers fully assigned (futures options).
    /// @param accountCount Accounts listed.
    /// @param settled True once the series is fully settled.
    event SettlementProgressed(
        uint256 indexed seriesId,
        uint256 cursor,
        uint256 writerCursor,
        uint256 accountCount,
        bool settled
    );

    /// @notice Emitted when a keeper is paid for settlement work.
    /// @param keeper The caller.
    /// @param seriesId The series.
    /// @param bountyUsdc USDC credited to the keeper's ClearingHouse account.
    event KeeperPaid(address indexed keeper, uint256 indexed seriesId, uint256 bountyUsdc);

    /// @notice Emitted when fee income accrues.
    /// @param amountUsdc Added.
    /// @param feesUsdc Pending fees after.
    event FeesAccrued(uint256 amountUsdc, uint256 feesUsdc);

    /// @notice Emitted when pending fees are sent to the fee recipient.
    /// @param to The recipient.
    /// @param amountUsdc Sent.
    event FeesWithdrawn(address indexed to, uint256 amountUsdc);

    /// @notice Emitted when governance sets the parameters.
    /// @param params The new parameters.
    event ParamsSet(Params params);

    /// @notice Emitted when governance sets the futures market options on futures exercise into.
    /// @param futuresMarket The IFuturesExercise implementation.
    event FuturesMarketSet(address indexed futuresMarket);

    /// @notice Emitted when governance sets the settlement module (the logic `fixSettlementPrice`,
    ///         `correctSettlementPrice`, `exercise`, `settleSeries`, `withdrawFees`, `performUpkeep` and `setParams`
    ///         run in, by delegatecall, to keep the market under the contract-size limit).
    /// @param module The OptionsSettlement logic contract.
    event SettlementModuleSet(address indexed module);

    /// @notice Emitted when governance sets the fee recipient.
    /// @param feeRecipient The new recipient.
    event FeeRecipientSet(address indexed feeRecipient);
}

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
interface IOptionsMarket is IOptionsMarketTypes, IKeeperCompatible, IERC5267 {
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
