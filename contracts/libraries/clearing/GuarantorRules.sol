// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolErrors} from "../../interfaces/clearing/IGuarantorPoolErrors.sol";

/// @title GuarantorRules
/// @notice The GuarantorPool's capital rules: the capacity a guarantor's capital gives (capital × max leverage,
///         rounded down), the withdrawal notice (CLR-02), the insurance requirement (CLR-01), income vesting and the
///         bounded DPS slash rule.
library GuarantorRules {
    /// @notice Exposure `capitalUsdc` carries at `maxLeverageWad`, rounded down.
    function capacity(uint256 capitalUsdc, uint256 maxLeverageWad) internal pure returns (uint256) {
        return Math.mulDiv(capitalUsdc, maxLeverageWad, 1e18);
    }

    /// @notice Reverts PoolCapacityExceeded unless `exposureUsdc` (0 passes) fits the capacity of `capitalUsdc`.
    function checkCapacity(
        address guarantor,
        uint256 exposureUsdc,
        uint256 capitalUsdc,
        uint256 maxLeverageWad
    ) internal pure {
        if (exposureUsdc == 0) return;
        uint256 cap = capacity(capitalUsdc, maxLeverageWad);
        if (exposureUsdc > cap) revert IGuarantorPoolErrors.PoolCapacityExceeded(guarantor, cap, exposureUsdc);
    }

    /// @notice Checks that `holder` may spend `shares` of notice `n` now: in force (share epoch `epoch`), period
    ///         passed, window open, within the noticed shares (CLR-02). Returns the noticed shares left after it.
    function spendNotice(
        IGuarantorPool.CapitalNotice storage n,
        uint64 epoch,
        address guarantor,
        address holder,
        uint256 shares
    ) internal view returns (uint256 left) {
        uint256 noticed = n.shares;
        if (noticed == 0 || n.epoch != epoch) revert IGuarantorPoolErrors.PoolNoticeRequired(guarantor, holder);
        if (block.timestamp < n.readyAt) {
            revert IGuarantorPoolErrors.PoolNoticeNotElapsed(holder, n.readyAt, block.timestamp);
        }
        if (block.timestamp > n.expiresAt) {
            revert IGuarantorPoolErrors.PoolNoticeExpired(holder, n.expiresAt, block.timestamp);
        }
        if (shares > noticed) revert IGuarantorPoolErrors.PoolExceedsNotice(holder, noticed, shares);
        return noticed - shares;
    }

    /// @notice The insurance stake `exposureUsdc` requires: exposure × stressWad, rounded up (CLR-01). Linear, so
    ///         splitting the exposure over several guarantors never lowers the total (each rounds up).
    function requirement(uint256 exposureUsdc, uint256 stressWad) internal pure returns (uint256) {
        return Math.mulDiv(exposureUsdc, stressWad, 1e18, Math.Rounding.Ceil);
    }

    /// @notice The part of `unvestedUsdc` released between `vestStart` and `nowSec` of a linear vesting ending at
    ///         `vestEnd`, rounded down (the rest stays unvested).
    function vestedPart(
        uint256 unvestedUsdc,
        uint256 vestStart,
        uint256 vestEnd,
        uint256 nowSec
    ) internal pure returns (uint256) {
        if (nowSec >= vestEnd) return unvestedUsdc;
        if (nowSec <= vestStart) return 0;
        return Math.mulDiv(unvestedUsdc, nowSec - vestStart, vestEnd - vestStart);
    }

    /// @notice One rule slash: `slashBps` of the remaining bond `dpsStaked`, rounded down; 0 while the rule is off
    ///         (no sink). Bounded: repeated slashes leave bond × (1 − bps)^n.
    function ruleSlash(uint256 dpsStaked, uint256 slashBps, address sink) internal pure returns (uint256) {
        if (sink == address(0)) return 0;
        return Math.mulDiv(dpsStaked, slashBps, 10_000);
    }
}
