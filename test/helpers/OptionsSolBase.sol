// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingSolBase} from "./ClearingSolBase.sol";
import {IOptionsMarket, IOptionsMarketTypes} from "../../contracts/interfaces/markets/IOptionsMarket.sol";

/// @notice The options market behind a real proxy (with its settlement module) on top of the clearing layer of
///         ClearingSolBase, deployed from artifacts like the clearing contracts. Lists a put (strike 8) and a capped
///         call (strike 12, cap 6) expiring in a week, and funds `n` actors with ClearingHouse collateral.
abstract contract OptionsSolBase is ClearingSolBase {
    IOptionsMarket internal options;
    uint64 internal expiry;

    function _deployOptions() internal {
        _deployClearing();
        options = IOptionsMarket(_deployOptionsMarket(stack, address(oracle), address(this)));
        expiry = uint64(block.timestamp + 7 days);
        options.listSeries(
            IOptionsMarketTypes.SeriesParams(IOptionsMarketTypes.OptionKind.Put, false, 0, expiry, 8e18, 0)
        );
        options.listSeries(
            IOptionsMarketTypes.SeriesParams(IOptionsMarketTypes.OptionKind.Call, false, 0, expiry, 12e18, 6e18)
        );
    }

    function _fundAccount(address account, uint256 amountUsdc) internal {
        usdc.mint(account, amountUsdc);
        vm.startPrank(account);
        usdc.approve(address(chouse), amountUsdc);
        chouse.deposit(amountUsdc);
        vm.stopPrank();
    }
}
