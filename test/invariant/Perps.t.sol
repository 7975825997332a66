// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../helpers/PerpSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IPerpMarket} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {ILiquidityVault} from "../../contracts/interfaces/markets/ILiquidityVault.sol";
import {PerpHandler} from "./handlers/PerpHandler.sol";

/// @notice Invariants MKT-01, MKT-02, ACC-01, ACC-02, ACC-03 of the perpetual and its LP vault over any sequence of
///         trader, LP and keeper actions with price moves and time. MKT-03 (O(1) funding) is a gas property: the
///         bench (`PerpMarket.pokeFunding` vs `:n10000`) and the unit test in test/unit/perps/perp.test.ts.
contract PerpsInvariantTest is PerpSolBase {
    PerpHandler internal handler;
    address[3] internal traders = [address(0x7001), address(0x7002), address(0x7003)];

    function setUp() public {
        _deployPerps();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        for (uint256 i; i < 3; ++i) _setupTrader(traders[i], guarantor, 20_000e6);
        handler = new PerpHandler(
            [address(chouse), address(perp), address(vault), address(liq), address(index), address(usdc)],
            traders
        );
        // seed LP capital and let the handler play the keeper (allocate / deallocate) and LPs
        _setRole(address(vault), ILiquidityVault.allocate.selector, Roles.KEEPER);
        _setRole(address(vault), ILiquidityVault.deallocate.selector, Roles.KEEPER);
        _grant(Roles.KEEPER, address(handler));
        _mintUsdc(address(this), 500_000e6);
        usdcApprove(address(vault), 500_000e6);
        vault.deposit(500_000e6, address(this));
        _grant(Roles.KEEPER, address(this));
        vault.allocate(address(perp), 400_000e6);
        targetContract(address(handler));
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_MKT01_fundingConservation();
        check_MKT02_ACC03_noViolations();
        check_ACC01_ledgers();
        check_ACC02_sums();
    }

    /// MKT-01: Σ funding paid ≥ Σ funding received — settled plus still owed (incl. pending after liquidations),
    /// over every trader, is never negative: the majority side pays, the vault holds the skew.
    function check_MKT01_fundingConservation() public view {
        int256 unsettled;
        for (uint256 i; i < 3; ++i) unsettled += perp.fundingOwedUsdc(traders[i]);
        assertGe(handler.ghostFundingSettled() + unsettled, -int256(handler.ghostFundingOps()));
    }

    /// MKT-02 (funding direction over every warp) and ACC-03 (LP round trips, bounty claims).
    function check_MKT02_ACC03_noViolations() public view {
        assertEq(handler.violationsMKT02(), 0);
        assertEq(handler.violationsACC03(), 0);
    }

    /// ACC-01: the ClearingHouse ledger sums (collateral + pools + fees); the market holds no USDC; the vault holds
    /// at least its idle ledger; the market's reserves (burn, bounties) are covered by its pool.
    function check_ACC01_ledgers() public view {
        (, int256 perpPool) = chouse.marketInfo(address(perp));
        (, int256 mockPool) = chouse.marketInfo(address(market));
        (uint256 fees, ) = chouse.totals();
        int256 collateral = chouse.collateralOf(address(handler)); // execution fees earned as the executor
        for (uint256 i; i < 3; ++i) collateral += chouse.collateralOf(traders[i]);
        assertEq(int256(usdc.balanceOf(address(chouse))), collateral + perpPool + mockPool + int256(fees));
        assertEq(usdc.balanceOf(address(perp)), 0);
        assertGe(usdc.balanceOf(address(vault)), vault.idleUsdc());
    }

    /// ACC-02: Σ position sizes per side = open interest (market and ClearingHouse agree); Σ cost basis mirrors the
    /// ClearingHouse; Σ shares = total supply.
    function check_ACC02_sums() public view {
        uint256 longs;
        uint256 shorts;
        int256 basis;
        for (uint256 i; i < 3; ++i) {
            IClearingHouse.Position memory p = chouse.positionOf(traders[i], address(perp));
            if (p.sizeCh > 0) longs += uint256(int256(p.sizeCh));
            else shorts += uint256(-int256(p.sizeCh));
            basis += p.openNotionalUsdc;
            assertEq(perp.accountState(traders[i]).sizeCh, p.sizeCh);
        }
        IPerpMarket.MarketState memory s = perp.marketState();
        assertEq(s.longOiCh, longs);
        assertEq(s.shortOiCh, shorts);
        assertEq(s.sumOpenNotionalUsdc, basis);
        uint256 shares = vault.balanceOf(address(this));
        shares += vault.balanceOf(handler.lps(0)) + vault.balanceOf(handler.lps(1));
        assertEq(shares, vault.totalSupply());
    }

    function test_handlerTradesAreLive() public {
        handler.trade(0, 100e18);
        handler.trade(1, -50e18);
        handler.warp(1 days);
        handler.settleFunding(0);
        assertEq(handler.trades(), 2);
        assertGt(handler.ghostFundingSettled(), 0);
        check_MKT01_fundingConservation();
        check_ACC02_sums();
    }
}
