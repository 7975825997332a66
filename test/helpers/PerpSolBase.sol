// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingSolBase} from "./ClearingSolBase.sol";
import {IPerpMarket} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {ILiquidityVault} from "../../contracts/interfaces/markets/ILiquidityVault.sol";
import {MockRiskPriceIndex} from "../../contracts/mocks/MockRiskPriceIndex.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";

/// @notice The clearing layer of ClearingSolBase plus a LiquidityVault and a PerpMarket behind real proxies, all
///         reading one MockRiskPriceIndex. Deployed from artifacts (deployCode) and driven through interfaces, like
///         ClearingSolBase (solc-js memory, HHE908).
abstract contract PerpSolBase is ClearingSolBase {
    IPerpMarket internal perp;
    ILiquidityVault internal vault;
    MockRiskPriceIndex internal index;

    /// @dev The clearing fixture with the ClearingHouse reading a MockRiskPriceIndex, a LiquidityVault (no cap
    ///      to speak of, no lock) and a PerpMarket on that index.
    function _deployPerps() internal {
        _deployClearing();
        index = MockRiskPriceIndex(deployCode("MockRiskPriceIndex.sol:MockRiskPriceIndex", abi.encode(PRICE0)));
        chouse.setModules(address(index), address(risk), address(pool), address(insurance), address(liq));
        vault = ILiquidityVault(_deployLiquidityVault(address(usdc), 1e15, 0));
        perp = IPerpMarket(_deployPerpMarket(stack, address(index), address(vault), makeAddr("burnSink")));
    }

    /// @dev The perp's LP pool funded: `lp` deposits `depositUsdc` into the vault and this test contract, made a
    ///      KEEPER allowed to `allocate`, moves `allocateUsdc` of it to the market.
    function _fundPerpPool(address lp, uint256 depositUsdc, uint256 allocateUsdc) internal {
        _setRole(address(vault), ILiquidityVault.allocate.selector, Roles.KEEPER);
        _grant(Roles.KEEPER, address(this));
        _mintUsdc(lp, depositUsdc);
        vm.startPrank(lp);
        usdcApprove(address(vault), depositUsdc);
        vault.deposit(depositUsdc, lp);
        vm.stopPrank();
        vault.allocate(address(perp), allocateUsdc);
    }

    /// @dev ACC-02 in the perp, over `holders` (every account holding a perp position): its open interest per side,
    ///      each account's size and the open notional it books for the vault's valuation equal the ClearingHouse's
    ///      positions. Liquidation closes and ADL steps move positions without a market trade, through the
    ///      `onPositionLiquidated` hook, so tests of those paths check the book after each step.
    function _assertPerpBookMirrorsClearing(address[] memory holders) internal view {
        uint256 longs;
        uint256 shorts;
        int256 notional;
        for (uint256 i; i < holders.length; ++i) {
            int256 size = chouse.positionOf(holders[i], address(perp)).sizeCh;
            if (size > 0) longs += uint256(size);
            else shorts += uint256(-size);
            notional += chouse.positionOf(holders[i], address(perp)).openNotionalUsdc;
            assertEq(perp.accountState(holders[i]).sizeCh, size, "the perp's size = the ClearingHouse's");
        }
        IPerpMarket.MarketState memory st = perp.marketState();
        assertEq(st.longOiCh, longs, "ACC-02: long OI = sum of long sizes");
        assertEq(st.shortOiCh, shorts, "ACC-02: short OI = sum of short sizes");
        assertEq(st.sumOpenNotionalUsdc, notional, "the vault's open notional = sum of the positions'");
    }
}
