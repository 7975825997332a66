// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {MockClearingMarket} from "../../contracts/mocks/MockClearingMarket.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";

/// @notice Per-market σ (issue 20 item 3): elapsed-time scaling, stress floor, staleness, the ClearingHouse's copy,
///         bounty per interval. σ₀ = 2 %, λ = 0.94, interval 1 h, IM = max(10 %, 3σ), MM = max(5 %, 1.5σ).
contract ClearingMarketSigmaTest is ClearingUnitBase {
    uint256 internal constant WAD = 1e18;

    function _volParams(
        uint64 floorSigma,
        uint64 staleSigma,
        uint32 staleAfter
    ) internal pure returns (IRiskEngine.MarketVolParams memory) {
        return
            IRiskEngine.MarketVolParams({
                lambdaWad: 0.94e18,
                floorSigmaWad: floorSigma,
                staleSigmaWad: staleSigma,
                staleAfterSec: staleAfter
            });
    }

    function _enable(uint64 floorSigma, uint64 staleSigma, uint32 staleAfter) internal {
        risk.setMarketVolParams(address(market), _volParams(floorSigma, staleSigma, staleAfter));
    }

    /// The ClearingHouse's requirement equals Σ notional × the RiskEngine's rate (its copy follows the push).
    function _assertCopyMatches(uint256 priceWad) internal view {
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        (uint256 im, uint256 mm) = risk.marginRates(address(market));
        uint256 notional = (50e18 * priceWad + 1e30 - 1) / 1e30;
        assertEq(s.initialMarginUsdc, (notional * im + WAD - 1) / WAD, "im copy");
        assertEq(s.maintenanceMarginUsdc, (notional * mm + WAD - 1) / WAD, "mm copy");
    }

    /// A return observed after a long gap is spread over the intervals it covers: 30 days without an update, then
    /// +50 %: the per-interval variance is λ^720·v₀ + (1 − λ^720)·0.25/720 ≈ 3.47e-4 (σ ≈ 1.86 %), not the
    /// one-interval 0.94·4e-4 + 0.06·0.25 = 0.01538 (σ ≈ 12.4 %) the unscaled rule gave.
    function test_updateAfterLongGap_scalesReturnByElapsedIntervals() public {
        vm.prank(keeper);
        risk.updateVolatility();
        vm.warp(block.timestamp + 30 days);
        oracle.setPrice(15e18);
        vm.prank(keeper);
        uint256 sigma = risk.updateVolatility();
        (, uint256 variance, , ) = risk.volatility();
        uint256 perInterval = uint256(0.25e18) / 720;
        assertApproxEqRel(variance, perInterval, 0.001e18, "variance per interval");
        assertLt(sigma, 0.02e18);
        assertGt(sigma, 0.018e18);
    }

    /// Spreading a move over many on-time updates gives the same per-interval variance as one late update of the
    /// whole move would after the same time (up to the EWMA weights): splitting never lowers σ below the scaled
    /// value of the whole move, and updates closer than the interval revert (no dilution by tiny updates).
    function test_manyTinyUpdates_cannotDiluteSigma() public {
        _enable(0.01e18, 0.05e18, 1 days);
        vm.prank(keeper);
        risk.updateMarketVolatility(address(market)); // reference price
        oracle.setPrice(10.01e18);
        for (uint256 i; i < 5; ++i) {
            vm.warp(block.timestamp + 12);
            vm.prank(keeper);
            vm.expectRevert();
            risk.updateMarketVolatility(address(market));
        }
        (, IRiskEngine.MarketVolState memory st) = risk.marketVolatility(address(market));
        assertEq(st.varianceWad, 0.0004e18, "unchanged by the rejected updates");
        // the floor holds however quiet the updates are
        for (uint256 i; i < 48; ++i) {
            vm.warp(block.timestamp + 1 hours);
            vm.prank(keeper);
            risk.updateMarketVolatility(address(market));
        }
        assertEq(risk.marginSigma(address(market)), 0.01e18, "stress floor");
    }

    /// A market whose σ is not updated for `staleAfterSec` is margined at the stale σ, in the RiskEngine and in the
    /// ClearingHouse's copy alike: a keeper strike cannot freeze a calm σ over a volatile market.
    function test_staleMarketSigma_marginsAtStaleSigma() public {
        _aliceLong50();
        _enable(0.01e18, 0.06e18, 6 hours);
        vm.prank(keeper);
        risk.updateMarketVolatility(address(market));
        assertEq(risk.marginSigma(address(market)), 0.02e18);
        _assertCopyMatches(10e18);
        IClearingHouse.MarginState memory fresh = chouse.marginState(alice);
        vm.warp(block.timestamp + 6 hours + 1);
        assertEq(risk.marginSigma(address(market)), 0.06e18, "stale sigma");
        (uint256 im, ) = risk.marginRates(address(market));
        assertEq(im, 0.18e18);
        _assertCopyMatches(10e18);
        IClearingHouse.MarginState memory stale = chouse.marginState(alice);
        assertGt(stale.initialMarginUsdc, fresh.initialMarginUsdc);
        // an update makes it fresh again
        vm.prank(keeper);
        risk.updateMarketVolatility(address(market));
        assertLt(risk.marginSigma(address(market)), 0.06e18);
        _assertCopyMatches(10e18);
    }

    /// Per-market σ follows its own returns and λ; the index σ and other markets are unaffected.
    function test_marketSigma_followsOwnUpdates_copyMatches() public {
        _aliceLong50();
        _enable(0.001e18, 0.5e18, 1 days);
        vm.prank(keeper);
        risk.updateMarketVolatility(address(market));
        vm.warp(block.timestamp + 1 hours);
        oracle.setPrice(15e18);
        vm.prank(keeper);
        uint256 sigma = risk.updateMarketVolatility(address(market));
        (IRiskEngine.MarketVolParams memory p, IRiskEngine.MarketVolState memory st) = risk.marketVolatility(
            address(market)
        );
        assertEq(p.lambdaWad, 0.94e18);
        assertEq(st.varianceWad, 0.94 * 0.0004e18 + 0.06 * 0.25e18);
        assertEq(sigma, st.sigmaWad);
        (uint256 indexSigma, , , ) = risk.volatility();
        assertEq(indexSigma, 0.02e18, "index sigma untouched");
        _assertCopyMatches(15e18);
        (uint256 im, ) = risk.marginRates(address(market));
        assertEq(im, (sigma * 3e18 + WAD - 1) / WAD);
    }

    /// Calling every block pays one bounty per interval per market, never more.
    function test_bountyDrain_everyBlock_paysOncePerInterval() public {
        _enable(0.01e18, 0.05e18, 1 days);
        _mintUsdc(address(risk), 100e6);
        uint256 paid;
        for (uint256 i; i < 30; ++i) {
            vm.roll(block.number + 1);
            vm.warp(block.timestamp + 12);
            vm.prank(keeper);
            try risk.updateMarketVolatility(address(market)) {} catch {}
        }
        paid = usdc.balanceOf(keeper);
        assertEq(paid, 1e6, "one bounty in 6 minutes");
        vm.warp(block.timestamp + 1 hours);
        vm.prank(keeper);
        risk.updateMarketVolatility(address(market));
        assertEq(usdc.balanceOf(keeper), 2e6);
    }

    /// Bad input: unknown market, λ ≥ 1, stale σ below the floor, stale window shorter than the interval, update of
    /// a market without a model.
    function test_marketVolParams_badInput() public {
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskMarketUnknown.selector, address(0xBEEF)));
        risk.setMarketVolParams(address(0xBEEF), _volParams(0.01e18, 0.05e18, 1 days));
        IRiskEngine.MarketVolParams memory p = _volParams(0.01e18, 0.05e18, 1 days);
        p.lambdaWad = 1e18;
        vm.expectRevert(IRiskEngine.RiskInvalidParams.selector);
        risk.setMarketVolParams(address(market), p);
        vm.expectRevert(IRiskEngine.RiskInvalidParams.selector);
        risk.setMarketVolParams(address(market), _volParams(0.05e18, 0.01e18, 1 days));
        vm.expectRevert(IRiskEngine.RiskInvalidParams.selector);
        risk.setMarketVolParams(address(market), _volParams(0.01e18, 0.05e18, 10 minutes));
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskMarketUnknown.selector, address(market)));
        risk.updateMarketVolatility(address(market));
        assertEq(risk.marginSigma(address(market)), 0.02e18, "index sigma without a model");
    }

    /// Setting the model again keeps the market's variance (no reset to the index σ); the ClearingHouse's copy
    /// follows the new floor at once.
    function test_setMarketVolParamsAgain_keepsVarianceAndPushes() public {
        _aliceLong50();
        _enable(0.001e18, 0.5e18, 1 days);
        vm.prank(keeper);
        risk.updateMarketVolatility(address(market));
        vm.warp(block.timestamp + 1 hours);
        oracle.setPrice(15e18);
        vm.prank(keeper);
        risk.updateMarketVolatility(address(market));
        (, IRiskEngine.MarketVolState memory before) = risk.marketVolatility(address(market));
        _enable(0.2e18, 0.5e18, 1 days);
        (, IRiskEngine.MarketVolState memory afterSet) = risk.marketVolatility(address(market));
        assertEq(afterSet.varianceWad, before.varianceWad);
        assertEq(risk.marginSigma(address(market)), 0.2e18);
        _assertCopyMatches(15e18);
    }

    /// A model pushed before the market is registered is used from registration on.
    function test_marketSigmaPushedBeforeRegistration_usedFromStart() public {
        MockClearingMarket m2 = MockClearingMarket(
            deployCode(
                "MockClearingMarket.sol:MockClearingMarket",
                abi.encode(address(chouse), address(oracle), address(usdc))
            )
        );
        risk.setMarketParams(
            address(m2),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            })
        );
        risk.setMarketVolParams(address(m2), _volParams(0.2e18, 0.3e18, 1 days));
        chouse.registerMarket(address(m2));
        _grant(Roles.MARKET, address(m2));
        _setupTrader(alice, guarantor, 1_000e6);
        vm.prank(alice);
        m2.trade(50e18);
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        assertEq(s.initialMarginUsdc, 300e6, "500 notional x min(100 %, 3 x 20 %)");
    }
}
