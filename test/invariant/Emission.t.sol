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
