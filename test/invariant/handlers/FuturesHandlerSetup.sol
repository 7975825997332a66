// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSolBase} from "../../helpers/FuturesSolBase.sol";
import {FuturesHandler} from "./FuturesHandler.sol";

/// @notice The futures market with four funded traders (USDC behind one guarantor, CH approved for delivery) and the
///         FuturesHandler over one series a year out: the invariant suite (test/invariant/Futures.t.sol) and the unit
///         tests that replay its sequences (test/unit/futures/LiquidatedShortSettles.t.sol) start from this.
abstract contract FuturesHandlerSetup is FuturesSolBase {
    FuturesHandler internal handler;
    address[4] internal traders;

    function _setUpHandler() internal {
        _deployFutures();
        _setupGuarantor(guarantor, false, 10_000_000e6);
        for (uint256 i; i < 4; ++i) {
            address t = address(uint160(0xF0700 + i));
            traders[i] = t;
            _setupTrader(t, guarantor, 50_000e6);
            _mintCh(t, 100_000e18);
            vm.prank(t);
            chToken.approve(address(futures), type(uint256).max);
        }
        handler = new FuturesHandler(
            [
                address(futures),
                address(chouse),
                address(liq),
                address(oracle),
                address(fIndex),
                address(chToken),
                address(vault)
            ],
            traders,
            futures.listSeries(uint64(block.timestamp + 365 days), 0)
        );
    }
}
