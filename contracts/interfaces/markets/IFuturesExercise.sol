// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IFuturesExercise
/// @notice The part of the FuturesMarket that the OptionsMarket uses: options on a futures series are exercised
///         into a futures position at the strike (SPEC section 6, options). FuturesMarket implements it (its full
///         interface IFuturesMarket extends this one); the OptionsMarket holds the role that may call
///         `openFromExercise`.
interface IFuturesExercise {
    /// @notice Opens `sizeCh` of series `seriesId` long for `longAccount` and short for `shortAccount` at
    ///         `priceWad` (the option's strike), exactly as a matched trade at that price would, but without fees.
    ///         Margin is checked for both accounts through the clearing house as for any trade.
    /// @dev Restricted to the OptionsMarket (AccessManager function role). Reverts if the series is not trading.
    /// @param seriesId The futures series.
    /// @param longAccount The account that becomes long (call holder or put writer).
    /// @param shortAccount The account that becomes short (call writer or put holder).
    /// @param sizeCh Size, CH WAD (> 0).
    /// @param priceWad Trade price, USDC per CH, WAD.
    function openFromExercise(
        uint256 seriesId,
        address longAccount,
        address shortAccount,
        uint256 sizeCh,
        uint256 priceWad
    ) external;

    /// @notice A series' expiry and whether it still trades (listed, not expired, not settled).
    /// @param seriesId The futures series.
    /// @return expiry Expiry timestamp (0 when the series does not exist).
    /// @return trading True while positions may be opened.
    function seriesExpiry(uint256 seriesId) external view returns (uint64 expiry, bool trading);

    /// @notice Whether `seriesId` was listed on a standard tenor's grid (permissionlessly listable options may be
    ///         written on it: OptionsMarket.listStandardFuturesSeries).
    /// @param seriesId The series.
    /// @return standard False for Custom (governance) series and unknown ids.
    function isStandardSeries(uint256 seriesId) external view returns (bool standard);
}
