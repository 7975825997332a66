// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingSolBase} from "../helpers/ClearingSolBase.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {MockClearingMarket} from "../../contracts/mocks/MockClearingMarket.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {CustomerMovesHandler} from "./handlers/CustomerMovesHandler.sol";

/// @notice Invariants over customers moving between guarantors: LIQ-03 (the guarantor of a deficit pays first),
///         exposure bookkeeping (each guarantor's aggregate = Σ of its customers' recorded exposures, item 5),
///         ACC-01 (no socialised loss in a market that cannot absorb it, item 14), SEC-05 (exits under the per-market
///         pause, item 12), LIQ-07 (capital and collateral stay apart).
contract ClearingCustomerMovesInvariantTest is ClearingSolBase {
    CustomerMovesHandler internal handler;
    MockClearingMarket internal payouts;
    address[4] internal traders = [address(0x7101), address(0x7102), address(0x7103), address(0x7104)];
    address internal g2 = address(0x6102);
    int256 internal payoutsPool0;

    function setUp() public {
        _deployClearing();
        _setupGuarantor(guarantor, false, 500e6);
        _setupGuarantor(g2, true, 500e6);
        for (uint256 i; i < 4; ++i) _setupTrader(traders[i], i % 2 == 0 ? guarantor : g2, 300e6);
        _fundMarket(50_000e6);
        _fundInsurance(200e6);
        payouts = MockClearingMarket(
            deployCode(
                "MockClearingMarket.sol:MockClearingMarket",
                abi.encode(address(chouse), address(oracle), address(usdc))
            )
        );
        chouse.registerMarket(address(payouts));
        _grant(Roles.MARKET, address(payouts));
        risk.setMarketParams(
            address(payouts),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            })
        );
        _mintUsdc(address(this), 10_000e6);
        usdc.approve(address(payouts), 10_000e6);
        payouts.fund(10_000e6);
        payoutsPool0 = 10_000e6;
        handler = new CustomerMovesHandler(
            [
                address(chouse),
                address(pool),
                address(liq),
                address(oracle),
                address(insurance),
                address(market),
                address(payouts),
                address(usdc)
            ],
            traders,
            [guarantor, g2]
        );
        manager.grantRole(0, address(handler), 0); // pauses
        targetContract(address(handler));
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_exposureMovesWithCustomers();
        check_LIQ03_SEC05_noViolations();
        check_ACC01_LIQ07_noLossOnNonAbsorbingPool();
    }

    /// Item 5: a guarantor's recorded exposure is exactly Σ of its customers' recorded exposures.
    function check_exposureMovesWithCustomers() public view {
        uint256[2] memory sums;
        for (uint256 i; i < 4; ++i) {
            address g = pool.guarantorOf(traders[i]);
            (, uint256 e) = pool.customerInfo(traders[i]);
            if (g == guarantor) sums[0] += e;
            else if (g == g2) sums[1] += e;
            else assertEq(e, 0, "exposure recorded for an account without a guarantor");
        }
        assertEq(pool.guarantorInfo(guarantor).exposureUsdc, sums[0], "guarantor 1 aggregate");
        assertEq(pool.guarantorInfo(g2).exposureUsdc, sums[1], "guarantor 2 aggregate");
    }

    /// LIQ-03, SEC-05 observed inside the handler's calls.
    function check_LIQ03_SEC05_noViolations() public view {
        assertEq(handler.violationsLIQ03(), 0, "LIQ-03");
        assertEq(handler.violationsSEC05(), 0, "SEC-05");
    }

    /// ACC-01 (item 14): the non-absorbing market's pool moved only by its own payouts — no socialised loss; and
    /// the ClearingHouse ledger sums exactly. LIQ-07: guarantor capital is held apart, in the GuarantorPool.
    function check_ACC01_LIQ07_noLossOnNonAbsorbingPool() public view {
        (, int256 payoutsPool) = chouse.marketInfo(address(payouts));
        assertEq(payoutsPool, payoutsPool0 - handler.ghostPayouts(), "socialised loss charged to a non-absorber");
        int256 collateral;
        for (uint256 i; i < 4; ++i) collateral += chouse.collateralOf(traders[i]);
        (, int256 marketPool) = chouse.marketInfo(address(market));
        (uint256 fees, ) = chouse.totals();
        assertEq(int256(usdc.balanceOf(address(chouse))), collateral + marketPool + payoutsPool + int256(fees));
        assertEq(
            usdc.balanceOf(address(pool)),
            pool.guarantorInfo(guarantor).capitalUsdc + pool.guarantorInfo(g2).capitalUsdc
        );
    }

    /// The handler's paths are live: a deficit on a flat account blocks the removal, the liquidation bills the
    /// guarantor, then the customer moves to the open guarantor and trades there.
    function test_handlerPathsAreLive() public {
        handler.open(0, 200e18);
        handler.movePrice(8_000); // −400 on 300
        handler.closeAll(0);
        handler.remove(0, true);
        assertEq(handler.removals(), 0);
        handler.liquidate(0);
        handler.remove(0, true);
        assertEq(handler.removals(), 1);
        handler.join(0, true);
        assertEq(pool.guarantorOf(traders[0]), g2);
        handler.deposit(0, 500e6);
        handler.open(0, 10e18);
        assertEq(handler.violationsLIQ03() + handler.violationsSEC05(), 0);
        check_exposureMovesWithCustomers();
    }
}
