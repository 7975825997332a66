// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ChxSolBase} from "./ChxSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {Emission} from "../../contracts/core/emission/Emission.sol";
import {IEmission} from "../../contracts/interfaces/emission/IEmission.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";

/// @notice ChxSolBase plus the Emission module behind a proxy, wired as the deploy module wires it; `registry`
///         holds COMPUTE (stands in for the ProviderRegistry and the TaskRegistry).
abstract contract EmissionSolBase is ChxSolBase {
    Emission internal emission;
    address internal registry = address(0xC0);

    uint256 internal constant EPOCH = 15 days;
    uint256 internal constant BASE_RATE = 2e15; // 20 % × 1/100

    function _params(uint256 spanGfl, uint256 minSamples) internal view returns (IEmission.InitParams memory p) {
        p.gfl = address(gfl);
        p.dps = address(dps);
        p.genesisTime = 0;
        p.rewardShareBps = 2_000;
        p.initialRatioWad = 1e16;
        p.halvingSpanGfl = spanGfl;
        p.minSamples = minSamples;
        p.bounty = IEmission.BountyConfig({closeBountyDps: 1e18, perProviderBountyDps: 5e16, maxBountyDps: 10e18});
        p.keeperShareBps = 500;
        p.keeperBatchSize = 100;
    }

    function _deployEmission(uint256 spanGfl, uint256 minSamples) internal {
        _deployBase();
        emission = Emission(
            _proxy(
                address(new Emission()),
                abi.encodeCall(Emission.initialize, (address(manager), _params(spanGfl, minSamples)))
            )
        );
        _setRole(address(emission), Emission.recordCapacity.selector, Roles.CAPACITY_RECORDER);
        _setRole(address(emission), Emission.replenish.selector, Roles.REWARD_SOURCE);
        _setRole(address(emission), IChxModule.pauseFeature.selector, Roles.GUARDIAN);
        _grant(Roles.EMISSION, address(emission));
        _grant(Roles.CAPACITY_RECORDER, registry);
        _grant(Roles.REWARD_SOURCE, registry);
    }

    function _record(address provider, uint256 capacityWad) internal {
        vm.prank(registry);
        emission.recordCapacity(provider, capacityWad);
    }

    /// @dev Warps to `day` of `epoch` (plus a minute).
    function _warpTo(uint256 epoch, uint256 day) internal {
        vm.warp(emission.epochStart(epoch) + day * 1 days + 60);
    }

    /// @dev Closes the open epoch (warping to its end) and rebalances every provider.
    function _closeAndRebalance() internal {
        uint256 e = emission.currentEpoch();
        vm.warp(emission.epochStart(e + 1));
        emission.closeEpoch();
        (uint256 cursor, uint256 total) = emission.rebalanceProgress();
        if (cursor < total) emission.rebalance(total - cursor);
    }
}
