// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../../helpers/ClearingUnitBase.sol";
import {IClearingHouseErrors} from "../../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IRiskEngine} from "../../../contracts/interfaces/clearing/IRiskEngine.sol";
import {IClearingRiskSync} from "../../../contracts/interfaces/callback/IClearingRiskSync.sol";
import {MockClearingMarket} from "../../../contracts/mocks/MockClearingMarket.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";

/// @notice The compact copy of a market's risk parameters in its id slot (ClearingHouseStorage.MarketRef.risk, read
///         by every margin check beside the market address): it must never be older than the RiskEngine's last push
///         (CLR-01: margin is computed from the current parameters), and a value it cannot hold exactly falls back to
///         the full RiskWord, never to a rounded or stale copy.
contract ClearingCompactRiskTest is ClearingUnitBase {
    /// @dev ERC-7201 slot of the ClearingHouse storage and the index of `marketById` in its Layout.
    bytes32 internal constant LOCATION = 0x55052fae2fc50d74c9cbac33e5ea35893b9adcb7f74bd0a66b4cdacc551a8700;
    uint256 internal constant MARKET_BY_ID_INDEX = 9;

    function _params(uint64 imFloorWad) internal pure returns (IRiskEngine.MarketRiskParams memory) {
        return
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: imFloorWad,
                mmFloorWad: 0.05e18
            });
    }

    /// @dev The compact copy bits (168-255) of market id `id`'s slot.
    function _compact(uint256 id) internal view returns (uint256) {
        bytes32 slot = keccak256(abi.encode(id, uint256(LOCATION) + MARKET_BY_ID_INDEX));
        return uint256(vm.load(address(chouse), slot)) >> 168;
    }

    function _expectMargin(uint256 amount, uint256 requiredUsdc, int256 equityUsdc) internal {
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingInsufficientMargin.selector,
                alice,
                requiredUsdc,
                equityUsdc
            )
        );
        chouse.withdraw(amount, alice);
    }

    /// A risk engine (a replaced one: the live RiskEngine caps floors below 1 WAD) pushes a floor the compact copy
    /// could hold but the RiskWord's 60-bit field cannot (2^60 ≈ 1.15e18). The copy must be cleared like the word:
    /// the scan expands a copy into a RiskWord, and this floor would overflow into the maintenance floor's bits.
    function test_floorBeyondTheRiskWord_leavesNoCopy() public {
        assertTrue(_compact(1) != 0);
        vm.prank(address(risk));
        IClearingRiskSync(address(chouse)).syncMarketRisk(address(market), _params(1.2e18));
        assertEq(_compact(1), 0);
    }

    /// The production parameters are exact: the registered market carries a compact copy.
    function test_exactParams_writeTheCompactCopy() public view {
        assertTrue(_compact(1) != 0);
    }

    /// CLR-01: governance raises the initial floor 10 % → 19 % after alice opened; her very next withdrawal is checked
    /// against 19 % (IM 95 on notional 500), not the copy from before the change.
    function test_riskChange_seenByTheNextWithdrawal_CLR01() public {
        _aliceLong50(); // collateral 100, notional 500, IM 50
        vm.prank(alice);
        chouse.withdraw(1e6, alice); // 99 ≥ 50
        risk.setMarketParams(address(market), _params(0.19e18));
        _expectMargin(10e6, 95e6, 89e6);
        vm.prank(alice);
        chouse.withdraw(4e6, alice); // 95 ≥ 95
        assertEq(chouse.collateralOf(alice), 95e6);
    }

    /// A floor that is not a whole basis point of WAD has no compact copy: pushed after an exact one, it clears the
    /// compact copy (else the stale 19 % would let alice withdraw to 95) and the full word's exact rate applies
    /// (IM = ⌈500 × 0.1900000000000001⌉ = 95.000001).
    function test_inexactParams_clearTheCopy_andTheExactRateApplies_CLR01() public {
        _aliceLong50();
        risk.setMarketParams(address(market), _params(0.19e18));
        assertTrue(_compact(1) != 0);
        risk.setMarketParams(address(market), _params(0.19e18 + 1e2));
        assertEq(_compact(1), 0);
        _expectMargin(5e6, 95_000_001, 95e6);
        // back to an exact value: the copy is written again and used
        risk.setMarketParams(address(market), _params(0.19e18));
        assertTrue(_compact(1) != 0);
        vm.prank(alice);
        chouse.withdraw(5e6, alice);
    }

    /// An initial multiple one wei off a whole basis point has no copy either; the word holds it exactly
    /// (rate ⌈2 % × (15 + 1e-18)⌉ = 30 % + 1 wei, IM ⌈500 × that⌉ = 150.000001).
    function test_inexactMultiple_fallsBackToTheWord() public {
        _aliceLong50();
        IRiskEngine.MarketRiskParams memory p = _params(0.1e18);
        p.imMultipleWad = 15e18 + 1;
        risk.setMarketParams(address(market), p);
        assertEq(_compact(1), 0);
        (uint256 imRate, ) = risk.marginRates(address(market));
        assertEq(imRate, 0.3e18 + 1);
        assertEq(chouse.marginState(alice).initialMarginUsdc, 150_000_001);
    }

    /// Parameters pushed before the market is registered (RiskEngine first, then governance registers it): the
    /// registration writes the compact copy from the word, and the first trade is margined at those parameters.
    function test_paramsPushedBeforeRegistration_areCopiedAtRegistration() public {
        MockClearingMarket m = MockClearingMarket(
            deployCode(
                "MockClearingMarket.sol:MockClearingMarket",
                abi.encode(address(chouse), address(oracle), address(usdc))
            )
        );
        risk.setMarketParams(address(m), _params(0.2e18));
        chouse.registerMarket(address(m));
        _grant(Roles.MARKET, address(m));
        assertTrue(_compact(2) != 0);
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        m.trade(20e18); // notional 200 at 10, IM 40
        assertEq(chouse.marginState(alice).initialMarginUsdc, 40e6);
        _expectMargin(61e6, 40e6, 39e6);
    }

    /// A replaced RiskEngine bumps the generation: the compact copy pushed by the old one is stale, and the new
    /// engine's own parameters (30 %, set before the switch, so never pushed) apply to the very next withdrawal.
    function test_replacedRiskEngine_makesTheCopyStale() public {
        _aliceLong50();
        IRiskEngine next = IRiskEngine(
            _proxy(
                "RiskEngine.sol:RiskEngine",
                abi.encodeWithSignature(
                    "initialize(address,address,address,address,uint256,uint256,uint256,uint256)",
                    address(manager),
                    address(oracle),
                    address(chouse),
                    address(usdc),
                    0.02e18,
                    0.94e18,
                    1 hours,
                    1e6
                )
            )
        );
        next.setMarketParams(address(market), _params(0.3e18)); // its push is ignored: not the ClearingHouse's engine
        assertTrue(_compact(1) != 0);
        chouse.setModules(address(oracle), address(next), address(pool), address(insurance), address(liq));
        _expectMargin(1e6, 150e6, 99e6);
    }

    /// The traded market's copy comes from its market slot (Market.risk), written with the id slot's: a risk change
    /// is seen by the very next risk-increasing trade (floor 20 %: IM 102 on notional 510 > equity 100), and an
    /// inexact value pushed after an exact one clears it there too (IM 102.000001, not the stale 19 %'s 96.9).
    function test_tradedMarket_seesTheChange_andInexactClears_CLR01() public {
        _aliceLong50();
        risk.setMarketParams(address(market), _params(0.2e18));
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingInsufficientMargin.selector, alice, 102e6, 100e6)
        );
        market.trade(1e18);
        risk.setMarketParams(address(market), _params(0.19e18));
        risk.setMarketParams(address(market), _params(0.2e18 + 1e2));
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingInsufficientMargin.selector, alice, 102_000_001, 100e6)
        );
        market.trade(1e18);
        risk.setMarketParams(address(market), _params(0.19e18));
        vm.prank(alice);
        market.trade(1e18); // IM 96.9 ≤ 100
    }
}
