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

    /// @notice A market's own volatility model (issue 20 item 3), all σ per update interval, WAD.
    /// @param lambdaWad EWMA decay of the market's σ, < 1e18.
    /// @param floorSigmaWad Stress floor: the σ margin uses is never below it.
    /// @param staleSigmaWad σ margin uses (if larger) once the market's σ is older than `staleAfterSec`.
    /// @param staleAfterSec Seconds after the last update at which the market's σ counts as stale (> 0).
    struct MarketVolParams {
        uint64 lambdaWad;
        uint64 floorSigmaWad;
        uint64 staleSigmaWad;
        uint32 staleAfterSec;
    }

    /// @notice A market's volatility state.
    /// @param varianceWad EWMA variance per interval, WAD.
    /// @param sigmaWad √variance, WAD (before floor and staleness).
    /// @param lastPriceWad Last index price folded in.
    /// @param lastUpdate Unix seconds of the last update (0: never).
    struct MarketVolState {
        uint256 varianceWad;
        uint256 sigmaWad;
        uint256 lastPriceWad;
        uint256 lastUpdate;
    }

    /// @notice Thrown when a market has no risk parameters.
    /// @param market The market.
    error RiskMarketUnknown(address market);
    /// @notice Thrown when parameters are inconsistent (mm > im, a rate ≥ 1, λ ≥ 1, zero interval).
    error RiskInvalidParams();
    /// @notice Thrown for a tenor bucket ≥ TENOR_BUCKETS or one without a model.
    /// @param market The market.
    /// @param bucket The bucket.
    error RiskTenorUnknown(address market, uint256 bucket);
    /// @notice Thrown when the volatility is updated before `nextUpdateAt`.
    /// @param nextUpdateAt Earliest next update, unix seconds.
    error RiskUpdateTooEarly(uint256 nextUpdateAt);
    /// @notice Thrown when per-tenor margin is enabled for a market the ClearingHouse does not ask for account risk
    ///         (its hook must add each tenor's margin above the lowest tenor's rate the ClearingHouse then charges).
    /// @param market The market.
    error RiskTenorMarginNeedsHook(address market);

    /// @notice Emitted when a market's volatility model is set.
    /// @param market The market.
    /// @param params The model.
    event MarketVolParamsSet(address indexed market, MarketVolParams params);
    /// @notice Emitted on every update of a market's σ.
    /// @param market The market.
    /// @param keeper Caller.
    /// @param priceWad Price read.
    /// @param returnWad |r| over the elapsed time, WAD.
    /// @param elapsedSec Seconds since the previous update (0 on the first read).
    /// @param varianceWad Variance per interval after.
    /// @param sigmaWad σ per interval after (before floor and staleness).
    /// @param bountyUsdc Bounty paid.
    event MarketVolatilityUpdated(
        address indexed market,
        address indexed keeper,
        uint256 priceWad,
        uint256 returnWad,
        uint256 elapsedSec,
        uint256 varianceWad,
        uint256 sigmaWad,
        uint256 bountyUsdc
    );
    /// @notice Emitted when a futures tenor bucket's volatility model is set (`params.staleAfterSec == 0`: removed).
    /// @param market The market.
    /// @param bucket 0 front month (≤ 35 days to expiry), 1 ≤ 3 months, 2 ≤ 12 months.
    /// @param params The model.
    event TenorVolParamsSet(address indexed market, uint256 indexed bucket, MarketVolParams params);
    /// @notice Emitted on every update of a tenor bucket's σ.
    /// @param market The market.
    /// @param bucket The bucket.
    /// @param keeper Caller.
    /// @param priceWad Price read.
    /// @param returnWad |r| over the elapsed time, WAD.
    /// @param elapsedSec Seconds since the previous update (0 on the first read).
    /// @param varianceWad Variance per interval after.
    /// @param sigmaWad σ per interval after (before floor and staleness).
    /// @param bountyUsdc Bounty paid.
    event TenorVolatilityUpdated(
        address indexed market,
        uint256 indexed bucket,
        address indexed keeper,
        uint256 priceWad,
        uint256 returnWad,
        uint256 elapsedSec,
        uint256 varianceWad,
        uint256 sigmaWad,
        uint256 bountyUsdc
    );
    /// @notice Emitted when per-tenor margin is turned on or off for a futures market.
    /// @param market The market.
    /// @param enabled Whether the ClearingHouse charges the lowest tenor's rate and the market's hook the rest.
    event TenorMarginSet(address indexed market, bool enabled);
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

    /// @notice Reads the index and folds its return into the EWMA variance, scaled by the elapsed intervals
    ///         (RiskMath.foldReturn). Permissionless; pays the caller min(bountyUsdc, this contract's USDC balance).
    ///         Reverts before minUpdateInterval has passed.
    /// @return sigmaWad σ after.
    function updateVolatility() external returns (uint256 sigmaWad);

    /// @notice Gives `market` its own σ (ADMIN): from then on its margin rates use the market's EWMA σ (updated by
    ///         `updateMarketVolatility`), never below `floorSigmaWad`, and at least `staleSigmaWad` while stale.
    ///         Setting it again keeps the market's variance; the first update only records the reference price.
    /// @param market The market (must have risk parameters).
    /// @param params The model (λ < 1, staleSigma ≥ floorSigma, staleAfterSec ≥ minUpdateInterval).
    function setMarketVolParams(address market, MarketVolParams calldata params) external;

    /// @notice Folds the index return since `market`'s last update into its EWMA variance, scaled by the elapsed
    ///         intervals (RiskMath.foldReturn), and pushes the margin σ to the ClearingHouse. Permissionless; pays
    ///         the caller min(bountyUsdc, this contract's USDC) at most once per minUpdateInterval per market.
    /// @param market The market (with a volatility model).
    /// @return sigmaWad The σ margin now uses for the market (floor and staleness applied).
    function updateMarketVolatility(address market) external returns (uint256 sigmaWad);

    /// @notice Gives tenor bucket `bucket` of futures market `market` its own σ (ADMIN; docs/clearing.md "Per-tenor
    ///         σ"). The market's margin σ becomes the largest of its own σ and every configured bucket's (floor and
    ///         staleness applied per bucket). A bucket's first model starts from the market's variance (never 0);
    ///         setting it again keeps the bucket's variance; `params.staleAfterSec == 0` removes the bucket.
    /// @param market The market (must have its own model, setMarketVolParams).
    /// @param bucket 0 front month, 1 ≤ 3 months, 2 ≤ 12 months (< TENOR_BUCKETS).
    /// @param params The model (as setMarketVolParams), or all zero to remove.
    function setTenorVolParams(address market, uint256 bucket, MarketVolParams calldata params) external;

    /// @notice Folds the index return since the bucket's last update into its EWMA variance (scaled by the elapsed
    ///         intervals) and pushes the market's margin σ to the ClearingHouse. Permissionless; pays the caller
    ///         min(bountyUsdc, this contract's USDC) at most once per minUpdateInterval per bucket.
    /// @param market The market.
    /// @param bucket The bucket (with a model).
    /// @return sigmaWad The σ margin now uses for the market (every bucket, floor and staleness applied).
    function updateTenorVolatility(address market, uint256 bucket) external returns (uint256 sigmaWad);

    /// @notice Turns per-tenor margin on or off for a futures market (ADMIN; docs/clearing.md "Per-tenor margin"). On,
    ///         and with a tenor bucket configured, the ClearingHouse margins the market's net position at the lowest
    ///         σ of its models and the market's account-risk hook adds each tenor's margin above it
    ///         (`tenorMarginRates`). Only for a market whose hook does so (FuturesMarket): reverts
    ///         RiskTenorMarginNeedsHook for a market the ClearingHouse does not ask for account risk.
    /// @param market The market (with risk parameters).
    /// @param enabled On or off.
    function setTenorMargin(address market, bool enabled) external;

    /// @notice Whether per-tenor margin is on for `market` (`setTenorMargin`).
    /// @param market The market.
    /// @return enabled On.
    function tenorMargin(address market) external view returns (bool enabled);

    /// @notice The margin rates of each tenor of a futures market now: 0 front month (≤ 35 days to expiry), 1 ≤ 3
    ///         months, 2 ≤ 12 months (a bucket without a model: the market's own), 3 beyond (the market's own model);
    ///         each σ floored and at least its stale σ once stale. `base*` are the rates at the lowest floored σ of
    ///         the market's models: what the ClearingHouse charges the net position when per-tenor margin is on.
    /// @param market The market (with risk parameters).
    /// @return baseImWad Initial rate at the lowest σ, WAD.
    /// @return baseMmWad Maintenance rate at the lowest σ, WAD.
    /// @return imWad Initial rate per tenor, WAD.
    /// @return mmWad Maintenance rate per tenor, WAD.
    function tenorMarginRates(
        address market
    ) external view returns (uint256 baseImWad, uint256 baseMmWad, uint256[4] memory imWad, uint256[4] memory mmWad);

    /// @notice A tenor bucket's volatility model and state.
    /// @param market The market.
    /// @param bucket The bucket (< TENOR_BUCKETS).
    /// @return params The model (zero: no such bucket).
    /// @return state The state.
    function tenorVolatility(
        address market,
        uint256 bucket
    ) external view returns (MarketVolParams memory params, MarketVolState memory state);

    /// @notice σ the margin of `market` uses now: the largest of the market's own σ and its tenor buckets' (floor
    ///         and staleness applied), or the index σ for a market without a model.
    /// @param market The market.
    /// @return sigmaWad σ, WAD.
    function marginSigma(address market) external view returns (uint256 sigmaWad);

    /// @notice A market's volatility model and state.
    /// @param market The market.
    /// @return params The model (zero: the market uses the index σ).
    /// @return state The state.
    function marketVolatility(
        address market
    ) external view returns (MarketVolParams memory params, MarketVolState memory state);

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
