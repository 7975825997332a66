// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolErrors} from "../../interfaces/clearing/IGuarantorPoolErrors.sol";
import {IGuarantorPoolEvents} from "../../interfaces/clearing/IGuarantorPoolEvents.sol";
import {IInsuranceFund} from "../../interfaces/clearing/IInsuranceFund.sol";
import {GuarantorPoolStorage, GuarantorStorage} from "./GuarantorStorage.sol";
import {GuarantorRules} from "./GuarantorRules.sol";

/// @title GuarantorBackstop
/// @notice The GuarantorPool's insurance requirement (CLR-01) and rule slashes: a guarantor that cannot cover its
///         customer's loss (GuarantorCapital.coverLoss), or whose
///         insurance stake stays below exposure × stress past the grace period, loses a bounded share of its DPS
///         bond by rule. Linked as an external library (delegatecall: the GuarantorPool's storage, `msg.sender`
///         and token balances) for the shortfall flag, its slash and the rule slash; the requirement check is internal
///         (on every trade's gate) and the loss cover lives in GuarantorCapital (on the liquidation path). The entry
///         keeps access control and reentrancy guards.
library GuarantorBackstop {
    using SafeERC20 for IERC20;

    /// @dev DpsSlashedByRule reasons.
    uint8 internal constant SLASH_UNCOVERED_LOSS = 1;
    uint8 private constant SLASH_SHORTFALL = 2;
    /// @dev Longest grace period / income vesting governance may set.
    uint32 private constant MAX_BACKSTOP_SEC = 30 days;

    /// @notice IGuarantorPool.setBackstopParams once the entry checked access: validates the parameters and stores
    ///         them in their storage form (GuarantorPoolStorage.Backstop). Linked (governance only, never on a trade's
    ///         path) to keep the pool's bytes under the limit.
    function setParams(IGuarantorPool.BackstopParams calldata p) external {
        if (
            p.slashBps > 10_000 ||
            p.feeShareBps > 10_000 ||
            p.graceSec > MAX_BACKSTOP_SEC ||
            p.vestSec > MAX_BACKSTOP_SEC ||
            p.stressWad > 1e18
        ) revert IGuarantorPoolErrors.PoolInvalidParams();
        GuarantorStorage.layout().backstop = GuarantorPoolStorage.Backstop({
            insuranceFund: p.insuranceFund,
            stressWad: p.stressWad,
            feeShareBps: p.feeShareBps,
            dpsSink: p.dpsSink,
            graceSec: p.graceSec,
            slashBps: p.slashBps,
            vestSec: p.vestSec
        });
        emit IGuarantorPoolEvents.BackstopParamsSet(
            p.insuranceFund,
            p.stressWad,
            p.graceSec,
            p.slashBps,
            p.dpsSink,
            p.feeShareBps,
            p.vestSec
        );
    }

    /// @notice IGuarantorPool.slashDps once the entry checked access and the recipient: up to `amount` of the
    ///         guarantor's bond to `to`. Linked like setParams (governance only).
    function slash(address guarantor, uint256 amount, address to) external {
        GuarantorPoolStorage.Layout storage $ = GuarantorStorage.layout();
        GuarantorPoolStorage.GuarantorState storage g = GuarantorStorage.guarantor($, guarantor);
        if (amount > g.dpsStaked) amount = g.dpsStaked;
        g.dpsStaked -= uint128(amount);
        emit IGuarantorPoolEvents.DpsSlashed(guarantor, amount, to, g.dpsStaked);
        $.dps.safeTransfer(to, amount);
    }

    /// @notice Flags (or clears) the guarantor's insurance shortfall against its requirement; returns whether short.
    function flagShortfall(address guarantor) external returns (bool short) {
        GuarantorPoolStorage.Layout storage $ = GuarantorStorage.layout();
        GuarantorStorage.guarantor($, guarantor);
        (uint256 required, uint256 staked) = _insurance($, guarantor);
        GuarantorPoolStorage.IncomeState storage inc = $.income[guarantor];
        short = staked < required;
        if (short) {
            if (inc.shortSince == 0) {
                inc.shortSince = uint64(block.timestamp);
                emit IGuarantorPoolEvents.GuarantorShortfallFlagged(
                    guarantor,
                    required,
                    staked,
                    uint64(block.timestamp) + $.backstop.graceSec
                );
            }
        } else if (inc.shortSince != 0) {
            inc.shortSince = 0;
            emit IGuarantorPoolEvents.GuarantorShortfallCleared(guarantor, required, staked);
        }
    }

    /// @notice Rule-slashes the bond of a guarantor whose flagged shortfall outlasted the grace period (the grace
    ///         restarts now); returns the DPS slashed.
    function slashShortfall(address guarantor) external returns (uint256 amount) {
        GuarantorPoolStorage.Layout storage $ = GuarantorStorage.layout();
        GuarantorStorage.guarantor($, guarantor);
        (uint256 required, uint256 staked) = _insurance($, guarantor);
        GuarantorPoolStorage.IncomeState storage inc = $.income[guarantor];
        uint64 since = inc.shortSince;
        if (since == 0 || staked >= required) revert IGuarantorPoolErrors.PoolNoShortfall(guarantor, required, staked);
        uint64 graceEndsAt = since + $.backstop.graceSec;
        if (block.timestamp < graceEndsAt) {
            revert IGuarantorPoolErrors.PoolGraceNotOver(guarantor, graceEndsAt, block.timestamp);
        }
        inc.shortSince = uint64(block.timestamp);
        amount = slashByRule(guarantor, SLASH_SHORTFALL, required - staked);
    }

    /// @notice CLR-01: reverts unless the guarantor's insurance stake covers the requirement of `exposureUsdc`.
    function checkRequirement(
        GuarantorPoolStorage.Backstop storage b,
        address guarantor,
        uint256 exposureUsdc
    ) internal view {
        address fund = b.insuranceFund;
        uint256 stress = b.stressWad;
        if (fund == address(0) || stress == 0) return;
        uint256 required = GuarantorRules.requirement(exposureUsdc, stress);
        uint256 staked = IInsuranceFund(fund).guarantorStake(guarantor);
        if (staked < required) revert IGuarantorPoolErrors.PoolInsuranceBelowRequirement(guarantor, required, staked);
    }

    /// @dev The guarantor's requirement now and the stake it holds (0 / 0 while the requirement is off).
    function _insurance(
        GuarantorPoolStorage.Layout storage $,
        address guarantor
    ) private view returns (uint256 required, uint256 staked) {
        address fund = $.backstop.insuranceFund;
        if (fund == address(0)) return (0, 0);
        required = GuarantorRules.requirement($.guarantors[guarantor].exposureUsdc, $.backstop.stressWad);
        staked = IInsuranceFund(fund).guarantorStake(guarantor);
    }

    /// @notice One bounded rule slash of the guarantor's DPS bond to the sink (nothing while the rule is off); returns
    ///         the DPS slashed. Public: GuarantorCapital.coverLoss (inlined into the entry) reaches it by delegatecall
    ///         only when a loss stays uncovered.
    function slashByRule(address guarantor, uint8 reason, uint256 basisUsdc) public returns (uint256 amount) {
        GuarantorPoolStorage.Layout storage $ = GuarantorStorage.layout();
        GuarantorPoolStorage.GuarantorState storage g = $.guarantors[guarantor];
        address sink = $.backstop.dpsSink;
        uint256 staked = g.dpsStaked;
        amount = GuarantorRules.ruleSlash(staked, $.backstop.slashBps, sink);
        if (amount == 0) return 0;
        g.dpsStaked = uint128(staked - amount);
        emit IGuarantorPoolEvents.DpsSlashedByRule(guarantor, reason, basisUsdc, amount, sink, staked - amount);
        $.dps.safeTransfer(sink, amount);
    }
}
