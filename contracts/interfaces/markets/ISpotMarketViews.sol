// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ISpotMarket} from "./ISpotMarket.sol";

/// @title ISpotMarketViews
/// @notice The read side of ISpotMarket: EIP-712 digests, order state, nonces, seats, fees and the TWAP.
interface ISpotMarketViews {
    /// @notice The EIP-712 hash of an order (what the maker signs, before the domain).
    /// @param order The order.
    /// @return The digest to sign (domain-bound).
    function orderDigest(ISpotMarket.Order calldata order) external view returns (bytes32);

    /// @notice The EIP-712 digest of a deal.
    /// @param deal The deal.
    /// @return The digest to sign (domain-bound).
    function dealDigest(ISpotMarket.Deal calldata deal) external view returns (bytes32);

    /// @notice The EIP-712 domain separator (name "CHX Spot", version "1", this chain, this proxy).
    /// @return The separator.
    function domainSeparator() external view returns (bytes32);

    /// @notice Fill state of an order. Order state is keyed by (maker, nonce) and the record is the nonce claim;
    ///         `hash` selects the order, so another order of the maker with the same nonce reads as zero.
    /// @param maker The order's maker.
    /// @param nonce The order's nonce.
    /// @param hash The order digest.
    /// @return The state.
    function orderState(
        address maker,
        uint256 nonce,
        bytes32 hash
    ) external view returns (ISpotMarket.OrderState memory);

    /// @notice Settlement state of an OTC deal by its digest (`filledCh` is its amount once settled).
    /// @param hash The deal digest.
    /// @return The state.
    function dealState(bytes32 hash) external view returns (ISpotMarket.OrderState memory);

    /// @notice Whether `maker` has used `nonce` for an order (filled or cancelled: its record exists).
    /// @param maker The maker.
    /// @param nonce The nonce.
    /// @return True when used.
    function nonceUsed(address maker, uint256 nonce) external view returns (bool);

    /// @notice The account's minimum nonce.
    /// @param account The account.
    /// @return Orders and deals below it are void.
    function minNonce(address account) external view returns (uint256);

    /// @notice The account's seat.
    /// @param account The account.
    /// @return The seat.
    function seat(address account) external view returns (ISpotMarket.Seat memory);

    /// @notice The fee discount the account's staked DPS earns.
    /// @param account The account.
    /// @return discountBps Discount, bps of the fee.
    function seatDiscountBps(address account) external view returns (uint256 discountBps);

    /// @notice Current fee configuration.
    /// @return makerFeeBps Maker fee.
    /// @return takerFeeBps Taker fee.
    /// @return insuranceShareBps Insurance share of fee income.
    function fees() external view returns (uint256 makerFeeBps, uint256 takerFeeBps, uint256 insuranceShareBps);

    /// @notice USDC fee income not yet distributed.
    /// @return amountUsdc Pending fees.
    function pendingFeesUsdc() external view returns (uint256 amountUsdc);

    /// @notice DPS held for seats (staked + pending).
    /// @return stakedDps Σ staked.
    /// @return pendingDps Σ pending unstake.
    function totalSeatDps() external view returns (uint256 stakedDps, uint256 pendingDps);

    /// @notice The TWAP accumulator now.
    /// @return lastPriceWad The last recorded fill price.
    /// @return priceCumulative Σ price·seconds up to now.
    /// @return observationCount Observations held.
    function twapState()
        external
        view
        returns (uint256 lastPriceWad, uint256 priceCumulative, uint256 observationCount);

    /// @notice Token and recipient addresses.
    /// @return ch CH token.
    /// @return usdc USDC.
    /// @return dps DPS token.
    /// @return treasury Treasury.
    /// @return insuranceFund Insurance fund (or the treasury).
    function addresses()
        external
        view
        returns (address ch, address usdc, address dps, address treasury, address insuranceFund);
}
