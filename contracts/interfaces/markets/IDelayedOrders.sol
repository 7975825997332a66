// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IDelayedOrderErrors} from "./IDelayedOrderErrors.sol";

/// @title IDelayedOrders
/// @notice Two-step orders priced at a fixed future time (issue 17 item 15), shared by the markets that trade against
///         LPs at the oracle index (PerpMarket; FuturesMarket per series). A trader commits an order; after `minDelaySec`
///         anyone executes it at the index of the oracle round in force at commit time + minDelaySec (the executor
///         names the round, the oracle proves it: IComputePriceOracle.priceAtRound), so neither the trader nor the
///         executor picks the price and an oracle update visible when the order was committed is already in it.
///         A user-caused failure at execution (price limit, margin, a paused feature, a cap) cancels the order instead
///         of reverting, so the executor is always paid the order's execution fee; after `maxDelaySec` anyone may
///         cancel it for the fee. The trader cannot cancel its own order earlier. Pending orders are enumerable.
interface IDelayedOrders is IDelayedOrderErrors {
    /// @notice A pending order.
    /// @param sizeDeltaCh Signed size change, CH WAD (for a close order: the size when committed).
    /// @param acceptablePriceWad Worst fill price accepted (buy: fill ≤ it; sell: fill ≥ it); 0 = no limit.
    /// @param commitTime When it was committed, unix seconds.
    /// @param feeUsdc Execution fee held for whoever executes or cancels it, USDC.
    /// @param marginUsdc Initial margin the order holds until it is executed or cancelled, USDC.
    /// @param closeAll True: closes whatever the position is at execution.
    /// @param priceTime It fills at the oracle round in force at this time; executable from priceTime + 1.
    /// @param expiresAt After this it can only be cancelled.
    struct OrderView {
        int256 sizeDeltaCh;
        uint256 acceptablePriceWad;
        uint256 commitTime;
        uint256 feeUsdc;
        uint256 marginUsdc;
        bool closeAll;
        uint256 priceTime;
        uint256 expiresAt;
    }

    /// @notice Emitted when an order is committed.
    /// @param account The trader.
    /// @param sizeDeltaCh Signed size change (a close order: minus the size when committed).
    /// @param acceptablePriceWad Worst fill price accepted; 0 = none.
    /// @param closeAll True for a close order (the position at execution is closed).
    /// @param priceTime The order fills at the oracle round in force at this time; executable from priceTime + 1.
    /// @param expiresAt After this anyone may cancel it.
    /// @param feeUsdc Execution fee held.
    /// @param marginUsdc Initial margin held for it.
    /// @param pendingOrders Pending orders in the market after.
    event OrderCommitted(
        address indexed account,
        int256 sizeDeltaCh,
        uint256 acceptablePriceWad,
        bool closeAll,
        uint256 priceTime,
        uint256 expiresAt,
        uint256 feeUsdc,
        uint256 marginUsdc,
        uint256 pendingOrders
    );
    /// @notice Emitted when an order is filled (the market's trade event carries the fill).
    /// @param account The trader.
    /// @param executor Who executed it (paid the fee).
    /// @param roundId The oracle round used.
    /// @param priceWad Its index price.
    /// @param feeUsdc Fee paid to the executor.
    /// @param pendingOrders Pending orders after.
    event OrderExecuted(
        address indexed account,
        address indexed executor,
        uint80 roundId,
        uint256 priceWad,
        uint256 feeUsdc,
        uint256 pendingOrders
    );
    /// @notice Emitted when an order is cancelled: at execution for a user-caused failure (the reason is the fill's
    ///         revert data: price limit, margin, pause, caps), or after its expiry (DelayedOrderExpired).
    /// @param account The trader.
    /// @param by Who executed or cancelled it (paid the fee).
    /// @param feeUsdc Fee paid to `by`.
    /// @param reason ABI-encoded error.
    /// @param pendingOrders Pending orders after.
    event OrderCancelled(
        address indexed account,
        address indexed by,
        uint256 feeUsdc,
        bytes reason,
        uint256 pendingOrders
    );
}
