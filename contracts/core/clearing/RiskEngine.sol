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
    }

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
        if (
            params.lambdaWad >= WAD ||
            params.staleSigmaWad < params.floorSigmaWad ||
            params.staleAfterSec < $.minUpdateInterval
        ) revert RiskInvalidParams();
        $.volParams[market] = params;
        MarketVolState storage v = $.vols[market];
        // A new model starts from the index σ (never from zero: a zero variance would need many updates to build up).
        if (v.lastUpdate == 0 && v.varianceWad == 0) {
            v.varianceWad = $.varianceWad;
            v.sigmaWad = $.sigmaWad;
            v.lastUpdate = block.timestamp;
        }
        emit MarketVolParamsSet(market, params);
        _pushMarketSigma($, market, params, v);
    }

    /// @inheritdoc IRiskEngine
    function updateMarketVolatility(address market) external nonReentrant returns (uint256 sigmaWad) {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        MarketVolParams memory p = $.volParams[market];
        if (p.staleAfterSec == 0) revert RiskMarketUnknown(market);
        MarketVolState storage v = $.vols[market];
        uint256 interval = $.minUpdateInterval;
        uint256 last = v.lastUpdate;
        uint256 lastPrice = v.lastPriceWad;
        // One update (and one bounty) per interval per market: calling every block pays nothing more.
        if (lastPrice != 0 && block.timestamp < last + interval) revert RiskUpdateTooEarly(last + interval);
        uint256 priceWad = $.oracle.indexPrice();
        uint256 returnWad;
        uint256 elapsed;
        uint256 variance = v.varianceWad;
        if (lastPrice != 0) {
            elapsed = block.timestamp - last;
            (variance, returnWad) = RiskMath.foldReturn(variance, p.lambdaWad, lastPrice, priceWad, elapsed, interval);
            v.varianceWad = variance;
            v.sigmaWad = RiskMath.sigmaOf(variance);
        }
        v.lastPriceWad = priceWad;
        v.lastUpdate = block.timestamp;
        sigmaWad = _pushMarketSigma($, market, p, v);
        uint256 bounty = _bounty($);
        emit MarketVolatilityUpdated(market, msg.sender, priceWad, returnWad, elapsed, variance, v.sigmaWad, bounty);
        if (bounty > 0) $.usdc.safeTransfer(msg.sender, bounty);
    }

    /// @dev Pushes the market's floored σ and its staleness rule into the ClearingHouse's copy; returns the σ
    ///      margin uses now.
    function _pushMarketSigma(
        RiskEngineStorage storage $,
        address market,
        MarketVolParams memory p,
        MarketVolState storage v
    ) private returns (uint256) {
        uint256 sigma = Math.max(v.sigmaWad, p.floorSigmaWad);
        uint256 staleAt = v.lastUpdate + p.staleAfterSec;
        IClearingRiskSync(address($.clearingHouse)).syncMarketVolatility(market, sigma, p.staleSigmaWad, staleAt);
        return block.timestamp > staleAt ? Math.max(sigma, p.staleSigmaWad) : sigma;
    }

    /// @dev min(bountyUsdc, balance).
    function _bounty(RiskEngineStorage storage $) private view returns (uint256 bounty) {
        bounty = $.bountyUsdc;
        if (bounty > 0) bounty = Math.min(bounty, $.usdc.balanceOf(address(this)));
    }

    /// @inheritdoc IRiskEngine
    function marginSigma(address market) public view returns (uint256) {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        MarketVolParams memory p = $.volParams[market];
        if (p.staleAfterSec == 0) return $.sigmaWad;
        MarketVolState storage v = $.vols[market];
        uint256 sigma = Math.max(v.sigmaWad, p.floorSigmaWad);
        return block.timestamp > v.lastUpdate + p.staleAfterSec ? Math.max(sigma, p.staleSigmaWad) : sigma;
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
