// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSolBase} from "../../helpers/FuturesSolBase.sol";
import {FuturesOrderSteps} from "../../helpers/FuturesOrderSteps.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IRiskEngine} from "../../../contracts/interfaces/clearing/IRiskEngine.sol";
import {IMarketAccountRisk} from "../../../contracts/interfaces/callback/IMarketAccountRisk.sol";

/// @dev A lens that answers the hook's per-tenor question itself: a clean address, a dirty word or a short answer.
contract TenorLens {
    uint256 internal answerWord;
    bool internal short;

    function set(uint256 word, bool shortAnswer) external {
        answerWord = word;
        short = shortAnswer;
    }

    function tenorMarginSource(address) external view returns (address) {
        uint256 w = answerWord;
        if (short) {
            assembly {
                mstore(0, w)
                return(0, 16)
            }
        }
        assembly {
            mstore(0, w)
            return(0, 32)
        }
    }

    function risk(address market, address account, uint256 priceWad) external view returns (uint256 im) {
        (, im, ) = IMarketAccountRisk(market).accountRisk(account, priceWad);
    }
}

/// @notice The futures account-risk hook's per-tenor question (FuturesRisk._tenorSource, docs/futures.md "Per-tenor
///         margin: the hook's source"): asked of the ClearingHouse at every margin check, so a governance switch of
///         per-tenor margin binds the very next withdrawal — no sync, no stale window (MKT-08: the requirement is the
///         ClearingHouse's charge plus the hook's, never less than the rule in force).
contract FuturesTenorSourceTest is FuturesSolBase {
    address internal alice = makeAddr("alice");
    uint256 internal front; // expires in 20 days: front month
    uint256 internal far; // in 200 days: far tenor

    function setUp() public {
        _deployFutures();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(alice, guarantor, 100e6);
        front = futures.listSeries(uint64(block.timestamp + 20 days), 0);
        far = futures.listSeries(uint64(block.timestamp + 200 days), 0);
        // term structure: front 10 % (IM 30 %), ≤ 3 months 5 %, far and the market's own 2 % (IM 10 % floor)
        risk.setMarketVolParams(address(futures), _p(0.02e18));
        risk.setTenorVolParams(address(futures), 0, _p(0.1e18));
        risk.setTenorVolParams(address(futures), 1, _p(0.05e18));
        risk.setTenorVolParams(address(futures), 2, _p(0.02e18));
    }

    function _p(uint64 sigma) internal pure returns (IRiskEngine.MarketVolParams memory) {
        return
            IRiskEngine.MarketVolParams({
                lambdaWad: 0.5e18,
                floorSigmaWad: sigma,
                staleSigmaWad: sigma,
                staleAfterSec: 3650 days
            });
    }

    function _state() internal view returns (IClearingHouse.MarginState memory) {
        return chouse.marginState(alice);
    }

    /// Withdraws down to `leftUsdc` of equity above the initial margin `reqUsdc` would need: expects a refusal.
    function _withdrawBelow(uint256 reqUsdc) internal {
        int256 equity = _state().equityUsdc;
        uint256 amount = uint256(equity) - reqUsdc + 1e6; // leaves 1 USDC less than the requirement
        vm.prank(alice);
        vm.expectPartialRevert(IClearingHouseErrors.ClearingInsufficientMargin.selector);
        chouse.withdraw(amount, alice);
    }

    /// Attack: governance turns per-tenor margin ON while alice holds a front-month long; the ClearingHouse now charges
    /// the net at the lowest σ (IM 10 %). A hook that still believed per-tenor margin off would add nothing (no
    /// spread): requirement 10 instead of 30. The very next withdrawal is checked at the front month's 30.
    function test_perTenorOn_thenWithdrawAtOnce_chargesFrontMonth() public {
        FuturesOrderSteps.mustTrade(futures, alice, front, 10e18);
        assertEq(_state().initialMarginUsdc, 30e6, "largest sigma, per-tenor off");
        risk.setTenorMargin(address(futures), true);
        assertEq(chouse.tenorMarginSource(address(futures)), address(risk));
        _withdrawBelow(30e6);
        assertEq(_state().initialMarginUsdc, 30e6, "front month at its own sigma");
    }

    /// Attack: governance turns per-tenor margin OFF while alice holds a far long (IM 10 % under per-tenor margin);
    /// the largest σ (IM 30 %) binds the very next withdrawal, and the withdrawal the far tenor allowed is refused.
    function test_perTenorOff_thenWithdrawAtOnce_chargesLargestSigma() public {
        risk.setTenorMargin(address(futures), true);
        FuturesOrderSteps.mustTrade(futures, alice, far, 10e18);
        assertEq(_state().initialMarginUsdc, 10e6, "far tenor");
        risk.setTenorMargin(address(futures), false);
        assertEq(chouse.tenorMarginSource(address(futures)), address(0));
        _withdrawBelow(30e6);
        // and back on: the far tenor again, at once
        risk.setTenorMargin(address(futures), true);
        assertEq(_state().initialMarginUsdc, 10e6);
    }

    /// A caller that is not the ClearingHouse: one that does not answer (this test), a dirty word or a short answer
    /// gets the stored ClearingHouse's answer; a clean address shapes only its own view (the margin check asks the
    /// ClearingHouse, never the lens).
    function test_lensAnswers_onlyCleanAddressShapesItsView() public {
        risk.setTenorMargin(address(futures), true);
        FuturesOrderSteps.mustTrade(futures, alice, front, 10e18);
        TenorLens lens = new TenorLens();
        uint256 price = 10e18;
        (, uint256 direct, ) = IMarketAccountRisk(address(futures)).accountRisk(alice, price);
        assertGt(direct, 0, "front month above the lowest sigma");
        lens.set(uint256(uint160(address(risk))) | (uint256(1) << 200), false); // dirty upper bits
        assertEq(lens.risk(address(futures), alice, price), direct, "dirty word: the ClearingHouse's answer");
        lens.set(uint256(uint160(address(risk))), true); // 16-byte answer
        assertEq(lens.risk(address(futures), alice, price), direct, "short answer: the ClearingHouse's answer");
        lens.set(uint256(uint160(address(risk))), false);
        assertEq(lens.risk(address(futures), alice, price), direct, "clean answer: the same engine");
        lens.set(0, false);
        assertEq(lens.risk(address(futures), alice, price), 0, "a lens answering 'off' shapes only its own view");
        assertEq(_state().initialMarginUsdc, 30e6, "the margin check is unaffected");
    }
}
