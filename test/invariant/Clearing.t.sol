// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingSolBase} from "../helpers/ClearingSolBase.sol";
import {ClearingHandler} from "./handlers/ClearingHandler.sol";

/// @notice Invariants ACC-01, ACC-02, ACC-03, LIQ-01..07, SEC-05 over any sequence of handler calls.
contract ClearingInvariantTest is ClearingSolBase {
    ClearingHandler internal handler;
    address[3] internal traders = [address(0x7001), address(0x7002), address(0x7003)];
    address internal g2 = address(0x6002);
    uint256 internal constant INSURANCE0 = 300e6;
    int256 internal capital0;

    function setUp() public {
        _deployClearing();
        _setupGuarantor(guarantor, false, 2_000e6);
        _setupGuarantor(g2, true, 300e6);
        capital0 = 2_300e6;
        _setupTrader(traders[0], guarantor, 500e6);
        _setupTrader(traders[1], guarantor, 500e6);
        vm.prank(traders[2]);
        pool.joinOpenGuarantor(g2);
        _depositFor(traders[2], 500e6);
        _fundMarket(10_000e6);
        _fundInsurance(INSURANCE0);
        market.setFeeBps(5);
        handler = new ClearingHandler(
            [
                address(chouse),
                address(pool),
                address(risk),
                address(liq),
                address(oracle),
                address(insurance),
                address(market),
                address(usdc)
            ],
            traders,
            guarantor,
            g2,
            MAX_BOUNTY
        );
        // the handler plays governance for pauses and the guardian
        manager.grantRole(0, address(handler), 0);
        targetContract(address(handler));
    }

    function _sumCollateral() internal view returns (int256 total) {
        for (uint256 i; i < 3; ++i) total += chouse.collateralOf(traders[i]);
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_ACC01_clearingLedger();
        check_ACC01_uncoveredBooked();
        check_ACC01_LIQ07_guarantorCapitalSegregated();
        check_ACC02_sums();
        check_LIQ06_insuranceMonotone();
        check_LIQ01_LIQ05_ACC03_SEC05_noViolations();
    }

    /// ACC-01: the ClearingHouse ledger sums exactly: USDC held = Σ collateral + market PnL pool + accrued fees.
    function check_ACC01_clearingLedger() public view {
        (, int256 poolUsdc) = chouse.marketInfo(address(market));
        (uint256 fees, ) = chouse.totals();
        assertEq(int256(usdc.balanceOf(address(chouse))), _sumCollateral() + poolUsdc + int256(fees));
    }

    /// ACC-01, the pools' cash: the booked uncovered collateral is exactly Σ max(0, −collateral), and USDC held covers
    /// the positive margins, the fees and whatever of the pool withdrawMarketPool would still pay (pool − uncovered).
    function check_ACC01_uncoveredBooked() public view {
        (, int256 poolUsdc) = chouse.marketInfo(address(market));
        _assertPoolCash(traders, poolUsdc);
    }

    /// ACC-01 / LIQ-07: the GuarantorPool holds exactly the guarantors' capital and DPS bonds, and capital moves
    /// only by deposits, withdrawals, income and recorded defaults (never from or to customer collateral).
    function check_ACC01_LIQ07_guarantorCapitalSegregated() public view {
        uint256 c1 = pool.guarantorInfo(guarantor).capitalUsdc;
        uint256 c2 = pool.guarantorInfo(g2).capitalUsdc;
        assertEq(usdc.balanceOf(address(pool)), c1 + c2);
        assertEq(
            dps.balanceOf(address(pool)),
            pool.guarantorInfo(guarantor).dpsStaked + pool.guarantorInfo(g2).dpsStaked
        );
        assertEq(int256(c1 + c2), capital0 + handler.ghostCapitalFlows());
    }

    /// ACC-02: Σ shares = total shares. (Open interest is each market's own record since round 47 — the
    ///         ClearingHouse keeps no copy — so Σ sizes = OI is checked per real market: Perps, Futures, Options.)
    function check_ACC02_sums() public view {
        assertEq(pool.guarantorInfo(g2).totalShares, pool.sharesOf(g2, g2) + pool.sharesOf(g2, handler.staker()));
    }

    /// LIQ-06: the insurance fund decreases only by covering bad debt.
    function check_LIQ06_insuranceMonotone() public view {
        assertEq(insurance.totalAssets(), INSURANCE0 + handler.ghostFeesFlushed() - insurance.totalCovered());
    }

    /// The handler's liquidation path is live (so the LIQ checks are not vacuous): a trader at 6× is liquidated
    /// after a 20 % drop, its deficit walks the waterfall, and no violation is counted.
    function test_handlerLiquidationPathIsLive() public {
        handler.trade(0, 300e18); // notional 3,000 on 500 collateral (IM 300)
        handler.movePrice(8_000); // −20 %: loss 600 > 500 of collateral
        handler.liquidate(0);
        assertEq(handler.liquidations(), 1);
        assertEq(chouse.marketsOf(traders[0]).length, 0);
        assertEq(chouse.collateralOf(traders[0]), 0);
        assertEq(handler.violationsLIQ03() + handler.violationsLIQ02() + handler.violationsLIQ04(), 0);
    }

    /// LIQ-01..05, ACC-03, SEC-05: properties observed inside handler calls.
    function check_LIQ01_LIQ05_ACC03_SEC05_noViolations() public view {
        assertEq(handler.violationsLIQ01(), 0, "LIQ-01");
        assertEq(handler.violationsLIQ02(), 0, "LIQ-02");
        assertEq(handler.violationsLIQ03(), 0, "LIQ-03");
        assertEq(handler.violationsLIQ04(), 0, "LIQ-04");
        assertEq(handler.violationsLIQ05(), 0, "LIQ-05");
        assertEq(handler.violationsACC03(), 0, "ACC-03");
        assertEq(handler.violationsSEC05(), 0, "SEC-05");
    }
}
