// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IOptionsMarketTypes} from "./IOptionsMarketTypes.sol";

/// @title IOptionsMarketErrors
/// @notice The custom errors of IOptionsMarket.
interface IOptionsMarketErrors is IOptionsMarketTypes {
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
    /// @notice Thrown when a permissionless strike is off the grid or too far from the index (or, for an option on
    ///         a futures series, from the futures' forward).
    /// @param strikeWad The strike.
    /// @param indexWad The price the band is centred on: the index, or the futures' forward.
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
    /// @notice Thrown when an uncapped call (`capWad` = UNCAPPED) is written fully collateralised: its payoff has no
    ///         bound, so it can only be written margined (`writeMargined`).
    /// @param seriesId The series.
    error OptionsUncappedCall(uint256 seriesId);
    /// @notice Thrown when margined writing is asked for a futures option (margined writing is cash-settled only).
    /// @param seriesId The series.
    error OptionsMarginedCashOnly(uint256 seriesId);
    /// @notice Thrown when an account would hold margined shorts in more than MAX_MARGINED_SERIES series.
    /// @param account The account.
    /// @param max The bound.
    error OptionsTooManyMarginedSeries(address account, uint256 max);
    /// @notice Thrown when a ClearingHouse hook is called by another address.
    /// @param caller The caller.
    error OptionsOnlyClearingHouse(address caller);
}
