// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {ComputeSolBase} from "../helpers/ComputeSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {ProviderRegistry} from "../../contracts/core/compute/ProviderRegistry.sol";
import {CHToken} from "../../contracts/core/token/CHToken.sol";
import {DPSToken} from "../../contracts/core/token/DPSToken.sol";
import {IProviderRegistry} from "../../contracts/interfaces/IProviderRegistry.sol";

/// @notice Drives providers (mint, buy back, stake, unbond), the task registry (assign, confirm, fail) and a
///         slasher through random sequences with time jumps; keeps ghost ledgers of minted/delivered/bought back.
contract RegistryHandler is CommonBase, StdUtils {
    ProviderRegistry internal registry;
    CHToken internal ch;
    DPSToken internal dps;
    address[] public providers;
    uint256[] internal openIds;

    mapping(address => uint256) public ghostMinted;
    mapping(address => uint256) public ghostDelivered;
    mapping(address => uint256) public ghostBoughtBack;

    constructor(ProviderRegistry r, CHToken c, DPSToken d, address[] memory ps) {
        registry = r;
        ch = c;
        dps = d;
        providers = ps;
    }

    function _p(uint256 i) internal view returns (address) {
        return providers[i % providers.length];
    }

    function mint(uint256 i, uint256 amount) external {
        address p = _p(i);
        uint256 cap = registry.mintableCh(p);
        if (cap == 0) return;
        amount = bound(amount, 1, cap);
        vm.prank(p);
        registry.mintCH(amount, p);
        ghostMinted[p] += amount;
    }

    function buyBack(uint256 i, uint256 amount) external {
        address p = _p(i);
        IProviderRegistry.ProviderInfo memory info = registry.providerInfo(p);
        uint256 free = info.liabilityCh - info.assignedCh;
        uint256 bal = ch.balanceOf(p);
        uint256 max = free < bal ? free : bal;
        if (max == 0) return;
        amount = bound(amount, 1, max);
        vm.prank(p);
        registry.buyBack(amount);
        ghostBoughtBack[p] += amount;
    }

    function assign(uint256 i, uint256 amount) external {
        address p = _p(i);
        IProviderRegistry.ProviderInfo memory info = registry.providerInfo(p);
        uint256 free = info.liabilityCh - info.assignedCh;
        if (free == 0) return;
        amount = bound(amount, 1, free);
        openIds.push(registry.assignRedemption(p, amount, block.timestamp + 1 days));
    }

    function confirm(uint256 k) external {
        if (openIds.length == 0) return;
        uint256 idx = k % openIds.length;
        uint256 id = openIds[idx];
        IProviderRegistry.Assignment memory a = registry.assignment(id);
        if (ch.balanceOf(a.provider) < a.chAmount) return;
        vm.prank(a.provider);
        ch.transfer(address(registry), a.chAmount);
        registry.confirmDelivery(id);
        ghostDelivered[a.provider] += a.chAmount;
        openIds[idx] = openIds[openIds.length - 1];
        openIds.pop();
    }

    function fail(uint256 k) external {
        if (openIds.length == 0) return;
        uint256 idx = k % openIds.length;
        uint256 id = openIds[idx];
        IProviderRegistry.Assignment memory a = registry.assignment(id);
        if (block.timestamp <= a.deadline) vm.warp(uint256(a.deadline) + 1);
        registry.reportDeliveryFailure(id, address(0xC11E));
        openIds[idx] = openIds[openIds.length - 1];
        openIds.pop();
    }

    function slash(uint256 i, uint256 amount) external {
        registry.slash(_p(i), bound(amount, 0, 5_000e18), address(0xF1D), bytes32("fault"));
    }

    function unbond(uint256 i, uint256 amount) external {
        address p = _p(i);
        IProviderRegistry.ProviderInfo memory info = registry.providerInfo(p);
        if (info.stakedDps == 0) return;
        amount = bound(amount, 1, info.stakedDps);
        vm.prank(p);
        try registry.requestUnbond(amount) {} catch {}
    }

    function withdraw(uint256 i) external {
        vm.prank(_p(i));
        try registry.withdrawUnbonded() {} catch {}
    }

    function warp(uint256 dt) external {
        vm.warp(block.timestamp + bound(dt, 1, 3 days));
    }

    function providerCount() external view returns (uint256) {
        return providers.length;
    }
}

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
        invariant_TSK04_liabilityLedger();
        invariant_TSK04_supplyEqualsLiabilities();
        invariant_ACC01_stakeBacked();
    }

    /// TSK-04: for every provider, liability = minted − delivered − bought back.
    function invariant_TSK04_liabilityLedger() public view {
        for (uint256 i; i < ps.length; ++i) {
            address p = ps[i];
            assertEq(
                registry.liabilityOf(p),
                handler.ghostMinted(p) - handler.ghostDelivered(p) - handler.ghostBoughtBack(p)
            );
        }
    }

    /// TSK-04: total CH supply = Σ liabilities.
    function invariant_TSK04_supplyEqualsLiabilities() public view {
        uint256 sum;
        for (uint256 i; i < ps.length; ++i) sum += registry.liabilityOf(ps[i]);
        assertEq(ch.totalSupply(), sum);
    }

    /// ACC-01: the registry's DPS balance covers every provider's staked + unbonding DPS exactly.
    function invariant_ACC01_stakeBacked() public view {
        uint256 sum;
        for (uint256 i; i < ps.length; ++i) {
            IProviderRegistry.ProviderInfo memory info = registry.providerInfo(ps[i]);
            sum += uint256(info.stakedDps) + info.unbondingDps;
        }
        assertEq(dps.balanceOf(address(registry)), sum);
    }

    /// Reserved liability never exceeds liability; liability never exceeds stake × collateral factor at mint time
    /// (slashing can later breach it, which blocks further minting).
    function invariant_assignedWithinLiability() public view {
        for (uint256 i; i < ps.length; ++i) {
            IProviderRegistry.ProviderInfo memory info = registry.providerInfo(ps[i]);
            assertLe(info.assignedCh, info.liabilityCh);
            assertEq(info.mintedCh, handler.ghostMinted(ps[i]));
        }
    }
}
