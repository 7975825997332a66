// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {IRiskEngine} from "../../../contracts/interfaces/clearing/IRiskEngine.sol";
import {MockPriceIndex} from "../../../contracts/mocks/MockPriceIndex.sol";
import {MockClearingMarket} from "../../../contracts/mocks/MockClearingMarket.sol";
import {MockScenarioMarket} from "../../../contracts/mocks/MockScenarioMarket.sol";

/// @notice Random portfolios of perps and margined options (written and held), index moves and volatility updates
///         for the CLR-04 invariant. Every call may revert (margin, pauses): the invariant holds either way.
contract ClearingPortfolioHandler is Test {
    MockPriceIndex internal immutable oracle;
    MockClearingMarket internal immutable perp;
    MockScenarioMarket internal immutable opts;
    IRiskEngine internal immutable risk;
    address[3] internal traders;

    /// @notice Calls per action (for the run summary).
    mapping(bytes32 action => uint256) public calls;

    constructor(address oracle_, address perp_, address opts_, address risk_, address[3] memory traders_) {
        oracle = MockPriceIndex(oracle_);
        perp = MockClearingMarket(perp_);
        opts = MockScenarioMarket(opts_);
        risk = IRiskEngine(risk_);
        traders = traders_;
    }

    /// @notice A trader writes (−) or buys (+) up to 100 CH of a call or put, strike within ±30 % of the index.
    function option(uint256 who, bool isCall, uint256 strikeSeed, uint256 sizeSeed, bool writes) external {
        address t = traders[who % 3];
        if (opts.optionsOf(t).length >= 6) return; // the market's own per-account bound
        uint256 price = oracle.indexPrice();
        uint256 strike = (price * (70 + (strikeSeed % 61))) / 100;
        int256 size = int256(1e18 + (sizeSeed % 100e18));
        int256 premium = int256(size) / 1e13; // 0.1 USDC per CH, either way
        try opts.trade(t, isCall, strike, writes ? -size : size, writes ? premium : -premium) {
            calls["option"]++;
        } catch {}
    }

    /// @notice A trader trades up to ±200 CH of the perp stand-in.
    function trade(uint256 who, int256 sizeSeed) external {
        int256 size = int256(bound(sizeSeed, -200e18, 200e18));
        if (size == 0) return;
        vm.prank(traders[who % 3]);
        try perp.trade(size) {
            calls["trade"]++;
        } catch {}
    }

    /// @notice The index moves by up to ±25 %.
    function move(uint256 seed) external {
        uint256 price = oracle.indexPrice();
        uint256 next = (price * (75 + (seed % 51))) / 100;
        if (next < 1e18) next = 1e18;
        if (next > 100e18) next = 100e18;
        oracle.setPrice(next);
        calls["move"]++;
    }

    /// @notice Time passes and the index σ is updated.
    function updateVolatility(uint256 secondsSeed) external {
        vm.warp(block.timestamp + 1 hours + (secondsSeed % 2 days));
        try risk.updateVolatility() {
            calls["vol"]++;
        } catch {}
    }
}
