// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IComputeStandard
/// @notice What a Compute Hour is: versioned reference systems per workload class, the adaptable power index of
///         seed 001 section 6 (`W_i = Σ_k weight_k · P_k,i`, `FLOPS_corrected,i = FLOPS_avg · W_i`), the CH rate of
///         seed 000 eq. 1 (`CH per wall-clock hour = corrected performance / reference performance`), the payment
///         quote `P = C · FLOPS_corrected · T`, and the grades of seed 000 section 7.3.
/// @dev Units: performance in PetaFLOPS, WAD (1e18 = 1 PFLOPS, the GFL unit); weights and normalised factors WAD;
///      CH rates in CH per wall-clock hour, WAD; uptime WAD (1e18 = 100 %); energy in watt-hours per CH, WAD.
///      A published version is immutable: a new version never re-rates an attestation made against an older one.
interface IComputeStandard {
    /// @notice Performance grade vs the reference system (A: well above, B: moderately above, C: close, D: below).
    enum PerformanceGrade {
        A,
        B,
        C,
        D
    }

    /// @notice Reliability grade from uptime (R1: > 99.9 %, R2: 99.0–99.9 %, R3: 95–99 %, R4: < 95 %).
    enum ReliabilityGrade {
        R1,
        R2,
        R3,
        R4
    }

    /// @notice Energy grade from watt-hours per CH (X: efficient, Y: moderate, Z: high consumption).
    enum EnergyGrade {
        X,
        Y,
        Z
    }

    /// @notice One published reference system of a workload class.
    /// @param refPflopsWad Reference performance, PFLOPS WAD: 1 CH = this performance for one hour.
    /// @param factorCount Number of performance factors (1..8) whose weights follow.
    /// @param publishedAt Publication timestamp.
    /// @param weightsWad Factor weights, WAD, summing to exactly 1e18.
    struct ReferenceSystem {
        uint128 refPflopsWad;
        uint8 factorCount;
        uint40 publishedAt;
        uint64[] weightsWad;
    }

    /// @notice Governance thresholds of the three grades.
    /// @dev Performance: chPerHour ≥ perfAWad → A, ≥ perfBWad → B, ≥ perfCWad → C, else D.
    ///      Reliability: uptime > uptime1Wad → R1, ≥ uptime2Wad → R2, ≥ uptime3Wad → R3, else R4.
    ///      Energy: Wh/CH ≤ energyXWad → X, ≤ energyYWad → Y, else Z.
    struct GradeThresholds {
        uint64 perfAWad;
        uint64 perfBWad;
        uint64 perfCWad;
        uint64 uptime1Wad;
        uint64 uptime2Wad;
        uint64 uptime3Wad;
        uint128 energyXWad;
        uint128 energyYWad;
    }

    /// @notice A benchmark rated against one version, in one call (what the ProviderRegistry stores). Grades are
    ///         read from the stored rate with `performanceGrade` / `energyGrade` under the current thresholds.
    /// @param latestVersion The class's latest version (the registry only accepts ratings against it).
    /// @param correctedPflopsWad FLOPS_corrected, PFLOPS WAD.
    /// @param chPerHourWad CH per wall-clock hour, WAD.
    /// @param whPerChWad Watt-hours per CH, WAD (power / CH rate, rounded up; max uint256 when the rate is 0).
    struct Rating {
        uint16 latestVersion;
        uint256 correctedPflopsWad;
        uint256 chPerHourWad;
        uint256 whPerChWad;
    }

    /// @notice Thrown when a reference performance of zero is published.
    /// @param workloadClass The class.
    error StandardZeroReference(uint16 workloadClass);

    /// @notice Thrown when the factor weights do not sum to exactly 1e18.
    /// @param workloadClass The class.
    /// @param sumWad The sum given.
    error StandardWeightsSum(uint16 workloadClass, uint256 sumWad);

    /// @notice Thrown when a reference has no factor or more than `maxFactors`.
    /// @param given Factors given.
    /// @param maxFactors The limit (8).
    error StandardFactorCount(uint256 given, uint256 maxFactors);

    /// @notice Thrown when the normalised factors passed to a rating do not match the version's factor count.
    /// @param workloadClass The class.
    /// @param version The version.
    /// @param expected The version's factor count.
    /// @param given Factors given.
    error StandardFactorMismatch(uint16 workloadClass, uint16 version, uint256 expected, uint256 given);

    /// @notice Thrown when a class/version pair has not been published.
    /// @param workloadClass The class.
    /// @param version The version asked for.
    error StandardUnknownVersion(uint16 workloadClass, uint16 version);

    /// @notice Thrown when grade thresholds are not ordered (perf A ≥ B ≥ C; uptime 1 ≥ 2 ≥ 3, all ≤ 1e18;
    ///         energy X ≤ Y).
    error StandardInvalidThresholds();

    /// @notice Emitted when governance publishes a new reference version of a workload class.
    /// @param workloadClass The class (e.g. 1 ML training, 2 inference, 3 rendering, 4 general CPU).
    /// @param version The new version (1-based, increasing).
    /// @param refPflopsWad Reference performance, PFLOPS WAD.
    /// @param weightsWad Factor weights, WAD (sum 1e18).
    /// @param name Human-readable name of the class.
    /// @param specHash Content hash of the reference system's full description (hardware, benchmark suite).
    event ReferencePublished(
        uint16 indexed workloadClass,
        uint16 indexed version,
        uint128 refPflopsWad,
        uint64[] weightsWad,
        string name,
        bytes32 specHash
    );

