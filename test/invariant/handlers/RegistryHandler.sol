// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {ProviderRegistry} from "../../../contracts/core/compute/ProviderRegistry.sol";
import {CHToken} from "../../../contracts/core/token/CHToken.sol";
import {DPSToken} from "../../../contracts/core/token/DPSToken.sol";
import {IProviderRegistry} from "../../../contracts/interfaces/compute/IProviderRegistry.sol";

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
