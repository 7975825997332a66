// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSolBase} from "../../helpers/FuturesSolBase.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";
import {IFuturesTypes} from "../../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../../contracts/interfaces/markets/IFuturesEvents.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {MockFuturesIndex} from "../../../contracts/mocks/MockFuturesIndex.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {ILiquidityVault} from "../../../contracts/interfaces/markets/ILiquidityVault.sol";
import {IFuturesMarket} from "../../../contracts/interfaces/markets/IFuturesMarket.sol";
import {IDelayedOrders, IDelayedOrderErrors} from "../../../contracts/interfaces/markets/IDelayedOrders.sol";
import {IComputePriceOracle} from "../../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {FuturesOrderSteps} from "../../helpers/FuturesOrderSteps.sol";

/// @notice Setup and helpers of the futures security regression tests (FuturesSecurity.t.sol,
///         FuturesOrdersSecurity.t.sol): two traders and a keeper under one guarantor, one series 10 days out.
///         Index 10 USDC/CH, IM 10 %, MM 5 %, penalty 10 %.
abstract contract FuturesSecuritySetup is FuturesSolBase {
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    address internal keeper = makeAddr("keeper");
    uint64 internal expiry;
    uint256 internal id;

    function setUp() public virtual {
        _deployFutures();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(alice, guarantor, 10_000e6);
        _setupTrader(bob, guarantor, 10_000e6);
        _grant(Roles.GUARDIAN, address(this));
        expiry = uint64(block.timestamp + 10 days);
        id = futures.listSeries(expiry, 1_000_000e18);
    }

    function _trade(address who, uint256 seriesId, int256 size) internal {
        FuturesOrderSteps.mustTrade(futures, who, seriesId, size);
    }

    /// Expiry → price fixed at the current index → dispute window over → finalised.
    function _finalise() internal {
        vm.warp(expiry);
        futures.fixSettlementPrice(id);
        vm.warp(block.timestamp + 1 hours);
        futures.finalizeSettlement(id);
    }

    /// bob shorts 100 CH and escrows them for delivery; alice is long 100 CH and elects delivery of all of it.
    function _deliveringPair() internal {
        _trade(alice, id, 100e18);
        _trade(bob, id, -100e18);
        _mintCh(bob, 100e18);
        vm.startPrank(bob);
        chToken.approve(address(futures), 100e18);
        futures.deliver(id, 100e18);
        vm.stopPrank();
        vm.prank(alice);
        futures.electDelivery(id, 100e18); // payment at expiry ≈ 100 × 10 = 1,000
    }

    /// What `who` can withdraw at most: equity above initial margin, capped by its collateral.
    function _free(address who) internal view returns (uint256) {
        IClearingHouse.MarginState memory m = chouse.marginState(who);
        uint256 free = uint256(m.equityUsdc) - m.initialMarginUsdc;
        uint256 collateral = uint256(chouse.collateralOf(who));
        return free < collateral ? free : collateral;
    }

    /// Nothing the waterfall ever paid: every collateral ≥ 0, guarantor capital and insurance untouched.
    function _assertNoBadDebt(uint256 capitalBefore) internal view {
        assertGe(chouse.collateralOf(alice), 0, "alice left bad debt");
        assertGe(chouse.collateralOf(bob), 0, "bob left bad debt");
        assertEq(pool.guarantorInfo(guarantor).capitalUsdc, capitalBefore, "guarantor paid");
    }

    /// carol: long 100 CH of a far series, short 100 CH of the near one: her ClearingHouse position nets to zero.
    function _calendarSpread(address carol) internal returns (uint256 far) {
        far = futures.listSeries(uint64(expiry + 30 days), 1_000_000e18);
        _trade(carol, far, 100e18);
        _trade(carol, id, -100e18);
        assertEq(chouse.positionOf(carol, address(futures)).sizeCh, 0);
    }

    /// Expiry and price fixing at 10, then the index falls to 7 inside the dispute and delivery windows.
    function _fixedThenIndexFalls() internal {
        vm.warp(expiry);
        futures.fixSettlementPrice(id);
        _setPrice(7e18);
    }

    address internal executor = makeAddr("executor");

    function _commit(address who, int256 size) internal returns (uint256 priceTime) {
        vm.prank(who);
        return futures.commitOrder(id, size, 0);
    }

    function _execute(address who, uint256 priceTime) internal {
        if (block.timestamp <= priceTime) vm.warp(priceTime + 1);
        uint80 roundId = fIndex.roundAt(priceTime);
        vm.prank(executor);
        futures.executeOrder(who, id, roundId);
    }

    /// @dev A signed-order body for `who` on the set-up series `id`, valid for an hour, open to any taker.
    function _order(
        address who,
        bool isBuy,
        uint256 size,
        uint256 price,
        uint256 nonce
    ) internal view returns (IFuturesTypes.Order memory) {
        return
            IFuturesTypes.Order({
                maker: who,
                seriesId: id,
                isBuy: isBuy,
                sizeCh: size,
                priceWad: price,
                nonce: nonce,
                expiry: uint64(block.timestamp + 1 hours),
                taker: address(0)
            });
    }
}
