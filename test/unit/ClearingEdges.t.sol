// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseEvents} from "../../contracts/interfaces/clearing/IClearingHouseEvents.sol";
import {IClearingHouseErrors} from "../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolEvents} from "../../contracts/interfaces/clearing/IGuarantorPoolEvents.sol";
import {IGuarantorPoolErrors} from "../../contracts/interfaces/clearing/IGuarantorPoolErrors.sol";
import {IInsuranceFund} from "../../contracts/interfaces/clearing/IInsuranceFund.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {MockClearingMarket} from "../../contracts/mocks/MockClearingMarket.sol";

/// @notice Edge paths of the clearing layer (ClearingHouse, GuarantorPool, InsuranceFund, RiskEngine,
///         LiquidationEngine) the scenario suites do not reach: zero-address guards, parameter bounds, caps and
///         the governance/market-only entry points.
contract ClearingEdgesTest is ClearingUnitBase {
    bytes4 internal constant ZERO = bytes4(keccak256("ChxZeroAddress()"));

    // ───────────────────────────── initialisers ─────────────────────────────

    function test_init_zeroAddressesRejected() public {
        address a = address(manager);
        address u = address(usdc);
        // The ClearingHouse implementation is built for its collateral token (an immutable).
        address houseImpl = deployCode("ClearingHouse.sol:ClearingHouse", abi.encode(u));
        vm.expectRevert(ZERO);
        _proxy(houseImpl, abi.encodeWithSignature("initialize(address,address)", address(0), u));
        // a zero token is not the implementation's (whose constructor refuses zero)
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingUsdcMismatch.selector, address(0), u));
        _proxy(houseImpl, abi.encodeWithSignature("initialize(address,address)", a, address(0)));
        _expectInitZero(
            "GuarantorPool.sol:GuarantorPool",
            abi.encodeWithSignature(
                "initialize(address,address,address,address,uint256,uint256)",
                a,
                u,
                address(dps),
                address(0),
                MIN_DPS,
                MAX_LEVERAGE
            )
        );
        _expectInitZero(
            "RiskEngine.sol:RiskEngine",
            abi.encodeWithSignature(
                "initialize(address,address,address,address,uint256,uint256,uint256,uint256)",
                a,
                address(oracle),
                address(chouse),
                address(0),
                0.02e18,
                0.94e18,
                1 hours,
                1e6
            )
        );
        _expectInitZero(
            "LiquidationEngine.sol:LiquidationEngine",
            abi.encodeWithSignature(
                "initialize(address,address,uint256,uint256,uint256)",
                a,
                address(0),
                BOUNTY_BPS,
                MAX_BOUNTY,
                DUST
            )
        );
        _expectInitZero(
            "InsuranceFund.sol:InsuranceFund",
            abi.encodeWithSignature("initialize(address,address,uint64,uint64)", a, address(0), 7 days, 2 days)
        );
    }

    /// A proxy cannot be initialised with a collateral token other than the one its implementation transfers (the
    /// immutable): the recorded `usdc` the linked libraries and views use and the token deposits and withdrawals
    /// move are always the same (ACC-01).
    function test_init_usdcMustMatchImplementation() public {
        address other = makeAddr("otherToken");
        address houseImpl = deployCode("ClearingHouse.sol:ClearingHouse", abi.encode(address(usdc)));
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingUsdcMismatch.selector, other, address(usdc))
        );
        _proxy(houseImpl, abi.encodeWithSignature("initialize(address,address)", address(manager), other));
        (address recorded, , , , , ) = chouse.modules();
        assertEq(recorded, address(usdc));
    }

    /// @dev Deploys `artifact` and expects a proxy initialised with `init` to revert with ChxZeroAddress.
    function _expectInitZero(string memory artifact, bytes memory init) internal {
        address impl = deployCode(artifact);
        vm.expectRevert(ZERO);
        _proxy(impl, init);
    }

    // ───────────────────────────── ClearingHouse ─────────────────────────────

    function test_house_configurationRejectsZeroAddresses() public {
        vm.expectRevert(ZERO);
        chouse.setModules(address(oracle), address(0), address(pool), address(insurance), address(liq));
        vm.expectRevert(ZERO);
        chouse.registerMarket(address(0));
        _depositFor(alice, 10e6);
        vm.prank(alice);
        vm.expectRevert(ZERO);
        chouse.withdraw(1e6, address(0));
        assertEq(chouse.collateralOf(alice), 10e6);
    }

    /// A risk engine that cannot report σ leaves no cached copy: the house then asks the engine on every margin
    /// check, so a broken engine surfaces there instead of being silently replaced by a stale σ.
    function test_house_riskEngineWithoutVolatilityLeavesNoSigmaCopy() public {
        _aliceLong50();
        address broken = address(usdc); // a contract without volatility()
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.ModulesSet(address(oracle), broken, address(pool), address(insurance), address(liq));
        chouse.setModules(address(oracle), broken, address(pool), address(insurance), address(liq));
        (, , address riskEngine, , , ) = chouse.modules();
        assertEq(riskEngine, broken);
        vm.expectRevert(bytes(""));
        chouse.marginState(alice);
        // Back to the real engine: the copy is taken again and margin reads work.
        chouse.setModules(address(oracle), address(risk), address(pool), address(insurance), address(liq));
        IClearingHouse.MarginState memory m = chouse.marginState(alice);
        assertEq(m.equityUsdc, 100e6);
    }

    function test_house_withdrawMarketPoolBoundsAndPays() public {
        address to = makeAddr("to");
        vm.startPrank(address(market));
        vm.expectRevert(ZERO);
        chouse.withdrawMarketPool(1e6, address(0));
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingMarketPoolTooLow.selector,
                address(market),
                1_000e6 + 1,
                int256(1_000e6)
            )
        );
        chouse.withdrawMarketPool(1_000e6 + 1, to);
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.MarketPoolChanged(address(market), -400e6, 600e6);
        chouse.withdrawMarketPool(400e6, to);
        vm.stopPrank();
        (, int256 poolUsdc) = chouse.marketInfo(address(market));
        assertEq(poolUsdc, 600e6);
        assertEq(usdc.balanceOf(to), 400e6);
    }

    function test_house_liquidationEntryPointsCheckArguments() public {
        _aliceLong50();
        vm.startPrank(address(liq));
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingInvalidFraction.selector, 0));
        chouse.liquidationClose(alice, 0, PRICE0, keeper, 0);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingInvalidFraction.selector, 1e18 + 1));
        chouse.liquidationClose(alice, 1e18 + 1, PRICE0, keeper, 0);
        // Alice still holds a position and positive collateral: nothing to absorb.
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingNoDeficit.selector, alice, int256(100e6), 1)
        );
        chouse.absorbDeficit(alice, 0, 0);
        vm.stopPrank();
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 50e18);
    }

    function test_house_flushFeesNeedsAnInsuranceFund() public {
        market.setFeeBps(10);
        _aliceLong50(); // fee = 500 USDC × 10 bps = 0.5 USDC
        (uint256 feesUsdc, ) = chouse.totals();
        assertEq(feesUsdc, 0.5e6);
        chouse.setModules(address(oracle), address(risk), address(pool), address(0), address(liq));
        vm.expectRevert(ZERO);
        chouse.flushFees();
        (feesUsdc, ) = chouse.totals();
        assertEq(feesUsdc, 0.5e6);
    }

    /// An account holds positions in at most MAX_MARKETS_PER_ACCOUNT (8) markets.
    function test_house_marketsPerAccountCapped() public {
        _setupTrader(alice, guarantor, 1_000e6);
        vm.prank(alice);
        market.trade(1e18);
        MockClearingMarket next;
        for (uint256 i = 1; i <= 8; ++i) {
            next = MockClearingMarket(
                deployCode(
                    "MockClearingMarket.sol:MockClearingMarket",
                    abi.encode(address(chouse), address(oracle), address(usdc))
                )
            );
            chouse.registerMarket(address(next));
            risk.setMarketParams(
                address(next),
                IRiskEngine.MarketRiskParams({
                    imMultipleWad: 3e18,
                    mmMultipleWad: 1.5e18,
                    imFloorWad: 0.1e18,
                    mmFloorWad: 0.05e18
                })
            );
            _grant(Roles.MARKET, address(next));
            if (i == 8) break;
            vm.prank(alice);
            next.trade(1e18);
        }
        assertEq(chouse.marketsOf(alice).length, 8);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingTooManyMarkets.selector, alice, 8));
        next.trade(1e18);
        // Reducing in a held market still works.
        vm.prank(alice);
        market.trade(-1e18);
        assertEq(chouse.marketsOf(alice).length, 7);
    }

    // ───────────────────────────── GuarantorPool ─────────────────────────────

    function test_pool_registerAndConfigure() public {
        vm.prank(guarantor);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolAlreadyRegistered.selector, guarantor));
        pool.registerGuarantor(true, 1);
        vm.prank(guarantor);
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.GuarantorConfigured(guarantor, true, 5e6);
        pool.configureGuarantor(true, 5e6);
        IGuarantorPool.Guarantor memory g = pool.guarantorInfo(guarantor);
        assertTrue(g.open);
        assertEq(g.defaultLimitUsdc, 5e6);
        // The new default applies to a self-admitted customer.
        vm.prank(bob);
        pool.joinOpenGuarantor(guarantor);
        (uint256 limitUsdc, ) = pool.customerInfo(bob);
        assertEq(limitUsdc, 5e6);
    }

    /// ACC-04: a donation that inflates a fresh pool's share price makes a dust deposit revert instead of minting
    /// zero shares for the depositor's USDC.
    function test_pool_depositMintingZeroSharesReverts() public {
        address g2 = makeAddr("g2");
        vm.prank(g2);
        pool.registerGuarantor(true, 0);
        uint256 donation = 1e24;
        _mintUsdc(address(this), donation);
        usdc.approve(address(pool), donation);
        pool.creditIncome(g2, donation);
        _mintUsdc(bob, 1);
        vm.startPrank(bob);
        usdc.approve(address(pool), 1);
        vm.expectRevert(IGuarantorPoolErrors.PoolZeroAmount.selector);
        pool.depositCapital(g2, 1);
        vm.stopPrank();
        assertEq(usdc.balanceOf(bob), 1);
        assertEq(pool.guarantorInfo(g2).totalShares, 0);
    }

    function test_pool_withdrawCapitalChecksReceiverAndShares() public {
        uint256 held = pool.sharesOf(guarantor, guarantor);
        vm.startPrank(guarantor);
        vm.expectRevert(ZERO);
        pool.withdrawCapital(guarantor, 1, address(0));
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolInsufficientShares.selector, guarantor, held + 1, held)
        );
        pool.withdrawCapital(guarantor, held + 1, guarantor);
        vm.stopPrank();
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolInsufficientShares.selector, bob, 1, 0));
        pool.withdrawCapital(guarantor, 1, bob);
    }

    function test_pool_unstakeWithoutExposure() public {
        uint256 before = dps.balanceOf(guarantor);
        vm.prank(guarantor);
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.DpsStakeChanged(guarantor, -int256(MIN_DPS), 0);
        pool.unstakeDps(MIN_DPS);
        assertEq(pool.guarantorInfo(guarantor).dpsStaked, 0);
        assertEq(dps.balanceOf(guarantor), before + MIN_DPS);
    }

    function test_pool_slashIsCappedAtTheBond() public {
        _grant(Roles.GUARANTOR_SLASHER, address(this));
        address sink = makeAddr("sink");
        vm.expectRevert(ZERO);
        pool.slashDps(guarantor, 1, address(0));
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.DpsSlashed(guarantor, MIN_DPS, sink, 0);
        pool.slashDps(guarantor, MIN_DPS * 5, sink);
        assertEq(dps.balanceOf(sink), MIN_DPS);
        assertEq(pool.guarantorInfo(guarantor).dpsStaked, 0);
    }

    function test_pool_admissionGuards() public {
        vm.startPrank(guarantor);
        vm.expectRevert(ZERO);
        pool.admitCustomer(address(0), 1);
        vm.expectRevert(IGuarantorPoolErrors.PoolInvalidParams.selector);
        pool.admitCustomer(bob, uint256(type(uint96).max) + 1);
        pool.admitCustomer(bob, 1e6);
        vm.stopPrank();
        // bob belongs to `guarantor`: another guarantor cannot take him over.
        address g2 = makeAddr("g2");
        _setupGuarantor(g2, false, 0);
        vm.prank(g2);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolCustomerHasPositions.selector, bob, guarantor));
        pool.admitCustomer(bob, 1e6);
        assertEq(pool.guarantorOf(bob), guarantor);
    }

    function test_pool_removeCustomer() public {
        vm.prank(guarantor);
        pool.admitCustomer(bob, 7e6);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNotGuarantor.selector, alice));
        pool.removeCustomer(bob);
        vm.prank(bob);
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.CustomerLeft(bob, guarantor);
        pool.removeCustomer(bob);
        assertEq(pool.guarantorOf(bob), address(0));
        (uint256 limitUsdc, ) = pool.customerInfo(bob);
        assertEq(limitUsdc, 0);
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNoGuarantor.selector, bob));
        pool.removeCustomer(bob);
    }

    /// An account without a guarantor may only reduce exposure; the recorded value saturates at uint96 instead of
    /// reverting (a risk-reducing trade is never blocked).
    function test_pool_exposureWithoutGuarantorSaturates() public {
        vm.startPrank(address(chouse));
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNoGuarantor.selector, bob));
        pool.onExposureChanged(bob, 1, true);
        pool.onExposureChanged(bob, uint256(type(uint96).max) + 5, false);
        vm.stopPrank();
        (, uint256 exposureUsdc) = pool.customerInfo(bob);
        assertEq(exposureUsdc, type(uint96).max);
    }

    // ───────────────────────────── InsuranceFund / LiquidationEngine ─────────────────────────────

    function test_insurance_zeroAddressesRejected() public {
        IInsuranceFund f = IInsuranceFund(
            _proxy(
                deployCode("InsuranceFund.sol:InsuranceFund"),
                abi.encodeWithSignature(
                    "initialize(address,address,uint64,uint64)",
                    address(manager),
                    address(usdc),
                    7 days,
                    2 days
                )
            )
        );
        // Unmapped functions default to the admin role, which this contract holds.
        vm.expectRevert(ZERO);
        f.coverBadDebt(1, address(0));
        vm.expectRevert(ZERO);
        f.sweepSurplus(address(0));
        vm.expectRevert(ZERO);
        f.stakeFor(address(0), 1e6);
        vm.expectRevert(ZERO);
        f.withdraw(1, address(0));
        assertEq(f.totalAssets(), 0);
    }

    function test_liquidation_paramsBounded() public {
        vm.expectRevert(ILiquidationEngine.LiquidationInvalidParams.selector);
        liq.setParams(1_001, MAX_BOUNTY, DUST);
        vm.expectRevert(ILiquidationEngine.LiquidationInvalidParams.selector);
        liq.setParams(BOUNTY_BPS, uint256(type(uint40).max) + 1, DUST);
        vm.expectRevert(ILiquidationEngine.LiquidationInvalidParams.selector);
        liq.setParams(BOUNTY_BPS, MAX_BOUNTY, uint256(type(uint40).max) + 1);
        vm.expectEmit(address(liq));
        emit ILiquidationEngine.LiquidationParamsSet(1_000, MAX_BOUNTY, DUST);
        liq.setParams(1_000, MAX_BOUNTY, DUST);
    }
}
