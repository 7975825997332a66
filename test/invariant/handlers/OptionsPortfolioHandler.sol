// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {MockPriceIndex} from "../../../contracts/mocks/MockPriceIndex.sol";
import {MockClearingMarket} from "../../../contracts/mocks/MockClearingMarket.sol";
import {IOptionsMarket} from "../../../contracts/interfaces/markets/IOptionsMarket.sol";
import {ILiquidationEngine} from "../../../contracts/interfaces/clearing/ILiquidationEngine.sol";

/// @notice Random margined and collateralised option writing on the real OptionsMarket, long transfers, closes,
///         perp trades, index moves and liquidations, for the CLR-04 / ACC-02 invariants of OptionsPortfolio.t.sol.
///         Every call may revert (margin, bounds): the invariants hold either way.
contract OptionsPortfolioHandler is Test {
    MockPriceIndex internal immutable oracle;
    MockClearingMarket internal immutable perp;
    IOptionsMarket internal immutable options;
    ILiquidationEngine internal immutable liq;
    address[3] internal traders;
    uint256[3] internal series;

    /// @notice Calls per action (for the run summary).
    mapping(bytes32 action => uint256) public calls;

    constructor(
        address oracle_,
        address perp_,
        address options_,
        address liq_,
        address[3] memory traders_,
        uint256[3] memory series_
    ) {
        oracle = MockPriceIndex(oracle_);
        perp = MockClearingMarket(perp_);
        options = IOptionsMarket(options_);
        liq = ILiquidationEngine(liq_);
        traders = traders_;
        series = series_;
    }

    /// @notice A trader writes up to 50 CH of one of the three series, margined or (not the uncapped call)
    ///         collateralised.
    function write(uint256 who, uint256 which, uint256 sizeSeed, bool margined) external {
        address t = traders[who % 3];
        uint256 id = series[which % 3];
        uint256 size = 1e18 + (sizeSeed % 50e18);
        vm.prank(t);
        if (margined) {
            try options.writeMargined(id, size) {
                calls["writeMargined"]++;
            } catch {}
        } else {
            try options.write(id, size) {
                calls["write"]++;
            } catch {}
        }
    }

    /// @notice A trader passes some of its longs to another (the holder side of written options).
    function transfer(uint256 who, uint256 to, uint256 which, uint256 sizeSeed) external {
        address from = traders[who % 3];
        address dest = traders[to % 3];
        uint256 id = series[which % 3];
        uint256 long_ = options.positionOf(id, from).longCh;
        if (from == dest || long_ == 0) return;
        vm.prank(from);
        options.transferLong(id, dest, 1 + (sizeSeed % long_));
        calls["transfer"]++;
    }

    /// @notice A trader closes some of its longs against its shorts (collateralised first, then margined).
    function close(uint256 who, uint256 which, uint256 sizeSeed) external {
        address t = traders[who % 3];
        uint256 id = series[which % 3];
        vm.prank(t);
        try options.close(id, 1 + (sizeSeed % 50e18)) {
            calls["close"]++;
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

    /// @notice Anyone liquidates a trader (reverts while it is healthy).
    function liquidate(uint256 who) external {
        try liq.liquidate(traders[who % 3]) {
            calls["liquidate"]++;
        } catch {}
    }
}
