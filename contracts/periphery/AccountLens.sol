// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IAccountLens} from "./IAccountLens.sol";
import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";
import {IChxModule} from "../interfaces/base/IChxModule.sol";
import {IComputePriceOracle} from "../interfaces/oracle/IComputePriceOracle.sol";
import {IComputeStandard} from "../interfaces/compute/IComputeStandard.sol";
import {IFuturesMarket} from "../interfaces/markets/IFuturesMarket.sol";
import {IGuarantorPool} from "../interfaces/clearing/IGuarantorPool.sol";
import {ILiquidityVault} from "../interfaces/markets/ILiquidityVault.sol";
import {IOptionsMarket} from "../interfaces/markets/IOptionsMarket.sol";
import {IPerpMarket} from "../interfaces/markets/IPerpMarket.sol";
import {IRiskEngine} from "../interfaces/clearing/IRiskEngine.sol";
import {ClearingMath} from "../libraries/ClearingMath.sol";
import {FixedPointMath} from "../libraries/math/FixedPointMath.sol";
import {AccountRows} from "./AccountRows.sol";
import {AccountSeries} from "./AccountSeries.sol";
import {AccountDirectory} from "./AccountDirectory.sol";
import {AccountLiquidationSearch} from "./AccountLiquidationSearch.sol";

