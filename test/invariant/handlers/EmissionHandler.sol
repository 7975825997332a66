// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {Emission} from "../../../contracts/core/emission/Emission.sol";
import {DPSToken} from "../../../contracts/core/token/DPSToken.sol";

/// @notice Drives the emission module with every actor: the registry (samples, replenishment), providers
///         (claims), keepers (closes, batches, single rebalances) and time jumps across epochs and halvings.
contract EmissionHandler is Test {
    Emission internal emission;
    DPSToken internal dps;
    address internal registry;
    address[] public providers;

    /// @dev Set when a property checked inside a call fails (handler reverts are ignored by the runner).
    bool public violatedEmi02;
    bool public violatedEmi04;
    uint256 public closes;
    /// @dev Successful `replenish` calls (each may round the bound up by 1 wei).
    uint256 public replenishCalls;

    constructor(Emission emission_, DPSToken dps_, address registry_) {
        emission = emission_;
        dps = dps_;
        registry = registry_;
        for (uint256 i; i < 6; ++i) providers.push(address(uint160(0xB000 + i)));
    }

    function providerCount() external view returns (uint256) {
        return providers.length;
    }

    function record(uint256 providerSeed, uint256 capacitySeed) external {
        address p = providers[providerSeed % providers.length];
        uint256 capacity = bound(capacitySeed, 0, 2_000e18);
        vm.prank(registry);
        emission.recordCapacity(p, capacity);
    }

    function warp(uint256 secondsSeed) external {
        vm.warp(block.timestamp + bound(secondsSeed, 1 hours, 45 days));
    }

    function closeEpoch() external {
        // Catch up after long warps, one close at a time so each is checked.
        for (uint256 i; i < 8 && emission.epochDue(); ++i) _closeOne();
    }

    function _closeOne() internal {
        uint256 e = emission.currentEpoch();
        uint256 total = emission.epochInfo(e).totalGfl;
        (uint256 cum, uint256 threshold, uint256 dueAt) = emission.halvingState();
        uint256 n0 = emission.halvings();
        uint256 end = emission.epochStart(e + 1);
        emission.closeEpoch();
        ++closes;
        // EMI-04: once per threshold crossed, else once when a year has passed since the last was due, never early.
        uint256 n1 = emission.halvings();
        uint256 span = spanGfl;
        uint256 crossed = cum + total >= threshold ? (cum + total - threshold) / span + 1 : 0;
        if (n0 + crossed > 64) crossed = 64 - n0;
        uint256 expected = crossed > 0 ? n0 + crossed : (end >= dueAt && n0 < 64 ? n0 + 1 : n0);
        if (n1 != expected) violatedEmi04 = true;
    }

    /// @dev The constant halving span of this run (set once by the test).
    uint256 public spanGfl;

    function setSpan(uint256 span) external {
        if (spanGfl == 0) spanGfl = span;
    }

    function rebalance(uint256 nSeed) external {
        emission.rebalance(bound(nSeed, 1, 4));
    }

    function rebalanceProvider(uint256 providerSeed) external {
        emission.rebalanceProvider(providers[providerSeed % providers.length]);
    }

    function claim(uint256 providerSeed) external {
        address p = providers[providerSeed % providers.length];
        vm.prank(p);
        emission.claim(p);
        vm.prank(p);
        if (emission.claim(p) != 0) violatedEmi02 = true; // EMI-02: a second claim in the same block pays 0
    }

    function replenish(uint256 amountSeed) external {
        uint256 amount = bound(amountSeed, 1, 5e18);
        if (dps.balanceOf(address(this)) < amount) return;
        dps.transfer(address(emission), amount);
        vm.prank(registry);
        emission.replenish(amount);
        ++replenishCalls;
    }
}
