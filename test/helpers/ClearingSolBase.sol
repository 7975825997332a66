// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Deployers} from "../utils/Deployers.sol";
import {DPSToken} from "../../contracts/core/token/DPSToken.sol";
import {MockERC20} from "../../contracts/mocks/MockERC20.sol";
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
/// @notice Fixture of the clearing suites: the clearing stack of Deployers with a test market, a mock oracle and
///         a mock insurance fund, and the guarantor / trader / funding steps of their scenarios. Margin rates: σ = 2 %, IM = max(10 %, 3σ) = 10 %, MM = max(5 %, 1.5σ) = 5 %.
abstract contract ClearingSolBase is Deployers {
    DPSToken internal dps;
    MockERC20 internal usdc;
    IClearingHouse internal chouse;
    IGuarantorPool internal pool;
    IRiskEngine internal risk;
    ILiquidationEngine internal liq;
    MockPriceIndex internal oracle;
    MockInsuranceFund internal insurance;
    MockClearingMarket internal market;

    uint256 internal constant PRICE0 = 10e18; // 10 USDC per CH

    address internal guarantor = makeAddr("guarantor");

    /// @dev The clearing stack as Deployers returns it (for the market steps of the fixtures built on this one).
    ClearingStack internal stack;

    function _deployClearing() internal {
        _deployClearingWith(address(0));
    }

    /// @dev Only what the clearing layer needs from the base: AccessManager, DPS (no roles), mock USDC.
    function _deployClearingBase() internal {
        _deployAccessManager();
        dps = DPSToken(_deployDps(GENESIS_DPS, false));
        usdc = MockERC20(_deployUsdc());
    }

    /// @param collateralToken USDC to use (zero: the base's MockERC20).
    function _deployClearingWith(address collateralToken) internal {
        _deployClearingBase();
        address token = collateralToken == address(0) ? address(usdc) : collateralToken;
        oracle = MockPriceIndex(deployCode("MockPriceIndex.sol:MockPriceIndex", abi.encode(PRICE0)));
        insurance = MockInsuranceFund(deployCode("MockInsuranceFund.sol:MockInsuranceFund", abi.encode(token)));
        stack = _deployClearingStack(token, address(dps), address(oracle), address(insurance));
        chouse = IClearingHouse(stack.house);
        risk = IRiskEngine(stack.risk);
        pool = IGuarantorPool(stack.pool);
        liq = ILiquidationEngine(stack.liq);
        market = MockClearingMarket(_deployMockMarket(stack, address(oracle), token));
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

    /// @dev ACC-01, the pools' cash, over `accounts` (every account holding collateral) and one pool: the ClearingHouse's
    ///      uncovered booking is exactly Σ max(0, −collateral), and USDC held covers the positive margins, the fees and
    ///      what of the pool withdrawMarketPool would still pay (pool − uncovered).
    function _assertPoolCash(address[3] memory accounts, int256 poolUsdc) internal view {
        uint256 positive;
        uint256 uncovered;
        for (uint256 i; i < 3; ++i) {
            int256 c = chouse.collateralOf(accounts[i]);
            if (c > 0) positive += uint256(c);
            else uncovered += uint256(-c);
        }
        assertEq(chouse.uncoveredCollateralUsdc(), uncovered, "ACC-01: uncovered booked");
        (uint256 fees, ) = chouse.totals();
        int256 cash = poolUsdc - int256(uncovered);
        assertGe(usdc.balanceOf(address(chouse)), positive + fees + (cash > 0 ? uint256(cash) : 0), "ACC-01: cash");
    }

    /// @dev Overridden by tests that use another collateral token.
    function _mintUsdc(address to, uint256 amount) internal virtual {
        usdc.mint(to, amount);
    }

    function usdcApprove(address spender, uint256 amount) internal virtual {
        usdc.approve(spender, amount);
    }
}
