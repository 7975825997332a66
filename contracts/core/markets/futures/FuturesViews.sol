// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesBase} from "./FuturesBase.sol";
import {FuturesListing} from "../../../libraries/futures/FuturesListing.sol";
import {FuturesFixing} from "../../../libraries/futures/FuturesFixing.sol";
import {FuturesSigned} from "../../../libraries/futures/FuturesSigned.sol";
import {FuturesRisk} from "./FuturesRisk.sol";
import {FuturesOrders} from "./FuturesOrders.sol";
import {IFuturesMarket} from "../../../interfaces/markets/IFuturesMarket.sol";
import {IFuturesExercise} from "../../../interfaces/markets/IFuturesExercise.sol";
import {IDelayedOrders} from "../../../interfaces/markets/IDelayedOrders.sol";

/// @title FuturesViews
/// @notice The FuturesMarket's read-only entry points (IFuturesMarket views), split from the entry contract for its
///         length; inherited by FuturesMarket, no state of its own (the one `chx.storage.FuturesMarket` namespace).
abstract contract FuturesViews is FuturesBase, IFuturesMarket {
    // ───────────────────────────── listing, signed orders, settlement ─────────────────────────────

    /// @inheritdoc IFuturesMarket
    function nextStandardExpiry(Tenor tenor) external view returns (uint64) {
        return FuturesListing.nextStandardExpiry(_getFuturesMarketStorage(), tenor);
    }

    /// @inheritdoc IFuturesMarket
    function keeperListingMonths() external view returns (uint256) {
        return _getFuturesMarketStorage().keeperListingMonths;
    }

    /// @inheritdoc IFuturesExercise
    function isStandardSeries(uint256 seriesId) external view returns (bool) {
        SeriesState storage s = _getFuturesMarketStorage().series[seriesId];
        return s.expiry != 0 && s.tenor != Tenor.Custom;
    }

    /// @inheritdoc IFuturesMarket
    function orderDigest(Order calldata order) external view returns (bytes32) {
        return FuturesSigned.orderDigest(order);
    }

    /// @inheritdoc IFuturesMarket
    function signedOrderState(Order calldata order) external view returns (uint256 filledCh, bool cancelled) {
        return FuturesSigned.orderState(_getFuturesMarketStorage(), order);
    }

    /// @inheritdoc IFuturesMarket
    function minNonce(address maker) external view returns (uint256) {
        return _getFuturesMarketStorage().signedOrders.minNonce[maker];
    }

    /// @inheritdoc IFuturesMarket
    function curvePoint(uint256 seriesId) external view returns (CurvePoint memory) {
        return _getFuturesMarketStorage().curve[seriesId];
    }

    /// @inheritdoc IFuturesMarket
    function settlementTwapHints(uint256 seriesId) external view returns (uint80, uint64[] memory) {
        return FuturesFixing.hints(_getFuturesMarketStorage(), seriesId);
    }

    /// @inheritdoc IFuturesMarket
    function deliveryModule() external view returns (address) {
        return _getFuturesMarketStorage().deliveryModule;
    }

    // ───────────────────────────── views ─────────────────────────────

    /// @inheritdoc IFuturesExercise
    function seriesExpiry(uint256 seriesId) external view returns (uint64 expiry, bool trading) {
        expiry = _getFuturesMarketStorage().series[seriesId].expiry;
        trading = expiry != 0 && block.timestamp < expiry;
    }

    /// @inheritdoc IFuturesMarket
    function seriesInfo(uint256 seriesId) external view returns (Series memory) {
        return FuturesRisk.seriesInfo(_getFuturesMarketStorage(), seriesId);
    }

    /// @inheritdoc IFuturesMarket
    function positionOf(uint256 seriesId, address account) external view returns (Position memory) {
        return _getFuturesMarketStorage().positions[seriesId][account];
    }

    /// @inheritdoc IFuturesMarket
    function accountSeries(address account) external view returns (uint256[] memory) {
        return FuturesRisk.accountSeries(_getFuturesMarketStorage(), account);
    }

    /// @inheritdoc IFuturesMarket
    function seriesAccounts(
        uint256 seriesId,
        uint256 offset,
        uint256 limit
    ) external view returns (address[] memory accounts, uint256 total) {
        return FuturesRisk.seriesAccounts(_getFuturesMarketStorage(), seriesId, offset, limit);
    }

    /// @inheritdoc IFuturesMarket
    function quote(
        uint256 seriesId,
        int256 sizeDeltaCh
    ) external view returns (uint256 priceWad, uint256 indexPriceWad, int256 premiumWad) {
        return FuturesOrders.quote(_getFuturesMarketStorage(), seriesId, sizeDeltaCh);
    }

    /// @inheritdoc IFuturesMarket
    function deliveryObligation(
        uint256 seriesId,
        address account
    ) external view returns (uint256 assignedCh, uint256 escrowCh, uint64 deadline) {
        return FuturesRisk.deliveryObligation(_getFuturesMarketStorage(), seriesId, account);
    }

    /// @inheritdoc IFuturesMarket
    function pendingOrder(uint256 seriesId, address account) external view returns (IDelayedOrders.OrderView memory) {
        return FuturesOrders.orderOf(_getFuturesMarketStorage(), seriesId, account);
    }

    /// @inheritdoc IFuturesMarket
    function pendingOrders() external view returns (uint256 count, uint256 feesUsdc) {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        return ($.orders.keys.length, $.orders.feesUsdc);
    }

    /// @inheritdoc IFuturesMarket
    function params() external view returns (Params memory) {
        return _getFuturesMarketStorage().params;
    }

    /// @inheritdoc IFuturesMarket
    function seriesCount() external view returns (uint256 count, uint256 live) {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        return ($.seriesCount, $.liveSeries);
    }

    /// @inheritdoc IFuturesMarket
    function bountiesOwed(address keeper) external view returns (uint256 owedUsdc, uint256 totalOwedUsdc) {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        return ($.bountiesOwedUsdc[keeper], $.totalBountiesOwedUsdc);
    }

    /// @inheritdoc IFuturesMarket
    function modules()
        external
        view
        returns (address clearingHouse, address oracle, address ch, address usdc, address vault)
    {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        return (address($.clearingHouse), address($.oracle), address($.ch), address($.usdc), $.vault);
    }
}
