// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {FuturesBase} from "./FuturesBase.sol";
import {FuturesLedger} from "../../../libraries/futures/FuturesLedger.sol";
import {IClearingHouse} from "../../../interfaces/clearing/IClearingHouse.sol";
import {IVaultMarket} from "../../../interfaces/callback/IVaultMarket.sol";
import {IFuturesMarket} from "../../../interfaces/markets/IFuturesMarket.sol";
import {FuturesOrders} from "./FuturesOrders.sol";
import {FuturesRisk} from "./FuturesRisk.sol";
import {FuturesSettlement} from "../../../libraries/futures/FuturesSettlement.sol";
import {FuturesFixing} from "../../../libraries/futures/FuturesFixing.sol";
import {FuturesListing} from "../../../libraries/futures/FuturesListing.sol";
import {FuturesEscrow} from "../../../libraries/futures/FuturesEscrow.sol";
import {FuturesLiquidation} from "../../../libraries/futures/FuturesLiquidation.sol";
import {FuturesTrading} from "../../../libraries/futures/FuturesTrading.sol";
import {FuturesSigned} from "../../../libraries/futures/FuturesSigned.sol";

/// @title FuturesDelivery
/// @notice The delivery, expiry, settlement and liquidation-mapping half of the FuturesMarket, delegate-called by
///         it on the proxy's storage (split for the 24,576-byte limit). Every function here is documented in
///         IFuturesMarket; called directly (not through the proxy) it sees empty storage and does nothing useful.
/// @dev Not a proxy and never initialised; its constructor (ChxUpgradeable) disables initializers. Its `restricted`
///      and `nonReentrant` checks run in the proxy's context (AccessManager target = the FuturesMarket proxy).
contract FuturesDelivery is FuturesBase {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;
    using SafeCast for int256;

    // ───────────────────────────── vault

    /// @notice See IVaultMarket.
    function fundFromVault(uint256 amountUsdc) external nonReentrant {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        address vault = $.vault;
        if (msg.sender != vault || vault == address(0)) revert IVaultMarket.VaultMarketOnlyVault(msg.sender);
        if (amountUsdc == 0) revert FuturesZeroAmount();
        emit VaultFlow(vault, int256(amountUsdc));
        $.usdc.safeTransferFrom(vault, address(this), amountUsdc);
        $.usdc.forceApprove(address($.clearingHouse), amountUsdc);
        $.clearingHouse.fundMarketPool(amountUsdc);
    }

    /// @notice See IVaultMarket.
    function returnToVault(uint256 amountUsdc) external nonReentrant {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        address vault = $.vault;
        if (msg.sender != vault || vault == address(0)) revert IVaultMarket.VaultMarketOnlyVault(msg.sender);
        if (amountUsdc == 0) revert FuturesZeroAmount();
        uint256 free = FuturesRisk.withdrawableUsdc($);
        if (amountUsdc > free) revert FuturesVaultWithdrawTooLarge(amountUsdc, free);
        emit VaultFlow(vault, -int256(amountUsdc));
        $.clearingHouse.withdrawMarketPool(amountUsdc, vault);
    }

    /// @notice See IFuturesMarket.
    function setVault(address vault) external restricted {
        if (vault == address(0)) revert ChxZeroAddress();
        _getFuturesMarketStorage().vault = vault;
        emit VaultSet(vault);
    }

    // ───────────────────────────── listing and parameters (rare calls: here for the market's size)

    /// @notice See IFuturesMarket.
    function listSeries(uint64 expiry, uint256 oiCapCh) external restricted returns (uint256) {
        return FuturesListing.list(_getFuturesMarketStorage(), expiry, Tenor.Custom, oiCapCh);
    }

    /// @notice See IFuturesMarket.
    function listStandardSeries(Tenor tenor) external whenActive(FEATURE_LIST) returns (uint256) {
        return FuturesListing.listStandard(_getFuturesMarketStorage(), tenor);
    }

    /// @notice See IFuturesMarket.
    function listStandardSeriesAt(Tenor tenor, uint64 expiry) external whenActive(FEATURE_LIST) returns (uint256) {
        return FuturesListing.listStandardAt(_getFuturesMarketStorage(), tenor, expiry);
    }

    /// @notice See IFuturesMarket.
    function setKeeperListingMonths(uint256 months) external restricted {
        FuturesListing.setKeeperListingMonths(_getFuturesMarketStorage(), months);
    }

    /// @notice See IFuturesMarket.
    function setParams(Params calldata params_) external restricted {
        FuturesListing.setParams(_getFuturesMarketStorage(), params_);
    }

    /// @notice See IFuturesMarket.
    function setSeriesOiCap(uint256 seriesId, uint256 oiCapCh) external restricted {
        FuturesListing.setSeriesOiCap(_getFuturesMarketStorage(), seriesId, oiCapCh);
    }

    /// @notice See IFuturesMarket.
    function setDeliveryOrders(address deliveryOrders) external restricted {
        _getFuturesMarketStorage().deliveryOrders = deliveryOrders;
        emit DeliveryOrdersSet(deliveryOrders);
    }

    // ───────────────────────────── moved out of the market for its size (issue 19)

    /// @notice See IFuturesExercise.
    function openFromExercise(
        uint256 seriesId,
        address longAccount,
        address shortAccount,
        uint256 sizeCh,
        uint256 priceWad
    ) external restricted nonReentrant {
        if (sizeCh == 0 || priceWad == 0) revert FuturesZeroAmount();
        _requireActive(FEATURE_TRADE);
        FuturesTrading.exercise(_getFuturesMarketStorage(), seriesId, longAccount, shortAccount, sizeCh, priceWad);
    }

    // ───────────────────────────── signed orders (issue 19 item 2)

    /// @notice See IFuturesMarket.
    function cancelSignedOrder(Order calldata order) external {
        FuturesSigned.cancelSigned(_getFuturesMarketStorage(), order);
    }

    /// @notice See IFuturesMarket.
    function raiseMinNonce(uint256 newMinNonce) external {
        FuturesSigned.raiseMinNonce(_getFuturesMarketStorage(), newMinNonce);
    }

    // ───────────────────────────── delivery ─────────────────────────────

    /// @notice See IFuturesMarket.
    function electDelivery(uint256 seriesId, uint256 electedCh) external nonReentrant {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        SeriesState storage s = FuturesLedger.trading($, seriesId);
        uint64 cutoff = FuturesLedger.cutoff($, s.expiry);
        if (block.timestamp >= cutoff) revert FuturesElectionClosed(seriesId, cutoff);
        Position storage p = $.positions[seriesId][msg.sender];
        int256 size = p.sizeCh;
        uint256 longSize = size > 0 ? uint256(size) : 0;
        if (electedCh > longSize) revert FuturesElectionTooLarge(seriesId, msg.sender, electedCh, longSize);
        uint256 old = p.electedCh;
        s.electedCh = (uint256(s.electedCh) + electedCh - old).toUint128();
        p.electedCh = uint128(electedCh);
        FuturesLedger.syncLeg($, msg.sender, size, size, old, electedCh);
        if (electedCh > old) {
            _requireActive(FEATURE_TRADE);
            // Raising an election commits the account to a payment: a risk-increasing action, so it reads the gated
            // price (sequencer grace, spot deviation, risk pause: ORC-01). The payment is held in the account's
            // margin from now to settlement (MKT-08): the ClearingHouse's account-risk hook (FuturesRisk) takes
            // elected × price off its equity in every margin check, so here equity net of it ≥ initial margin.
            uint256 priceWad = $.oracle.riskPrice();
            IClearingHouse.MarginState memory m = $.clearingHouse.marginStateAt(msg.sender, priceWad);
            uint256 required = m.initialMarginUsdc;
            if (m.equityUsdc < required.toInt256()) revert FuturesElectionUnfunded(msg.sender, required, m.equityUsdc);
        }
        emit DeliveryElected(seriesId, msg.sender, electedCh, s.electedCh);
    }

    /// @notice See IFuturesMarket.
    function deliver(uint256 seriesId, uint256 chAmount) external nonReentrant {
        FuturesEscrow.deliver(_getFuturesMarketStorage(), seriesId, chAmount);
    }

    /// @notice See IFuturesMarket.
    function withdrawEscrow(uint256 seriesId, uint256 chAmount) external nonReentrant {
        FuturesEscrow.withdraw(_getFuturesMarketStorage(), seriesId, chAmount);
    }

    /// @notice See IFuturesMarket.
    function takeDelivery(
        uint256 seriesId,
        address account,
        address to
    ) external nonReentrant returns (uint256, uint256) {
        return FuturesEscrow.takeDelivery(_getFuturesMarketStorage(), seriesId, account, to);
    }

    /// @notice See IFuturesMarket.
    function demandDeliveryProof(uint256 seriesId, address account) external {
        FuturesEscrow.demandProof(_getFuturesMarketStorage(), seriesId, account);
    }

    /// @notice See IFuturesMarket.
    function closeUnproven(uint256 seriesId, address account) external nonReentrant returns (uint256) {
        return FuturesEscrow.closeUnproven(_getFuturesMarketStorage(), seriesId, account);
    }

    // ───────────────────────────── expiry and settlement ─────────────────────────────

    /// @notice See IFuturesMarket.
    function fixSettlementPrice(uint256 seriesId) external nonReentrant returns (uint256) {
        return FuturesFixing.fixPriceFound(_getFuturesMarketStorage(), seriesId);
    }

    /// @notice See IFuturesMarket.
    function fixSettlementPriceAt(
        uint256 seriesId,
        uint80 firstRoundId,
        uint64[] calldata changeTimes
    ) external nonReentrant returns (uint256) {
        return FuturesFixing.fixPrice(_getFuturesMarketStorage(), seriesId, firstRoundId, changeTimes);
    }

    /// @notice See IFuturesMarket.
    function fixSettlementPriceFallback(
        uint256 seriesId,
        uint80 staleRoundId,
        uint64 staleAt,
        uint80 roundId,
        uint64 roundTime
    ) external nonReentrant returns (uint256) {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        return FuturesFixing.fixPriceFallback($, seriesId, staleRoundId, staleAt, roundId, roundTime);
    }

    /// @notice See IFuturesMarket.
    function disputeSettlementPrice(uint256 seriesId, uint256 priceWad) external restricted {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        SeriesState storage s = FuturesLedger.existing($, seriesId);
        uint64 finalAt = s.finalAt;
        if (finalAt == 0) revert FuturesPriceNotFixed(seriesId);
        if (block.timestamp >= finalAt) revert FuturesDisputeWindowClosed(seriesId, finalAt);
        uint256 old = s.settlementPriceWad;
        uint256 diff = priceWad > old ? priceWad - old : old - priceWad;
        uint256 maxBps = $.params.maxCorrectionBps;
        if (priceWad == 0 || diff * BPS > old * maxBps) {
            revert FuturesCorrectionTooLarge(seriesId, old, priceWad, maxBps);
        }
        s.settlementPriceWad = priceWad.toUint128();
        emit SettlementPriceDisputed(seriesId, old, priceWad, msg.sender);
    }

    /// @notice See IFuturesMarket.
    function finalizeSettlement(uint256 seriesId) external nonReentrant {
        FuturesSettlement.finalize(_getFuturesMarketStorage(), seriesId);
    }

    /// @notice See IFuturesMarket.
    function settlePosition(uint256 seriesId, address account) external nonReentrant {
        FuturesSettlement.settle(_getFuturesMarketStorage(), seriesId, account);
    }

    /// @notice See IFuturesMarket.
    function settlePositions(
        uint256 seriesId,
        address[] calldata accounts
    ) external nonReentrant returns (uint256 settled) {
        return FuturesSettlement.settleBatch(_getFuturesMarketStorage(), seriesId, accounts);
    }

    /// @notice See IFuturesMarket.
    function claimBounties(address to) external nonReentrant returns (uint256 amountUsdc) {
        if (to == address(0)) revert ChxZeroAddress();
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        amountUsdc = $.bountiesOwedUsdc[msg.sender];
        if (amountUsdc == 0) revert FuturesNothingToClaim(msg.sender);
        $.bountiesOwedUsdc[msg.sender] = 0;
        $.totalBountiesOwedUsdc -= amountUsdc;
        emit BountiesClaimed(msg.sender, to, amountUsdc);
        $.clearingHouse.withdrawMarketPool(amountUsdc, to);
    }

    // ───────────────────────────── liquidation ─────────────────────────────

    /// @notice See ILiquidatableMarket.
    function onPositionLiquidated(
        address account,
        int256 sizeDeltaCh,
        uint256 priceWad,
        int256 realisedPnlUsdc
    ) external {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        if (msg.sender != address($.clearingHouse)) revert FuturesOnlyClearingHouse(msg.sender);
        FuturesLiquidation.onLiquidated($, account, sizeDeltaCh, priceWad, realisedPnlUsdc);
    }

    /// @notice See IKeeperUpkeep: any payload of `checker()` (order execution or cancellation, price fixing,
    ///         finalisation, settlement), re-validated by the function it names.
    function performUpkeep(bytes calldata performData) external nonReentrant {
        if (performData.length < 36) revert FuturesInvalidPerformData();
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        bytes4 selector = bytes4(performData[:4]);
        if (selector == FuturesDelivery.fixSettlementPriceAt.selector) {
            (uint256 id, uint80 first, uint64[] memory changes) = abi.decode(
                performData[4:],
                (uint256, uint80, uint64[])
            );
            FuturesFixing.fixPrice($, id, first, changes);
        } else if (selector == FuturesDelivery.fixSettlementPriceFallback.selector) {
            (uint256 id, uint80 stale, uint64 staleAt, uint80 round, uint64 time) = abi.decode(
                performData[4:],
                (uint256, uint80, uint64, uint80, uint64)
            );
            FuturesFixing.fixPriceFallback($, id, stale, staleAt, round, time);
        } else if (selector == FuturesDelivery.fixSettlementPrice.selector) {
            FuturesFixing.fixPriceFound($, abi.decode(performData[4:], (uint256)));
        } else if (selector == FuturesDelivery.finalizeSettlement.selector) {
            FuturesSettlement.finalize($, abi.decode(performData[4:], (uint256)));
        } else if (selector == FuturesDelivery.settlePosition.selector) {
            (uint256 id, address account) = abi.decode(performData[4:], (uint256, address));
            FuturesSettlement.settle($, id, account);
        } else if (selector == FuturesDelivery.settlePositions.selector) {
            (uint256 id, address[] memory accounts) = abi.decode(performData[4:], (uint256, address[]));
            FuturesSettlement.settleBatch($, id, accounts);
        } else if (selector == IFuturesMarket.executeOrder.selector) {
            (address account, uint256 id, uint80 roundId) = abi.decode(performData[4:], (address, uint256, uint80));
            FuturesOrders.execute($, account, id, roundId);
        } else if (selector == IFuturesMarket.cancelOrder.selector) {
            (address account, uint256 id) = abi.decode(performData[4:], (address, uint256));
            FuturesOrders.cancel($, account, id);
        } else {
            revert FuturesInvalidPerformData();
        }
    }
}
