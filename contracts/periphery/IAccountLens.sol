// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";

/// @title IAccountLens
/// @notice One-call read views for wallets and front ends (periphery: read-only, not upgradeable, holds nothing).
///         Every margin figure comes from the ClearingHouse's own views (`marginState`, `marginStateAt`,
///         `collateralOf`, `positionOf`, `marketsOf`), never from a copy of its rules, so the lens stays exact when
///         those rules change. Units as in IClearingHouse: USDC 6 decimals, CH and prices WAD (18).
/// @dev All CHX markets margin on one underlying (the CH index), so an account has one liquidation price: the
///      index at which its equity falls to its maintenance margin. It is found on the ClearingHouse's
///      `marginStateAt` (a linear estimate refined by bisection), and every ClearingHouse position shows it.
interface IAccountLens {
    /// @notice What a row of the portfolio describes.
    /// @dev Perp: the PerpMarket's ClearingHouse position. FuturesNet: the FuturesMarket's ClearingHouse position
    ///      (the net of every series: what is margined). FuturesSeries: one series inside it (not margined on its
    ///      own). Option: one options series (fully collateralised, never liquidated). Other: a position in a
    ///      ClearingHouse market the lens does not know.
    enum PositionKind {
        Perp,
        FuturesNet,
        FuturesSeries,
        Option,
        Other
    }

    /// @notice Collateral of one kind held for the account.
    /// @param asset The token.
    /// @param holder Where it is held (ClearingHouse margin, FuturesMarket delivery escrow, OptionsMarket pool).
    /// @param amount Amount in the token's units (signed: ClearingHouse collateral is negative only in a default).
    struct CollateralView {
        address asset;
        address holder;
        int256 amount;
    }

    /// @notice One position.
    /// @param kind What the row is.
    /// @param market The market contract.
    /// @param seriesId Futures or options series (0 for perp, net and other rows).
    /// @param sizeCh Signed size, CH WAD (options: long − short).
    /// @param openNotionalUsdc ClearingHouse cost basis (ClearingHouse rows); size × entry for a futures series.
    /// @param entryPriceWad Average entry price (futures series; |openNotional| / |size| for ClearingHouse rows).
    /// @param unrealisedPnlUsdc At the index: size × index (rounded down) − cost basis. Options: intrinsic value of
    ///        the longs minus the payoff owed on the shorts.
    /// @param fundingOwedUsdc Perp funding accrued and not yet settled (positive: the account owes it).
    /// @param initialMarginUsdc This position's share of the initial margin (RiskEngine rates, ClearingHouse rows).
    /// @param maintenanceMarginUsdc This position's share of the maintenance margin.
    /// @param liquidationPriceWad The account's liquidation price (ClearingHouse rows; 0: none).
    /// @param electedCh Futures: delivery elected by a long. Options: long size.
    /// @param escrowCh Futures: CH escrowed by a short for delivery. Options: short size.
    /// @param pendingDeliveryUsdc Futures: what the elected delivery will cost (elected × settlement price, or × the
    ///        index before it is fixed). Options: collateral posted by the writer.
    struct PositionView {
        PositionKind kind;
        address market;
        uint256 seriesId;
        int256 sizeCh;
        int256 openNotionalUsdc;
        uint256 entryPriceWad;
        int256 unrealisedPnlUsdc;
        int256 fundingOwedUsdc;
        uint256 initialMarginUsdc;
        uint256 maintenanceMarginUsdc;
        uint256 liquidationPriceWad;
        uint256 electedCh;
        uint256 escrowCh;
        uint256 pendingDeliveryUsdc;
    }

    /// @notice An account's guarantor and the room left for the account to add risk.
    /// @param guarantor The guarantor (zero: none; the account must join one before trading).
    /// @param open Whether the guarantor admits any wallet.
    /// @param customerLimitUsdc The account's exposure limit.
    /// @param customerExposureUsdc The account's recorded exposure.
    /// @param capitalUsdc The guarantor's capital.
    /// @param exposureUsdc The guarantor's total exposure.
    /// @param capacityUsdc Capital × max leverage.
    /// @param remainingUsdc Room left: min(limit − exposure of the account, capacity − exposure of the guarantor).
    struct GuarantorView {
        address guarantor;
        bool open;
        uint256 customerLimitUsdc;
        uint256 customerExposureUsdc;
        uint256 capitalUsdc;
        uint256 exposureUsdc;
        uint256 capacityUsdc;
        uint256 remainingUsdc;
    }