    /// @notice Emitted when governance changes the grade thresholds.
    /// @param thresholds The new thresholds.
    event GradeThresholdsSet(GradeThresholds thresholds);

    /// @notice Publishes a new, immutable reference version of a workload class. ADMIN (governance) only.
    /// @param workloadClass The class.
    /// @param refPflopsWad Reference performance, PFLOPS WAD (> 0).
    /// @param weightsWad 1..8 factor weights, WAD, summing to exactly 1e18.
    /// @param name Class name (event only).
    /// @param specHash Content hash of the reference description (event only).
    /// @return version The new version number.
    function publishReference(
        uint16 workloadClass,
        uint128 refPflopsWad,
        uint64[] calldata weightsWad,
        string calldata name,
        bytes32 specHash
    ) external returns (uint16 version);

    /// @notice Sets the grade thresholds. ADMIN (governance) only.
    /// @param thresholds New thresholds (see GradeThresholds for the ordering rules).
    function setGradeThresholds(GradeThresholds calldata thresholds) external;

    /// @notice Latest published version of a class (0 when none).
    /// @param workloadClass The class.
    /// @return The latest version.
    function latestVersion(uint16 workloadClass) external view returns (uint16);

    /// @notice A published reference system.
    /// @param workloadClass The class.
    /// @param version The version.
    /// @return The reference system.
    function referenceSystem(uint16 workloadClass, uint16 version) external view returns (ReferenceSystem memory);

    /// @notice The grade thresholds.
    /// @return The thresholds.
    function gradeThresholds() external view returns (GradeThresholds memory);

    /// @notice Adjustment ratio `W_i = Σ_k weight_k · P_k,i` (seed 001 eq. 2).
    /// @dev Each product rounds down (mulWadDown): a provider is never rated above what it measured.
    /// @param workloadClass The class.
    /// @param version The version.
    /// @param factorsWad Normalised performance factors P_k,i, WAD, one per weight.
    /// @return wWad W_i, WAD.
    function adjustmentRatioWad(
        uint16 workloadClass,
        uint16 version,
        uint256[] calldata factorsWad
    ) external view returns (uint256 wWad);

    /// @notice Rates a benchmark: corrected performance (seed 001 eq. 1) and CH per wall-clock hour (seed 000 eq. 1).
    /// @dev corrected = avg · W_i (down); chPerHour = corrected / ref (down). Rounding down favours the protocol:
    ///      mint caps and grades are derived from the rate.
    /// @param workloadClass The class.
    /// @param version The version.
    /// @param avgPflopsWad Measured average performance FLOPS_avg, PFLOPS WAD.
    /// @param factorsWad Normalised performance factors, WAD.
    /// @return correctedPflopsWad FLOPS_corrected,i, PFLOPS WAD.
    /// @return chPerHourWad CH per wall-clock hour, WAD.
    function rate(
        uint16 workloadClass,
        uint16 version,
        uint256 avgPflopsWad,
        uint256[] calldata factorsWad
    ) external view returns (uint256 correctedPflopsWad, uint256 chPerHourWad);

    /// @notice Rates a benchmark (corrected performance, CH rate, energy per CH) in one call.
    /// @dev Same rounding as `rate`; energy per CH rounds up (the worse grade, protocol-favouring).
    /// @param workloadClass The class.
    /// @param version The version.
    /// @param avgPflopsWad Measured average performance, PFLOPS WAD.
    /// @param factorsWad Normalised performance factors, WAD.
    /// @param powerWattsWad Average power draw, watts WAD.
    /// @return r The rating.
    function rateBenchmark(
        uint16 workloadClass,
        uint16 version,
        uint256 avgPflopsWad,
        uint256[] calldata factorsWad,
        uint256 powerWattsWad
    ) external view returns (Rating memory r);

    /// @notice Compute Hours produced by a system of rate `chPerHourWad` running `durationSec` (seed 000 eq. 1).
    /// @dev Rounds down (credited work).
    /// @param chPerHourWad CH per wall-clock hour, WAD.
    /// @param durationSec Operational seconds.
    /// @return chWad Compute Hours, WAD.
    function computeHoursWad(uint256 chPerHourWad, uint256 durationSec) external pure returns (uint256 chWad);

    /// @notice Payment quote `P = C · FLOPS_corrected · T` (seed 001 eq. 3).
    /// @dev Rounds up: it is what a client owes.
    /// @param costPerPflopsHourWad C: price per PFLOPS per hour, WAD (in the payment token's WAD units).
    /// @param correctedPflopsWad FLOPS_corrected, PFLOPS WAD.
    /// @param durationSec T in seconds.
    /// @return paymentWad P, WAD.
    function quotePaymentWad(
        uint256 costPerPflopsHourWad,
        uint256 correctedPflopsWad,
        uint256 durationSec
    ) external pure returns (uint256 paymentWad);

    /// @notice Performance grade of a CH rate.
    /// @param chPerHourWad CH per wall-clock hour, WAD (performance / reference).
    /// @return The grade.
    function performanceGrade(uint256 chPerHourWad) external view returns (PerformanceGrade);

    /// @notice Reliability grade of an uptime.
    /// @param uptimeWad Uptime, WAD (1e18 = 100 %).
    /// @return The grade.
    function reliabilityGrade(uint256 uptimeWad) external view returns (ReliabilityGrade);

    /// @notice Energy grade of a consumption per CH.
    /// @param whPerChWad Watt-hours per CH, WAD.
    /// @return The grade.
    function energyGrade(uint256 whPerChWad) external view returns (EnergyGrade);
}
