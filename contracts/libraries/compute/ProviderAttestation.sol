// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {IAccessManager} from "@openzeppelin/contracts/access/manager/IAccessManager.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {Roles} from "../../core/governance/Roles.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryEvents} from "../../interfaces/compute/IProviderRegistryEvents.sol";
import {IProviderRegistryErrors} from "../../interfaces/compute/IProviderRegistryErrors.sol";
import {IComputeStandard} from "../../interfaces/compute/IComputeStandard.sol";
import {ProviderRegistryStore} from "../../core/compute/ProviderRegistryStore.sol";
import {ProviderDraw} from "./ProviderDraw.sol";

/// @title ProviderAttestation
/// @notice The ProviderRegistry's benchmark attestations: EIP-712 digest, ATTESTER signature check, rating by the
///         ComputeStandard and the packed write of the attestation slot. Linked as an external library.
library ProviderAttestation {
    bytes32 internal constant ATTESTATION_TYPEHASH = keccak256(
        "Attestation(address provider,uint16 workloadClass,uint16 standardVersion,uint256 avgPflopsWad,uint256[] factorsWad,uint256 capacityPflopsWad,uint256 powerWattsWad,uint256 nonce,uint256 deadline)"
    );

    /// @notice Verifies and records an attestation signed by an ATTESTER of `authority`.
    /// @param domainSeparator The calling registry's EIP-712 domain separator (its EIP712Upgradeable
    ///        `_domainSeparatorV4()`: live chain id, the registry proxy's address).
    function attest(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        IProviderRegistry.Attestation calldata a,
        bytes calldata signature,
        address authority,
        bytes32 domainSeparator
    ) external {
        if (block.timestamp > a.deadline) revert IProviderRegistryErrors.ProviderAttestationExpired(a.deadline);
        ProviderRegistryStore.ProviderData storage p = $.providers[a.provider];
        // A registered provider always has a non-zero workload mask (slot 2, which this call rewrites anyway).
        if (p.workloadMask == 0) revert IProviderRegistryErrors.ProviderNotRegistered(a.provider);
        uint256 nonce = p.attestationNonce;
        if (a.nonce != nonce) revert IProviderRegistryErrors.ProviderBadAttestationNonce(a.provider, nonce, a.nonce);
        if (a.workloadClass >= 64 || (p.workloadMask >> a.workloadClass) & 1 == 0) {
            revert IProviderRegistryErrors.ProviderWorkloadNotDeclared(a.provider, a.workloadClass);
        }
        address signer = _attester(a, signature, authority, domainSeparator);
        IComputeStandard.Rating memory r = _rate($, a);
        uint256 expiresAt = block.timestamp + $.attestationValiditySec;
        // Effects: the attestation slot is rewritten whole; the version is stored with the rate, so a later
        // standard version never re-rates it.
        _writeAttestationCore(p, r.chPerHourWad, a.capacityPflopsWad, expiresAt, a.workloadClass, a.standardVersion);
        p.attestationNonce = uint32(nonce + 1);
        p.attestedAt = uint40(block.timestamp);
        p.whPerChWad = r.whPerChWad > type(uint96).max ? type(uint96).max : uint96(r.whPerChWad);
        ProviderDraw.record($, p, a.provider);
        emit IProviderRegistryEvents.Attested(
            a.provider,
            signer,
            a.workloadClass,
            nonce,
            r,
            a.capacityPflopsWad,
            expiresAt
        );
    }

    /// @dev Writes slot 1 of ProviderData (chPerHourWad | capacityPflopsWad | attestationExpiresAt | workloadClass
    ///      | standardVersion, packed from the low bits in declaration order) with one SSTORE instead of five
    ///      read-modify-writes. Callers guarantee the widths (rate and capacity < 2^88, expiry < 2^40).
    function _writeAttestationCore(
        ProviderRegistryStore.ProviderData storage p,
        uint256 chPerHourWad,
        uint256 capacityPflopsWad,
        uint256 expiresAt,
        uint16 workloadClass,
        uint16 standardVersion
    ) private {
        uint256 packed =
            chPerHourWad |
                (capacityPflopsWad << 88) |
                (expiresAt << 176) |
                (uint256(workloadClass) << 216) |
                (uint256(standardVersion) << 232);
        assembly {
            sstore(add(p.slot, 1), packed)
        }
    }

    /// @dev Recovers the signer (OpenZeppelin ECDSA: rejects malleable s and bad v) and checks it is an ATTESTER.
    function _attester(
        IProviderRegistry.Attestation calldata a,
        bytes calldata signature,
        address authority,
        bytes32 domainSeparator
    ) private view returns (address signer) {
        ECDSA.RecoverError err;
        (signer, err, ) = ECDSA.tryRecoverCalldata(digest(a, domainSeparator), signature);
        if (err != ECDSA.RecoverError.NoError) revert IProviderRegistryErrors.ProviderInvalidAttester(signer);
        (bool isAttester, ) = IAccessManager(authority).hasRole(Roles.ATTESTER, signer);
        if (!isAttester) revert IProviderRegistryErrors.ProviderInvalidAttester(signer);
    }

    /// @dev Rates the benchmark with ComputeStandard at the signed version, which must be the latest.
    function _rate(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        IProviderRegistry.Attestation calldata a
    ) private view returns (IComputeStandard.Rating memory r) {
        r = IComputeStandard($.standard).rateBenchmark(
            a.workloadClass,
            a.standardVersion,
            a.avgPflopsWad,
            a.factorsWad,
            a.powerWattsWad
        );
        if (r.latestVersion != a.standardVersion) {
            revert IProviderRegistryErrors.ProviderStaleStandard(a.workloadClass, a.standardVersion, r.latestVersion);
        }
        if (r.chPerHourWad > type(uint88).max || a.capacityPflopsWad > type(uint88).max) {
            revert IProviderRegistryErrors.ProviderValueTooLarge();
        }
    }

    /// @notice The EIP-712 digest an ATTESTER signs for `a` under `domainSeparator` (the registry's
    ///         `attestationDigest` view passes its own).
    function attestationDigest(
        IProviderRegistry.Attestation calldata a,
        bytes32 domainSeparator
    ) external pure returns (bytes32) {
        return digest(a, domainSeparator);
    }

    /// @notice The EIP-712 digest an ATTESTER signs for `a`.
    function digest(IProviderRegistry.Attestation calldata a, bytes32 domainSeparator) internal pure returns (bytes32) {
        return
            MessageHashUtils.toTypedDataHash(
                domainSeparator,
                keccak256(
                    abi.encode(
                        ATTESTATION_TYPEHASH,
                        a.provider,
                        a.workloadClass,
                        a.standardVersion,
                        a.avgPflopsWad,
                        keccak256(abi.encodePacked(a.factorsWad)),
                        a.capacityPflopsWad,
                        a.powerWattsWad,
                        a.nonce,
                        a.deadline
                    )
                )
            );
    }
}
