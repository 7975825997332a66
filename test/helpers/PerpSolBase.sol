// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingSolBase} from "./ClearingSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {IPerpMarket} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {PerpDefaults} from "./PerpDefaults.sol";
import {ILiquidityVault} from "../../contracts/interfaces/markets/ILiquidityVault.sol";
import {MockRiskPriceIndex} from "../../contracts/mocks/MockRiskPriceIndex.sol";

/// @notice The clearing layer of ClearingSolBase plus a LiquidityVault and a PerpMarket behind real proxies, all
///         reading one MockRiskPriceIndex. Deployed from artifacts (deployCode) and driven through interfaces, like
///         ClearingSolBase (solc-js memory, HHE908).
abstract contract PerpSolBase is ClearingSolBase {
    IPerpMarket internal perp;
    ILiquidityVault internal vault;
    MockRiskPriceIndex internal index;

    function _deployPerps() internal {
        _deployClearing();
        index = MockRiskPriceIndex(deployCode("MockRiskPriceIndex.sol:MockRiskPriceIndex", abi.encode(PRICE0)));
        chouse.setModules(address(index), address(risk), address(pool), address(insurance), address(liq));
        vault = ILiquidityVault(
            _proxy(
                deployCode("LiquidityVault.sol:LiquidityVault"),
                abi.encodeWithSignature(
                    "initialize(address,address,string,string,uint256,uint32)",
                    address(manager),
                    address(usdc),
                    "CHX Perp LP",
                    "chxLP",
                    1e15,
                    uint32(0)
                )
            )
        );
        IPerpMarket.PerpParams memory p = PerpDefaults.params();
        perp = IPerpMarket(
            _proxy(
                deployCode("PerpMarket.sol:PerpMarket"),
                abi.encodeWithSignature(
                    PerpDefaults.INITIALIZE_SIG,
                    address(manager),
                    address(chouse),
                    address(index),
                    address(vault),
                    makeAddr("burnSink"),
                    p
                )
            )
        );
        chouse.registerMarket(address(perp));
        chouse.setMarketLossAbsorber(address(perp), true); // as the deploy's wiring module
        risk.setMarketParams(
            address(perp),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            })
        );
        _grant(Roles.MARKET, address(perp));
        vault.addMarket(address(perp));
    }
}
