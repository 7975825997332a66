// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IDelayedOrderErrors
/// @notice The errors of a delayed-order book, declared once: IDelayedOrders (PerpMarket) and IFuturesTypes
///         (FuturesMarket, keyed per series) both inherit them, so each market's ABI carries the same selectors.
interface IDelayedOrderErrors {
    /// @notice Thrown when committing while the account already has a pending order.
    /// @param account The account.
    /// @param commitTime When the pending order was committed.
    error DelayedOrderPending(address account, uint256 commitTime);
    /// @notice Thrown when executing or cancelling an account that has no pending order: another executor was first
    ///         (racing keepers treat it as done, OPS-01), or there never was one.
    /// @param account The account.
    error DelayedOrderAlreadyDone(address account);
    /// @notice Thrown when executing before the order's price time has passed.
    /// @param account The account.
    /// @param executableAt First second at which it can be executed (price time + 1).
    error DelayedOrderNotReady(address account, uint256 executableAt);
    /// @notice Thrown when executing an order after its expiry (cancel it instead).
    /// @param account The account.
    /// @param expiresAt Its expiry.
    error DelayedOrderExpired(address account, uint256 expiresAt);
    /// @notice Thrown when cancelling an order before its expiry (nobody, the trader included, may).
    /// @param account The account.
    /// @param expiresAt From when it can be cancelled (exclusive).
    error DelayedOrderNotExpired(address account, uint256 expiresAt);
    /// @notice Thrown when an execution is sent with too little gas to let a failing fill be told from a starved one.
    /// @param gasLeft Gas left before the fill.
    /// @param minimum The minimum.
    error DelayedOrderGasTooLow(uint256 gasLeft, uint256 minimum);
}
