// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IOptionsMarketTypes} from "./IOptionsMarketTypes.sol";

/// @title IOptionsMarketEvents
/// @notice The events of IOptionsMarket (each carries the post-state).
interface IOptionsMarketEvents is IOptionsMarketTypes {
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

    /// @notice Emitted when an account writes margined options (no collateral: its ClearingHouse margin covers them).
    /// @param seriesId The series.
    /// @param writer The writer.
    /// @param sizeCh Written now.
    /// @param marginedShortCh The writer's margined shorts in the series after.
    /// @param seriesMarginedCh The series' open margined shorts after.
    /// @param openInterestCh The series' open interest after.
    event MarginedWritten(
        uint256 indexed seriesId,
        address indexed writer,
        uint256 sizeCh,
        uint256 marginedShortCh,
        uint256 seriesMarginedCh,
        uint256 openInterestCh
    );

    /// @notice Emitted when the ClearingHouse liquidates a margined writer: its margined shorts become prepaid (it
    ///         paid their value at the liquidation price into the reserve) and stop counting in its margin.
    /// @param seriesId The series.
    /// @param account The liquidated writer.
    /// @param sizeCh Shorts prepaid now.
    /// @param valueUsdc Their value paid now.
    /// @param prepaidCh The account's prepaid shorts in the series after.
    /// @param prepaidUsdc The account's prepaid value in the series after.
    event MarginedLiquidated(
        uint256 indexed seriesId,
        address indexed account,
        uint256 sizeCh,
        uint256 valueUsdc,
        uint256 prepaidCh,
        uint256 prepaidUsdc
    );

    /// @notice Emitted once per series when its settlement is final: the holders' claim on the margined shorts is
    ///         booked into the reserve (owed by the margined writers).
    /// @param seriesId The series.
    /// @param openCh Margined (and prepaid) shorts open.
    /// @param dueUsdc Booked claim, rounded up.
    event MarginedBooked(uint256 indexed seriesId, uint256 openCh, uint256 dueUsdc);

    /// @notice Emitted when an account's margined shorts of a series settle from its ClearingHouse collateral.
    /// @param seriesId The series.
    /// @param account The writer.
    /// @param shortCh Margined and prepaid shorts settled.
    /// @param obligationUsdc What they owe at the final payoff, rounded up.
    /// @param prepaidUsdc Value already prepaid at a liquidation.
    /// @param cashUsdc Moved to (+) or from (−) the account's ClearingHouse collateral.
    /// @param seriesMarginedCh The series' open margined shorts after.
    event MarginedSettled(
        uint256 indexed seriesId,
        address indexed account,
        uint256 shortCh,
        uint256 obligationUsdc,
        uint256 prepaidUsdc,
        int256 cashUsdc,
        uint256 seriesMarginedCh
    );

    /// @notice Emitted when margined shorts are closed against the account's longs before expiry.
    /// @param seriesId The series.
    /// @param account The writer.
    /// @param sizeCh Closed.
    /// @param marginedShortCh The account's margined shorts after.
    /// @param seriesMarginedCh The series' open margined shorts after.
    event MarginedClosed(
        uint256 indexed seriesId,
        address indexed account,
        uint256 sizeCh,
        uint256 marginedShortCh,
        uint256 seriesMarginedCh
    );
}
