// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../interfaces/clearing/IClearingHouseErrors.sol";
import {IClearingHouseEvents} from "../../interfaces/clearing/IClearingHouseEvents.sol";
import {ILiquidatableMarket} from "../../interfaces/callback/ILiquidatableMarket.sol";
import {ClearingHouseStorage, ClearingStorage} from "./ClearingStorage.sol";
import {ClearingMargin} from "./ClearingMargin.sol";
import {ClearingPositions} from "./ClearingPositions.sol";
import {ClearingLiquidation} from "./ClearingLiquidation.sol";
import {FixedPointMath} from "../math/FixedPointMath.sol";

/// @title ClearingAdl
/// @notice One auto-deleveraging step on the ClearingHouse storage (docs/clearing.md, "Auto-deleveraging"): the
///         candidate's position is reduced at the index like a liquidation close (the market hears it through
///         ILiquidatableMarket.onPositionLiquidated), and part of the profit it realises — the bankrupt account's
///         bankruptcy-price distance on the reduced size, asked by the LiquidationEngine — moves to the bankrupt
///         account. The market's pool pays the candidate's PnL at the index as on any close and is charged nothing
///         else (CLR-05).
library ClearingAdl {
    using SafeCast for int256;
    using SafeCast for uint256;

    /// @dev The step's outcome (memory: keeps the stack small).
    struct Outcome {
        int256 pnl;
        uint256 haircut;
        uint256 bounty;
        int256 sizeAfter;
        int256 collateral;
        int256 bankruptCollateral;
    }

    /// @notice Applies `s`; returns what was realised, moved and paid. The caller transfers the bounty.
    function reduce(
        ClearingHouseStorage.Layout storage $,
        IClearingHouse.AdlStep calldata s
    ) internal returns (int256 pnl, uint256 haircut, uint256 bounty) {
        Outcome memory o = _apply($, s);
        emit IClearingHouseEvents.PositionDeleveraged(
            s.bankrupt,
            s.candidate,
            s.market,
            s.deltaCh,
            s.priceWad,
            o.pnl,
            o.haircut,
            o.bounty,
            o.sizeAfter,
            o.collateral,
            o.bankruptCollateral
        );
        ClearingLiquidation.recordLayer(
            s.bankrupt,
            IClearingHouse.Layer.Adl,
            o.haircut,
            uint256(o.haircut.toInt256() - o.bankruptCollateral),
            s.market
        );
        ILiquidatableMarket(s.market).onPositionLiquidated(s.candidate, s.deltaCh, s.priceWad, o.pnl);
        return (o.pnl, o.haircut, o.bounty);
    }

    function _apply(
        ClearingHouseStorage.Layout storage $,
        IClearingHouse.AdlStep calldata s
    ) private returns (Outcome memory o) {
        ClearingHouseStorage.Market memory m = ClearingPositions.registered($, s.market);
        int256 size = $.positions[s.candidate][s.market].sizeCh;
        if (
            size == 0 ||
            s.deltaCh == 0 ||
            (size > 0) == (s.deltaCh > 0) ||
            FixedPointMath.abs(s.deltaCh) > FixedPointMath.abs(size)
        ) {
            revert IClearingHouseErrors.ClearingAdlNotReducing(s.candidate, s.market, size, s.deltaCh);
        }
        ClearingHouseStorage.Account memory acc = $.accounts[s.candidate];
        ClearingMargin.Traded memory tr;
        (tr.market, tr.id, tr.flags, tr.risk) = (s.market, m.id, m.flags, m.risk);
        (o.pnl, ) = ClearingPositions.movePosition($, s.candidate, acc, tr, s.deltaCh, s.priceWad, _noGate);
        o.sizeAfter = tr.position.sizeCh;
        $.markets[s.market].poolUsdc = (int256(m.poolUsdc) - o.pnl).toInt128();
        // Haircut and bounty come out of the profit realised on the reduced size only: a deleveraged account never
        // loses principal, and never pays more than the bankrupt account still owes.
        ClearingHouseStorage.Account storage b = $.accounts[s.bankrupt];
        o.bankruptCollateral = b.collateralUsdc;
        uint256 profit = o.pnl > 0 ? uint256(o.pnl) : 0;
        uint256 owed = o.bankruptCollateral < 0 ? uint256(-o.bankruptCollateral) : 0;
        o.haircut = _min3(s.maxHaircutUsdc, profit, owed);
        o.bounty = _min3(s.bountyUsdc, profit - o.haircut, type(uint256).max);
        o.collateral = int256(acc.collateralUsdc) + o.pnl - int256(o.haircut + o.bounty);
        ClearingStorage.bookUncovered($, acc.collateralUsdc, o.collateral);
        acc.collateralUsdc = o.collateral.toInt88();
        $.accounts[s.candidate] = acc;
        ClearingStorage.bookUncovered($, o.bankruptCollateral, o.bankruptCollateral + int256(o.haircut));
        o.bankruptCollateral += int256(o.haircut);
        b.collateralUsdc = o.bankruptCollateral.toInt88();
    }

    function _min3(uint256 a, uint256 b, uint256 c) private pure returns (uint256 r) {
        r = a < b ? a : b;
        if (c < r) r = c;
    }

    /// @dev A reduction never adds risk: the gate is never reached.
    function _noGate(address) private pure {}
}
