// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ChxSolBase} from "./ChxSolBase.sol";
import {ChxAccessManager} from "../../contracts/core/governance/ChxAccessManager.sol";
import {DPSToken} from "../../contracts/core/token/DPSToken.sol";
import {MockERC20} from "../../contracts/mocks/MockERC20.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {MockPriceIndex} from "../../contracts/mocks/MockPriceIndex.sol";
import {MockInsuranceFund} from "../../contracts/mocks/MockInsuranceFund.sol";
import {MockClearingMarket} from "../../contracts/mocks/MockClearingMarket.sol";

/// @dev The clearing contracts are deployed from their artifacts (deployCode) and driven through their interfaces:
///      compiling them in the same solc-js job as forge-std crashes the wasm compiler (HHE908), see docs/clearing.md.
/// @notice The clearing layer behind real proxies on top of ChxSolBase, with a test market and mock oracle and
///         insurance fund. Margin rates: σ = 2 %, IM = max(10 %, 3σ) = 10 %, MM = max(5 %, 1.5σ) = 5 %.
abstract contract ClearingSolBase is ChxSolBase {
    IClearingHouse internal chouse;
    IGuarantorPool internal pool;
    IRiskEngine internal risk;
    ILiquidationEngine internal liq;
    MockPriceIndex internal oracle;
    MockInsuranceFund internal insurance;
    MockClearingMarket internal market;

    uint256 internal constant PRICE0 = 10e18; // 10 USDC per CH
    uint256 internal constant MIN_DPS = 1_000e18;
    uint256 internal constant MAX_LEVERAGE = 10e18;
    uint256 internal constant BOUNTY_BPS = 100; // 1 % of closed notional
    uint256 internal constant MAX_BOUNTY = 50e6;
    uint256 internal constant DUST = 10e6;

    address internal guarantor = makeAddr("guarantor");

    function _deployClearing() internal {
        _deployClearingWith(address(0));
    }

    /// @dev Only what the clearing layer needs from the base (AccessManager, DPS, USDC), from artifacts, so the
    ///      test contracts do not embed the token and governance creation code (keeps the solc-js job small).
    function _deployClearingBase() internal {
        manager = ChxAccessManager(
            _proxy(
                deployCode("ChxAccessManager.sol:ChxAccessManager"),
                abi.encodeWithSignature("initialize(address)", address(this))
            )
        );
        dps = DPSToken(
            _proxy(
                deployCode("DPSToken.sol:DPSToken"),
                abi.encodeWithSignature(
                    "initialize(address,address,uint256)",
                    address(manager),
                    address(this),
                    GENESIS_DPS
                )
            )
        );
        usdc = MockERC20(deployCode("MockERC20.sol:MockERC20", abi.encode("USD Coin (mock)", "USDC", uint8(6))));
    }

    /// @param collateralToken USDC to use (zero: the base's MockERC20).
    function _deployClearingWith(address collateralToken) internal {
        _deployClearingBase();
        address token = collateralToken == address(0) ? address(usdc) : collateralToken;
        oracle = MockPriceIndex(deployCode("MockPriceIndex.sol:MockPriceIndex", abi.encode(PRICE0)));
        chouse = IClearingHouse(
            _proxy(
                deployCode("ClearingHouse.sol:ClearingHouse"),
                abi.encodeWithSignature("initialize(address,address)", address(manager), token)
            )
        );
        risk = IRiskEngine(
            _proxy(
                deployCode("RiskEngine.sol:RiskEngine"),
                abi.encodeWithSignature(
                    "initialize(address,address,address,address,uint256,uint256,uint256,uint256)",
                    address(manager),
                    address(oracle),
                    address(chouse),
                    token,
                    0.02e18,
                    0.94e18,
                    1 hours,
                    1e6
                )
            )
        );
        pool = IGuarantorPool(
            _proxy(
                deployCode("GuarantorPool.sol:GuarantorPool"),
                abi.encodeWithSignature(
                    "initialize(address,address,address,address,uint256,uint256)",
                    address(manager),
                    token,
                    address(dps),
                    address(chouse),
                    MIN_DPS,
                    MAX_LEVERAGE
                )
            )
        );
        liq = ILiquidationEngine(
            _proxy(
                deployCode("LiquidationEngine.sol:LiquidationEngine"),
                abi.encodeWithSignature(
                    "initialize(address,address,uint256,uint256,uint256)",
                    address(manager),
                    address(chouse),
                    BOUNTY_BPS,
                    MAX_BOUNTY,
                    DUST
                )
            )
        );
        insurance = MockInsuranceFund(deployCode("MockInsuranceFund.sol:MockInsuranceFund", abi.encode(token)));
        chouse.setModules(address(oracle), address(risk), address(pool), address(insurance), address(liq));
        market = MockClearingMarket(
            deployCode("MockClearingMarket.sol:MockClearingMarket", abi.encode(address(chouse), address(oracle), token))
        );
        chouse.registerMarket(address(market));
        chouse.setMarketLossAbsorber(address(market), true); // stands in for a perp market (LP pool)
        risk.setMarketParams(
            address(market),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            })
        );

        _setRole(address(chouse), IClearingHouse.modifyPosition.selector, Roles.MARKET);
        _setRole(address(chouse), IClearingHouse.settle.selector, Roles.MARKET);
        _setRole(address(chouse), IClearingHouse.fundMarketPool.selector, Roles.MARKET);
        _setRole(address(chouse), IClearingHouse.withdrawMarketPool.selector, Roles.MARKET);
        _setRole(address(pool), IGuarantorPool.coverLoss.selector, Roles.CLEARING);
        _setRole(address(pool), IGuarantorPool.slashDps.selector, Roles.GUARANTOR_SLASHER);
        _grant(Roles.MARKET, address(market));
        _grant(Roles.CLEARING, address(liq));
    }

    /// @dev Registers `g` as a guarantor with the minimum DPS bond and `capitalUsdc` of capital.
    function _pause(address module, string memory feature) internal {
        IChxModule(module).pauseFeature(keccak256(bytes(feature)));
    }

    function _setupGuarantor(address g, bool open, uint256 capitalUsdc) internal {
        dps.transfer(g, MIN_DPS);
        vm.startPrank(g);
        pool.registerGuarantor(open, 1_000_000e6);
        dps.approve(address(pool), MIN_DPS);
        pool.stakeDps(MIN_DPS);
        if (capitalUsdc > 0) {
            _mintUsdc(g, capitalUsdc);
            usdcApprove(address(pool), capitalUsdc);
            pool.depositCapital(g, capitalUsdc);
        }
        vm.stopPrank();
    }

    /// @dev Admits `trader` to `g` and deposits `collateralUsdc` for it.
    function _setupTrader(address trader, address g, uint256 collateralUsdc) internal {
        vm.prank(g);
        pool.admitCustomer(trader, 1_000_000e6);
        _depositFor(trader, collateralUsdc);
    }

    function _depositFor(address trader, uint256 amountUsdc) internal {
        _mintUsdc(trader, amountUsdc);
        vm.startPrank(trader);
        usdcApprove(address(chouse), amountUsdc);
        chouse.deposit(amountUsdc);
        vm.stopPrank();
    }

    function _fundMarket(uint256 amountUsdc) internal {
        _mintUsdc(address(this), amountUsdc);
        usdcApprove(address(market), amountUsdc);
        market.fund(amountUsdc);
    }

    function _fundInsurance(uint256 amountUsdc) internal {
        _mintUsdc(address(insurance), amountUsdc);
    }

    /// @dev Overridden by tests that use another collateral token.
    function _mintUsdc(address to, uint256 amount) internal virtual {
        usdc.mint(to, amount);
    }

    function usdcApprove(address spender, uint256 amount) internal virtual {
        usdc.approve(spender, amount);
    }
}
