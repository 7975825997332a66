// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IRewardPool} from "../interfaces/callback/IEmissionHooks.sol";

/// @title MockRewardPool
/// @notice Test stand-in for Emission's `replenish`: like Emission, it requires the DPS to have arrived first.
contract MockRewardPool is IRewardPool {
    /// @notice Thrown when `replenish` claims more than arrived.
    error MockRewardPoolNotFunded(uint256 dpsAmount, uint256 unaccounted);
    /// @notice Thrown while the test switched the pool off (as a paused or far-behind Emission would revert).
    error MockRewardPoolFailing();

    IERC20 public immutable dps;
    uint256 public replenished;
    bool public failing;

    constructor(IERC20 dps_) {
        dps = dps_;
    }

    /// @notice Makes `replenish` revert (true) or work again (false).
    function setFailing(bool failing_) external {
        failing = failing_;
    }

    /// @inheritdoc IRewardPool
    function replenish(uint256 dpsAmount) external {
        if (failing) revert MockRewardPoolFailing();
        uint256 unaccounted = dps.balanceOf(address(this)) - replenished;
        if (dpsAmount > unaccounted) revert MockRewardPoolNotFunded(dpsAmount, unaccounted);
        replenished += dpsAmount;
    }
}
