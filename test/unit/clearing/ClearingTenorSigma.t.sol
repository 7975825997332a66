// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../../helpers/ClearingUnitBase.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IRiskEngine} from "../../../contracts/interfaces/clearing/IRiskEngine.sol";

/// @notice Per-tenor σ of a futures market (issue 20 item 3, docs/clearing.md "Per-tenor σ"): up to three tenor
///         buckets per market, each its own EWMA, floor and staleness; the market's margin σ is the largest of its
///         own and every configured bucket's. σ₀ = 2 %, interval 1 h, IM = max(10 %, 3σ), MM = max(5 %, 1.5σ).
contract ClearingTenorSigmaTest is ClearingUnitBase {
    uint256 internal constant WAD = 1e18;

    function _p(
        uint64 lambda,
        uint64 floorSigma,
        uint64 staleSigma,
        uint32 staleAfter
    ) internal pure returns (IRiskEngine.MarketVolParams memory) {
        return
            IRiskEngine.MarketVolParams({
                lambdaWad: lambda,
                floorSigmaWad: floorSigma,
                staleSigmaWad: staleSigma,
                staleAfterSec: staleAfter
            });
    }

    function _enableMarket() internal {
        risk.setMarketVolParams(address(market), _p(0.94e18, 0.01e18, 0.06e18, 1 days));
    }

    /// The three buckets with a term structure of floors: front 5 %, ≤ 3 months 3 %, ≤ 12 months 1 %.
    function _enableBuckets() internal {
        _enableMarket();
        risk.setTenorVolParams(address(market), 0, _p(0.8e18, 0.05e18, 0.1e18, 6 hours));
        risk.setTenorVolParams(address(market), 1, _p(0.9e18, 0.03e18, 0.08e18, 1 days));
        risk.setTenorVolParams(address(market), 2, _p(0.97e18, 0.01e18, 0.06e18, 1 days));
    }

    /// The ClearingHouse's requirement equals notional × the RiskEngine's rate (its copy follows the push).
    function _assertCopyMatches(uint256 priceWad) internal view {
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        (uint256 im, uint256 mm) = risk.marginRates(address(market));
        uint256 notional = (50e18 * priceWad + 1e30 - 1) / 1e30;
        assertEq(s.initialMarginUsdc, (notional * im + WAD - 1) / WAD, "im copy");
        assertEq(s.maintenanceMarginUsdc, (notional * mm + WAD - 1) / WAD, "mm copy");
    }

    /// Attack: a trader moves its exposure into the series of the calmest bucket (a roll or a relist into the
    /// ≤ 12 months bucket, σ floor 1 %). The ClearingHouse holds one net position per futures market, so the margin
    /// σ is the largest bucket's: the front month's 5 % floor still sets IM = 15 %, never the far bucket's 10 %.
    function test_rollIntoLowestSigmaBucket_cannotLowerMargin() public {
        _aliceLong50();
        _enableBuckets();
        assertEq(risk.marginSigma(address(market)), 0.05e18, "largest bucket sigma");
        (uint256 im, ) = risk.marginRates(address(market));
        assertEq(im, 0.15e18);
        _assertCopyMatches(10e18);
        // the calm bucket keeps folding quiet returns: the margin σ does not follow it down
        for (uint256 i; i < 24; ++i) {
            vm.warp(block.timestamp + 1 hours);
            vm.prank(keeper);
            risk.updateTenorVolatility(address(market), 2);
            vm.prank(keeper);
            risk.updateTenorVolatility(address(market), 0);
        }
        assertEq(risk.marginSigma(address(market)), 0.05e18);
        _assertCopyMatches(10e18);
        // removing the front bucket (governance, not the trader) is what lowers it: to the next bucket's floor
        risk.setTenorVolParams(address(market), 0, _p(0, 0, 0, 0));
        assertEq(risk.marginSigma(address(market)), 0.03e18);
        _assertCopyMatches(10e18);
    }

    /// A bucket never updated starts from the market's σ (its variance copied when the model is set), never 0.
    function test_bucketNeverUpdated_startsFromMarketSigma_neverZero() public {
        _aliceLong50();
        risk.setMarketVolParams(address(market), _p(0.94e18, 0, 0.5e18, 1 days));
        vm.prank(keeper);
        risk.updateMarketVolatility(address(market));
        vm.warp(block.timestamp + 1 hours);
        oracle.setPrice(12e18);
        vm.prank(keeper);
        risk.updateMarketVolatility(address(market));
        (, IRiskEngine.MarketVolState memory m) = risk.marketVolatility(address(market));
        assertGt(m.sigmaWad, 0.02e18);
        risk.setTenorVolParams(address(market), 1, _p(0.5e18, 0, 0.5e18, 1 days));
        (IRiskEngine.MarketVolParams memory p, IRiskEngine.MarketVolState memory b) = risk.tenorVolatility(
            address(market),
            1
        );
        assertEq(p.lambdaWad, 0.5e18);
        assertEq(b.varianceWad, m.varianceWad, "bucket starts from the market variance");
        assertEq(b.sigmaWad, m.sigmaWad);
        assertEq(risk.marginSigma(address(market)), m.sigmaWad);
        // its first update only records the reference price (no return folded, σ kept)
        vm.prank(keeper);
        risk.updateTenorVolatility(address(market), 1);
        (, b) = risk.tenorVolatility(address(market), 1);
        assertEq(b.sigmaWad, m.sigmaWad);
        assertEq(b.lastPriceWad, 12e18);
        _assertCopyMatches(12e18);
    }

    /// The bucket's EWMA follows its own λ: after a +50 % move one interval later v = λ·v₀ + (1 − λ)·r².
    function test_bucketSigma_followsOwnLambda_copyMatches() public {
        _aliceLong50();
        _enableMarket();
        risk.setTenorVolParams(address(market), 0, _p(0.5e18, 0, 0.5e18, 1 days));
        vm.prank(keeper);
        risk.updateTenorVolatility(address(market), 0);
        vm.warp(block.timestamp + 1 hours);
        oracle.setPrice(15e18);
        vm.prank(keeper);
        uint256 sigma = risk.updateTenorVolatility(address(market), 0);
        (, IRiskEngine.MarketVolState memory b) = risk.tenorVolatility(address(market), 0);
        assertEq(b.varianceWad, (0.5e18 * uint256(0.0004e18)) / 1e18 + 0.5 * 0.25e18);
        assertEq(sigma, b.sigmaWad, "the bucket sets the market's margin sigma");
        (, IRiskEngine.MarketVolState memory m) = risk.marketVolatility(address(market));
        assertEq(m.sigmaWad, 0.02e18, "market state untouched");
        _assertCopyMatches(15e18);
    }

    /// A stale bucket (not updated for its staleAfterSec) raises the market's margin σ to the stale σ, in the
    /// RiskEngine and the ClearingHouse's copy alike, even while the market's own σ and the other buckets are kept
    /// fresh; updating that bucket makes it fresh again.
    function test_staleBucket_marginsAtStaleSigma() public {
        _aliceLong50();
        _enableBuckets();
        vm.warp(block.timestamp + 6 hours + 1);
        vm.startPrank(keeper);
        risk.updateMarketVolatility(address(market));
        risk.updateTenorVolatility(address(market), 1);
        risk.updateTenorVolatility(address(market), 2);
        vm.stopPrank();
        assertEq(risk.marginSigma(address(market)), 0.1e18, "front bucket stale");
        (uint256 im, ) = risk.marginRates(address(market));
        assertEq(im, 0.3e18);
        _assertCopyMatches(10e18);
        vm.prank(keeper);
        risk.updateTenorVolatility(address(market), 0);
        assertEq(risk.marginSigma(address(market)), 0.05e18, "fresh again");
        _assertCopyMatches(10e18);
    }

    /// Bounty farming across buckets: calling every bucket every block pays one bounty per configured bucket per
    /// interval; an unconfigured or out-of-range bucket reverts without paying.
    function test_bountyFarmingAcrossBuckets_oncePerBucketPerInterval() public {
        _enableMarket();
        risk.setTenorVolParams(address(market), 0, _p(0.8e18, 0.05e18, 0.1e18, 6 hours));
        risk.setTenorVolParams(address(market), 2, _p(0.97e18, 0.01e18, 0.06e18, 1 days));
        _mintUsdc(address(risk), 100e6);
        for (uint256 i; i < 30; ++i) {
            vm.roll(block.number + 1);
            vm.warp(block.timestamp + 12);
            for (uint256 b; b < 4; ++b) {
                vm.prank(keeper);
                try risk.updateTenorVolatility(address(market), b) {} catch {}
            }
        }
        assertEq(usdc.balanceOf(keeper), 2e6, "one bounty per configured bucket in 6 minutes");
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskTenorUnknown.selector, address(market), 1));
        risk.updateTenorVolatility(address(market), 1);
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskTenorUnknown.selector, address(market), 3));
        risk.updateTenorVolatility(address(market), 3);
        vm.warp(block.timestamp + 1 hours);
        vm.prank(keeper);
        risk.updateTenorVolatility(address(market), 0);
        assertEq(usdc.balanceOf(keeper), 3e6);
    }

    /// Bad input: no market model, bucket out of range, λ ≥ 1, stale σ below the floor, stale window shorter than the
    /// interval, a removal with a stale σ; the view of an out-of-range bucket.
    function test_tenorVolParams_badInput() public {
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskMarketUnknown.selector, address(market)));
        risk.setTenorVolParams(address(market), 0, _p(0.9e18, 0.01e18, 0.05e18, 1 days));
        _enableMarket();
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskTenorUnknown.selector, address(market), 3));
        risk.setTenorVolParams(address(market), 3, _p(0.9e18, 0.01e18, 0.05e18, 1 days));
        vm.expectRevert(IRiskEngine.RiskInvalidParams.selector);
        risk.setTenorVolParams(address(market), 0, _p(1e18, 0.01e18, 0.05e18, 1 days));
        vm.expectRevert(IRiskEngine.RiskInvalidParams.selector);
        risk.setTenorVolParams(address(market), 0, _p(0.9e18, 0.05e18, 0.01e18, 1 days));
        vm.expectRevert(IRiskEngine.RiskInvalidParams.selector);
        risk.setTenorVolParams(address(market), 0, _p(0.9e18, 0.01e18, 0.05e18, 10 minutes));
        vm.expectRevert(IRiskEngine.RiskInvalidParams.selector);
        risk.setTenorVolParams(address(market), 0, _p(0, 0, 0.05e18, 0));
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskTenorUnknown.selector, address(market), 5));
        risk.tenorVolatility(address(market), 5);
        vm.prank(alice);
        vm.expectRevert();
        risk.setTenorVolParams(address(market), 0, _p(0.9e18, 0.01e18, 0.05e18, 1 days));
    }

    /// A market that is not registered cannot use the margin-check entry (only markets add risk to accounts).
    function test_checkRiskIncrease_nonMarket_reverts() public {
        _aliceLong50();
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingMarketNotRegistered.selector, alice));
        chouse.checkRiskIncrease(alice);
    }
}
