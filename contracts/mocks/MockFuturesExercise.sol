// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IFuturesExercise} from "../interfaces/markets/IFuturesExercise.sol";
import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";

/// @title MockFuturesExercise
/// @notice Test-only stand-in for the FuturesMarket's exercise seam. Each series has an expiry and a trading flag set
///         by the test. `openFromExercise` records the opened pair and, when built with a ClearingHouse, opens the two
///         legs there as a real market would (so the clearing house's margin check applies); a test can also make it
///         revert with a reason (`failWithReason`) or without one (`failSilently`, an out-of-gas stand-in).
contract MockFuturesExercise is IFuturesExercise {
    /// @notice Thrown when the mock is told to fail.
    /// @param seriesId The series.
    error MockFuturesRefused(uint256 seriesId);

    /// @notice Emitted for every opened pair.
    /// @param seriesId The series.
    /// @param longAccount Long.
    /// @param shortAccount Short.
    /// @param sizeCh Size.
    /// @param priceWad Price.
    event ExerciseOpened(
        uint256 indexed seriesId,
        address indexed longAccount,
        address indexed shortAccount,
        uint256 sizeCh,
        uint256 priceWad
    );

    struct SeriesInfo {
        uint64 expiry;
        bool trading;
    }

    IClearingHouse public immutable clearingHouse;
    mapping(uint256 => SeriesInfo) public info;
    bool public failWithReason;
    bool public failSilently;
    uint256 public openedCount;
    /// @notice Σ size opened per account (long positive, short negative) per series.
    mapping(uint256 => mapping(address => int256)) public netSize;

    /// @param clearingHouse_ The ClearingHouse to open real legs in, or address(0) to only record.
    constructor(address clearingHouse_) {
        clearingHouse = IClearingHouse(clearingHouse_);
    }

    /// @notice Sets a series' expiry and trading flag.
    /// @param seriesId The series.
    /// @param expiry Expiry.
    /// @param trading Trading flag.
    function setSeries(uint256 seriesId, uint64 expiry, bool trading) external {
        info[seriesId] = SeriesInfo(expiry, trading);
    }

    /// @notice Makes `openFromExercise` revert with a reason or silently.
    /// @param withReason Revert with MockFuturesRefused.
    /// @param silently Revert with no data.
    function setFailure(bool withReason, bool silently) external {
        failWithReason = withReason;
        failSilently = silently;
    }

    /// @inheritdoc IFuturesExercise
    function openFromExercise(
        uint256 seriesId,
        address longAccount,
        address shortAccount,
        uint256 sizeCh,
        uint256 priceWad
    ) external {
        if (failSilently) {
            assembly {
                revert(0, 0)
            }
        }
        if (failWithReason || !info[seriesId].trading) revert MockFuturesRefused(seriesId);
        netSize[seriesId][longAccount] += int256(sizeCh);
        netSize[seriesId][shortAccount] -= int256(sizeCh);
        ++openedCount;
        emit ExerciseOpened(seriesId, longAccount, shortAccount, sizeCh, priceWad);
        if (address(clearingHouse) != address(0)) {
            clearingHouse.modifyPosition(longAccount, int256(sizeCh), priceWad, 0);
            clearingHouse.modifyPosition(shortAccount, -int256(sizeCh), priceWad, 0);
        }
    }

    /// @inheritdoc IFuturesExercise
    function seriesExpiry(uint256 seriesId) external view returns (uint64 expiry, bool trading) {
        SeriesInfo memory s = info[seriesId];
        return (s.expiry, s.trading);
    }

    /// @inheritdoc IFuturesExercise
    /// @dev Every listed mock series counts as standard.
    function isStandardSeries(uint256 seriesId) external view returns (bool) {
        return info[seriesId].expiry != 0;
    }
}
