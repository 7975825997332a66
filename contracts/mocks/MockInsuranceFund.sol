// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IInsuranceFund} from "../interfaces/IInsuranceFund.sol";

/// @title MockInsuranceFund
/// @notice Test-only IInsuranceFund: `depositFees` pulls USDC like the real fund and records the total. Never
///         deployed to a real network.
contract MockInsuranceFund is IInsuranceFund {
    using SafeERC20 for IERC20;

    IERC20 public immutable usdc;
    /// @notice Σ fees received through `depositFees`.
    uint256 public feesReceivedUsdc;

    /// @param usdc_ The USDC token.
    constructor(address usdc_) {
        usdc = IERC20(usdc_);
    }

    /// @inheritdoc IInsuranceFund
    function depositFees(uint256 amountUsdc) external {
        feesReceivedUsdc += amountUsdc;
        usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @inheritdoc IInsuranceFund
    function coverBadDebt(uint256, address) external pure returns (uint256) {
        return 0;
    }

    /// @inheritdoc IInsuranceFund
    function guarantorStake(address) external pure returns (uint256) {
        return 0;
    }

    /// @inheritdoc IInsuranceFund
    function totalAssets() external view returns (uint256) {
        return usdc.balanceOf(address(this));
    }
}
