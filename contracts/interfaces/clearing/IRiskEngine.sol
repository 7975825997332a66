// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IClearingHouse} from "./IClearingHouse.sol";

/// @title IRiskEngine
/// @notice VaR-style margin rates (SPEC section 7): the index's EWMA volatility σ (of oracle returns, updated
///         permissionlessly for a bounded bounty) × a confidence multiple, with a floor, per market:
///         initialRate = max(imFloor, σ × imMultiple), maintenanceRate = max(mmFloor, σ × mmMultiple), rounded up.
/// @dev σ is per update interval (≥ minUpdateInterval seconds apart); the multiples fold in the confidence
///      quantile and the liquidation horizon. Variance update: v ← λ·v + (1 − λ)·r², r = (p − p₀)/p₀ (WAD).
interface IRiskEngine {
    /// @notice A market's margin parameters (all WAD).
    /// @param imMultipleWad Initial-margin multiple of σ.
    /// @param mmMultipleWad Maintenance-margin multiple of σ.
    /// @param imFloorWad Minimum initial-margin rate.
    /// @param mmFloorWad Minimum maintenance-margin rate.
    struct MarketRiskParams {
        uint64 imMultipleWad;
        uint64 mmMultipleWad;
        uint64 imFloorWad;
        uint64 mmFloorWad;
    }

    /// @notice Thrown when a market has no risk parameters.
    /// @param market The market.
    error RiskMarketUnknown(address market);
    /// @notice Thrown when parameters are inconsistent (mm > im, a rate ≥ 1, λ ≥ 1, zero interval).
    error RiskInvalidParams();
    /// @notice Thrown when the volatility is updated before `nextUpdateAt`.
    /// @param nextUpdateAt Earliest next update, unix seconds.
    error RiskUpdateTooEarly(uint256 nextUpdateAt);

    /// @notice Emitted when a market's parameters are set.
    /// @param market The market.
    /// @param params The parameters.
    event MarketRiskParamsSet(address indexed market, MarketRiskParams params);
    /// @notice Emitted when the volatility model parameters are set.
    /// @param lambdaWad EWMA decay.
    /// @param minUpdateInterval Seconds between updates.
    /// @param bountyUsdc Max bounty per update.
    event VolatilityParamsSet(uint256 lambdaWad, uint256 minUpdateInterval, uint256 bountyUsdc);
    /// @notice Emitted on every volatility update.
    /// @param keeper Caller.
    /// @param priceWad Price read.
    /// @param returnWad |r|, WAD.
    /// @param varianceWad Variance after.
    /// @param sigmaWad σ after.
    /// @param bountyUsdc Bounty paid.
    event VolatilityUpdated(
        address indexed keeper,
        uint256 priceWad,
        uint256 returnWad,
        uint256 varianceWad,
        uint256 sigmaWad,
        uint256 bountyUsdc
    );

    /// @notice Sets a market's parameters (ADMIN).
    /// @param market The market.
    /// @param params The parameters.
    function setMarketParams(address market, MarketRiskParams calldata params) external;

    /// @notice Sets the volatility model (ADMIN).
    /// @param lambdaWad EWMA decay, < 1e18.
    /// @param minUpdateInterval Seconds between updates, > 0.
    /// @param bountyUsdc Max bounty paid per update from this contract's USDC.
    function setVolatilityParams(uint256 lambdaWad, uint256 minUpdateInterval, uint256 bountyUsdc) external;

    /// @notice Reads the index and folds its return into the EWMA variance. Permissionless; pays the caller
    ///         min(bountyUsdc, this contract's USDC balance). Reverts before minUpdateInterval has passed.
    /// @return sigmaWad σ after.
    function updateVolatility() external returns (uint256 sigmaWad);

    /// @notice Margin rates of `market`.
    /// @param market The market.
    /// @return imRateWad Initial rate, WAD.
    /// @return mmRateWad Maintenance rate, WAD.
    function marginRates(address market) external view returns (uint256 imRateWad, uint256 mmRateWad);

    /// @notice The volatility state.
    /// @return sigmaWad σ, WAD.
    /// @return varianceWad Variance, WAD.
    /// @return lastPriceWad Last price folded in.
    /// @return lastUpdate Unix seconds.
    function volatility()
        external
        view
        returns (uint256 sigmaWad, uint256 varianceWad, uint256 lastPriceWad, uint256 lastUpdate);

    /// @notice An account's margin state at the current index (delegates to the ClearingHouse).
    /// @param account The account.
    /// @return state The margin state.
    function accountMarginState(address account) external view returns (IClearingHouse.MarginState memory state);
}
