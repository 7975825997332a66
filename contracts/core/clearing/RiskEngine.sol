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
        if (last != 0 && block.timestamp < last + $.minUpdateInterval) {
            revert RiskUpdateTooEarly(last + $.minUpdateInterval);
        }
        uint256 priceWad = $.oracle.indexPrice();
        uint256 lastPrice = $.lastPriceWad;
        uint256 returnWad;
        uint256 variance = $.varianceWad;
        if (lastPrice != 0) {
            uint256 diff = priceWad > lastPrice ? priceWad - lastPrice : lastPrice - priceWad;
            // @dev |r| rounds up and the new variance rounds up: volatility is never understated.
            returnWad = Math.mulDiv(diff, WAD, lastPrice, Math.Rounding.Ceil);
            uint256 lambda = $.lambdaWad;
            variance = Math.mulDiv(
                variance * lambda + (WAD - lambda) * Math.mulDiv(returnWad, returnWad, WAD, Math.Rounding.Ceil),
                1,
                WAD,
                Math.Rounding.Ceil
            );
            $.varianceWad = variance;
            sigmaWad = Math.sqrt(variance * WAD, Math.Rounding.Ceil);
            $.sigmaWad = sigmaWad;
            // The ClearingHouse's copy of σ (no try/catch: a copy that silently missed an update would understate
            // margin).
            IClearingRiskSync(address($.clearingHouse)).syncVolatility(sigmaWad);
        } else {
            sigmaWad = $.sigmaWad;
        }
        $.lastPriceWad = priceWad;
        $.lastUpdate = block.timestamp;
        uint256 bounty = $.bountyUsdc;
        if (bounty > 0) {
            uint256 balance = $.usdc.balanceOf(address(this));
            if (balance < bounty) bounty = balance;
        }
        emit VolatilityUpdated(msg.sender, priceWad, returnWad, variance, sigmaWad, bounty);
        if (bounty > 0) $.usdc.safeTransfer(msg.sender, bounty);
    }

    /// @inheritdoc IRiskEngine
    function marginRates(address market) external view returns (uint256 imRateWad, uint256 mmRateWad) {
        RiskEngineStorage storage $ = _getRiskEngineStorage();
        MarketRiskParams memory p = $.markets[market];
        if (p.imFloorWad == 0) revert RiskMarketUnknown(market);
        return RiskMath.marginRates(p, $.sigmaWad);
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
