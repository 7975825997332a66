// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ComputeSolBase} from "../helpers/ComputeSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {RegistryHandler} from "./handlers/RegistryHandler.sol";

/// @notice Handler-based invariants of the provider registry.
contract ProviderRegistryInvariantTest is ComputeSolBase {
    RegistryHandler internal handler;
    address[] internal ps;

    function setUp() public {
        _deployCompute();
        for (uint256 i; i < 3; ++i) {
            address p = address(uint160(0xB100 + i));
            ps.push(p);
            _onboard(p, 20_000e18);
        }
        handler = new RegistryHandler(registry, ch, dps, ps);
        _grant(Roles.COMPUTE, address(handler));
        _grant(Roles.PROVIDER_SLASHER, address(handler));
        targetContract(address(handler));
    }

    /// Sanity: every handler action succeeds on a fresh state (the invariant runs are not vacuous).
    function test_handlerActionsTakeEffect() public {
        handler.mint(0, 100e18);
        address p0 = ps[0];
        assertGt(handler.ghostMinted(p0), 0);
        handler.assign(0, 10e18);
        handler.assign(0, 10e18);
        handler.confirm(0);
        assertGt(handler.ghostDelivered(p0), 0);
        handler.fail(0);
        assertEq(registry.providerInfo(p0).failed, 1);
        handler.buyBack(0, 1e18);
        assertGt(handler.ghostBoughtBack(p0), 0);
        handler.slash(1, 100e18);
        assertEq(registry.providerInfo(ps[1]).slashCount, 1);
        handler.unbond(2, 1e18);
        handler.warp(3 days);
        handler.warp(3 days);
        handler.warp(3 days);
        handler.withdraw(2);
        assertEq(registry.providerInfo(ps[2]).unbondingDps, 0);
        check_TSK04_liabilityLedger();
        check_TSK04_supplyEqualsLiabilities();
        check_ACC01_stakeBacked();
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_TSK04_liabilityLedger();
        check_TSK04_supplyEqualsLiabilities();
        check_ACC01_stakeBacked();
        check_assignedWithinLiability();
    }

    /// TSK-04: for every provider, liability = minted − delivered − bought back.
    function check_TSK04_liabilityLedger() public view {
        for (uint256 i; i < ps.length; ++i) {
            address p = ps[i];
            assertEq(
                registry.liabilityOf(p),
                handler.ghostMinted(p) - handler.ghostDelivered(p) - handler.ghostBoughtBack(p)
            );
        }
    }

    /// TSK-04: total CH supply = Σ liabilities.
    function check_TSK04_supplyEqualsLiabilities() public view {
        uint256 sum;
        for (uint256 i; i < ps.length; ++i) sum += registry.liabilityOf(ps[i]);
        assertEq(ch.totalSupply(), sum);
    }

    /// ACC-01: the registry's DPS balance covers every provider's staked + unbonding DPS exactly.
    function check_ACC01_stakeBacked() public view {
        uint256 sum;
        for (uint256 i; i < ps.length; ++i) {
            IProviderRegistry.ProviderInfo memory info = registry.providerInfo(ps[i]);
            sum += uint256(info.stakedDps) + info.unbondingDps;
        }
        assertEq(dps.balanceOf(address(registry)), sum);
    }

    /// Reserved liability never exceeds liability; liability never exceeds stake × collateral factor at mint time
    /// (slashing can later breach it, which blocks further minting).
    function check_assignedWithinLiability() public view {
        for (uint256 i; i < ps.length; ++i) {
            IProviderRegistry.ProviderInfo memory info = registry.providerInfo(ps[i]);
            assertLe(info.assignedCh, info.liabilityCh);
            assertEq(info.mintedCh, handler.ghostMinted(ps[i]));
        }
    }
}
