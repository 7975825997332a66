// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IInsuranceFund} from "../interfaces/IInsuranceFund.sol";

/// @title MockInsuranceFund
/// @notice Test-only insurance fund: pays bad debt up to its balance, takes fees, records what it paid.
contract MockInsuranceFund is IInsuranceFund {
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

    /// @inheritdoc IInsuranceFund
    function coverBadDebt(uint256 amountUsdc, address recipient) external returns (uint256 coveredUsdc) {
        uint256 balance = usdc.balanceOf(address(this));
        coveredUsdc = amountUsdc < balance ? amountUsdc : balance;
        totalCovered += coveredUsdc;
        if (coveredUsdc > 0) usdc.safeTransfer(recipient, coveredUsdc);
    }

    /// @inheritdoc IInsuranceFund
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

    /// @inheritdoc IInsuranceFund
    function guarantorStake(address guarantor) external view returns (uint256) {
        return stakes[guarantor];
    }

    /// @inheritdoc IInsuranceFund
    function totalAssets() external view returns (uint256) {
        return usdc.balanceOf(address(this));
    }
}
