// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseCollateral} from "../../../contracts/interfaces/clearing/IClearingHouseCollateral.sol";
import {ILiquidationEngine} from "../../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {MockERC20} from "../../../contracts/mocks/MockERC20.sol";
import {MockPriceIndex} from "../../../contracts/mocks/MockPriceIndex.sol";
import {MockAggregatorV3} from "../../../contracts/mocks/MockAggregatorV3.sol";
import {MockClearingMarket} from "../../../contracts/mocks/MockClearingMarket.sol";

/// @notice Random token-collateral moves beside positions for the ClearingCollateral invariants: CH and a feed-priced
///         token deposited, withdrawn, donated, the index and the feed moving or going stale, trades, USDC withdrawals
///         and liquidations (the keeper buys seized tokens). Every call may revert (margin): the invariants hold.
contract ClearingCollateralHandler is Test {
    IClearingHouse internal immutable chouse;
    IClearingHouseCollateral internal immutable coll;
    ILiquidationEngine internal immutable liq;
    MockPriceIndex internal immutable oracle;
    MockClearingMarket internal immutable market;
    MockAggregatorV3 internal immutable feed;
    MockERC20 internal immutable usdc;
    address[2] internal tokens;
    address[3] internal traders;
    address internal immutable keeper = address(0x7e3e);

    /// @notice Calls per action (for the run summary).
    mapping(bytes32 action => uint256) public calls;

    constructor(address[7] memory c, address[2] memory tokens_, address[3] memory traders_) {
        chouse = IClearingHouse(c[0]);
        coll = IClearingHouseCollateral(c[0]);
        liq = ILiquidationEngine(c[1]);
        oracle = MockPriceIndex(c[2]);
        market = MockClearingMarket(c[3]);
        feed = MockAggregatorV3(c[4]);
        usdc = MockERC20(c[5]);
        tokens = tokens_;
        traders = traders_;
        usdc.mint(keeper, 1e15);
        vm.prank(keeper);
        usdc.approve(c[0], type(uint256).max);
    }

    /// @notice A trader deposits up to 100 of a token (minted to it).
    function deposit(uint256 who, uint256 which, uint256 amountSeed) external {
        address t = traders[who % 3];
        MockERC20 token = MockERC20(tokens[which % 2]);
        uint256 amount = bound(amountSeed, 1, 100e18);
        token.mint(t, amount);
        vm.startPrank(t);
        token.approve(address(chouse), amount);
        try coll.depositToken(address(token), amount) {
            calls["deposit"]++;
        } catch {}
        vm.stopPrank();
    }

    /// @notice A trader withdraws part of a token balance (the margin check may refuse).
    function withdraw(uint256 who, uint256 which, uint256 amountSeed) external {
        address t = traders[who % 3];
        address token = tokens[which % 2];
        uint256 balance = coll.tokenCollateralOf(t, token);
        if (balance == 0) return;
        vm.prank(t);
        try coll.withdrawToken(token, bound(amountSeed, 1, balance), t) {
            calls["withdraw"]++;
        } catch {}
    }

    /// @notice Someone donates tokens straight to the ClearingHouse (must count for nobody).
    function donate(uint256 which, uint256 amountSeed) external {
        MockERC20(tokens[which % 2]).mint(address(chouse), bound(amountSeed, 1, 50e18));
        calls["donate"]++;
    }

    /// @notice A trader trades up to ±200 CH.
    function trade(uint256 who, int256 sizeSeed) external {
        int256 size = int256(bound(sizeSeed, -200e18, 200e18));
        if (size == 0) return;
        vm.prank(traders[who % 3]);
        try market.trade(size) {
            calls["trade"]++;
        } catch {}
    }

    /// @notice A trader withdraws USDC against its token collateral.
    function withdrawUsdc(uint256 who, uint256 amountSeed) external {
        address t = traders[who % 3];
        int256 c = chouse.collateralOf(t);
        if (c <= 0) return;
        vm.prank(t);
        try chouse.withdraw(bound(amountSeed, 1, uint256(c)), t) {
            calls["withdrawUsdc"]++;
        } catch {}
    }

    /// @notice The index moves by up to ±40 % (the token collateral and the positions move together).
    function move(uint256 seed) external {
        uint256 price = oracle.indexPrice();
        uint256 next = (price * (60 + (seed % 81))) / 100;
        if (next < 1e18) next = 1e18;
        if (next > 100e18) next = 100e18;
        oracle.setPrice(next);
        calls["move"]++;
    }

    /// @notice The feed publishes a price between 0.5 and 5 USD, or time passes so it goes stale.
    function feedMove(uint256 seed, bool stale) external {
        if (stale) {
            vm.warp(block.timestamp + 2 hours);
            calls["stale"]++;
        } else {
            feed.setAnswer(int256(0.5e8 + (seed % 4.5e8)));
            calls["feed"]++;
        }
    }

    /// @notice The keeper liquidates a trader (buying its priced tokens).
    function liquidate(uint256 who) external {
        vm.prank(keeper);
        try liq.liquidate(traders[who % 3]) {
            calls["liquidate"]++;
        } catch {}
    }

    /// @notice The keeper (a holder of USDC collateral too: the ACC-01 sum includes it).
    function keeperAccount() external view returns (address) {
        return keeper;
    }
}
