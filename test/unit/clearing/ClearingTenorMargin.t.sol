// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSolBase} from "../../helpers/FuturesSolBase.sol";
import {FuturesOrderSteps} from "../../helpers/FuturesOrderSteps.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IRiskEngine} from "../../../contracts/interfaces/clearing/IRiskEngine.sol";

/// @notice Per-tenor futures margin (issue 20 item 3, docs/clearing.md "Per-tenor margin"): with per-tenor margin on,
///         the ClearingHouse charges a futures market's net position at the lowest σ of its models and the market's
///         account-risk hook adds each tenor's margin above it, by time to expiry at read time. Term structure here:
///         front month floor σ 10 % (IM 30 %, MM 15 %), ≤ 3 months 5 % (IM 15 %, MM 7.5 %), ≤ 12 months and the
///         market's own 2 % (IM 10 % floor, MM 5 % floor). Index 10 USDC; 10 CH = 100 USDC notional.
contract ClearingTenorMarginTest is FuturesSolBase {
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    address internal keeper = makeAddr("keeper");
    uint256 internal front; // expires in 20 days
    uint256 internal mid; // in 60 days
    uint256 internal far; // in 200 days
    uint256 internal farNear; // in 100 days: ages through every tenor

    function setUp() public {
        _deployFutures();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(alice, guarantor, 100e6);
        _setupTrader(bob, guarantor, 100e6);
        front = futures.listSeries(uint64(block.timestamp + 20 days), 0);
        mid = futures.listSeries(uint64(block.timestamp + 60 days), 0);
        far = futures.listSeries(uint64(block.timestamp + 200 days), 0);
        farNear = futures.listSeries(uint64(block.timestamp + 100 days), 0);
    }

    function _p(
        uint64 floorSigma,
        uint64 staleSigma,
        uint32 staleAfter
    ) internal pure returns (IRiskEngine.MarketVolParams memory) {
        return
            IRiskEngine.MarketVolParams({
                lambdaWad: 0.5e18,
                floorSigmaWad: floorSigma,
                staleSigmaWad: staleSigma,
                staleAfterSec: staleAfter
            });
    }

    /// The term structure (never stale within the tests' time travel) and per-tenor margin on.
    function _enable() internal {
        risk.setMarketVolParams(address(futures), _p(0.02e18, 0.02e18, 3650 days));
        risk.setTenorVolParams(address(futures), 0, _p(0.1e18, 0.1e18, 3650 days));
        risk.setTenorVolParams(address(futures), 1, _p(0.05e18, 0.05e18, 3650 days));
        risk.setTenorVolParams(address(futures), 2, _p(0.02e18, 0.02e18, 3650 days));
        risk.setTenorMargin(address(futures), true);
        assertEq(chouse.tenorMarginSource(address(futures)), address(risk));
    }

    function _trade(address who, uint256 seriesId, int256 size) internal {
        FuturesOrderSteps.mustTrade(futures, who, seriesId, size);
    }

    function _state(address who) internal view returns (IClearingHouse.MarginState memory) {
        return chouse.marginState(who);
    }

    /// A calm far tenor pays its own σ, not the front month's: 10 CH long 200 days out needs IM 10 % (10 USDC);
    /// with per-tenor margin off the market's largest σ (front 10 %: IM 30 %) applies.
    function test_calmFarTenor_marginedAtItsOwnSigma() public {
        _enable();
        _trade(alice, far, 10e18);
        assertEq(_state(alice).initialMarginUsdc, 10e6, "far IM 10 %");
        assertEq(_state(alice).maintenanceMarginUsdc, 5e6, "far MM 5 %");
        risk.setTenorMargin(address(futures), false);
        assertEq(_state(alice).initialMarginUsdc, 30e6, "largest sigma without per-tenor margin");
        assertEq(_state(alice).maintenanceMarginUsdc, 15e6);
    }

    /// Each tenor at its own rate: front 30 %, ≤ 3 months 15 %, far 10 %, all long (the larger side is the sum).
    function test_eachTenor_ownRate() public {
        _enable();
        _trade(alice, front, 1e18);
        _trade(alice, mid, 2e18);
        _trade(alice, far, 4e18);
        // 10 × 0.3 + 20 × 0.15 + 40 × 0.1 = 3 + 3 + 4
        assertEq(_state(alice).initialMarginUsdc, 10e6);
        // 10 × 0.15 + 20 × 0.075 + 40 × 0.05 = 1.5 + 1.5 + 2
        assertEq(_state(alice).maintenanceMarginUsdc, 5e6);
    }

    /// Attack: a trader moves its position from the volatile front month to a calm far series (lower margin, as
    /// the far tenor is calm), then lets it age. The tenor follows time to expiry at read time: 100 days out it is
    /// far (IM 10), at 60 days ≤ 3 months (15), at 30 days front month (30) — margin never stays at the calm σ,
    /// and the withdrawal the calm margin allowed is refused once the series aged.
    function test_seriesAgeing_intoFrontMonth_marginFollows() public {
        _enable();
        _trade(alice, front, 10e18);
        assertEq(_state(alice).initialMarginUsdc, 30e6);
        FuturesOrderSteps.mustClose(futures, alice, front);
        _trade(alice, farNear, 10e18);
        assertEq(_state(alice).initialMarginUsdc, 10e6, "calm far tenor");
        // withdraw down to 20 USDC of equity: enough for the far tenor, not for the front month
        int256 equity = _state(alice).equityUsdc;
        vm.prank(alice);
        chouse.withdraw(uint256(equity) - 20e6, alice);
        vm.warp(block.timestamp + 40 days); // 60 days left
        assertEq(_state(alice).initialMarginUsdc, 15e6, "aged into <= 3 months");
        vm.warp(block.timestamp + 30 days); // 30 days left
        assertEq(_state(alice).initialMarginUsdc, 30e6, "aged into the front month");
        vm.prank(alice);
        vm.expectPartialRevert(IClearingHouseErrors.ClearingInsufficientMargin.selector);
        chouse.withdraw(1e6, alice);
    }

    /// A calendar spread long front / short far nets to zero in the ClearingHouse: the hook charges the larger side,
    /// each leg at its own tenor (front 10 × 30 % = 30 against far 10 × 10 % = 10) — as the largest σ did; a
    /// spread of two calm tenors (long far, short ≤ 3 months) pays the larger of 10 and 15, not 30.
    function test_spreadFrontFar_chargesLargerSide() public {
        _enable();
        _trade(alice, front, 10e18);
        _trade(alice, far, -10e18);
        assertEq(chouse.positionOf(alice, address(futures)).sizeCh, 0, "net zero");
        assertEq(_state(alice).initialMarginUsdc, 30e6);
        assertEq(_state(alice).maintenanceMarginUsdc, 15e6);
        _trade(bob, far, 10e18);
        _trade(bob, mid, -10e18);
        assertEq(_state(bob).initialMarginUsdc, 15e6);
        risk.setTenorMargin(address(futures), false);
        assertEq(_state(bob).initialMarginUsdc, 30e6, "largest sigma without per-tenor margin");
    }

    /// A stale tenor is margined at least at its stale σ, in the hook, while the others stay fresh: the far bucket
    /// stale after 6 h with stale σ 8 % → IM 24 %; updating it makes it fresh again.
    function test_staleBucket_atLeastStaleSigma() public {
        _enable();
        risk.setTenorVolParams(address(futures), 2, _p(0.02e18, 0.08e18, 6 hours));
        _trade(alice, far, 10e18);
        assertEq(_state(alice).initialMarginUsdc, 10e6);
        vm.warp(block.timestamp + 6 hours + 1);
        assertEq(_state(alice).initialMarginUsdc, 24e6, "stale far tenor");
        assertEq(_state(alice).maintenanceMarginUsdc, 12e6);
        vm.prank(keeper);
        risk.updateTenorVolatility(address(futures), 2);
        assertEq(_state(alice).initialMarginUsdc, 10e6, "fresh again");
    }

    /// Attack: a withdrawal right after the calm tenor's σ jumps. The hook reads the RiskEngine's tenor σ at the
    /// check, so the jump binds at once: the free collateral at the old σ can no longer be withdrawn.
    function test_withdrawAfterBucketSigmaJump_usesNewSigma() public {
        _enable();
        _trade(alice, far, 10e18);
        vm.prank(keeper);
        risk.updateTenorVolatility(address(futures), 2);
        vm.warp(block.timestamp + 1 hours);
        _setPrice(12e18);
        IClearingHouse.MarginState memory before = _state(alice);
        assertEq(before.initialMarginUsdc, 12e6, "far IM 10 % at 12");
        vm.prank(keeper);
        risk.updateTenorVolatility(address(futures), 2); // +20 % in one interval: σ² = 0.5·0.0004 + 0.5·0.04
        (uint256[4] memory im, uint256 base) = _rates();
        assertGt(im[2], 0.3e18, "far sigma jumped");
        assertEq(base, 0.1e18, "the lowest sigma is now the market's own");
        IClearingHouse.MarginState memory afterJump = _state(alice);
        assertEq(afterJump.initialMarginUsdc, (120e6 * im[2] + 1e18 - 1) / 1e18);
        // free before the jump: equity − IM at the old σ (≈ 107 USDC, above the 99 USDC of collateral)
        assertGt(uint256(before.equityUsdc) - before.initialMarginUsdc, 99e6);
        uint256 freeBefore = 99e6;
        vm.prank(alice);
        vm.expectPartialRevert(IClearingHouseErrors.ClearingInsufficientMargin.selector);
        chouse.withdraw(freeBefore, alice);
    }

    /// Fuzz: random legs in the three tenors. The requirement (ClearingHouse + hook) equals the per-tenor rule
    /// max(Σ long_t × rate_t, Σ |short_t| × rate_t) up to rounding (≤ 3 wei, always above), and never exceeds the
    /// largest-σ rule of per-tenor margin off.
    /// forge-config: default.fuzz.runs = 24
    function testFuzz_requirement_isPerTenorRule(int8 a, int8 b, int8 c) public {
        _enable();
        int256[3] memory sizes = [int256(a % 6) * 1e18, int256(b % 6) * 1e18, int256(c % 6) * 1e18];
        uint256[3] memory ids = [front, mid, far];
        uint256[3] memory rates = [uint256(0.3e18), 0.15e18, 0.1e18];
        uint256 longReq;
        uint256 shortReq;
        for (uint256 t; t < 3; ++t) {
            if (sizes[t] == 0) continue;
            _trade(alice, ids[t], sizes[t]);
            uint256 abs = sizes[t] > 0 ? uint256(sizes[t]) : uint256(-sizes[t]);
            uint256 req = (((abs * PRICE0 + 1e30 - 1) / 1e30) * rates[t] + 1e18 - 1) / 1e18;
            if (sizes[t] > 0) longReq += req;
            else shortReq += req;
        }
        uint256 expected = longReq > shortReq ? longReq : shortReq;
        uint256 im = _state(alice).initialMarginUsdc;
        assertGe(im, expected, "at least the per-tenor rule");
        assertLe(im, expected + 3, "rounding only");
        risk.setTenorMargin(address(futures), false);
        assertLe(im, _state(alice).initialMarginUsdc + 3, "never above the largest-sigma rule");
    }

    function _rates() internal view returns (uint256[4] memory im, uint256 baseIm) {
        (baseIm, , im, ) = risk.tenorMarginRates(address(futures));
    }

    /// An account whose only risk is a far-tenor long: maintenance 5 % of the far notional (not the front month's
    /// 15 %), so it is healthy where the largest σ would liquidate it, and liquidatable — and liquidated — once its
    /// equity falls below the far tenor's maintenance margin.
    function test_liquidation_farTenorOnlyAccount() public {
        _enable();
        _trade(alice, far, 10e18);
        int256 equity = _state(alice).equityUsdc;
        vm.prank(alice);
        chouse.withdraw(uint256(equity) - 15e6, alice);
        _setPrice(9e18); // equity ≈ 5, MM 4.5
        assertFalse(_liquidatable(alice), "healthy at the far tenor's sigma");
        risk.setTenorMargin(address(futures), false);
        assertTrue(_liquidatable(alice), "the largest sigma would liquidate it");
        risk.setTenorMargin(address(futures), true);
        _setPrice(8.8e18); // equity ≈ 3, MM 4.4
        assertTrue(_liquidatable(alice));
        vm.prank(bob);
        liq.liquidate(alice);
        assertLt(chouse.positionOf(alice, address(futures)).sizeCh, 10e18, "the far position was reduced");
    }

    function _liquidatable(address who) internal view returns (bool) {
        IClearingHouse.MarginState memory s = _state(who);
        return s.equityUsdc < int256(s.maintenanceMarginUsdc);
    }

    /// Per-tenor margin only for a market whose account-risk hook adds the tenors' margin: a market the
    /// ClearingHouse does not ask for account risk is refused (it would be margined at the lowest σ alone).
    function test_tenorMargin_marketWithoutHook_reverts() public {
        risk.setMarketVolParams(address(market), _p(0.02e18, 0.02e18, 1 days));
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskTenorMarginNeedsHook.selector, address(market)));
        risk.setTenorMargin(address(market), true);
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskMarketUnknown.selector, address(0xbeef)));
        risk.setTenorMargin(address(0xbeef), true);
    }

    /// Attack (governance sequence): switching the market's account-risk hook off while per-tenor margin is on would
    /// leave the futures margined at the lowest σ alone. Refused until per-tenor margin is switched off first.
    function test_hookOff_whilePerTenorOn_reverts() public {
        _enable();
        _trade(alice, front, 10e18);
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskTenorMarginNeedsHook.selector, address(futures)));
        chouse.setMarketAccountRisk(address(futures), false);
        assertEq(_state(alice).initialMarginUsdc, 30e6, "front month still at its own sigma");
        risk.setTenorMargin(address(futures), false);
        chouse.setMarketAccountRisk(address(futures), false);
        (bool accountRisk, , ) = chouse.marketFlags(address(futures));
        assertFalse(accountRisk);
        assertEq(_state(alice).initialMarginUsdc, 30e6, "largest sigma once per-tenor margin is off");
    }

    /// A replaced RiskEngine: the per-tenor copy is no longer current, so the hook stops reading tenor rates (the
    /// ClearingHouse asks the new engine for the largest σ); the copy counts again once the engine pushes.
    function test_replacedRiskEngine_perTenorCopyIgnoredUntilPushed() public {
        _enable();
        (, address o, , address g, address i, address l) = chouse.modules();
        chouse.setModules(o, address(vault), g, i, l); // a contract that is no RiskEngine
        assertEq(chouse.tenorMarginSource(address(futures)), address(0), "not current");
        chouse.setModules(o, address(risk), g, i, l);
        assertEq(chouse.tenorMarginSource(address(futures)), address(0), "still not pushed");
        risk.setTenorMargin(address(futures), true);
        assertEq(chouse.tenorMarginSource(address(futures)), address(risk), "pushed again");
        _trade(alice, far, 10e18);
        // the parameters' copy is not current yet: the ClearingHouse asks the engine (largest σ), never less
        assertEq(_state(alice).initialMarginUsdc, 30e6, "conservative until the parameters are pushed");
        risk.setMarketParams(
            address(futures),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            })
        );
        assertEq(_state(alice).initialMarginUsdc, 10e6);
    }

    /// Without a bucket configured per-tenor margin changes nothing (the copy stays the market's σ).
    function test_tenorMarginWithoutBuckets_unchanged() public {
        risk.setMarketVolParams(address(futures), _p(0.05e18, 0.05e18, 3650 days));
        risk.setTenorMargin(address(futures), true);
        assertTrue(risk.tenorMargin(address(futures)));
        _trade(alice, far, 10e18);
        assertEq(_state(alice).initialMarginUsdc, 15e6);
        assertEq(chouse.tenorMarginSource(address(futures)), address(0), "no per-tenor bit");
    }
}
