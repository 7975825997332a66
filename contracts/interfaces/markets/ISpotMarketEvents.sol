// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ISpotMarketEvents
/// @notice The events of ISpotMarket (each carries the post-state).
interface ISpotMarketEvents {
    /// @notice Emitted for every fill of a signed order by a taker (`fillOrder`) or by a match (one per order).
    /// @param orderHash The EIP-712 hash of the order.
    /// @param maker The order's maker.
    /// @param counterparty The taker (`fillOrder`) or the other order's maker (match).
    /// @param amountCh CH traded in this fill.
    /// @param priceWad The price this order traded at (its limit price).
    /// @param filledAfterCh The order's total filled CH after this fill.
    /// @param remainingCh CH still fillable after this fill.
    /// @param makerFeeUsdc Fee charged to this order's maker, USDC.
    /// @param counterpartyFeeUsdc Fee charged to the counterparty for this fill (taker fee; 0 for a match, whose
    ///        other side has its own event).
    event OrderFilled(
        bytes32 indexed orderHash,
        address indexed maker,
        address indexed counterparty,
        uint256 amountCh,
        uint256 priceWad,
        uint256 filledAfterCh,
        uint256 remainingCh,
        uint256 makerFeeUsdc,
        uint256 counterpartyFeeUsdc
    );

    /// @notice Emitted when two crossing orders are matched by a third party.
    /// @param buyHash The buy order hash.
    /// @param sellHash The sell order hash.
    /// @param matcher The caller, who receives the spread.
    /// @param amountCh CH traded.
    /// @param spreadUsdc USDC paid to the matcher (buy minus sell quote, rounded down).
    /// @param twapPriceWad The price recorded for the TWAP (midpoint of the two limits).
    event OrdersMatched(
        bytes32 indexed buyHash,
        bytes32 indexed sellHash,
        address indexed matcher,
        uint256 amountCh,
        uint256 spreadUsdc,
        uint256 twapPriceWad
    );

    /// @notice Emitted when an OTC deal is settled.
    /// @param dealHash The EIP-712 deal hash.
    /// @param seller The seller.
    /// @param buyer The buyer.
    /// @param amountCh CH delivered.
    /// @param priceWad The agreed price.
    /// @param buyerPaidUsdc USDC the buyer paid (quote up + fee).
    /// @param sellerReceivedUsdc USDC the seller received (quote down − fee).
    event DealSettled(
        bytes32 indexed dealHash,
        address indexed seller,
        address indexed buyer,
        uint256 amountCh,
        uint256 priceWad,
        uint256 buyerPaidUsdc,
        uint256 sellerReceivedUsdc
    );

    /// @notice Emitted when an order or a deal is cancelled.
    /// @param hash The order or deal hash.
    /// @param by The maker or deal party that cancelled.
    /// @param nonce Its nonce.
    /// @param filledCh CH filled before the cancellation.
    event Cancelled(bytes32 indexed hash, address indexed by, uint256 nonce, uint256 filledCh);

    /// @notice Emitted when an account raises its minimum nonce (bulk cancel of every lower nonce).
    /// @param account The account.
    /// @param minNonce The new minimum.
    event MinNonceRaised(address indexed account, uint256 minNonce);

    /// @notice Emitted when a settlement adds fee income to the pending fees.
    /// @param amountUsdc USDC added (fees and rounding).
    /// @param pendingAfterUsdc Pending fees after.
    event FeesAccrued(uint256 amountUsdc, uint256 pendingAfterUsdc);

    /// @notice Emitted when pending fees are paid out.
    /// @param insuranceUsdc Sent to the insurance fund (`depositFees`).
    /// @param treasuryUsdc Sent to the treasury.
    event FeesDistributed(uint256 insuranceUsdc, uint256 treasuryUsdc);

    /// @notice Emitted when a fill updates the TWAP accumulator.
    /// @param priceWad The newly recorded price.
    /// @param priceCumulative Σ price·seconds up to this block (before the new price starts counting).
    /// @param timestamp The block timestamp.
    /// @param observationIndex Ring index of the newest observation.
    /// @param observationCount Observations held (≤ capacity).
    event TwapUpdated(
        uint256 priceWad,
        uint256 priceCumulative,
        uint256 timestamp,
        uint256 observationIndex,
        uint256 observationCount
    );
}
