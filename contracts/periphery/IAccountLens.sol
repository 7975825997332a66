// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";
import {IAccountLensTypes} from "./IAccountLensTypes.sol";
import {IAccountLensMarketTypes} from "./IAccountLensMarketTypes.sol";

/// @title IAccountLens
/// @notice One-call read views for wallets and front ends (periphery: read-only, not upgradeable, holds nothing).
///         Every margin figure comes from the ClearingHouse's own views (`marginState`, `marginStateAt`,
///         `collateralOf`, `positionOf`, `marketsOf`), never from a copy of its rules, so the lens stays exact when
///         those rules change. Units as in IClearingHouse: USDC 6 decimals, CH and prices WAD (18).
/// @dev All CHX markets margin on one underlying (the CH index), so an account has one liquidation price: the
///      index at which its equity falls to its maintenance margin. It is found on the ClearingHouse's
///      `marginStateAt` (a linear estimate refined by bisection), and every ClearingHouse position shows it.
///      The row types are in IAccountLensTypes (account rows) and IAccountLensMarketTypes (market rows).
interface IAccountLens is IAccountLensTypes, IAccountLensMarketTypes {
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
