// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ISpotMarketErrors
/// @notice The custom errors of ISpotMarket.
interface ISpotMarketErrors {
    /// @notice Thrown when a private order is filled by someone other than its named taker.
    /// @param hash The order hash.
    /// @param caller The would-be taker.
    /// @param taker The only allowed taker.
    error SpotTakerNotAllowed(bytes32 hash, address caller, address taker);

    /// @notice Thrown when an amount of CH is zero or larger than type(uint128).max.
    /// @param amountCh The amount.
    error SpotInvalidAmount(uint256 amountCh);

    /// @notice Thrown when a fill is so small that the seller would receive no USDC after rounding and fees.
    /// @param amountCh The CH amount.
    /// @param priceWad The price.
    error SpotFillTooSmall(uint256 amountCh, uint256 priceWad);

    /// @notice Thrown when a match is given orders of the wrong sides (first must buy, second must sell).
    error SpotSideMismatch();

    /// @notice Thrown when matched orders do not cross (buy price below sell price).
    /// @param buyPriceWad The buy order's limit.
    /// @param sellPriceWad The sell order's limit.
    error SpotNotCrossing(uint256 buyPriceWad, uint256 sellPriceWad);

    /// @notice Thrown when someone other than the maker (or a deal party) tries to cancel.
    /// @param caller The caller.
    /// @param owner The account allowed to cancel.
    error SpotNotOwner(address caller, address owner);

    /// @notice Thrown when a deal was already settled.
    /// @param hash The deal hash.
    error SpotDealSettled(bytes32 hash);

    /// @notice Thrown when a fee, share or discount in basis points exceeds its bound.
    /// @param bps The value given.
    /// @param maxBps The bound.
    error SpotBpsTooHigh(uint256 bps, uint256 maxBps);

    /// @notice Thrown when seat tiers are not ascending, too many, or not whole DPS.
    error SpotInvalidSeatTiers();

    /// @notice Thrown when a duration parameter is outside its bounds.
    /// @param value The value given, seconds.
    /// @param minValue Lower bound.
    /// @param maxValue Upper bound.
    error SpotDurationOutOfBounds(uint256 value, uint256 minValue, uint256 maxValue);

    /// @notice Thrown when unstaking more than the staked seat.
    /// @param account The staker.
    /// @param requestedDps DPS asked for.
    /// @param stakedDps DPS staked.
    error SpotInsufficientStake(address account, uint256 requestedDps, uint256 stakedDps);

    /// @notice Thrown when withdrawing unstaked DPS before its delay has passed, or with nothing pending.
    /// @param account The staker.
    /// @param unlockAt When the pending DPS unlocks (0 when nothing is pending).
    /// @param nowSec The block timestamp.
    error SpotUnstakeNotReady(address account, uint256 unlockAt, uint256 nowSec);

    /// @notice Thrown at initialisation when two of CH, USDC and DPS are the same token: the market's USDC balance is
    ///         its pending fee income (ACC-01), so USDC must not double as a traded or staked token.
    /// @param token The repeated token.
    error SpotSameToken(address token);
}
