// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {EmissionSolBase} from "../helpers/EmissionSolBase.sol";
import {Emission} from "../../contracts/core/emission/Emission.sol";
import {EmissionHandler} from "./handlers/EmissionHandler.sol";

/// @notice Emission invariants EMI-01..04 and ACC-01 over any sequence of the handler's actions.
contract EmissionInvariantTest is EmissionSolBase {
    EmissionHandler internal handler;
    uint256 internal constant SPAN = 5_000e18;

    function setUp() public {
        _deployEmission(SPAN, 1);
        handler = new EmissionHandler(emission, dps, registry);
        handler.setSpan(SPAN);
        dps.transfer(address(handler), 1_000e18);
        targetContract(address(handler));
        bytes4[] memory selectors = new bytes4[](7);
        selectors[0] = EmissionHandler.record.selector;
        selectors[1] = EmissionHandler.warp.selector;
        selectors[2] = EmissionHandler.closeEpoch.selector;
        selectors[3] = EmissionHandler.rebalance.selector;
        selectors[4] = EmissionHandler.rebalanceProvider.selector;
        selectors[5] = EmissionHandler.claim.selector;
        selectors[6] = EmissionHandler.replenish.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_EMI01_mintedWithinGeometricBound();
        check_EMI02_secondClaimPaysZero();
        check_EMI03_gflTracksMedians();
        check_EMI04_halvingTrigger();
        check_ACC01_rewardsCovered();
    }

    /// @dev Round 43's deep-profile finding (`npm run test:deep`, 500 × 200; the campaign's unshrunk 31 calls, from
    ///      cache/invariant/failures): EMI-01 failed after the last call, `minted > bound: 8.51e18 > 6.39e18`.
    ///      `replenish` lowers `cumulativeGfl` by the returned DPS's GFL equivalent (seed 001 §4.2, by design), and
    ///      `emissionBound()` booked a closed era at its halving as rate × (cumulative − era start) only, so GFL-epochs
    ///      minted and then offset dropped out of the bound (era 0's 4,253e18 GFL fell to 697e18 before two time
    ///      halvings closed it). Fixed in round 44: `replenish` books rate × gflEquivalent (rounded up) into the
    ///      bound. Kept as a regression: every property of the suite after each of the 31 calls.
    function test_regression_deep43_replenishedEraUnderBound() public {
        handler.record(2051, 74821487097449870663789895850729581375258021770335753730139530760585737003420);
        invariant_suite();
        handler.warp(115792089237316195423570985008687907853269984665640564039457584007913129639932);
        invariant_suite();
        handler.warp(289089207203830805559468926086090088065710387776);
        invariant_suite();
        handler.record(51869700571628862933118860426, 6632903900774976609476763564433485841795025630216684314536620);
        invariant_suite();
        handler.record(
            45943210551162359179522289530211099431861507939046970413943289757957,
            3245333775116908602716656150402453676114316554497660899222787843925469244566
        );
        invariant_suite();
        handler.warp(92);
        invariant_suite();
        handler.replenish(73457689452648210941834512543161422814695504811561456442516099115107817120);
        invariant_suite();
        handler.warp(1617);
        invariant_suite();
        handler.record(76214, 9741889446111817813632924485862701068583);
        invariant_suite();
        handler.warp(5265365279373432235076365);
        invariant_suite();
        handler.warp(115792089237316195423570985008687907853269984665640564039457584007913129639932);
        invariant_suite();
        handler.claim(2363);
        invariant_suite();
        handler.warp(115792089237316195423570985008687907853269984665640564039457584007913129639934);
        invariant_suite();
        handler.replenish(2953935105569357528422861697545869613180);
        invariant_suite();
        handler.warp(43348363519397342979917178158303536413678040307203363701449647);
        invariant_suite();
        handler.replenish(68899470442455743730739320000443231029085845429789673207169625380960581789787);
        invariant_suite();
        handler.warp(15288950538931111944528014912);
        invariant_suite();
        handler.warp(806165946075049551985264334151369441818954475479);
        invariant_suite();
        handler.warp(451647619798953485441895909743668513419867265314690630939684638465173435704);
        invariant_suite();
        handler.warp(10522688310602024300672361272);
        invariant_suite();
        handler.warp(2176);
        invariant_suite();
        handler.warp(94321133376156597919);
        invariant_suite();
        handler.warp(3520327639);
        invariant_suite();
        handler.warp(2111);
        invariant_suite();
        handler.warp(150763963537474518354306609974735328168886591677480570877421105258144);
        invariant_suite();
        handler.warp(3348);
        invariant_suite();
        handler.warp(7553421649610043352901485872330684252);
        invariant_suite();
        handler.warp(2555286715202585102037104627640412068266486332825545716242683183327);
        invariant_suite();
        handler.warp(973);
        invariant_suite();
        handler.warp(8);
        invariant_suite();
        handler.record(3, 16381947305654277645433006199899090485644537701801891558779235550755104441892);
        invariant_suite();
    }

    /// EMI-01: DPS ever minted by emission ≤ the geometric bound of the schedule (with replenishment).
    function check_EMI01_mintedWithinGeometricBound() public view {
        (, , uint256 minted, ) = emission.pools();
        uint256 emissionBound = emission.emissionBound();
        assertLe(minted, emissionBound, "minted > bound");
        // With a constant span minting never exceeds 2 × rate_0 × span, whatever was replenished (docs/emission.md).
        assertLe(minted, (2 * BASE_RATE * SPAN) / 1e18 + 64, "minted > 2 r0 S");
        // The bound view: 2 × rate_0 × span plus the DPS value of the GFL-epochs replenishments offset (each ≤ the
        // DPS returned, + 1 wei of rounding up per call).
        (, , , uint256 replenished) = emission.pools();
        assertLe(
            emissionBound,
            (2 * BASE_RATE * SPAN) / 1e18 + 64 + replenished + handler.replenishCalls(),
            "bound > 2 r0 S + R"
        );
        assertEq(dps.totalEmitted(), minted, "token and module agree");
    }

    /// EMI-02: no second claim in one block ever paid (checked in the handler).
    function check_EMI02_secondClaimPaysZero() public view {
        assertFalse(handler.violatedEmi02());
    }

    /// EMI-03: total GFL = Σ provider GFL; after a complete rebalance pass total GFL = the last closed epoch's total
    /// of medians; GFL never moves except through the module.
    function check_EMI03_gflTracksMedians() public view {
        uint256 sum;
        for (uint256 i; i < handler.providerCount(); ++i) {
            address p = handler.providers(i);
            uint256 bal = gfl.balanceOf(p);
            assertEq(bal, emission.providerInfo(p).gfl, "mirror");
            sum += bal;
        }
        assertEq(gfl.totalSupply(), sum, "total = sum");
        (uint256 cursor, uint256 total) = emission.rebalanceProgress();
        uint256 e = emission.currentEpoch();
        if (e > 0 && cursor >= total) {
            assertEq(gfl.totalSupply(), emission.epochInfo(e - 1).totalGfl, "total = last epoch's medians");
        }
    }

    /// EMI-04: halvings only at the first of a year or a threshold, never twice for one trigger (handler check).
    function check_EMI04_halvingTrigger() public view {
        assertFalse(handler.violatedEmi04());
    }

    /// ACC-01: the module holds at least its pool, keeper budget and funded rewards, and what providers can claim
    /// is covered by funded plus owed rewards.
    function check_ACC01_rewardsCovered() public view {
        (uint256 pool, uint256 budget, , ) = emission.pools();
        (uint256 funded, uint256 unfunded) = emission.rewardReserves();
        assertGe(dps.balanceOf(address(emission)), pool + budget + funded, "balance");
        uint256 owed;
        for (uint256 i; i < handler.providerCount(); ++i) owed += emission.claimable(handler.providers(i));
        assertLe(owed, funded + unfunded, "claims covered");
    }
}
