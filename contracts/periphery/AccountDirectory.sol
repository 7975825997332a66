// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IAccountLensMarketTypes} from "./IAccountLensMarketTypes.sol";
import {IComputeStandard} from "../interfaces/compute/IComputeStandard.sol";
import {IGuarantorPool} from "../interfaces/clearing/IGuarantorPool.sol";
import {FixedPointMath} from "../libraries/math/FixedPointMath.sol";

/// @title AccountDirectory
/// @notice The directory rows of AccountLens: the open guarantors among candidates, and the workload classes
///         published in the ComputeStandard. Internal (inlined into the lens).
library AccountDirectory {
    /// @dev The registered, open guarantors among `candidates`, with their remaining capacity.
    function openGuarantors(
        IGuarantorPool pool,
        address[] calldata candidates
    ) internal view returns (IAccountLensMarketTypes.OpenGuarantor[] memory list) {
        (uint256 minDps, uint256 maxLeverageWad) = pool.params();
        list = new IAccountLensMarketTypes.OpenGuarantor[](candidates.length);
        uint256 n;
        for (uint256 i; i < candidates.length; ++i) {
            IGuarantorPool.Guarantor memory g = pool.guarantorInfo(candidates[i]);
            if (!g.registered || !g.open) continue;
            uint256 capacity = FixedPointMath.wadMulDown(g.capitalUsdc, maxLeverageWad);
            list[n++] = IAccountLensMarketTypes.OpenGuarantor({
                guarantor: candidates[i],
                defaultLimitUsdc: g.defaultLimitUsdc,
                capitalUsdc: g.capitalUsdc,
                exposureUsdc: g.exposureUsdc,
                remainingCapacityUsdc: capacity > g.exposureUsdc ? capacity - g.exposureUsdc : 0,
                dpsStaked: g.dpsStaked,
                stakeOk: g.dpsStaked >= minDps
            });
        }
        assembly {
            mstore(list, n)
        }
    }

    /// @dev Workload classes 1..`maxClass` with a published reference system (latest version).
    function workloadClasses(
        IComputeStandard standard,
        uint16 maxClass
    ) internal view returns (IAccountLensMarketTypes.WorkloadClassView[] memory list) {
        list = new IAccountLensMarketTypes.WorkloadClassView[](maxClass);
        uint256 n;
        for (uint256 c = 1; c <= maxClass; ++c) {
            uint16 version = standard.latestVersion(uint16(c));
            if (version == 0) continue;
            IComputeStandard.ReferenceSystem memory r = standard.referenceSystem(uint16(c), version);
            list[n++] = IAccountLensMarketTypes.WorkloadClassView(
                uint16(c),
                version,
                r.refPflopsWad,
                r.factorCount,
                r.publishedAt,
                r.weightsWad
            );
        }
        assembly {
            mstore(list, n)
        }
    }
}