/// @title AccountLens
/// @notice Wallet-facing read views (IAccountLens). Periphery: read-only, not upgradeable, holds nothing; redeploy it
///         to change what it shows. Margin, equity and withdrawable amounts are the ClearingHouse's own views; the
///         lens only arranges them (and, for the liquidation price, searches `marginStateAt`).
contract AccountLens is IAccountLens {
    bytes32 private constant FEATURE_CLEARING_WITHDRAW = keccak256("clearing.withdraw");

    IClearingHouse private immutable _house;
    address private immutable _perp;
    address private immutable _vault;
    address private immutable _futures;
    address private immutable _options;
    address private immutable _standard;

    /// @param clearingHouse_ The ClearingHouse proxy.
    /// @param perpMarket_ The PerpMarket proxy (zero if none).
    /// @param liquidityVault_ The LiquidityVault proxy (zero if none).
    /// @param futuresMarket_ The FuturesMarket proxy (zero if none).
    /// @param optionsMarket_ The OptionsMarket proxy (zero if none).
    /// @param computeStandard_ The ComputeStandard proxy (zero if none).
    constructor(
        address clearingHouse_,
        address perpMarket_,
        address liquidityVault_,
        address futuresMarket_,
        address optionsMarket_,
        address computeStandard_
    ) {
        _house = IClearingHouse(clearingHouse_);
        _perp = perpMarket_;
        _vault = liquidityVault_;
        _futures = futuresMarket_;
        _options = optionsMarket_;
        _standard = computeStandard_;
    }

    /// @inheritdoc IAccountLens
    function sources() external view returns (address, address, address, address, address, address) {
        return (address(_house), _perp, _vault, _futures, _options, _standard);
    }

    // ───────────────────────────── account ─────────────────────────────

    /// @inheritdoc IAccountLens
    function portfolio(address account) external view returns (Portfolio memory p) {
        p.account = account;
        (, address oracle, address riskEngine, address pool, , ) = _house.modules();
        (p.priceOk, p.margin) = _marginState(account);
        if (p.priceOk) p.indexPriceWad = IComputePriceOracle(oracle).indexPrice();
        p.maxWithdrawableUsdc = _maxWithdrawable(account, p.priceOk, p.margin);
        if (p.priceOk) {
            int256 mm = int256(p.margin.maintenanceMarginUsdc);
            p.liquidatable = p.margin.equityUsdc < mm;
            p.healthWad =
                p.margin.maintenanceMarginUsdc == 0
                    ? type(uint256).max
                    : p.margin.equityUsdc <= 0
                        ? 0
                        : (uint256(p.margin.equityUsdc) * 1e18) / p.margin.maintenanceMarginUsdc;
            if (p.margin.positionCount != 0) {
                (p.liquidationPriceWad, p.liquidationBelow) = AccountLiquidationSearch.liquidationPrice(
                    _house,
                    account,
                    p.margin.equityUsdc - mm,
                    p.indexPriceWad
                );
            }
        }
        p.positions = _positions(account, p, IRiskEngine(riskEngine));
        p.collateral = _collateral(account, p.positions);
        p.guarantor = AccountRows.guarantor(IGuarantorPool(pool), account);
    }

    /// @inheritdoc IAccountLens
    function maxWithdrawable(address account) external view returns (uint256) {
        (bool ok, IClearingHouse.MarginState memory s) = _marginState(account);
        return _maxWithdrawable(account, ok, s);
    }

    /// @dev The ClearingHouse's margin state, or ok = false when the index cannot be read (stale or paused feed).
    function _marginState(address account) private view returns (bool ok, IClearingHouse.MarginState memory s) {
        try _house.marginState(account) returns (IClearingHouse.MarginState memory state) {
            return (true, state);
        } catch {
            s.collateralUsdc = _house.collateralOf(account);
            s.positionCount = _house.marketsOf(account).length;
            return (false, s);
        }
    }

    /// @dev What `ClearingHouse.withdraw` accepts: collateral ≥ amount and, with positions, equity − amount ≥ initial
    ///      margin at the index (withdrawing moves collateral and equity alike; the requirement does not move).
    function _maxWithdrawable(
        address account,
        bool priceOk,
        IClearingHouse.MarginState memory s
    ) private view returns (uint256) {
        account; // the pause is per feature, not per account
        if (IChxModule(address(_house)).isFeaturePaused(FEATURE_CLEARING_WITHDRAW)) return 0;
        if (s.collateralUsdc <= 0) return 0;
        uint256 collateral = uint256(s.collateralUsdc);
        if (s.positionCount == 0) return collateral;
        if (!priceOk) return 0; // withdraw reads the index with positions open: it would revert
        int256 free = s.equityUsdc - int256(s.initialMarginUsdc);
        if (free <= 0) return 0;
        return uint256(free) < collateral ? uint256(free) : collateral;
    }

    function _positions(
        address account,
        Portfolio memory p,
        IRiskEngine risk
    ) private view returns (PositionView[] memory rows) {
        address[] memory held = _house.marketsOf(account);
        uint256[] memory futuresIds =
            _futures == address(0) ? new uint256[](0) : IFuturesMarket(_futures).accountSeries(account);
        (uint256[] memory optionIds, uint256 optionCount) = AccountRows.optionSeriesHeld(_options, account);
        rows = new PositionView[](held.length + futuresIds.length + optionCount);
        uint256 n;
        for (uint256 i; i < held.length; ++i) {
            rows[n++] = _clearingRow(account, held[i], p, risk);
            if (rows[n - 1].kind == PositionKind.Perp) p.fundingOwedUsdc += rows[n - 1].fundingOwedUsdc;
        }
        for (uint256 i; i < futuresIds.length; ++i) {
            rows[n] = AccountRows.futuresRow(_futures, account, futuresIds[i], p.indexPriceWad);
            p.pendingDeliveryUsdc += rows[n].pendingDeliveryUsdc;
            ++n;
        }
        for (uint256 i; i < optionCount; ++i)
            rows[n++] = AccountRows.optionRow(_options, account, optionIds[i], p.indexPriceWad);
    }

    function _clearingRow(
        address account,
        address market,
        Portfolio memory p,
        IRiskEngine risk
    ) private view returns (PositionView memory r) {
        IClearingHouse.Position memory pos = _house.positionOf(account, market);
        r.market = market;
        r.kind =
            market == _perp
                ? PositionKind.Perp
                : market == _futures
                    ? PositionKind.FuturesNet
                    : PositionKind.Other;
        r.sizeCh = pos.sizeCh;
        r.openNotionalUsdc = pos.openNotionalUsdc;
        uint256 absSize = FixedPointMath.abs(pos.sizeCh);
        if (absSize != 0) r.entryPriceWad = (FixedPointMath.abs(pos.openNotionalUsdc) * 1e30) / absSize;
        if (p.priceOk) {
            r.unrealisedPnlUsdc = ClearingMath.valueUsdcDown(pos.sizeCh, p.indexPriceWad) - pos.openNotionalUsdc;
            (uint256 imRate, uint256 mmRate) = risk.marginRates(market);
            uint256 notional = ClearingMath.notionalUsdcUp(absSize, p.indexPriceWad);
            r.initialMarginUsdc = FixedPointMath.wadMulUp(notional, imRate);
            r.maintenanceMarginUsdc = FixedPointMath.wadMulUp(notional, mmRate);
            r.liquidationPriceWad = p.liquidationPriceWad;
        }
        if (r.kind == PositionKind.Perp) {
            // reads the index too: unknown (0) while the index cannot be read
            try IPerpMarket(_perp).fundingOwedUsdc(account) returns (int256 owed) {
                r.fundingOwedUsdc = owed;
            } catch {}
        }
    }

    function _collateral(
        address account,
        PositionView[] memory rows
    ) private view returns (CollateralView[] memory list) {
        (address usdc, , , , , ) = _house.modules();
        uint256 escrowCh;
        uint256 optionUsdc;
        for (uint256 i; i < rows.length; ++i) {
            if (rows[i].kind == PositionKind.FuturesSeries) escrowCh += rows[i].escrowCh;
            if (rows[i].kind == PositionKind.Option) optionUsdc += rows[i].pendingDeliveryUsdc;
        }
        list = new CollateralView[](1 + (escrowCh != 0 ? 1 : 0) + (optionUsdc != 0 ? 1 : 0));
        list[0] = CollateralView(usdc, address(_house), _house.collateralOf(account));
        uint256 n = 1;
        if (escrowCh != 0) {
            (, , address ch, , ) = IFuturesMarket(_futures).modules();
            list[n++] = CollateralView(ch, _futures, int256(escrowCh));
        }
        if (optionUsdc != 0) list[n] = CollateralView(usdc, _options, int256(optionUsdc));
    }

    // ───────────────────────────── markets ─────────────────────────────

    /// @inheritdoc IAccountLens
    function markets(uint256 futuresFromId, uint256 futuresLimit) external view returns (MarketsView memory m) {
        (, address oracle, , , , ) = _house.modules();
        try IComputePriceOracle(oracle).indexPrice() returns (uint256 price) {
            m.indexPriceWad = price;
        } catch {
            m.indexPriceWad = 0;
        }
        if (_perp != address(0)) {
            (, m.perpPoolUsdc) = _house.marketInfo(_perp);
            IPerpMarket.MarketState memory st = IPerpMarket(_perp).marketState();
            (m.perpLongOiCh, m.perpShortOiCh) = (st.longOiCh, st.shortOiCh);
            m.perpSkewCh = int256(m.perpLongOiCh) - int256(m.perpShortOiCh);
            (m.fundingIndexWad, m.fundingRateWad) = IPerpMarket(_perp).currentFunding();
        }
        if (_vault != address(0)) {
            m.vaultSharePriceWad = ILiquidityVault(_vault).sharePriceWad();
            m.vaultTotalAssetsUsdc = IERC4626Assets(_vault).totalAssets();
        }
        if (_futures != address(0))
            m.futuresSeries = AccountSeries.futuresPage(IFuturesMarket(_futures), futuresFromId, futuresLimit);
        if (_options != address(0)) m.optionSeries = AccountSeries.optionsPending(IOptionsMarket(_options));
    }

    // ───────────────────────────── guarantors, compute ─────────────────────────────

    /// @inheritdoc IAccountLens
    function openGuarantors(address[] calldata candidates) external view returns (OpenGuarantor[] memory list) {
        (, , , address poolAddress, , ) = _house.modules();
        return AccountDirectory.openGuarantors(IGuarantorPool(poolAddress), candidates);
    }

    /// @inheritdoc IAccountLens
    function workloadClasses(uint16 maxClass) external view returns (WorkloadClassView[] memory list) {
        if (_standard == address(0)) return list;
        return AccountDirectory.workloadClasses(IComputeStandard(_standard), maxClass);
    }
}

/// @dev The ERC-4626 total-assets view of the LiquidityVault (ILiquidityVault does not redeclare it).
interface IERC4626Assets {
    /// @notice The vault's total managed assets (USDC, 6 decimals), as ERC-4626 defines it.
    function totalAssets() external view returns (uint256);
}
