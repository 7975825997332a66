// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IOptionsMarketErrors} from "../../interfaces/markets/IOptionsMarketErrors.sol";
import {OptionsMarketBase} from "../../core/markets/OptionsMarketBase.sol";

/// @title OptionsFunds
/// @notice Moves USDC between an account's ClearingHouse collateral and the options market's PnL pool.
/// @dev Internal: runs in the caller's frame (the market, or a library the market runs by delegatecall).
library OptionsFunds {
    using SafeCast for uint256;

    /// @notice Moves `amountUsdc` between `account`'s ClearingHouse collateral and this market's pool. A debit needs
    ///         the collateral and, when the account has open positions elsewhere, equity ≥ initial margin afterwards
    ///         (`settle` itself checks neither).
    function move(OptionsMarketBase.OptionsMarketStorage storage $, address account, int256 amountUsdc) internal {
        if (amountUsdc == 0) return;
        IClearingHouse ch = $.clearingHouse;
        if (amountUsdc < 0) {
            (int256 collateral, uint256 marketCount) = ch.accountOf(account);
            if (collateral + amountUsdc < 0) {
                revert IOptionsMarketErrors.OptionsInsufficientCollateral(account, uint256(-amountUsdc), collateral);
            }
            ch.settle(account, amountUsdc);
            // `settle` moves cash only: the count read before it still holds.
            if (marketCount != 0) {
                IClearingHouse.MarginState memory m = ch.marginState(account);
                if (m.equityUsdc < m.initialMarginUsdc.toInt256()) {
                    revert IOptionsMarketErrors.OptionsInsufficientMargin(account, m.initialMarginUsdc, m.equityUsdc);
                }
            }
        } else {
            ch.settle(account, amountUsdc);
        }
    }
}
