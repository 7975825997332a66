// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingSolBase} from "./ClearingSolBase.sol";
import {IPerpMarket} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {ILiquidityVault} from "../../contracts/interfaces/markets/ILiquidityVault.sol";
import {MockRiskPriceIndex} from "../../contracts/mocks/MockRiskPriceIndex.sol";

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
}
