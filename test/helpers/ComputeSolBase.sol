// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {ChxAccessManager} from "../../contracts/core/governance/ChxAccessManager.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {DPSToken} from "../../contracts/core/token/DPSToken.sol";
import {CHToken} from "../../contracts/core/token/CHToken.sol";
import {ComputeStandard} from "../../contracts/core/compute/ComputeStandard.sol";
import {ProviderRegistry} from "../../contracts/core/compute/ProviderRegistry.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {MockPriceIndex} from "../../contracts/mocks/MockPriceIndex.sol";

/// @notice Governance, DPS, CH and the compute layer (standard, registry) behind real ERC1967 proxies, with this
///         contract as bootstrap admin, an attester key and helpers to onboard providers.
/// @dev Standalone rather than extending ChxSolBase: solc-js (wasm) runs out of memory compiling ChxSolBase's
///      full token set together with the registry in one job; GFL and USDC are not needed here.
abstract contract ComputeSolBase is Test {
    ChxAccessManager internal manager;
    DPSToken internal dps;
    CHToken internal ch;
    ComputeStandard internal standard;
    ProviderRegistry internal registry;
    MockPriceIndex internal oracle;

    uint256 internal constant GENESIS_DPS = 10_000_000e18;
    uint256 internal constant ATTESTER_PK = 0xA77E57;
    address internal attester;

    function _proxy(address impl, bytes memory init) internal returns (address) {
        return address(new ERC1967Proxy(impl, init));
    }

    function _setRole(address target, bytes4 selector, uint64 role) internal {
        bytes4[] memory sels = new bytes4[](1);
        sels[0] = selector;
        manager.setTargetFunctionRole(target, sels, role);
    }

    function _grant(uint64 role, address account) internal {
        manager.grantRole(role, account, 0);
    }

    function _deployCompute() internal {
        manager = ChxAccessManager(
            _proxy(address(new ChxAccessManager()), abi.encodeWithSignature("initialize(address)", address(this)))
        );
        dps = DPSToken(
            _proxy(
                address(new DPSToken()),
                abi.encodeCall(DPSToken.initialize, (address(manager), address(this), GENESIS_DPS))
            )
        );
        ch = CHToken(_proxy(address(new CHToken()), abi.encodeCall(CHToken.initialize, (address(manager)))));
        _setRole(address(ch), CHToken.mint.selector, Roles.CH_MINTER);
        _setRole(address(ch), CHToken.burn.selector, Roles.CH_MINTER);
        standard = ComputeStandard(
            _proxy(address(new ComputeStandard()), abi.encodeCall(ComputeStandard.initialize, (address(manager))))
        );
        IProviderRegistry.Params memory p = IProviderRegistry.Params({
            minStakeDps: 1_000e18,
            collateralFactorWad: 0.5e18,
            mintHorizonSec: 30 days,
            unbondingDelaySec: 7 days,
            attestationValiditySec: 3650 days,
            heartbeatIntervalSec: 1 hours,
            uptimeWindowSec: 30 days,
            finderFeeBps: 1_000,
            redemptionPenaltyBps: 1_000,
            dpsPriceWad: 1e18
        });
        registry = ProviderRegistry(
            _proxy(
                address(new ProviderRegistry()),
                abi.encodeCall(
                    ProviderRegistry.initialize,
                    (address(manager), address(dps), address(ch), address(standard), p)
                )
            )
        );
        _grant(Roles.CH_MINTER, address(registry));
        _setRole(address(registry), ProviderRegistry.recordTaskOutcome.selector, Roles.COMPUTE);
        _setRole(address(registry), ProviderRegistry.assignRedemption.selector, Roles.COMPUTE);
        _setRole(address(registry), ProviderRegistry.confirmDelivery.selector, Roles.COMPUTE);
        _setRole(address(registry), ProviderRegistry.reportDeliveryFailure.selector, Roles.COMPUTE);
        _setRole(address(registry), ProviderRegistry.releaseRedemption.selector, Roles.COMPUTE);
        _setRole(address(registry), ProviderRegistry.slash.selector, Roles.PROVIDER_SLASHER);
        _setRole(address(registry), ProviderRegistry.slashTo.selector, Roles.PROVIDER_SLASHER);
        _setRole(address(registry), ProviderRegistry.lockStake.selector, Roles.STAKE_LOCKER);
        _setRole(address(registry), ProviderRegistry.releaseStake.selector, Roles.STAKE_LOCKER);
        attester = vm.addr(ATTESTER_PK);
        _grant(Roles.ATTESTER, attester);
        uint64[] memory w = new uint64[](3);
        (w[0], w[1], w[2]) = (0.5e18, 0.3e18, 0.2e18);
        standard.publishReference(1, 0.312e18, w, "ML training", bytes32(0));
        oracle = new MockPriceIndex(2.5e18);
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
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(pk, registry.attestationDigest(a));
        return abi.encodePacked(r, s, v);
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
