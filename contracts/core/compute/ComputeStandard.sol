// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IComputeStandard} from "../../interfaces/compute/IComputeStandard.sol";

/// @title ComputeStandard
/// @notice Versioned reference systems, the adaptable power index, the CH rate, payment quotes and grades.
/// @dev Weights are packed four per slot (uint64 holds 1e18), so rating a benchmark reads at most three slots.
contract ComputeStandard is ChxUpgradeable, IComputeStandard {
    uint256 internal constant WAD = 1e18;
    uint256 internal constant MAX_FACTORS = 8;

    struct StoredReference {
        uint128 refPflopsWad;
        uint8 factorCount;
        uint40 publishedAt;
        /// @dev Set when a newer version of the class is published, so a rating learns "not latest" from the
        ///      slot it reads anyway.
        bool superseded;
        uint64[8] weightsWad;
    }

    /// @custom:storage-location erc7201:chx.storage.ComputeStandard
    struct ComputeStandardStorage {
        mapping(uint16 workloadClass => uint16 version) latest;
        mapping(uint32 key => StoredReference) refs;
        GradeThresholds thresholds;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.ComputeStandard")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant COMPUTE_STANDARD_STORAGE_LOCATION =
        0x44e5d9becf670db2d756b18b092fdfdc46f1a0a981dc7a11a60e2d601086d700;

    function _getComputeStandardStorage() private pure returns (ComputeStandardStorage storage $) {
        assembly {
            $.slot := COMPUTE_STANDARD_STORAGE_LOCATION
        }
    }

    /// @notice Initialises the proxy with the seed's grade thresholds.
    /// @dev Defaults: performance A ≥ 1.5×, B ≥ 1.1×, C ≥ 0.9× the reference; reliability > 99.9 %, ≥ 99 %,
    ///      ≥ 95 %; energy X ≤ 500 Wh/CH, Y ≤ 1000 Wh/CH.
    /// @param authority The protocol AccessManager.
    function initialize(address authority) external initializer {
        __ChxUpgradeable_init(authority);
        _setGradeThresholds(
            GradeThresholds({
                perfAWad: 1.5e18,
                perfBWad: 1.1e18,
                perfCWad: 0.9e18,
                uptime1Wad: 0.999e18,
                uptime2Wad: 0.99e18,
                uptime3Wad: 0.95e18,
                energyXWad: 500e18,
                energyYWad: 1000e18
            })
        );
    }

    function _key(uint16 workloadClass, uint16 version) private pure returns (uint32) {
        return (uint32(workloadClass) << 16) | uint32(version);
    }

    function _ref(uint16 workloadClass, uint16 version) private view returns (StoredReference storage r) {
        r = _getComputeStandardStorage().refs[_key(workloadClass, version)];
        if (r.refPflopsWad == 0) revert StandardUnknownVersion(workloadClass, version);
    }

    /// @inheritdoc IComputeStandard
    function publishReference(
        uint16 workloadClass,
        uint128 refPflopsWad,
        uint64[] calldata weightsWad,
        string calldata name,
        bytes32 specHash
    ) external restricted returns (uint16 version) {
        if (refPflopsWad == 0) revert StandardZeroReference(workloadClass);
        uint256 n = weightsWad.length;
        if (n == 0 || n > MAX_FACTORS) revert StandardFactorCount(n, MAX_FACTORS);
        ComputeStandardStorage storage $ = _getComputeStandardStorage();
        uint16 previous = $.latest[workloadClass];
        version = previous + 1;
        if (previous != 0) $.refs[_key(workloadClass, previous)].superseded = true;
        StoredReference storage r = $.refs[_key(workloadClass, version)];
        uint256 sum;
        for (uint256 k; k < n; ++k) {
            sum += weightsWad[k];
            r.weightsWad[k] = weightsWad[k];
        }
        if (sum != WAD) revert StandardWeightsSum(workloadClass, sum);
        r.refPflopsWad = refPflopsWad;
        r.factorCount = uint8(n);
        r.publishedAt = uint40(block.timestamp);
        $.latest[workloadClass] = version;
        emit ReferencePublished(workloadClass, version, refPflopsWad, weightsWad, name, specHash);
    }

    /// @inheritdoc IComputeStandard
    function setGradeThresholds(GradeThresholds calldata thresholds) external restricted {
        _setGradeThresholds(thresholds);
    }

    function _setGradeThresholds(GradeThresholds memory t) private {
        if (
            t.perfAWad < t.perfBWad ||
            t.perfBWad < t.perfCWad ||
            t.uptime1Wad > WAD ||
            t.uptime1Wad < t.uptime2Wad ||
            t.uptime2Wad < t.uptime3Wad ||
            t.energyXWad > t.energyYWad
        ) revert StandardInvalidThresholds();
        _getComputeStandardStorage().thresholds = t;
        emit GradeThresholdsSet(t);
    }

    /// @inheritdoc IComputeStandard
    function latestVersion(uint16 workloadClass) external view returns (uint16) {
        return _getComputeStandardStorage().latest[workloadClass];
    }

    /// @inheritdoc IComputeStandard
    function referenceSystem(uint16 workloadClass, uint16 version) external view returns (ReferenceSystem memory s) {
        StoredReference storage r = _ref(workloadClass, version);
        s.refPflopsWad = r.refPflopsWad;
        s.factorCount = r.factorCount;
        s.publishedAt = r.publishedAt;
        s.weightsWad = new uint64[](r.factorCount);
        for (uint256 k; k < r.factorCount; ++k) s.weightsWad[k] = r.weightsWad[k];
    }

    /// @inheritdoc IComputeStandard
    function gradeThresholds() external view returns (GradeThresholds memory) {
        return _getComputeStandardStorage().thresholds;
    }

    function _adjustment(
        StoredReference storage r,
        uint16 workloadClass,
        uint16 version,
        uint256[] calldata factorsWad
    ) private view returns (uint256 wWad) {
        uint256 n = r.factorCount;
        if (factorsWad.length != n) revert StandardFactorMismatch(workloadClass, version, n, factorsWad.length);
        for (uint256 k; k < n; ++k) {
            // @dev Rounds down: the provider is never rated above its measurement. Weights are read one by one
            //      from storage so only the slots holding the first n weights are touched.
            wWad += Math.mulDiv(r.weightsWad[k], factorsWad[k], WAD);
        }
    }

    /// @inheritdoc IComputeStandard
    function adjustmentRatioWad(
        uint16 workloadClass,
        uint16 version,
        uint256[] calldata factorsWad
    ) external view returns (uint256) {
        return _adjustment(_ref(workloadClass, version), workloadClass, version, factorsWad);
    }

    /// @inheritdoc IComputeStandard
    function rate(
        uint16 workloadClass,
        uint16 version,
        uint256 avgPflopsWad,
        uint256[] calldata factorsWad
    ) public view returns (uint256 correctedPflopsWad, uint256 chPerHourWad) {
        StoredReference storage r = _ref(workloadClass, version);
        uint256 wWad = _adjustment(r, workloadClass, version, factorsWad);
        // @dev Both divisions round down (protocol-favouring: caps and grades derive from them).
        correctedPflopsWad = Math.mulDiv(avgPflopsWad, wWad, WAD);
        chPerHourWad = Math.mulDiv(correctedPflopsWad, WAD, r.refPflopsWad);
    }

    /// @inheritdoc IComputeStandard
    function rateBenchmark(
        uint16 workloadClass,
        uint16 version,
        uint256 avgPflopsWad,
        uint256[] calldata factorsWad,
        uint256 powerWattsWad
    ) external view returns (Rating memory r) {
        (r.correctedPflopsWad, r.chPerHourWad) = rate(workloadClass, version, avgPflopsWad, factorsWad);
        r.latestVersion =
            _getComputeStandardStorage().refs[_key(workloadClass, version)].superseded
                ? _getComputeStandardStorage().latest[workloadClass]
                : version;
        // @dev Rounds up: more energy per CH is the worse grade.
        r.whPerChWad =
            r.chPerHourWad == 0
                ? type(uint256).max
                : Math.mulDiv(powerWattsWad, WAD, r.chPerHourWad, Math.Rounding.Ceil);
    }

    /// @inheritdoc IComputeStandard
    function computeHoursWad(uint256 chPerHourWad, uint256 durationSec) external pure returns (uint256) {
        // @dev Rounds down: credited work.
        return Math.mulDiv(chPerHourWad, durationSec, 1 hours);
    }

    /// @inheritdoc IComputeStandard
    function quotePaymentWad(
        uint256 costPerPflopsHourWad,
        uint256 correctedPflopsWad,
        uint256 durationSec
    ) external pure returns (uint256) {
        // @dev Rounds up: the amount a client owes. C·F is WAD·WAD, so divide by WAD·3600 once.
        return Math.mulDiv(costPerPflopsHourWad * correctedPflopsWad, durationSec, WAD * 1 hours, Math.Rounding.Ceil);
    }

    /// @inheritdoc IComputeStandard
    function performanceGrade(uint256 chPerHourWad) public view returns (PerformanceGrade) {
        GradeThresholds storage t = _getComputeStandardStorage().thresholds;
        if (chPerHourWad >= t.perfAWad) return PerformanceGrade.A;
        if (chPerHourWad >= t.perfBWad) return PerformanceGrade.B;
        if (chPerHourWad >= t.perfCWad) return PerformanceGrade.C;
        return PerformanceGrade.D;
    }

    /// @inheritdoc IComputeStandard
    function reliabilityGrade(uint256 uptimeWad) external view returns (ReliabilityGrade) {
        GradeThresholds storage t = _getComputeStandardStorage().thresholds;
        if (uptimeWad > t.uptime1Wad) return ReliabilityGrade.R1;
        if (uptimeWad >= t.uptime2Wad) return ReliabilityGrade.R2;
        if (uptimeWad >= t.uptime3Wad) return ReliabilityGrade.R3;
        return ReliabilityGrade.R4;
    }

    /// @inheritdoc IComputeStandard
    function energyGrade(uint256 whPerChWad) public view returns (EnergyGrade) {
        GradeThresholds storage t = _getComputeStandardStorage().thresholds;
        if (whPerChWad <= t.energyXWad) return EnergyGrade.X;
        if (whPerChWad <= t.energyYWad) return EnergyGrade.Y;
        return EnergyGrade.Z;
    }
}
