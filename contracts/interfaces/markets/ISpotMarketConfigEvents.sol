// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ISpotMarketConfigEvents
/// @notice The seat and settings events of ISpotMarket (each carries the post-state); the trading events are in
///         ISpotMarketEvents.
interface ISpotMarketConfigEvents {
    /// @notice Emitted when an account stakes DPS for a seat.
    /// @param account The staker.
    /// @param amountDps DPS added.
    /// @param stakedAfterDps Staked DPS after.
    /// @param discountBps The fee discount of the account's tier after.
    event SeatStaked(address indexed account, uint256 amountDps, uint256 stakedAfterDps, uint256 discountBps);

    /// @notice Emitted when an account asks to unstake seat DPS.
    /// @param account The staker.
    /// @param amountDps DPS moved to pending.
    /// @param stakedAfterDps Staked DPS after.
    /// @param pendingAfterDps Pending DPS after.
    /// @param unlockAt When the pending DPS can be withdrawn.
    /// @param discountBps The fee discount of the account's tier after.
    event SeatUnstakeRequested(
        address indexed account,
        uint256 amountDps,
        uint256 stakedAfterDps,
        uint256 pendingAfterDps,
        uint256 unlockAt,
        uint256 discountBps
    );

    /// @notice Emitted when pending seat DPS is withdrawn.
    /// @param account The staker (and recipient).
    /// @param amountDps DPS withdrawn.
    event SeatWithdrawn(address indexed account, uint256 amountDps);

    /// @notice Emitted when governance sets the fees.
    /// @param makerFeeBps Maker fee.
    /// @param takerFeeBps Taker fee.
    /// @param insuranceShareBps Share of fee income sent to the insurance fund.
    event FeesSet(uint256 makerFeeBps, uint256 takerFeeBps, uint256 insuranceShareBps);

    /// @notice Emitted when governance sets the fee recipients.
    /// @param treasury The treasury.
    /// @param insuranceFund The insurance fund (equal to the treasury until the fund exists).
    event FeeRecipientsSet(address treasury, address insuranceFund);

    /// @notice Emitted when governance sets the seat tiers.
    /// @param minStakeDps Ascending DPS thresholds.
    /// @param discountBps The discount of each tier.
    event SeatTiersSet(uint256[] minStakeDps, uint256[] discountBps);

    /// @notice Emitted when governance sets the seat unstake delay.
    /// @param unstakeDelaySec The delay.
    event UnstakeDelaySet(uint256 unstakeDelaySec);

    /// @notice Emitted when governance sets the TWAP parameters.
    /// @param observationIntervalSec Minimum time between two ring-buffer observations.
    /// @param minAmountCh Fills smaller than this do not move the TWAP.
    event TwapParamsSet(uint256 observationIntervalSec, uint256 minAmountCh);
}
