// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ChxSolBase} from "./ChxSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {Emission} from "../../contracts/core/emission/Emission.sol";
import {IEmission} from "../../contracts/interfaces/emission/IEmission.sol";
import {DeployDefaults} from "../utils/DeployDefaults.sol";

/// @notice ChxSolBase plus the Emission module behind a proxy, wired as the deploy module wires it; `registry`
///         holds COMPUTE (stands in for the ProviderRegistry and the TaskRegistry).
abstract contract EmissionSolBase is ChxSolBase {
    Emission internal emission;
    address internal registry = address(0xC0);

    uint256 internal constant EPOCH = 15 days;
    uint256 internal constant BASE_RATE = 2e15; // 20 % × 1/100

    function _params(uint256 spanGfl, uint256 minSamples) internal view returns (IEmission.InitParams memory) {
        return DeployDefaults.emission(address(gfl), address(dps), spanGfl, minSamples);
    }

    /// @dev The base layer, Emission (pause behind GUARDIAN), and `registry` as its capacity recorder and reward source.
    function _deployEmission(uint256 spanGfl, uint256 minSamples) internal {
        _deployBase();
        emission = Emission(_deployEmission(_params(spanGfl, minSamples)));
        _guardPause(address(emission));
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
