// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../interfaces/clearing/IClearingHouseErrors.sol";
import {IClearingHouseEvents} from "../../interfaces/clearing/IClearingHouseEvents.sol";
import {ILiquidatableMarket} from "../../interfaces/callback/ILiquidatableMarket.sol";
import {ClearingMath} from "../ClearingMath.sol";
import {ClearingHouseStorage, ClearingStorage} from "./ClearingStorage.sol";
import {ClearingMargin} from "./ClearingMargin.sol";
import {ClearingPositions} from "./ClearingPositions.sol";
import {ClearingAdl} from "./ClearingAdl.sol";
import {FixedPointMath} from "../math/FixedPointMath.sol";
import {MarketSet} from "../../types/MarketSet.sol";

/// @title ClearingLiquidation
/// @notice The liquidation close (every position of an account by one fraction, at one price) and the default
///         waterfall's bookkeeping (LIQ-03), on the ClearingHouse storage.
library ClearingLiquidation {
    using SafeERC20 for IERC20;
    using SafeCast for int256;
    using SafeCast for uint256;

    /// @notice Closes `fractionWad` of every position of `account` at `priceWad` and pays the keeper up to
    ///         `bountyUsdc` from what is left (LIQ-04); the caller transfers the bounty.
    function close(
        address account,
        uint256 fractionWad,
        uint256 priceWad,
        address keeper,
        uint256 bountyUsdc
    ) external returns (int256 collateralUsdc, uint256 positionsLeft, uint256 paidBountyUsdc) {
        if (fractionWad == 0 || fractionWad > ClearingMath.WAD) {
            revert IClearingHouseErrors.ClearingInvalidFraction(fractionWad);
        }
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.Account memory acc = $.accounts[account];
        collateralUsdc = acc.collateralUsdc;
        ClearingHouseStorage.AdlSource memory largest;
        // Reverse order: removing a closed market swaps the last entry into its place.
        for (uint256 i = acc.markets.count(); i > 0; --i) {
            collateralUsdc += _closeOne(
                $,
                account,
                acc,
                acc.markets.idAt(i - 1),
                fractionWad,
                priceWad,
                collateralUsdc,
                largest
            );
        }
        positionsLeft = acc.markets.count();
        // A bankrupting close records where auto-deleveraging matches the deficit (docs/clearing.md).
        if (positionsLeft == 0 && collateralUsdc < 0) $.adlSource[account] = largest;
        if (bountyUsdc > 0 && collateralUsdc > 0) {
            // LIQ-04: the bounty never exceeds the margin there is to seize.
            paidBountyUsdc = bountyUsdc < uint256(collateralUsdc) ? bountyUsdc : uint256(collateralUsdc);
            collateralUsdc -= int256(paidBountyUsdc);
        }
        ClearingStorage.bookUncovered($, acc.collateralUsdc, collateralUsdc);
        acc.collateralUsdc = collateralUsdc.toInt88();
        $.accounts[account] = acc;
        if (paidBountyUsdc > 0) {
            emit IClearingHouseEvents.LiquidationBountyPaid(account, keeper, paidBountyUsdc, collateralUsdc);
            $.usdc.safeTransfer(keeper, paidBountyUsdc);
        }
    }

    function _closeOne(
        ClearingHouseStorage.Layout storage $,
        address account,
        ClearingHouseStorage.Account memory acc,
        uint256 id,
        uint256 fractionWad,
        uint256 priceWad,
        int256 collateralBefore,
        ClearingHouseStorage.AdlSource memory largest
    ) private returns (int256 pnl) {
        ClearingMargin.Traded memory tr;
        ClearingHouseStorage.MarketRef memory ref = $.marketById[id];
        (tr.market, tr.id, tr.flags, tr.risk) = (ref.market, id, ref.flags, ref.risk);
        int256 delta = closeDelta($.positions[account][tr.market].sizeCh, fractionWad);
        // A market holding the account at zero size (FLAG_HOLDS_ACCOUNTS) hears Δ = 0: it reduces what it holds.
        if (delta != 0) {
            // A close is never new risk, so the new-risk pause does not apply (LIQ-05).
            (pnl, ) = ClearingPositions.movePosition($, account, acc, tr, delta, priceWad, _noGate);
            ClearingHouseStorage.Market storage m = $.markets[tr.market];
            m.poolUsdc = (int256(m.poolUsdc) - pnl).toInt128();
            if (tr.flags & ClearingStorage.FLAG_LOSS_ABSORBER != 0) {
                acc.lastMarketId = uint16(id);
                // Options (never loss absorbers, ACC-01) are never a deleveraging source: their holders are never
                // haircut.
                if (FixedPointMath.abs(delta) > FixedPointMath.abs(largest.closedCh)) {
                    (largest.marketId, largest.closedCh) = (uint16(id), delta.toInt128());
                }
            }
            // A closed position leaves the account's market set before the market hears of it; the rest of the
            // account (collateral, last market) is written once by the caller.
            if (tr.position.sizeCh == 0) $.accounts[account] = acc;
            emit IClearingHouseEvents.PositionLiquidated(
                account,
                tr.market,
                delta,
                priceWad,
                pnl,
                tr.position.sizeCh,
                collateralBefore + pnl
            );
        }
        pnl += _hook($, account, acc, tr, delta, priceWad, pnl);
    }

    /// @dev The market's liquidation hook. A market that holds the account may release it from the hook: the set is
    ///      taken back from storage. A scenario (portfolio-margined) market may also settle what it closed for a held
    ///      account (options closed at their value, issue 20 item 3): that cash flow is returned so the caller's one
    ///      write of the account keeps it.
    function _hook(
        ClearingHouseStorage.Layout storage $,
        address account,
        ClearingHouseStorage.Account memory acc,
        ClearingMargin.Traded memory tr,
        int256 delta,
        uint256 priceWad,
        int256 pnl
    ) private returns (int256 settled) {
        bool scenario = tr.flags & ClearingStorage.FLAG_SCENARIO_RISK != 0;
        int256 before = scenario ? int256($.accounts[account].collateralUsdc) : int256(0);
        ILiquidatableMarket(tr.market).onPositionLiquidated(account, delta, priceWad, pnl);
        if (tr.flags & ClearingStorage.FLAG_HOLDS_ACCOUNTS != 0) acc.markets = $.accounts[account].markets;
        if (scenario) {
            settled = int256($.accounts[account].collateralUsdc) - before;
            // The caller writes the collateral once from its own running total: undo the hook's write (and its
            // booking, ClearingHouse.settle) here.
            $.accounts[account].collateralUsdc = int88(before);
            ClearingStorage.bookUncovered($, before + settled, before);
        }
    }

    /// @dev A close never adds risk: the gate is never reached.
    function _noGate(address) private pure {}

    /// @notice The signed size a liquidation of `fractionWad` closes. The closed size rounds up, so a partial
    ///         liquidation never leaves more risk than asked.
    function closeDelta(int256 sizeCh, uint256 fractionWad) internal pure returns (int256) {
        uint256 absSize = FixedPointMath.abs(sizeCh);
        uint256 closeAbs = fractionWad == ClearingMath.WAD ? absSize : FixedPointMath.wadMulUp(absSize, fractionWad);
        if (closeAbs > absSize) closeAbs = absSize;
        return sizeCh > 0 ? -int256(closeAbs) : int256(closeAbs);
    }

    /// @notice Books a deficit's cover by the guarantor and the insurance fund (LIQ-03). Nothing is socialised: what
    ///         is left stays on the account as negative collateral (DeficitUnabsorbed) for auto-deleveraging (ClearingAdl)
    ///         to cover — no market pool is charged (CLR-05).
    function absorbDeficit(
        address account,
        uint256 fromGuarantorUsdc,
        uint256 fromInsuranceUsdc
    ) external returns (int256 collateralUsdc) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.Account storage a = $.accounts[account];
        int256 collateral = a.collateralUsdc;
        uint256 count = a.markets.count();
        if (collateral >= 0 || count != 0) revert IClearingHouseErrors.ClearingNoDeficit(account, collateral, count);
        uint256 deficit = uint256(-collateral);
        deficit = recordLayer(account, IClearingHouse.Layer.Guarantor, fromGuarantorUsdc, deficit, address(0));
        deficit = recordLayer(account, IClearingHouse.Layer.Insurance, fromInsuranceUsdc, deficit, address(0));
        // Any over-payment by a layer stays with the account (it can only come from a layer paying more than asked).
        uint256 paid = fromGuarantorUsdc + fromInsuranceUsdc;
        uint256 total = uint256(-collateral);
        collateralUsdc = paid >= total ? (paid - total).toInt256() : -deficit.toInt256();
        a.collateralUsdc = collateralUsdc.toInt88();
        ClearingStorage.bookUncovered($, collateral, collateralUsdc);
        if (deficit > 0) emit IClearingHouseEvents.DeficitUnabsorbed(account, deficit, collateralUsdc);
    }

    /// @notice Emits DeficitAbsorbed for a layer that paid `amountUsdc` of `deficitUsdc`; returns the deficit left.
    function recordLayer(
        address account,
        IClearingHouse.Layer layer,
        uint256 amountUsdc,
        uint256 deficitUsdc,
        address market
    ) internal returns (uint256 remaining) {
        remaining = amountUsdc >= deficitUsdc ? 0 : deficitUsdc - amountUsdc;
        if (amountUsdc > 0) emit IClearingHouse.DeficitAbsorbed(account, layer, amountUsdc, remaining, market);
    }

    /// @notice IClearingHouse.adlReduce after its access check: ClearingAdl.reduce run from this linked library so
    ///         its code is not in the ClearingHouse (EIP-170 room; auto-deleveraging is not a hot path).
    function adlReduce(
        IClearingHouse.AdlStep calldata step
    ) external returns (int256 realisedPnlUsdc, uint256 haircutUsdc, uint256 paidBountyUsdc) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        (realisedPnlUsdc, haircutUsdc, paidBountyUsdc) = ClearingAdl.reduce($, step);
        if (paidBountyUsdc > 0) $.usdc.safeTransfer(step.keeper, paidBountyUsdc);
    }

    /// @notice IClearingHouse.syncExposure: the guarantor's recorded exposure of `account` set to its gross open
    ///         notional now (IGuarantorPool.onExposureChanged).
    function syncExposure(address account) external {
        ClearingStorage.layout().guarantorPool.onExposureChanged(account, grossOpenNotionalOf(account), false);
    }

    /// @notice IClearingHouse.grossOpenNotionalOf: Σ |cost basis| over the account's markets, the figure
    ///         ClearingMargin.scan gives a risk-increasing trade's guarantor check (one loop bounded by MarketSetLib.MAX).
    function grossOpenNotionalOf(address account) public view returns (uint256 grossOpenUsdc) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        MarketSet set = $.accounts[account].markets;
        uint256 n = set.count();
        for (uint256 i; i < n; ++i) {
            grossOpenUsdc += FixedPointMath.abs(
                $.positions[account][$.marketById[set.idAt(i)].market].openNotionalUsdc
            );
        }
    }

    /// @notice IClearingHouse.liquidationModules (the engine's sequencer-grace and ADL price reads; a liquidation's
    ///         close runs in this library anyway, so the forward finds it warm).
    function liquidationModules() external view returns (address, address, address) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        return (address($.oracle), address($.guarantorPool), address($.insuranceFund));
    }

    /// @notice IClearingHouse.positionOf.
    function positionOf(address account, address market) external view returns (IClearingHouse.Position memory) {
        return ClearingStorage.layout().positions[account][market];
    }
}
