// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IAccountLensTypes
/// @notice The rows of an AccountLens portfolio: what a position row describes, collateral, positions and the
///         guarantor.
interface IAccountLensTypes {
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
}
