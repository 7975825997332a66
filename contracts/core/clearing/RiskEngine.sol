// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IRiskEngine} from "../../interfaces/clearing/IRiskEngine.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {RiskMath} from "../../libraries/RiskMath.sol";
import {IClearingRiskSync} from "../../interfaces/callback/IClearingRiskSync.sol";

/// @title RiskEngine
/// @notice EWMA volatility of the CH index and the per-market margin rates derived from it. See IRiskEngine.
contract RiskEngine is ChxUpgradeable, IRiskEngine {
    using SafeERC20 for IERC20;

    uint256 internal constant WAD = 1e18;

    /// @custom:storage-location erc7201:chx.storage.RiskEngine
    struct RiskEngineStorage {
        IComputePriceOracle oracle;
        IClearingHouse clearingHouse;
        IERC20 usdc;
        uint256 lambdaWad;
        uint256 minUpdateInterval;
        uint256 bountyUsdc;
        uint256 varianceWad;
        uint256 sigmaWad;
        uint256 lastPriceWad;
        uint256 lastUpdate;
        mapping(address market => MarketRiskParams) markets;
        mapping(address market => MarketVolParams) volParams;
        mapping(address market => MarketVolState) vols;
        // Per-tenor σ of futures markets (docs/clearing.md "Per-tenor σ"): TENOR_BUCKETS models and states per market.
        mapping(address market => MarketVolParams[3]) tenorParams;
        mapping(address market => MarketVolState[3]) tenorVols;
        // The market's margin σ over its model and its buckets as last pushed (one slot for marginRates' reads;
        // `staleAt == 0`: no model, the index σ).
        mapping(address market => MarginSigma) marginSigmas;
        // Per-tenor margin on (setTenorMargin): with a bucket configured, the ClearingHouse's copy is the lowest σ
        // and the market's account-risk hook adds each tenor's margin above it (docs/clearing.md "Per-tenor margin").
        mapping(address market => bool) tenorMargin;
    }

    /// @dev The aggregate `_marketSigma` computes on every push (σ capped at 2^128 − 1: the rates cap at 100 % long
    ///      before).
    struct MarginSigma {
        uint128 sigmaWad;
        uint64 staleSigmaWad;
        uint64 staleAt;
    }

    /// @notice Tenor buckets per futures market: 0 front month (≤ 35 days to expiry), 1 ≤ 3 months, 2 ≤ 12 months.
    uint256 public constant TENOR_BUCKETS = 3;

    /// @dev The stale-at pushed with a per-tenor copy: never stale (the copy is the lowest floored σ, a lower bound
    ///      the market's hook tops up per tenor with each one's staleness) with bit 40 set, which the ClearingHouse
    ///      keeps as its per-tenor bit (ClearingStorage.TENOR_MARGIN_BIT).
    uint256 internal constant TENOR_COPY_STALE_AT = (uint256(1) << 40) | type(uint40).max;

    // keccak256(abi.encode(uint256(keccak256("chx.storage.RiskEngine")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant RISK_ENGINE_STORAGE_LOCATION =
        0xecae4402f3d9fc6464dcee8f4718d6a0acf7aac2489a374527684362baecdf00;

    function _getRiskEngineStorage() private pure returns (RiskEngineStorage storage $) {
        assembly {
            $.slot := RISK_ENGINE_STORAGE_LOCATION
        }
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param oracle The CH index.
    /// @param clearingHouse The ClearingHouse (for the account view).
    /// @param usdc Bounty token.
    /// @param initialSigmaWad Starting σ per update interval, WAD.
    /// @param lambdaWad EWMA decay.
    /// @param minUpdateInterval Seconds between updates.
    /// @param bountyUsdc Max bounty per update.
    function initialize(
        address authority,
        address oracle,
        address clearingHouse,
        address usdc,
        uint256 initialSigmaWad,
        uint256 lambdaWad,
        uint256 minUpdateInterval,
        uint256 bountyUsdc
    ) external initializer {
        __ChxUpgradeable_init(authority);
        if (oracle == address(0) || clearingHouse == address(0) || usdc == address(0)) revert ChxZeroAddress();
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        $.oracle = IComputePriceOracle(oracle);
        $.clearingHouse = IClearingHouse(clearingHouse);
        $.usdc = IERC20(usdc);
        $.sigmaWad = initialSigmaWad;
        $.varianceWad = Math.mulDiv(initialSigmaWad, initialSigmaWad, WAD);
        _setVolatilityParams($, lambdaWad, minUpdateInterval, bountyUsdc);
    }

    /// @inheritdoc IRiskEngine
    function setMarketParams(address market, MarketRiskParams calldata params) external restricted {
        if (
            params.imFloorWad == 0 ||
            params.mmFloorWad == 0 ||
            params.mmFloorWad > params.imFloorWad ||
            params.mmMultipleWad > params.imMultipleWad ||
            params.imFloorWad >= WAD
        ) revert RiskInvalidParams();
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        $.markets[market] = params;
        emit MarketRiskParamsSet(market, params);
        // The ClearingHouse's copy (no try/catch: a copy that silently missed an update would understate margin).
        IClearingRiskSync(address($.clearingHouse)).syncMarketRisk(market, params);
    }

    /// @inheritdoc IRiskEngine
    function setVolatilityParams(uint256 lambdaWad, uint256 minUpdateInterval, uint256 bountyUsdc) external restricted {
        _setVolatilityParams(_getRiskEngineStorage(), lambdaWad, minUpdateInterval, bountyUsdc);
    }

    function _setVolatilityParams(
        RiskEngineStorage storage $,
        uint256 lambdaWad,
        uint256 minUpdateInterval,
        uint256 bountyUsdc
    ) private {
        if (lambdaWad >= WAD || minUpdateInterval == 0) revert RiskInvalidParams();
        $.lambdaWad = lambdaWad;
        $.minUpdateInterval = minUpdateInterval;
        $.bountyUsdc = bountyUsdc;
        emit VolatilityParamsSet(lambdaWad, minUpdateInterval, bountyUsdc);
    }

    /// @inheritdoc IRiskEngine
    function updateVolatility() external nonReentrant returns (uint256 sigmaWad) {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        uint256 last = $.lastUpdate;
        uint256 interval = $.minUpdateInterval;
        if (last != 0 && block.timestamp < last + interval) revert RiskUpdateTooEarly(last + interval);
        uint256 priceWad = $.oracle.indexPrice();
        uint256 lastPrice = $.lastPriceWad;
        uint256 returnWad;
        uint256 variance = $.varianceWad;
        if (lastPrice != 0) {
            // @dev |r| rounds up and the new variance rounds up: volatility is never understated.
            (variance, returnWad) = RiskMath.foldReturn(
                variance,
                $.lambdaWad,
                lastPrice,
                priceWad,
                block.timestamp - last,
                interval
            );
            $.varianceWad = variance;
            sigmaWad = RiskMath.sigmaOf(variance);
            $.sigmaWad = sigmaWad;
            // The ClearingHouse's copy of σ (no try/catch: a copy that silently missed an update would understate
            // margin).
            IClearingRiskSync(address($.clearingHouse)).syncVolatility(sigmaWad);
        } else {
            sigmaWad = $.sigmaWad;
        }
        $.lastPriceWad = priceWad;
        $.lastUpdate = block.timestamp;
        uint256 bounty = _bounty($);
        emit VolatilityUpdated(msg.sender, priceWad, returnWad, variance, sigmaWad, bounty);
        if (bounty > 0) $.usdc.safeTransfer(msg.sender, bounty);
    }

    /// @inheritdoc IRiskEngine
    function setMarketVolParams(address market, MarketVolParams calldata params) external restricted {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        if ($.markets[market].imFloorWad == 0) revert RiskMarketUnknown(market);
        _checkVolParams($, params);
        $.volParams[market] = params;
        MarketVolState storage v = $.vols[market];
        // A new model starts from the index σ (never from zero: a zero variance would need many updates to build up).
        if (v.lastUpdate == 0 && v.varianceWad == 0) _startFrom(v, $.varianceWad, $.sigmaWad);
        emit MarketVolParamsSet(market, params);
        _pushMarketSigma($, market);
    }

    /// @inheritdoc IRiskEngine
    function setTenorVolParams(address market, uint256 bucket, MarketVolParams calldata params) external restricted {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        if ($.volParams[market].staleAfterSec == 0) revert RiskMarketUnknown(market);
        if (bucket >= TENOR_BUCKETS) revert RiskTenorUnknown(market, bucket);
        // all zero removes the bucket (its state is kept: a later model continues from it)
        if (params.staleAfterSec != 0 || params.lambdaWad != 0 || params.floorSigmaWad != 0) {
            _checkVolParams($, params);
        } else if (params.staleSigmaWad != 0) revert RiskInvalidParams();
        $.tenorParams[market][bucket] = params;
        MarketVolState storage v = $.tenorVols[market][bucket];
        // A bucket's first model starts from the market's σ (never from zero).
        if (v.lastUpdate == 0 && v.varianceWad == 0) {
            MarketVolState storage mv = $.vols[market];
            _startFrom(v, mv.varianceWad, mv.sigmaWad);
        }
        emit TenorVolParamsSet(market, bucket, params);
        _pushMarketSigma($, market);
    }

    /// @inheritdoc IRiskEngine
    function setTenorMargin(address market, bool enabled) external restricted {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        if ($.markets[market].imFloorWad == 0) revert RiskMarketUnknown(market);
        if (enabled) {
            (bool accountRisk, , ) = $.clearingHouse.marketFlags(market);
            if (!accountRisk) revert RiskTenorMarginNeedsHook(market);
        }
        $.tenorMargin[market] = enabled;
        emit TenorMarginSet(market, enabled);
        if ($.volParams[market].staleAfterSec != 0) _pushMarketSigma($, market);
    }

    /// @inheritdoc IRiskEngine
    function tenorMargin(address market) external view returns (bool) {
        return _getRiskEngineStorage().tenorMargin[market];
    }

    /// @inheritdoc IRiskEngine
    function tenorMarginRates(
        address market
    ) external view returns (uint256 baseImWad, uint256 baseMmWad, uint256[4] memory imWad, uint256[4] memory mmWad) {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        MarketRiskParams memory rp = $.markets[market];
        if (rp.imFloorWad == 0) revert RiskMarketUnknown(market);
        MarketVolParams memory p = $.volParams[market];
        uint256 own = $.sigmaWad;
        uint256 lowest = own;
        if (p.staleAfterSec != 0) {
            MarketVolState storage v = $.vols[market];
            lowest = Math.max(v.sigmaWad, p.floorSigmaWad);
            own = _sigmaNow(p, v, lowest);
        }
        (imWad[3], mmWad[3]) = RiskMath.marginRates(rp, own);
        for (uint256 b; b < TENOR_BUCKETS; ++b) {
            MarketVolParams memory tp = $.tenorParams[market][b];
            if (tp.staleAfterSec == 0) {
                (imWad[b], mmWad[b]) = (imWad[3], mmWad[3]);
                continue;
            }
            MarketVolState storage tv = $.tenorVols[market][b];
            uint256 floored = Math.max(tv.sigmaWad, tp.floorSigmaWad);
            lowest = Math.min(lowest, floored);
            (imWad[b], mmWad[b]) = RiskMath.marginRates(rp, _sigmaNow(tp, tv, floored));
        }
        (baseImWad, baseMmWad) = RiskMath.marginRates(rp, lowest);
    }

    /// @dev A model's σ now: its floored σ, at least its stale σ once `staleAfterSec` passed since its last update
    ///      (the rule `_marketSigma` pushes).
    function _sigmaNow(
        MarketVolParams memory p,
        MarketVolState storage v,
        uint256 floored
    ) private view returns (uint256) {
        if (block.timestamp > v.lastUpdate + p.staleAfterSec) return Math.max(floored, p.staleSigmaWad);
        return floored;
    }

    /// @inheritdoc IRiskEngine
    function updateMarketVolatility(address market) external nonReentrant returns (uint256 sigmaWad) {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        MarketVolParams memory p = $.volParams[market];
        if (p.staleAfterSec == 0) revert RiskMarketUnknown(market);
        (uint256 priceWad, uint256 returnWad, uint256 elapsed) = _fold($, p, $.vols[market]);
        sigmaWad = _pushMarketSigma($, market);
        uint256 bounty = _bounty($);
        MarketVolState storage v = $.vols[market];
        emit MarketVolatilityUpdated(
            market,
            msg.sender,
            priceWad,
            returnWad,
            elapsed,
            v.varianceWad,
            v.sigmaWad,
            bounty
        );
        if (bounty > 0) $.usdc.safeTransfer(msg.sender, bounty);
    }

    /// @inheritdoc IRiskEngine
    function updateTenorVolatility(address market, uint256 bucket) external nonReentrant returns (uint256 sigmaWad) {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        if (bucket >= TENOR_BUCKETS) revert RiskTenorUnknown(market, bucket);
        MarketVolParams memory p = $.tenorParams[market][bucket];
        if (p.staleAfterSec == 0) revert RiskTenorUnknown(market, bucket);
        MarketVolState storage v = $.tenorVols[market][bucket];
        (uint256 priceWad, uint256 returnWad, uint256 elapsed) = _fold($, p, v);
        sigmaWad = _pushMarketSigma($, market);
        uint256 bounty = _bounty($);
        emit TenorVolatilityUpdated(
            market,
            bucket,
            msg.sender,
            priceWad,
            returnWad,
            elapsed,
            v.varianceWad,
            v.sigmaWad,
            bounty
        );
        if (bounty > 0) $.usdc.safeTransfer(msg.sender, bounty);
    }

    /// @dev λ < 1, staleSigma ≥ floorSigma, staleAfterSec ≥ minUpdateInterval.
    function _checkVolParams(RiskEngineStorage storage $, MarketVolParams calldata params) private view {
        if (
            params.lambdaWad >= WAD ||
            params.staleSigmaWad < params.floorSigmaWad ||
            params.staleAfterSec < $.minUpdateInterval
        ) revert RiskInvalidParams();
    }

    function _startFrom(MarketVolState storage v, uint256 varianceWad, uint256 sigmaWad) private {
        v.varianceWad = varianceWad;
        v.sigmaWad = sigmaWad;
        v.lastUpdate = block.timestamp;
    }

    /// @dev One EWMA step of a market's or bucket's state: one update (and one bounty) per interval per state —
    ///      calling every block pays nothing more; the first read only records the reference price.
    function _fold(
        RiskEngineStorage storage $,
        MarketVolParams memory p,
        MarketVolState storage v
    ) private returns (uint256 priceWad, uint256 returnWad, uint256 elapsed) {
        uint256 interval = $.minUpdateInterval;
        uint256 last = v.lastUpdate;
        uint256 lastPrice = v.lastPriceWad;
        if (lastPrice != 0 && block.timestamp < last + interval) revert RiskUpdateTooEarly(last + interval);
        priceWad = $.oracle.indexPrice();
        if (lastPrice != 0) {
            elapsed = block.timestamp - last;
            uint256 variance;
            (variance, returnWad) = RiskMath.foldReturn(
                v.varianceWad,
                p.lambdaWad,
                lastPrice,
                priceWad,
                elapsed,
                interval
            );
            v.varianceWad = variance;
            v.sigmaWad = RiskMath.sigmaOf(variance);
        }
        v.lastPriceWad = priceWad;
        v.lastUpdate = block.timestamp;
    }

    /// @dev Pushes the market's margin σ and its staleness rule into the ClearingHouse's copy; returns the σ margin
    ///      uses now.
    function _pushMarketSigma(RiskEngineStorage storage $, address market) private returns (uint256) {
        (uint256 sigma, uint256 staleSigma, uint256 staleAt) = _marketSigma($, market);
        if (sigma > type(uint128).max) sigma = type(uint128).max;
        // staleSigma ≤ the largest uint64 stale σ; staleAt < 2^64 for any real clock
        $.marginSigmas[market] = MarginSigma(uint128(sigma), uint64(staleSigma), uint64(staleAt));
        (uint256 lowest, bool tenors) = $.tenorMargin[market] ? _lowestSigma($, market) : (0, false);
        if (tenors) {
            // per-tenor margin: the ClearingHouse charges the net position at the lowest σ, the market's hook the
            // rest per tenor (FuturesRisk); the copy carries the per-tenor bit so the hook knows
            IClearingRiskSync(address($.clearingHouse)).syncMarketVolatility(market, lowest, 0, TENOR_COPY_STALE_AT);
        } else {
            IClearingRiskSync(address($.clearingHouse)).syncMarketVolatility(market, sigma, staleSigma, staleAt);
        }
        return block.timestamp > staleAt ? Math.max(sigma, staleSigma) : sigma;
    }

    /// @dev The market's margin σ over its own model and its configured tenor buckets (O(TENOR_BUCKETS)): the
    ///      largest floored σ, the largest stale σ, and the earliest stale-at time. Before any of them is stale this is
    ///      the largest σ; after, at least each stale one's rule (conservative: a stale bucket raises the market's σ
    ///      to the largest stale σ).
    function _marketSigma(
        RiskEngineStorage storage $,
        address market
    ) private view returns (uint256 sigma, uint256 staleSigma, uint256 staleAt) {
        MarketVolParams memory p = $.volParams[market];
        MarketVolState storage v = $.vols[market];
        sigma = Math.max(v.sigmaWad, p.floorSigmaWad);
        staleSigma = p.staleSigmaWad;
        staleAt = v.lastUpdate + p.staleAfterSec;
        for (uint256 b; b < TENOR_BUCKETS; ++b) {
            MarketVolParams memory tp = $.tenorParams[market][b];
            if (tp.staleAfterSec == 0) continue;
            MarketVolState storage tv = $.tenorVols[market][b];
            sigma = Math.max(sigma, Math.max(tv.sigmaWad, tp.floorSigmaWad));
            staleSigma = Math.max(staleSigma, tp.staleSigmaWad);
            staleAt = Math.min(staleAt, tv.lastUpdate + tp.staleAfterSec);
        }
    }

    /// @dev The lowest floored σ over the market's own model and its configured buckets, and whether it has one.
    function _lowestSigma(
        RiskEngineStorage storage $,
        address market
    ) private view returns (uint256 lowest, bool tenors) {
        lowest = Math.max($.vols[market].sigmaWad, $.volParams[market].floorSigmaWad);
        for (uint256 b; b < TENOR_BUCKETS; ++b) {
            MarketVolParams memory tp = $.tenorParams[market][b];
            if (tp.staleAfterSec == 0) continue;
            tenors = true;
            lowest = Math.min(lowest, Math.max($.tenorVols[market][b].sigmaWad, tp.floorSigmaWad));
        }
    }

    /// @dev min(bountyUsdc, balance).
    function _bounty(RiskEngineStorage storage $) private view returns (uint256 bounty) {
        bounty = $.bountyUsdc;
        if (bounty > 0) bounty = Math.min(bounty, $.usdc.balanceOf(address(this)));
    }

    /// @inheritdoc IRiskEngine
    function marginSigma(address market) public view returns (uint256) {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        MarginSigma memory w = $.marginSigmas[market];
        if (w.staleAt == 0) return $.sigmaWad;
        return block.timestamp > w.staleAt ? Math.max(w.sigmaWad, w.staleSigmaWad) : w.sigmaWad;
    }

    /// @inheritdoc IRiskEngine
    function tenorVolatility(
        address market,
        uint256 bucket
    ) external view returns (MarketVolParams memory params, MarketVolState memory state) {
        if (bucket >= TENOR_BUCKETS) revert RiskTenorUnknown(market, bucket);
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        return ($.tenorParams[market][bucket], $.tenorVols[market][bucket]);
    }

    /// @inheritdoc IRiskEngine
    function marketVolatility(
        address market
    ) external view returns (MarketVolParams memory params, MarketVolState memory state) {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        return ($.volParams[market], $.vols[market]);
    }

    /// @inheritdoc IRiskEngine
    function marginRates(address market) external view returns (uint256 imRateWad, uint256 mmRateWad) {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        MarketRiskParams memory p = $.markets[market];
        if (p.imFloorWad == 0) revert RiskMarketUnknown(market);
        return RiskMath.marginRates(p, marginSigma(market));
    }

    /// @inheritdoc IRiskEngine
    function volatility()
        external
        view
        returns (uint256 sigmaWad, uint256 varianceWad, uint256 lastPriceWad, uint256 lastUpdate)
    {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        return ($.sigmaWad, $.varianceWad, $.lastPriceWad, $.lastUpdate);
    }

    /// @notice Market parameters.
    /// @param market The market.
    /// @return The parameters (zero when unknown).
    function marketParams(address market) external view returns (MarketRiskParams memory) {
        return _getRiskEngineStorage().markets[market];
    }

    /// @notice Volatility model parameters.
    /// @return lambdaWad EWMA decay.
    /// @return minUpdateInterval Seconds.
    /// @return bountyUsdc Max bounty.
    function volatilityParams()
        external
        view
        returns (uint256 lambdaWad, uint256 minUpdateInterval, uint256 bountyUsdc)
    {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        return ($.lambdaWad, $.minUpdateInterval, $.bountyUsdc);
    }

    /// @inheritdoc IRiskEngine
    function accountMarginState(address account) external view returns (IClearingHouse.MarginState memory) {
        return _getRiskEngineStorage().clearingHouse.marginState(account);
    }
}
