// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ISpotMarket as ISpotMarketTypes} from "../../interfaces/markets/ISpotMarket.sol";
import {ISpotMarketErrors} from "../../interfaces/markets/ISpotMarketErrors.sol";
import {ISpotMarketConfigEvents} from "../../interfaces/markets/ISpotMarketConfigEvents.sol";
import {SpotLayout} from "./SpotStorage.sol";

/// @title SpotSeats
/// @notice DPS seats of the spot market: staking, the unstake delay and the fee-discount tiers (docs/spot.md).
/// @dev Internal: runs in the market's frame on its storage. Token transfers stay in the market (after the effects).
library SpotSeats {
    /// @notice Number of seat tiers (they pack into one storage word).
    uint256 internal constant MAX_TIERS = 4;

    /// @notice Books a stake of `amountDps` for the caller; the market then pulls the DPS.
    function stake(SpotLayout.SpotMarketStorage storage $, uint256 amountDps) internal {
        if (amountDps == 0 || amountDps > type(uint128).max) revert ISpotMarketErrors.SpotInvalidAmount(amountDps);
        ISpotMarketTypes.Seat storage seat = $.seats[msg.sender];
        uint256 stakedAfter = seat.stakedDps + amountDps;
        seat.stakedDps = uint128(stakedAfter);
        $.totalStakedDps += uint128(amountDps);
        emit ISpotMarketConfigEvents.SeatStaked(
            msg.sender,
            amountDps,
            stakedAfter,
            tierDiscount($.seatTiers, stakedAfter)
        );
    }

    /// @notice Moves `amountDps` of the caller's stake to pending, unlocking after the unstake delay.
    function requestUnstake(SpotLayout.SpotMarketStorage storage $, uint256 amountDps) internal {
        ISpotMarketTypes.Seat storage seat = $.seats[msg.sender];
        uint256 staked = seat.stakedDps;
        if (amountDps == 0) revert ISpotMarketErrors.SpotInvalidAmount(0);
        if (amountDps > staked) revert ISpotMarketErrors.SpotInsufficientStake(msg.sender, amountDps, staked);
        uint256 stakedAfter = staked - amountDps;
        uint256 pendingAfter = seat.pendingDps + amountDps;
        uint256 unlockAt = block.timestamp + $.unstakeDelaySec;
        seat.stakedDps = uint128(stakedAfter);
        seat.pendingDps = uint128(pendingAfter);
        seat.unlockAt = uint64(unlockAt);
        $.totalStakedDps -= uint128(amountDps);
        $.totalPendingDps += uint128(amountDps);
        emit ISpotMarketConfigEvents.SeatUnstakeRequested(
            msg.sender,
            amountDps,
            stakedAfter,
            pendingAfter,
            unlockAt,
            tierDiscount($.seatTiers, stakedAfter)
        );
    }

    /// @notice Clears the caller's unlocked pending DPS and returns it (the market then transfers it).
    function withdraw(SpotLayout.SpotMarketStorage storage $) internal returns (uint256 amountDps) {
        ISpotMarketTypes.Seat storage seat = $.seats[msg.sender];
        amountDps = seat.pendingDps;
        uint256 unlockAt = seat.unlockAt;
        if (amountDps == 0 || block.timestamp < unlockAt) {
            revert ISpotMarketErrors.SpotUnstakeNotReady(msg.sender, amountDps == 0 ? 0 : unlockAt, block.timestamp);
        }
        seat.pendingDps = 0;
        seat.unlockAt = 0;
        $.totalPendingDps -= uint128(amountDps);
        emit ISpotMarketConfigEvents.SeatWithdrawn(msg.sender, amountDps);
    }

    /// @notice `account`'s fee discount; a market without tiers reads no tier or seat word.
    function discountBps(SpotLayout.SpotMarketStorage storage $, address account) internal view returns (uint256) {
        if (!$.hasSeatTiers) return 0;
        return tierDiscount($.seatTiers, $.seats[account].stakedDps);
    }

    /// @notice The discount of the highest tier whose whole-DPS threshold `stakedDps` reaches.
    function tierDiscount(uint256 tiers, uint256 stakedDps) internal pure returns (uint256 discount) {
        uint256 whole = stakedDps / 1e18;
        for (uint256 i = 0; i < MAX_TIERS; ++i) {
            uint256 t = (tiers >> (64 * i)) & type(uint64).max;
            uint256 threshold = t & type(uint48).max;
            if (threshold == 0 || whole < threshold) break;
            discount = t >> 48;
        }
    }
}
