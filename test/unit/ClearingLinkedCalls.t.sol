// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IClearingHouseCollateral} from "../../contracts/interfaces/clearing/IClearingHouseCollateral.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {IClearingRiskSync} from "../../contracts/interfaces/callback/IClearingRiskSync.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";

/// @dev Stands in for the LiquidationEngine: runs several forwarded ClearingHouse steps in ONE call frame, so a
///      reentrancy guard left set by a forwarded `nonReentrant` function would make the next one revert.
contract LinkedCallsEngine {
    IClearingHouse internal immutable house;
    int256 public closeCollateral;
    uint256 public closeLeft;
    uint256 public closePaid;
    int256 public seizeCollateral;

    constructor(IClearingHouse house_) {
        house = house_;
    }

    function run(address account, uint256 priceWad, address keeper, uint256 bountyUsdc) external {
        (closeCollateral, closeLeft, closePaid) = house.liquidationClose(account, 1e18, priceWad, keeper, bountyUsdc);
        house.syncExposure(account);
        (seizeCollateral, ) = IClearingHouseCollateral(address(house)).seizeTokenCollateral(
            account,
            address(this),
            priceWad,
            false
        );
        house.syncExposure(account);
    }
}

/// @notice The ClearingHouse runs its cold entry points in its linked libraries by forwarding the call's arguments
///         (docs/clearing.md "Linked entry points"). These are the attacks on that forwarding: the access check still
///         in front of it (SEC-01), the guard released after a forwarded `nonReentrant` step (SEC-04), the RiskEngine
///         gate on the pushed copies, return data and revert data passed through, views from a static context.
contract ClearingLinkedCallsTest is ClearingUnitBase {
    address internal stranger = makeAddr("stranger");

    function test_forwardedSetters_strangerReverts_SEC01() public {
        bytes memory denied = abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, stranger);
        vm.startPrank(stranger);
        vm.expectRevert(denied);
        chouse.setModules(stranger, stranger, stranger, stranger, stranger);
        vm.expectRevert(denied);
        chouse.registerMarket(stranger);
        vm.expectRevert(denied);
        chouse.setMarketScenarioRisk(address(market), true);
        vm.expectRevert(denied);
        chouse.fundMarketPool(1e6);
        vm.expectRevert(denied);
        chouse.withdrawMarketPool(1e6, stranger);
        IClearingHouseCollateral.CollateralTokenConfig memory c;
        vm.expectRevert(denied);
        IClearingHouseCollateral(address(chouse)).setCollateralToken(stranger, c);
        vm.stopPrank();
        (, , , , , address liqAddr) = chouse.modules();
        assertEq(liqAddr, address(liq), "modules unchanged");
    }

    function test_riskSync_fromStranger_changesNothing() public {
        _aliceLong50();
        uint256 im = chouse.marginState(alice).initialMarginUsdc;
        vm.startPrank(stranger);
        IClearingRiskSync(address(chouse)).syncMarketRisk(address(market), IRiskEngine.MarketRiskParams(0, 0, 0, 0));
        IClearingRiskSync(address(chouse)).syncMarketVolatility(address(market), 0, 0, 0);
        vm.stopPrank();
        assertEq(chouse.marginState(alice).initialMarginUsdc, im, "a stranger's push is ignored");
    }

    /// @dev syncMarketRisk's calldata struct gives the library function another selector than the ClearingHouse's:
    ///      the forwarded push must still land (the requirement follows the new multiple at once).
    function test_riskSync_fromRiskEngine_structArgumentLands() public {
        _aliceLong50();
        uint256 im = chouse.marginState(alice).initialMarginUsdc;
        risk.setMarketParams(
            address(market),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 6e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: 0.2e18,
                mmFloorWad: 0.05e18
            })
        );
        assertGt(chouse.marginState(alice).initialMarginUsdc, im, "the pushed copy is used");
    }

    /// @dev LIQ-04 / SEC-04: liquidationClose, syncExposure and seizeTokenCollateral forwarded in one frame; return
    ///      values are the library's, the keeper is paid at most the bounty, the guard is released after each.
    function test_liquidationSteps_oneFrame_returnsAndReleasesGuard_SEC04() public {
        _aliceLong50();
        LinkedCallsEngine engine = new LinkedCallsEngine(chouse);
        chouse.setModules(address(oracle), address(risk), address(pool), address(insurance), address(engine));
        oracle.setPrice(8.5e18);
        uint256 keeperBefore = usdc.balanceOf(keeper);
        engine.run(alice, 8.5e18, keeper, 1e6);
        assertEq(engine.closeLeft(), 0, "closed");
        assertEq(engine.closeCollateral(), chouse.collateralOf(alice), "close returns the booked collateral");
        assertEq(engine.seizeCollateral(), chouse.collateralOf(alice), "seize returns the booked collateral");
        assertLe(engine.closePaid(), 1e6, "bounty bounded");
        assertGt(engine.closePaid(), 0, "bounty paid");
        assertEq(usdc.balanceOf(keeper) - keeperBefore, engine.closePaid(), "the keeper got what close returned");
        (, uint256 exposure) = pool.customerInfo(alice);
        assertEq(exposure, 0, "exposure synced to the closed account");
    }

    function test_liquidationSteps_onlyEngine() public {
        _aliceLong50();
        vm.startPrank(stranger);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingOnlyLiquidationEngine.selector, stranger));
        chouse.liquidationClose(alice, 1e18, 8e18, stranger, 1e6);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingOnlyLiquidationEngine.selector, stranger));
        chouse.absorbDeficit(alice, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingOnlyLiquidationEngine.selector, stranger));
        IClearingHouseCollateral(address(chouse)).seizeTokenCollateral(alice, stranger, 8e18, false);
        vm.stopPrank();
        assertEq(chouse.marketsOf(alice).length, 1);
    }

    /// @dev The library's custom error comes back unchanged through the forwarding.
    function test_forwardedRevert_bubblesLibraryError() public {
        (, int256 poolUsdc) = chouse.marketInfo(address(market));
        uint256 tooMuch = uint256(poolUsdc) + 1;
        vm.prank(address(market));
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingMarketPoolTooLow.selector,
                address(market),
                tooMuch,
                poolUsdc
            )
        );
        chouse.withdrawMarketPool(tooMuch, address(market));
    }

    /// @dev The forwarded views run by delegatecall even when the caller is in a static context, and the library's
    ///      gross open notional is the scan's (the guarantor's exposure recorded by the risk-increasing trade).
    function test_views_fromStaticContext_matchScan() public {
        _aliceLong50();
        (bool ok, bytes memory ret) = address(chouse).staticcall(
            abi.encodeCall(IClearingHouse.positionOf, (alice, address(market)))
        );
        assertTrue(ok, "positionOf static");
        assertEq(abi.decode(ret, (IClearingHouse.Position)).sizeCh, 50e18);
        (ok, ret) = address(chouse).staticcall(abi.encodeCall(IClearingHouse.grossOpenNotionalOf, (alice)));
        assertTrue(ok, "grossOpenNotionalOf static");
        (, uint256 exposure) = pool.customerInfo(alice);
        assertEq(abi.decode(ret, (uint256)), exposure, "library sum == scan sum");
        assertEq(exposure, 500e6);
        (ok, ret) = address(chouse).staticcall(abi.encodeCall(IClearingHouse.marketFlags, (address(market))));
        assertTrue(ok, "marketFlags static");
        (, bool lossAbsorber, ) = abi.decode(ret, (bool, bool, bool));
        assertTrue(lossAbsorber);
        (, uint256 socialised) = chouse.totals();
        assertEq(socialised, 0);
        assertEq(IClearingHouseCollateral(address(chouse)).tokenCollateralOf(alice, address(usdc)), 0);
    }

    /// @dev A permissionless syncExposure after a price move sets the recorded exposure to the library's sum.
    function test_syncExposure_afterPartialClose_matchesView() public {
        _aliceLong50();
        vm.prank(alice);
        market.trade(-20e18);
        (, uint256 stale) = pool.customerInfo(alice);
        assertEq(stale, 500e6, "a reduction leaves the recorded exposure");
        vm.prank(stranger);
        chouse.syncExposure(alice);
        (, uint256 exposure) = pool.customerInfo(alice);
        assertEq(exposure, chouse.grossOpenNotionalOf(alice));
        assertEq(exposure, 300e6);
    }
}
