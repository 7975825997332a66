// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ISpotMarketAdmin
/// @notice The governance setters of ISpotMarket (ADMIN): fees, fee recipients, seat tiers, unstake delay, TWAP.
interface ISpotMarketAdmin {
    /// @notice Sets maker/taker fees (each ≤ MAX_FEE_BPS) and the insurance share of fee income (≤ 10,000).
    /// @param makerFeeBps Maker fee, bps of the quote.
    /// @param takerFeeBps Taker fee, bps of the quote.
    /// @param insuranceShareBps Share of fee income sent to the insurance fund.
    function setFees(uint16 makerFeeBps, uint16 takerFeeBps, uint16 insuranceShareBps) external;

    /// @notice Sets where fee income goes. Passing the treasury as `insuranceFund` sends everything there.
    /// @param treasury The treasury.
    /// @param insuranceFund The insurance fund (an IInsuranceFund), or the treasury until it exists.
    function setFeeRecipients(address treasury, address insuranceFund) external;

    /// @notice Sets up to MAX_SEAT_TIERS seat tiers: ascending whole-DPS thresholds, non-decreasing discounts
    ///         (each ≤ MAX_SEAT_DISCOUNT_BPS). An empty list removes all discounts.
    /// @param minStakeDps DPS thresholds (18 decimals, whole DPS).
    /// @param discountBps Fee discount of each tier, bps of the fee.
    function setSeatTiers(uint256[] calldata minStakeDps, uint256[] calldata discountBps) external;

    /// @notice Sets the seat unstake delay (≤ MAX_UNSTAKE_DELAY).
    /// @param unstakeDelaySec The delay, seconds.
    function setUnstakeDelay(uint32 unstakeDelaySec) external;

    /// @notice Sets the TWAP observation interval (MIN..MAX_OBSERVATION_INTERVAL) and the minimum fill that moves
    ///         the TWAP.
    /// @param observationIntervalSec Minimum time between ring-buffer observations.
    /// @param minAmountCh Fills below this CH amount do not update the TWAP.
    function setTwapParams(uint32 observationIntervalSec, uint128 minAmountCh) external;
}
