// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../interfaces/oracle/IComputePriceOracle.sol";
import {ILiquidatableMarket} from "../interfaces/callback/ILiquidatableMarket.sol";

/// @title MockClearingMarket
/// @notice Test-only market: traders open and close positions at the index (the market's PnL pool is the
///         counterparty), so the clearing layer and its whole waterfall can be tested before the real markets land.
///         Needs Roles.MARKET and registration in the ClearingHouse.
contract MockClearingMarket is ILiquidatableMarket {
    using SafeERC20 for IERC20;

    IClearingHouse public immutable clearingHouse;
    IComputePriceOracle public immutable oracle;
    IERC20 public immutable usdc;
    /// @notice Fee charged per trade, bps of notional (rounded up).
    uint256 public feeBps;
    /// @notice Emitted when the ClearingHouse reports a liquidation (the house takes the opposite side).
    /// @param account The account.
    /// @param sizeDeltaCh Size closed.
    event HouseTookOver(address indexed account, int256 sizeDeltaCh);

    /// @param clearingHouse_ The ClearingHouse.
    /// @param oracle_ The index.
    /// @param usdc_ USDC.
    constructor(address clearingHouse_, address oracle_, address usdc_) {
        clearingHouse = IClearingHouse(clearingHouse_);
        oracle = IComputePriceOracle(oracle_);
        usdc = IERC20(usdc_);
    }

    /// @notice Sets the trading fee.
    /// @param feeBps_ Bps of notional.
    function setFeeBps(uint256 feeBps_) external {
        feeBps = feeBps_;
    }

    /// @notice The caller trades `sizeDeltaCh` at the index.
    /// @param sizeDeltaCh Signed size.
    /// @return realisedPnlUsdc PnL realised.
    function trade(int256 sizeDeltaCh) external returns (int256 realisedPnlUsdc) {
        return _trade(msg.sender, sizeDeltaCh, oracle.indexPrice());
    }

    /// @notice Test hook: trades for `account` at `priceWad` (tests only; a real market matches orders).
    /// @param account The trader.
    /// @param sizeDeltaCh Signed size.
    /// @param priceWad Trade price.
    /// @return realisedPnlUsdc PnL realised.
    function tradeAt(address account, int256 sizeDeltaCh, uint256 priceWad) external returns (int256 realisedPnlUsdc) {
        return _trade(account, sizeDeltaCh, priceWad);
    }

    function _trade(address account, int256 sizeDeltaCh, uint256 priceWad) private returns (int256) {
        uint256 absDelta = sizeDeltaCh >= 0 ? uint256(sizeDeltaCh) : uint256(-sizeDeltaCh);
        uint256 fee = feeBps == 0 ? 0 : (absDelta * priceWad * feeBps + 1e34 - 1) / 1e34;
        return clearingHouse.modifyPosition(account, sizeDeltaCh, priceWad, fee);
    }

    /// @notice Test hook: a funding or premium cash flow.
    /// @param account The account.
    /// @param amountUsdc Signed amount credited.
    function settleFunding(address account, int256 amountUsdc) external {
        clearingHouse.settle(account, amountUsdc);
    }

    /// @notice Funds the market's PnL pool from the caller's USDC.
    /// @param amountUsdc USDC.
    function fund(uint256 amountUsdc) external {
        usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
        usdc.forceApprove(address(clearingHouse), amountUsdc);
        clearingHouse.fundMarketPool(amountUsdc);
    }

    /// @inheritdoc ILiquidatableMarket
    function onPositionLiquidated(address account, int256 sizeDeltaCh, uint256, int256) external virtual {
        // The house takes the opposite side of what the account closed (a real market updates its book here).
        emit HouseTookOver(account, sizeDeltaCh);
    }
}
