// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IInsuranceFund} from "./IInsuranceFund.sol";

/// @title IInsuranceFundViews
/// @notice The read side of IInsuranceFund: shares, withdrawal requests, guarantor requirements, previews.
interface IInsuranceFundViews {
    /// @notice The USDC asset.
    /// @return The token address.
    function asset() external view returns (address);

    /// @notice Total shares outstanding.
    /// @return Shares.
    function totalShares() external view returns (uint256);

    /// @notice A staker's shares.
    /// @param staker The staker.
    /// @return Shares.
    function sharesOf(address staker) external view returns (uint256);

    /// @notice The current share epoch (bumped when a near-total loss cancels every share).
    /// @return The epoch.
    function shareEpoch() external view returns (uint64);

    /// @notice A staker's pending withdrawal request.
    /// @param staker The staker.
    /// @return The request (zero when none).
    function withdrawRequest(address staker) external view returns (IInsuranceFund.WithdrawRequest memory);

    /// @notice A guarantor's required stake: max(governance floor, GuarantorPool.requiredInsuranceUsdc).
    /// @param guarantor The guarantor.
    /// @return requiredUsdc The requirement, USDC.
    function guarantorRequirement(address guarantor) external view returns (uint256 requiredUsdc);

    /// @notice How much a guarantor's stake falls short of its requirement (0 when covered).
    /// @param guarantor The guarantor.
    /// @return shortfallUsdc The shortfall, USDC.
    function guarantorShortfall(address guarantor) external view returns (uint256 shortfallUsdc);

    /// @notice The GuarantorPool whose computed requirements the withdrawal floor reads.
    /// @return The address (0: none).
    function guarantorPool() external view returns (address);

    /// @notice Shares `amountUsdc` would mint now (rounded down).
    /// @param amountUsdc USDC.
    /// @return shares Shares.
    function previewStake(uint256 amountUsdc) external view returns (uint256 shares);

    /// @notice USDC `shares` would pay now (rounded down).
    /// @param shares Shares.
    /// @return amountUsdc USDC.
    function previewWithdraw(uint256 shares) external view returns (uint256 amountUsdc);

    /// @notice The cooldown configuration.
    /// @return cooldownSec Seconds from request to the first possible withdrawal.
    /// @return windowSec Seconds the withdrawal stays possible.
    function cooldown() external view returns (uint64 cooldownSec, uint64 windowSec);
}
