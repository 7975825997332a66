// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title MockInsuranceFund
/// @notice Test-only insurance fund with the four functions the clearing layer and markets call on IInsuranceFund
///         (coverBadDebt, depositFees, guarantorStake, totalAssets): pays bad debt up to its balance, pulls fees like
///         the real fund, records both. Never deployed to a real network.
contract MockInsuranceFund {
    using SafeERC20 for IERC20;

    IERC20 public immutable usdc;
    /// @notice Σ bad debt covered.
    uint256 public totalCovered;
    /// @notice Σ fees received.
    uint256 public totalFees;
    mapping(address guarantor => uint256) internal stakes;

    /// @param usdc_ The USDC token.
    constructor(address usdc_) {
        usdc = IERC20(usdc_);
    }

    /// @notice Pays up to `amountUsdc` (never more than held) to `recipient`.
    /// @param amountUsdc Bad debt.
    /// @param recipient Receiver.
    /// @return coveredUsdc Paid.
    function coverBadDebt(uint256 amountUsdc, address recipient) external returns (uint256 coveredUsdc) {
        uint256 balance = usdc.balanceOf(address(this));
        coveredUsdc = amountUsdc < balance ? amountUsdc : balance;
        totalCovered += coveredUsdc;
        if (coveredUsdc > 0) usdc.safeTransfer(recipient, coveredUsdc);
    }

    /// @notice Pulls fees from the caller.
    /// @param amountUsdc Fees.
    function depositFees(uint256 amountUsdc) external {
        totalFees += amountUsdc;
        usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @notice Test helper: records a guarantor stake.
    /// @param guarantor The guarantor.
    /// @param amountUsdc Stake.
    function setGuarantorStake(address guarantor, uint256 amountUsdc) external {
        stakes[guarantor] = amountUsdc;
    }

    /// @notice A guarantor's recorded stake.
    /// @param guarantor The guarantor.
    /// @return Stake, USDC.
    function guarantorStake(address guarantor) external view returns (uint256) {
        return stakes[guarantor];
    }

    /// @notice USDC held.
    /// @return Balance.
    function totalAssets() external view returns (uint256) {
        return usdc.balanceOf(address(this));
    }

    /// @notice Σ fees received through `depositFees` (alias used by the spot tests).
    /// @return Fees, USDC.
    function feesReceivedUsdc() external view returns (uint256) {
        return totalFees;
    }
}
