// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {EmissionSolBase} from "../helpers/EmissionSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {Emission} from "../../contracts/core/emission/Emission.sol";
import {IProviderRegistryViews} from "../../contracts/interfaces/compute/IProviderRegistryViews.sol";

/// @dev `collect` as a view: the sample source's views can only call it by STATICCALL.
interface ICollectView {
    function collect(uint256 maxProviders) external view returns (uint256);
}

/// @notice A hostile sample source (issue 18, round 38): a capacity recorder that made itself Emission's source and,
///         from its collection view, calls `collect` back. It answers only if that reentrant collect was refused by
///         Emission's reentrancy guard (any other outcome reverts the outer call). Its list holds `n` providers, each
///         with samples on all 15 days and a median of 7 stored units.
contract ReentrantSampleSource {
    error ReentryAccepted();
    error ReentryNotGuarded(bytes reason);

    Emission internal immutable emission;
    uint256 internal immutable n;

    constructor(Emission e, uint256 providers) {
        emission = e;
        n = providers;
    }

    function attach() external {
        emission.recordCapacity(address(0), 0);
    }

    function sampledCount(uint256) external view returns (uint256) {
        return n;
    }

    function capacitySamplesAt(uint256 from, uint256 count, uint256) external view returns (uint256[] memory words) {
        try ICollectView(address(emission)).collect(1) returns (uint256) {
            revert ReentryAccepted();
        } catch (bytes memory reason) {
            if (bytes4(reason) != ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector) {
                revert ReentryNotGuarded(reason);
            }
        }
        uint256 end = from + count < n ? from + count : n;
        uint256 k = from < end ? end - from : 0;
        words = new uint256[](2 + 2 * k);
        words[0] = n;
        words[1] = n;
        for (uint256 i; i < k; ++i) {
            words[2 + 2 * i] = uint256(uint160(0xD000 + from + i)) | (uint256(0x7fff) << 160);
            words[3 + 2 * i] = 7;
        }
    }
}

/// @notice The collection against a hostile or counted sample source: reentry is refused (the guard on `collect`),
///         and a close reads the source's count once (issue 18, round 38), still exact (EMI-01/EMI-04: the epoch
///         closes on the collected total, no provider counted twice).
contract EmissionCollectSourceTest is EmissionSolBase {
    ReentrantSampleSource internal src;

    function _attach(uint256 providers) internal {
        _deployEmission(0, 1);
        src = new ReentrantSampleSource(emission, providers);
        _grant(Roles.CAPACITY_RECORDER, address(src));
        src.attach();
        _warpTo(1, 0); // epoch 0 ended: its samples wait in the source
    }

    /// A keeper's collect reaches the source, whose view calls collect again: the guard refuses the reentry (the
    /// source reverts otherwise), and the batch itself collects each provider once.
    function test_collect_reentrantSourceRefused_EMI04() public {
        _attach(3);
        assertEq(emission.collect(2), 2);
        assertEq(emission.collect(2), 1);
        vm.expectRevert();
        emission.collect(2); // nothing left
        emission.closeEpoch();
        assertEq(emission.epochInfo(0).totalGfl, 3 * 7e9);
    }

    /// The same reentry from the close's own collection batch is refused too (closeEpoch holds the guard).
    function test_closeEpoch_reentrantSourceRefused() public {
        _attach(2);
        emission.closeEpoch(); // the batch (keeperBatchSize ≥ 2) collects both, then the close
        assertEq(emission.currentEpoch(), 1);
        assertEq(emission.epochInfo(0).totalGfl, 2 * 7e9);
    }

    /// EMI-01/EMI-04 with one read: a close whose epoch is still collecting asks the source's count once and reads
    /// one page; whether it may close comes from that page's header, not from a second (or third) count.
    function test_closeEpoch_readsSourceCountOnce_EMI04() public {
        _attach(2);
        vm.expectCall(address(src), abi.encodeCall(IProviderRegistryViews.sampledCount, (0)), 1);
        vm.expectCall(address(src), abi.encodeWithSelector(IProviderRegistryViews.capacitySamplesAt.selector), 1);
        emission.closeEpoch();
        assertEq(emission.currentEpoch(), 1);
        assertEq(emission.epochInfo(0).totalGfl, 2 * 7e9);
    }

    /// A close after the collection completed asks the source nothing for the open epoch (its cursor is done).
    function test_closeEpoch_afterCollection_noCountRead() public {
        _attach(2);
        emission.collect(5);
        vm.expectCall(address(src), abi.encodeWithSelector(IProviderRegistryViews.sampledCount.selector), 0);
        emission.closeEpoch();
        assertEq(emission.epochInfo(0).totalGfl, 2 * 7e9);
    }
}
