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
    ///      cache/invariant/failures): EMI-01 fails after the last call, `minted > bound: 8.51e18 > 6.39e18`.
    ///      Diagnosis (docs/invariants.md, "Open findings"): `replenish` lowers `cumulativeGfl` by the returned DPS's
    ///      GFL equivalent (seed 001 §4.2, by design), but `emissionBound()` books a closed era's accrual as
    ///      rate × (cumulative − era start) at its halving (EmissionEpochs `_halve`), so GFL-epochs that were minted
    ///      and then offset by a replenishment drop out of the bound: here 4,253e18 GFL of era 0 fell to 697e18, and
    ///      the two time halvings of the last call's catch-up closed era 0 on the smaller figure. The bound view is
    ///      wrong, not the minting (which follows the spec). Skipped until the fix lands (the bound should keep the
    ///      offset GFL's DPS value: `boundAccruedDps += rate × gflEquivalent` in `replenish`, with EMI-01's second
    ///      assertion widened by what was replenished); remove `vm.skip` with the fix.
    function test_regression_deep43_replenishedEraUnderBound() public {
        vm.skip(true);
        handler.record(2051, 74821487097449870663789895850729581375258021770335753730139530760585737003420);
        _checkEmi01(0);
        handler.warp(115792089237316195423570985008687907853269984665640564039457584007913129639932);
        _checkEmi01(1);
        handler.warp(289089207203830805559468926086090088065710387776);
        _checkEmi01(2);
        handler.record(51869700571628862933118860426, 6632903900774976609476763564433485841795025630216684314536620);
        _checkEmi01(3);
        handler.record(
            45943210551162359179522289530211099431861507939046970413943289757957,
            3245333775116908602716656150402453676114316554497660899222787843925469244566
        );
        _checkEmi01(4);
        handler.warp(92);
        _checkEmi01(5);
        handler.replenish(73457689452648210941834512543161422814695504811561456442516099115107817120);
        _checkEmi01(6);
        handler.warp(1617);
        _checkEmi01(7);
        handler.record(76214, 9741889446111817813632924485862701068583);
        _checkEmi01(8);
        handler.warp(5265365279373432235076365);
        _checkEmi01(9);
        handler.warp(115792089237316195423570985008687907853269984665640564039457584007913129639932);
        _checkEmi01(10);
        handler.claim(2363);
        _checkEmi01(11);
        handler.warp(115792089237316195423570985008687907853269984665640564039457584007913129639934);
        _checkEmi01(12);
        handler.replenish(2953935105569357528422861697545869613180);
        _checkEmi01(13);
        handler.warp(43348363519397342979917178158303536413678040307203363701449647);
        _checkEmi01(14);
        handler.replenish(68899470442455743730739320000443231029085845429789673207169625380960581789787);
        _checkEmi01(15);
        handler.warp(15288950538931111944528014912);
        _checkEmi01(16);
        handler.warp(806165946075049551985264334151369441818954475479);
        _checkEmi01(17);
        handler.warp(451647619798953485441895909743668513419867265314690630939684638465173435704);
        _checkEmi01(18);
        handler.warp(10522688310602024300672361272);
        _checkEmi01(19);
        handler.warp(2176);
        _checkEmi01(20);
        handler.warp(94321133376156597919);
        _checkEmi01(21);
        handler.warp(3520327639);
        _checkEmi01(22);
        handler.warp(2111);
        _checkEmi01(23);
        handler.warp(150763963537474518354306609974735328168886591677480570877421105258144);
        _checkEmi01(24);
        handler.warp(3348);
        _checkEmi01(25);
        handler.warp(7553421649610043352901485872330684252);
        _checkEmi01(26);
        handler.warp(2555286715202585102037104627640412068266486332825545716242683183327);
        _checkEmi01(27);
        handler.warp(973);
        _checkEmi01(28);
        handler.warp(8);
        _checkEmi01(29);
        handler.record(3, 16381947305654277645433006199899090485644537701801891558779235550755104441892);
        _checkEmi01(30);
    }

    function _checkEmi01(uint256 call) internal view {
        (, , uint256 minted, ) = emission.pools();
        assertLe(minted, emission.emissionBound(), string.concat("EMI-01 after call ", vm.toString(call)));
    }

    /// EMI-01: DPS ever minted by emission ≤ the geometric bound of the schedule (with replenishment).
    function check_EMI01_mintedWithinGeometricBound() public view {
        (, , uint256 minted, ) = emission.pools();
        assertLe(minted, emission.emissionBound(), "minted > bound");
        // With a constant span the bound never exceeds 2 × rate_0 × span.
        assertLe(emission.emissionBound(), (2 * BASE_RATE * SPAN) / 1e18 + 64, "bound > 2 r0 S");
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