    /// @notice An account's whole state in one call.
    /// @param account The account.
    /// @param priceOk False when the index could not be read (stale or paused oracle): margin figures are then zero
    ///        and `maxWithdrawableUsdc` is what `withdraw` accepts without a price (the collateral, only with no
    ///        position).
    /// @param indexPriceWad The CH index used.
    /// @param margin The ClearingHouse's margin state at that index.
    /// @param collateral Collateral by asset and holder.
    /// @param positions Every position (ClearingHouse markets, futures series, options series held).
    /// @param healthWad equity / maintenance margin (WAD; type(uint256).max with no requirement, 0 at equity ≤ 0).
    /// @param liquidatable equity < maintenance margin (the LiquidationEngine's test).
    /// @param liquidationPriceWad Index at which the account becomes liquidatable (0: no such price).
    /// @param liquidationBelow True: liquidated when the index falls to the price; false: when it rises to it.
    /// @param maxWithdrawableUsdc The most `ClearingHouse.withdraw` accepts now (exact, 0 when paused).
    /// @param fundingOwedUsdc Σ perp funding owed (not part of the ClearingHouse equity until settled).
    /// @param pendingDeliveryUsdc Σ futures delivery payments elected.
    /// @param guarantor The account's guarantor.
    struct Portfolio {
        address account;
        bool priceOk;
        uint256 indexPriceWad;
        IClearingHouse.MarginState margin;
        CollateralView[] collateral;
        PositionView[] positions;
        uint256 healthWad;
        bool liquidatable;
        uint256 liquidationPriceWad;
        bool liquidationBelow;
        uint256 maxWithdrawableUsdc;
        int256 fundingOwedUsdc;
        uint256 pendingDeliveryUsdc;
        GuarantorView guarantor;
    }

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

    /// @notice Everything about `account` in one call (see Portfolio).
    /// @param account The account.
    /// @return p The portfolio.
    function portfolio(address account) external view returns (Portfolio memory p);

    /// @notice The most `ClearingHouse.withdraw` accepts from `account` now (what `portfolio` reports).
    /// @param account The account.
    /// @return amountUsdc USDC.
    function maxWithdrawable(address account) external view returns (uint256 amountUsdc);

    /// @notice The markets: perp open interest, skew and funding, the vault's share price, unsettled series.
    /// @param futuresFromId First futures series id of the page (1 = the first ever listed).
    /// @param futuresLimit Most futures ids to look at.
    /// @return m The overview.
    function markets(uint256 futuresFromId, uint256 futuresLimit) external view returns (MarketsView memory m);

    /// @notice The registered open guarantors among `candidates` (the GuarantorPool keeps no list: take them from
    ///         its `GuarantorRegistered` events), with their remaining capacity.
    /// @param candidates Addresses to check.
    /// @return list The open ones, in input order.
    function openGuarantors(address[] calldata candidates) external view returns (OpenGuarantor[] memory list);

    /// @notice The workload classes 1..maxClass that have a published reference system.
    /// @param maxClass Highest class id to look at.
    /// @return list Classes and their latest reference system.
    function workloadClasses(uint16 maxClass) external view returns (WorkloadClassView[] memory list);

    /// @notice The contracts the lens reads.
    /// @return clearingHouse The ClearingHouse.
    /// @return perpMarket The PerpMarket (zero if none).
    /// @return liquidityVault The LiquidityVault (zero if none).
    /// @return futuresMarket The FuturesMarket (zero if none).
    /// @return optionsMarket The OptionsMarket (zero if none).
    /// @return computeStandard The ComputeStandard (zero if none).
    function sources()
        external
        view
        returns (
            address clearingHouse,
            address perpMarket,
            address liquidityVault,
            address futuresMarket,
            address optionsMarket,
            address computeStandard
        );
}
