// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Deployers} from "../utils/Deployers.sol";
import {DeployDefaults} from "../utils/DeployDefaults.sol";
import {DPSToken} from "../../contracts/core/token/DPSToken.sol";
import {CHToken} from "../../contracts/core/token/CHToken.sol";
import {ComputeStandard} from "../../contracts/core/compute/ComputeStandard.sol";
import {ProviderRegistry} from "../../contracts/core/compute/ProviderRegistry.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {MockPriceIndex} from "../../contracts/mocks/MockPriceIndex.sol";
import {signDigest} from "../utils/Signatures.sol";

/// @notice Fixture of the ProviderRegistry suites: governance, DPS, CH and the compute layer (standard, registry)
///         from Deployers, kept in the concrete types the suites drive, with helpers to onboard providers.
abstract contract ComputeSolBase is Deployers {
    DPSToken internal dps;
    CHToken internal ch;
    ComputeStandard internal standard;
    ProviderRegistry internal registry;
    MockPriceIndex internal oracle;

    address internal attester;

    /// @dev AccessManager, DPS (genesis to this contract), CH, the ComputeStandard (reference v1 published), the
    ///      ProviderRegistry (10-year attestations) and a MockPriceIndex at 2.5 USDC/CH as its price oracle.
    function _deployCompute() internal {
        _deployAccessManager();
        dps = DPSToken(_deployDps(GENESIS_DPS, false));
        ch = CHToken(_deployCh());
        standard = ComputeStandard(_deployComputeStandard());
        registry = ProviderRegistry(
            _deployProviderRegistry(address(dps), address(ch), address(standard), DeployDefaults.registry(3650 days))
        );
        attester = vm.addr(ATTESTER_PK);
        oracle = MockPriceIndex(deployCode("MockPriceIndex.sol:MockPriceIndex", abi.encode(2.5e18)));
        registry.setPriceOracle(address(oracle));
    }

    function _attestation(address provider) internal view returns (IProviderRegistry.Attestation memory a) {
        uint256[] memory f = new uint256[](3);
        (f[0], f[1], f[2]) = (1.2e18, 0.9e18, 1e18);
        a = IProviderRegistry.Attestation({
            provider: provider,
            workloadClass: 1,
            standardVersion: standard.latestVersion(1),
            avgPflopsWad: 0.5e18,
            factorsWad: f,
            capacityPflopsWad: 0.5e18,
            powerWattsWad: 700e18,
            nonce: registry.attestationNonce(provider),
            deadline: block.timestamp + 1 hours
        });
    }

    function _sign(IProviderRegistry.Attestation memory a, uint256 pk) internal view returns (bytes memory) {
        return signDigest(pk, registry.attestationDigest(a));
    }

    /// @dev Registers, stakes `stakeDps` (from this contract's genesis DPS) and attests `provider`.
    function _onboard(address provider, uint256 stakeDps) internal {
        vm.prank(provider);
        registry.register(1, 0x2, bytes32(0), "");
        if (stakeDps > 0) {
            dps.transfer(provider, stakeDps);
            vm.startPrank(provider);
            dps.approve(address(registry), stakeDps);
            registry.stake(stakeDps);
            vm.stopPrank();
        }
        IProviderRegistry.Attestation memory a = _attestation(provider);
        registry.attest(a, _sign(a, ATTESTER_PK));
    }
}
