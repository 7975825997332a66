// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IDelayedOrderErrors} from "./IDelayedOrderErrors.sol";

/// @title IFuturesErrors
/// @notice Errors of the FuturesMarket (the errors part of IFuturesMarket), with the delayed-order errors it shares
///         with the PerpMarket.
interface IFuturesErrors is IDelayedOrderErrors {
    /// @notice Thrown when a series id does not exist.
    /// @param seriesId The id.
    error FuturesSeriesUnknown(uint256 seriesId);
    /// @notice Thrown when trading, electing or demanding proof on a series that no longer trades.
    /// @param seriesId The series.
    /// @param expiry Its expiry.
    error FuturesSeriesNotTrading(uint256 seriesId, uint64 expiry);
    /// @notice Thrown when fixing the settlement price before expiry.
    /// @param seriesId The series.
    /// @param expiry Its expiry.
    error FuturesSeriesNotExpired(uint256 seriesId, uint64 expiry);
    /// @notice Thrown by keeper functions when the work was already done (OPS-01: racing keepers treat it as done).
    /// @param seriesId The series.
    /// @param account The account (zero for series-level work).
    error FuturesAlreadyDone(uint256 seriesId, address account);
    /// @notice Thrown when listing an expiry that already has a series.
    /// @param expiry The expiry.
    /// @param seriesId The existing series.
    error FuturesSeriesExists(uint64 expiry, uint256 seriesId);
    /// @notice Thrown when a new series' expiry is too soon.
    /// @param expiry The expiry asked.
    /// @param earliest The earliest allowed.
    error FuturesInvalidExpiry(uint64 expiry, uint64 earliest);
    /// @notice Thrown when listing would exceed the live-series bound.
    /// @param max Params.maxLiveSeries.
    error FuturesTooManyLiveSeries(uint256 max);
    /// @notice Thrown when an account would hold positions in more series than allowed.
    /// @param account The account.
    /// @param max MAX_SERIES_PER_ACCOUNT.
    error FuturesTooManySeries(address account, uint256 max);
    /// @notice Thrown when a new holder would push a series' account list past its 32-bit length (round 42).
    /// @param seriesId The series.
    /// @param max The list's most entries, 2^32 − 1.
    error FuturesSeriesAccountsFull(uint256 seriesId, uint256 max);
    /// @notice Thrown when a trade would push a side's open interest above the series cap.
    /// @param seriesId The series.
    /// @param oiCh The side's open interest after the trade.
    /// @param capCh The cap.
    error FuturesOiCapExceeded(uint256 seriesId, uint256 oiCh, uint256 capCh);
    /// @notice Thrown when the trade price is worse than the caller's limit.
    /// @param priceWad Trade price.
    /// @param limitPriceWad Limit (max for a buy, min for a sell).
    error FuturesSlippage(uint256 priceWad, uint256 limitPriceWad);
    /// @notice Thrown when a size or amount is zero.
    error FuturesZeroAmount();
    /// @notice Thrown when electing after the cut-off.
    /// @param seriesId The series.
    /// @param cutoff The cut-off time.
    error FuturesElectionClosed(uint256 seriesId, uint64 cutoff);
    /// @notice Thrown when electing more than the long position.
    /// @param seriesId The series.
    /// @param account The account.
    /// @param electedCh Amount asked.
    /// @param longSizeCh The long size.
    error FuturesElectionTooLarge(uint256 seriesId, address account, uint256 electedCh, uint256 longSizeCh);
    /// @notice Thrown when, after the cut-off, a long would reduce below its elected delivery.
    /// @param seriesId The series.
    /// @param account The account.
    /// @param electedCh The locked election.
    /// @param newSizeCh The size the trade would leave.
    error FuturesElectionLocked(uint256 seriesId, address account, uint256 electedCh, int256 newSizeCh);
    /// @notice Thrown when an account's free margin cannot cover the payment for its elected delivery.
    /// @param account The account.
    /// @param requiredUsdc Its initial margin.
    /// @param equityUsdc Its equity net of the delivery payments it holds (elected × price, IMarketAccountRisk).
    error FuturesElectionUnfunded(address account, uint256 requiredUsdc, int256 equityUsdc);
    /// @notice Thrown when a short-only action is called for an account that is not short the series.
    /// @param seriesId The series.
    /// @param account The account.
    error FuturesNotShort(uint256 seriesId, address account);
    /// @notice Thrown when escrowing more CH than the short size, or withdrawing more than allowed.
    /// @param seriesId The series.
    /// @param account The account.
    /// @param escrowCh Escrow the call would leave (or ask).
    /// @param limitCh The bound.
    error FuturesEscrowOutOfRange(uint256 seriesId, address account, uint256 escrowCh, uint256 limitCh);
    /// @notice Thrown when taking back escrowed CH would leave an assignable short's margin below its initial margin
    ///         (the escrow backed its delivery bond).
    /// @param seriesId The series.
    /// @param account The short.
    /// @param requiredUsdc Its initial margin with the bond the withdrawal leaves.
    /// @param equityUsdc Its equity.
    error FuturesEscrowNeeded(uint256 seriesId, address account, uint256 requiredUsdc, int256 equityUsdc);
    /// @notice Thrown when withdrawing escrow after expiry (it is returned at settlement).
    /// @param seriesId The series.
    /// @param account The account.
    error FuturesEscrowLocked(uint256 seriesId, address account);
    /// @notice Thrown when the settlement price has not been fixed yet.
    /// @param seriesId The series.
    error FuturesPriceNotFixed(uint256 seriesId);
    /// @notice Thrown when finalising or settling inside the dispute window.
    /// @param seriesId The series.
    /// @param finalAt When the price becomes final.
    error FuturesDisputeWindowOpen(uint256 seriesId, uint64 finalAt);
    /// @notice Thrown when disputing after the dispute window.
    /// @param seriesId The series.
    /// @param finalAt When the price became final.
    error FuturesDisputeWindowClosed(uint256 seriesId, uint64 finalAt);
    /// @notice Thrown when a correction moves the price by more than maxCorrectionBps.
    /// @param seriesId The series.
    /// @param proposedWad The proposed price.
    /// @param correctedWad The corrected price asked.
    /// @param maxBps The bound.
    error FuturesCorrectionTooLarge(uint256 seriesId, uint256 proposedWad, uint256 correctedWad, uint256 maxBps);
    /// @notice Thrown when settling a series that is not finalised.
    /// @param seriesId The series.
    error FuturesNotFinal(uint256 seriesId);
    /// @notice Thrown when settling an assigned short that may still deliver (before the deadline).
    /// @param seriesId The series.
    /// @param account The short.
    /// @param assignedCh Its assignment.
    /// @param escrowCh Its escrow.
    /// @param deadline The delivery deadline.
    error FuturesDeliveryPending(
        uint256 seriesId,
        address account,
        uint256 assignedCh,
        uint256 escrowCh,
        uint64 deadline
    );
    /// @notice Thrown when settling an electing long while assigned shorts are not all settled.
    /// @param seriesId The series.
    /// @param shortPositions Short positions still to settle.
    error FuturesShortsPending(uint256 seriesId, uint256 shortPositions);
    /// @notice Thrown when the caller is not the account's guarantor.
    /// @param account The short.
    /// @param caller The caller.
    /// @param guarantor The account's guarantor.
    error FuturesNotGuarantor(address account, address caller, address guarantor);
    /// @notice Thrown when closing an unproven short without a due demand.
    /// @param seriesId The series.
    /// @param account The short.
    /// @param deadline The demand's deadline (0 = no demand).
    error FuturesDemandNotDue(uint256 seriesId, address account, uint64 deadline);
    /// @notice Thrown by parameter setters on invalid values.
    error FuturesInvalidParams();
    /// @notice Thrown when a keeper has no bounty to claim.
    /// @param keeper The keeper.
    error FuturesNothingToClaim(address keeper);
    /// @notice Thrown when the vault asks back more than `withdrawableToVaultUsdc()`.
    /// @param amountUsdc Asked.
    /// @param withdrawableUsdc Allowed.
    error FuturesVaultWithdrawTooLarge(uint256 amountUsdc, uint256 withdrawableUsdc);
    /// @notice Thrown by `performUpkeep` on data that is not one of the keeper calls.
    error FuturesInvalidPerformData();
    /// @notice Thrown when the liquidation hook is called by anyone but the ClearingHouse.
    /// @param caller The caller.
    error FuturesOnlyClearingHouse(address caller);
    /// @notice Thrown when `fillOrder` is called by anyone but the market itself (from `executeOrder`).
    /// @param caller The caller.
    error FuturesOnlySelf(address caller);
    /// @notice Thrown when a risk-increasing order's margin (on top of the account's initial margin) and its
    ///         execution fee are not covered by the account's equity at commit.
    /// @param account The account.
    /// @param requiredUsdc Initial margin with the order's.
    /// @param availableUsdc Equity less the execution fee.
    error FuturesInsufficientMargin(address account, uint256 requiredUsdc, int256 availableUsdc);
    /// @notice Thrown when a risk-increasing order's execution fee exceeds the account's collateral.
    /// @param account The account.
    /// @param feeUsdc The fee.
    /// @param collateralUsdc Its collateral.
    error FuturesInsufficientCollateral(address account, uint256 feeUsdc, int256 collateralUsdc);
    /// @notice Thrown when committing an order that could not be executed before the series expires (its price
    ///         time + 1 is at or after expiry).
    /// @param seriesId The series.
    /// @param executableAt First second the order could be executed.
    /// @param expiry The series' expiry.
    error FuturesOrderPastExpiry(uint256 seriesId, uint256 executableAt, uint64 expiry);
    /// @notice Thrown by `listStandardSeriesAt` for an expiry that is not on `tenor`'s grid, or further ahead than
    ///         the standard listing horizon allows (Monthly and Quarterly: STANDARD_HORIZON_SEC; Daily and Weekly:
    ///         only their next expiry).
    /// @param tenor The tenor asked for (IFuturesTypes.Tenor).
    /// @param expiry The expiry asked for.
    /// @param latest The furthest expiry the tenor may be listed at now.
    error FuturesExpiryNotStandard(uint8 tenor, uint64 expiry, uint64 latest);
    /// @notice Thrown by `roll` when the two series are the same one.
    /// @param seriesId The series.
    error FuturesRollSameSeries(uint256 seriesId);
    /// @notice Thrown by `roll` for more than the position held in the series rolled from (or none).
    /// @param seriesId The series rolled from.
    /// @param account The account.
    /// @param sizeCh Size asked, CH WAD.
    /// @param heldCh |position| in that series, CH WAD.
    error FuturesRollExceedsPosition(uint256 seriesId, address account, uint256 sizeCh, uint256 heldCh);
    /// @notice Thrown when a signed order is filled by its own maker.
    /// @param account The maker (and taker).
    error FuturesSelfTrade(address account);
    /// @notice Thrown when a signed order restricted to one taker is filled by another account.
    /// @param taker The order's taker.
    /// @param caller The caller.
    error FuturesOrderTakerOnly(address taker, address caller);
    /// @notice Thrown when settlement-TWAP hints name no first round or more rounds than one fixing reads.
    /// @param rounds Rounds the hints cover (change times + 1; 0 when the first round id is 0).
    /// @param maxRounds FuturesSettlement.MAX_TWAP_ROUNDS.
    error FuturesTwapRounds(uint256 rounds, uint256 maxRounds);
    /// @notice Thrown when a settlement-TWAP change time is not inside the window or goes backwards (the first round
    ///         must last a positive time from the window start, the last one to the window end).
    /// @param index Position of the change time in the hints.
    /// @param time The change time (the window end for the last segment).
    /// @param windowStart The window start (expiry − TWAP_WINDOW_SEC).
    /// @param windowEnd The window end (the expiry).
    error FuturesTwapChangeTime(uint256 index, uint256 time, uint256 windowStart, uint256 windowEnd);
    /// @notice Thrown by the hint-less `fixSettlementPrice` when the oracle cannot find the window's rounds any more
    ///         (its round look-back is exceeded): fix with `fixSettlementPriceAt` and hints read from the feed.
    /// @param seriesId The series.
    error FuturesTwapHintsUnavailable(uint256 seriesId);
    /// @notice Thrown by `fixSettlementPriceFallback` before FALLBACK_DELAY_SEC after expiry.
    /// @param seriesId The series.
    /// @param dueAt When the fallback may run (expiry + FALLBACK_DELAY_SEC).
    error FuturesFallbackNotDue(uint256 seriesId, uint256 dueAt);
    /// @notice Thrown by `fixSettlementPriceFallback` when the named round is not proven stale (older than the feed
    ///         heartbeat) while in force at `time` inside the TWAP window: the TWAP can still be fixed.
    /// @param seriesId The series.
    /// @param roundId The round named stale.
    /// @param time The time inside the window it was named stale at.
    error FuturesFallbackNotStale(uint256 seriesId, uint80 roundId, uint256 time);
    /// @notice Thrown by `fixSettlementPriceFallback` when `roundId` is not the first round published at or after
    ///         expiry, or `time` is not a time it is in force at within FALLBACK_MAX_LAG_SEC after expiry.
    /// @param seriesId The series.
    /// @param roundId The round named.
    /// @param time The time it was named in force at.
    error FuturesFallbackRound(uint256 seriesId, uint80 roundId, uint256 time);
    /// @notice Thrown by `matchOrders` when the first order is not a buy or the second not a sell.
    error FuturesMatchSides();
    /// @notice Thrown by `matchOrders` for orders of two different series.
    /// @param buySeriesId The buy order's series.
    /// @param sellSeriesId The sell order's series.
    error FuturesMatchSeries(uint256 buySeriesId, uint256 sellSeriesId);
    /// @notice Thrown by `matchOrders` when the buy's limit is below the sell's.
    /// @param buyPriceWad The buy order's price.
    /// @param sellPriceWad The sell order's price.
    error FuturesOrdersNotCrossed(uint256 buyPriceWad, uint256 sellPriceWad);
    /// @notice Thrown by `takeDelivery` when the caller is not the DeliveryOrders contract (or, with none set, the
    ///         long itself).
    /// @param caller The caller.
    /// @param deliveryOrders The DeliveryOrders contract set (zero: none).
    error FuturesNotDeliveryOrders(address caller, address deliveryOrders);
}
