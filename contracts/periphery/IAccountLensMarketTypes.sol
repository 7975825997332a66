// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IAccountLensMarketTypes
/// @notice The market-wide rows of AccountLens: listed series, the markets view, open guarantors and workload
///         classes.
interface IAccountLensMarketTypes {
    /// @notice A futures or options series as listed.
    /// @param seriesId The id.
    /// @param expiry Unix seconds.
    /// @param isOption True for an options series.
    /// @param optionKind Options: 0 call, 1 put.
    /// @param status Futures: 0 trading, 1 expired, 2 price fixed, 3 final. Options: IOptionsMarketTypes.SeriesStatus.
    /// @param strikeWad Options: strike.
    /// @param capWad Options: payoff cap per CH.
    /// @param settlementPriceWad 0 until fixed.
    /// @param longOiCh Futures: Σ longs. Options: open interest.
    /// @param shortOiCh Futures: Σ |shorts|. Options: open interest.
    struct SeriesView {
        uint256 seriesId;
        uint64 expiry;
        bool isOption;
        uint8 optionKind;
        uint8 status;
        uint256 strikeWad;
        uint256 capWad;
        uint256 settlementPriceWad;
        uint256 longOiCh;
        uint256 shortOiCh;
    }

    /// @notice The markets at a glance.
    /// @param indexPriceWad The CH index (0 when it cannot be read).
    /// @param perpLongOiCh Perp long open interest.
    /// @param perpShortOiCh Perp short open interest.
    /// @param perpSkewCh long − short.
    /// @param fundingRateWad Perp funding rate (per day, WAD, signed: positive longs pay).
    /// @param fundingIndexWad Perp funding index.
    /// @param perpPoolUsdc The perp's ClearingHouse PnL pool.
    /// @param vaultSharePriceWad LiquidityVault USDC per share (WAD).
    /// @param vaultTotalAssetsUsdc LiquidityVault total assets.
    /// @param futuresSeries Futures series of the requested page that are not settled.
    /// @param optionSeries Options series not yet settled.
    struct MarketsView {
        uint256 indexPriceWad;
        uint256 perpLongOiCh;
        uint256 perpShortOiCh;
        int256 perpSkewCh;
        int256 fundingRateWad;
        int256 fundingIndexWad;
        int256 perpPoolUsdc;
        uint256 vaultSharePriceWad;
        uint256 vaultTotalAssetsUsdc;
        SeriesView[] futuresSeries;
        SeriesView[] optionSeries;
    }

    /// @notice An open guarantor a new account may join.
    /// @param guarantor The guarantor.
    /// @param defaultLimitUsdc The limit a self-admitted account gets.
    /// @param capitalUsdc Capital.
    /// @param exposureUsdc Total exposure.
    /// @param remainingCapacityUsdc Capital × max leverage − exposure (0 when exhausted).
    /// @param dpsStaked DPS staked.
    /// @param stakeOk Whether the DPS stake meets the minimum (a guarantor below it gates no new trade).
    struct OpenGuarantor {
        address guarantor;
        uint256 defaultLimitUsdc;
        uint256 capitalUsdc;
        uint256 exposureUsdc;
        uint256 remainingCapacityUsdc;
        uint256 dpsStaked;
        bool stakeOk;
    }

    /// @notice A workload class and its current reference system.
    /// @param workloadClass The class id.
    /// @param version The latest published version.
    /// @param refPflopsWad Reference performance, PFLOPS (WAD).
    /// @param factorCount Benchmark factors.
    /// @param publishedAt Unix seconds.
    /// @param weightsWad Factor weights (WAD, Σ = 1).
    struct WorkloadClassView {
        uint16 workloadClass;
        uint16 version;
        uint256 refPflopsWad;
        uint8 factorCount;
        uint40 publishedAt;
        uint64[] weightsWad;
    }
}
