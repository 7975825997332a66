// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ISpotMarket} from "./ISpotMarket.sol";

/// @title ISpotMarketTrading
/// @notice The trading side of ISpotMarket: signed orders filled and matched, OTC deals, cancellations, and the
///         fee payout and DPS seats that discount fees.
interface ISpotMarketTrading {
    // ---------------------------------------------------------------- trading

    /// @notice Fills up to `amountCh` of a signed order; the caller is the taker and pays the taker fee.
    /// @dev The maker approves the market for CH (sell) or USDC (buy); the taker approves the other token.
    ///      Feature "spot.trade".
    /// @param order The order.
    /// @param signature The maker's EIP-712 signature (65-byte ECDSA, or an ERC-1271 wallet's signature).
    /// @param amountCh CH to trade now (≤ remaining).
    /// @return filledAfterCh The order's filled CH after this fill.
    function fillOrder(
        ISpotMarket.Order calldata order,
        bytes calldata signature,
        uint256 amountCh
    ) external returns (uint256 filledAfterCh);

    /// @notice Matches a crossing buy and sell order for `amountCh`; both pay the maker fee, each trades at its own
    ///         limit price, and the caller (matcher) receives the spread. Feature "spot.trade".
    /// @param buy A buy order.
    /// @param buySignature Its maker's signature.
    /// @param sell A sell order with `sell.priceWad ≤ buy.priceWad`.
    /// @param sellSignature Its maker's signature.
    /// @param amountCh CH to trade (≤ both remainders).
    function matchOrders(
        ISpotMarket.Order calldata buy,
        bytes calldata buySignature,
        ISpotMarket.Order calldata sell,
        bytes calldata sellSignature,
        uint256 amountCh
    ) external;

    /// @notice Settles an OTC deal atomically. A party that is the caller need not sign; the other must.
    ///         Both pay the maker fee. Feature "spot.trade".
    /// @param deal The deal.
    /// @param sellerSignature The seller's signature (may be empty when the seller is the caller).
    /// @param buyerSignature The buyer's signature (may be empty when the buyer is the caller).
    function settleDeal(
        ISpotMarket.Deal calldata deal,
        bytes calldata sellerSignature,
        bytes calldata buyerSignature
    ) external;

    /// @notice Cancels an order (its maker only); its nonce stays used. Always open.
    /// @param order The order.
    function cancelOrder(ISpotMarket.Order calldata order) external;

    /// @notice Cancels a deal before settlement (either party). Always open.
    /// @param deal The deal.
    function cancelDeal(ISpotMarket.Deal calldata deal) external;

    /// @notice Voids every order and deal of the caller with a nonce below `minNonce`. Always open.
    /// @param minNonce The new minimum; must be greater than the current one.
    function raiseMinNonce(uint256 minNonce) external;

    // ---------------------------------------------------------------- fees and seats

    /// @notice Pays the pending fee income out: `insuranceShareBps` to the insurance fund via
    ///         `IInsuranceFund.depositFees`, the rest to the treasury. Permissionless, always open.
    /// @return insuranceUsdc Sent to the insurance fund.
    /// @return treasuryUsdc Sent to the treasury.
    function distributeFees() external returns (uint256 insuranceUsdc, uint256 treasuryUsdc);

    /// @notice Stakes DPS for a seat (fee tier). Feature "spot.stake".
    /// @param amountDps DPS to stake (the caller approves the market).
    function stakeSeat(uint256 amountDps) external;

    /// @notice Moves staked DPS to pending; it stops counting for the tier now and unlocks after the delay
    ///         (a new request restarts the delay for everything pending). Always open.
    /// @param amountDps DPS to unstake.
    function requestUnstake(uint256 amountDps) external;

    /// @notice Withdraws pending seat DPS after its delay. Always open.
    /// @return amountDps DPS sent to the caller.
    function withdrawUnstaked() external returns (uint256 amountDps);
}
