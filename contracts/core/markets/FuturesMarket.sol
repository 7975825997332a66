// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {EIP712Upgradeable} from "@openzeppelin/contracts-upgradeable/utils/cryptography/EIP712Upgradeable.sol";
import {FuturesViews} from "./futures/FuturesViews.sol";
import {FuturesLedger} from "../../libraries/futures/FuturesLedger.sol";
import {IFuturesMarket} from "../../interfaces/markets/IFuturesMarket.sol";
import {IFuturesExercise} from "../../interfaces/markets/IFuturesExercise.sol";
import {IVaultMarket} from "../../interfaces/callback/IVaultMarket.sol";
import {ILiquidatableMarket} from "../../interfaces/callback/ILiquidatableMarket.sol";
import {IKeeperChecker, IKeeperUpkeep} from "../../interfaces/keepers/IKeeperCompatible.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {IMarketAccountRisk} from "../../interfaces/callback/IMarketAccountRisk.sol";
import {FuturesRisk} from "./futures/FuturesRisk.sol";
import {FuturesOrders} from "./futures/FuturesOrders.sol";
import {FuturesTrading} from "../../libraries/futures/FuturesTrading.sol";
import {FuturesSigned} from "../../libraries/futures/FuturesSigned.sol";
import {FuturesListing} from "../../libraries/futures/FuturesListing.sol";

/// @title FuturesMarket
/// @notice Dated CH futures with physical delivery against the LP vault. See IFuturesMarket and docs/futures.md.
///         Listing, trading, option exercise, the vault seam, keeper checker and views live here; delivery, expiry,
///         settlement and the liquidation hook run in the FuturesDelivery module, delegate-called on this storage.
///         Trades against the vault are two-step orders (FuturesOrders, linked): commit, then a keeper executes.
///         Trades between traders are signed EIP-712 orders (`fillOrder`) under OpenZeppelin's EIP712Upgradeable
///         domain (ERC-5267 `eip712Domain()`, name "CHX Futures", version "1").
/// @custom:oz-upgrades-unsafe-allow external-library-linking
contract FuturesMarket is FuturesViews, EIP712Upgradeable, IMarketAccountRisk {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;
    using SafeCast for int256;

    /// @notice How far ahead Monthly and Quarterly series may be listed by anyone (`listStandardSeriesAt`).
    uint256 public constant STANDARD_HORIZON_SEC = FuturesLedger.STANDARD_HORIZON_SEC;

    /// @dev The EIP-712 domain of signed orders (returned by `eip712Domain()`; constants, so no initialiser runs).
    string internal constant EIP712_NAME = FuturesSigned.EIP712_NAME;
    string internal constant EIP712_VERSION = FuturesSigned.EIP712_VERSION;

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param clearingHouse The ClearingHouse (USDC is read from it).
    /// @param oracle The CH index oracle.
    /// @param ch The CH token (the unit of delivery).
    /// @param vault The liquidity vault (may be zero until the vault is deployed; set later by governance).
    /// @param module The FuturesDelivery module.
    /// @param params_ Parameters.
    function initialize(
        address authority,
        address clearingHouse,
        address oracle,
        address ch,
        address vault,
        address module,
        Params calldata params_
    ) external initializer {
        __ChxUpgradeable_init(authority);
        __EIP712_init(EIP712_NAME, EIP712_VERSION);
        if (clearingHouse == address(0) || oracle == address(0) || ch == address(0) || module == address(0))
            revert ChxZeroAddress();
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        $.clearingHouse = IClearingHouse(clearingHouse);
        $.oracle = IComputePriceOracle(oracle);
        $.ch = IERC20(ch);
        (address usdc, , , , , ) = IClearingHouse(clearingHouse).modules();
        $.usdc = IERC20(usdc);
        $.vault = vault;
        $.deliveryModule = module;
        $.firstOpenSeries = 1;
        FuturesListing.setParams($, params_);
        emit VaultSet(vault);
    }

    // ───────────────────────────── listing ─────────────────────────────

    /// @inheritdoc IFuturesMarket
    function listSeries(uint64, uint256) external returns (uint256) {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function listStandardSeries(Tenor) external returns (uint256) {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function listStandardSeriesAt(Tenor, uint64) external returns (uint256) {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function setKeeperListingMonths(uint256) external {
        _delegateToModule();
    }

    // ───────────────────────────── trading ─────────────────────────────

    /// @inheritdoc IFuturesMarket
    function commitOrder(
        uint256 seriesId,
        int256 sizeDeltaCh,
        uint256 limitPriceWad
    ) external nonReentrant returns (uint256) {
        if (sizeDeltaCh == 0) revert FuturesZeroAmount();
        return _commit(seriesId, sizeDeltaCh, limitPriceWad, false);
    }

    /// @inheritdoc IFuturesMarket
    function closePosition(uint256 seriesId, uint256 limitPriceWad) external nonReentrant returns (uint256) {
        int256 size = _getFuturesMarketStorage().positions[seriesId][msg.sender].sizeCh;
        if (size == 0) revert FuturesZeroAmount();
        return _commit(seriesId, -size, limitPriceWad, true);
    }

    /// @dev The series must be trading and new risk not paused; the rest in FuturesOrders.commit.
    function _commit(uint256 seriesId, int256 delta, uint256 limit, bool closeAll) private returns (uint256) {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        FuturesLedger.trading($, seriesId);
        int256 oldSize = $.positions[seriesId][msg.sender].sizeCh;
        if (FuturesLedger.isIncrease(oldSize, oldSize + delta)) _requireActive(FEATURE_TRADE);
        return FuturesOrders.commit($, msg.sender, seriesId, delta, limit, closeAll);
    }

    /// @inheritdoc IFuturesMarket
    function roll(uint256 fromSeriesId, uint256 toSeriesId, uint256 sizeCh) external nonReentrant {
        if (sizeCh == 0) revert FuturesZeroAmount();
        _requireActive(FEATURE_TRADE);
        FuturesTrading.roll(_getFuturesMarketStorage(), msg.sender, fromSeriesId, toSeriesId, sizeCh);
    }

    /// @inheritdoc IFuturesMarket
    function executeOrder(address account, uint256 seriesId, uint80 roundId) external nonReentrant {
        FuturesOrders.execute(_getFuturesMarketStorage(), account, seriesId, roundId);
    }

    /// @inheritdoc IFuturesMarket
    function cancelOrder(address account, uint256 seriesId) external nonReentrant {
        FuturesOrders.cancel(_getFuturesMarketStorage(), account, seriesId);
    }

    /// @inheritdoc IFuturesMarket
    /// @dev Runs inside `executeOrder`'s (or `performUpkeep`'s) reentrancy lock, called by the market itself.
    function fillDelayed(
        address account,
        uint256 seriesId,
        int256 sizeDeltaCh,
        uint256 limitPriceWad,
        uint256 indexPriceWad,
        uint256 priceTime
    ) external returns (uint256) {
        if (msg.sender != address(this)) revert FuturesOnlySelf(msg.sender);
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        if (sizeDeltaCh == 0) {
            sizeDeltaCh = -$.positions[seriesId][account].sizeCh;
            if (sizeDeltaCh == 0) revert FuturesZeroAmount();
        }
        FuturesLedger.trading($, seriesId);
        int256 oldSize = $.positions[seriesId][account].sizeCh;
        if (FuturesLedger.isIncrease(oldSize, oldSize + sizeDeltaCh)) _requireActive(FEATURE_TRADE);
        return FuturesTrading.fill($, seriesId, account, sizeDeltaCh, limitPriceWad, indexPriceWad, priceTime);
    }

    /// @inheritdoc IFuturesMarket
    function fillOrder(
        Order calldata order,
        bytes calldata signature,
        uint256 sizeCh
    ) external nonReentrant returns (uint256) {
        int256 d = order.isBuy ? sizeCh.toInt256() : -sizeCh.toInt256();
        _signedPause(order.seriesId, order.maker, msg.sender, d);
        return FuturesSigned.fillSigned(_getFuturesMarketStorage(), order, signature, sizeCh);
    }

    /// @inheritdoc IFuturesMarket
    function matchOrders(
        Order calldata buy,
        bytes calldata buySignature,
        Order calldata sell,
        bytes calldata sellSignature,
        uint256 sizeCh
    ) external nonReentrant returns (uint256, uint256) {
        _signedPause(buy.seriesId, buy.maker, sell.maker, sizeCh.toInt256());
        return FuturesSigned.matchSigned(_getFuturesMarketStorage(), buy, buySignature, sell, sellSignature, sizeCh);
    }

    /// @dev The `futures.trade` pause binds a signed fill that grows either party's leg (`a` by `d`, `b` by −d);
    ///      reductions are never paused (SEC-05).
    function _signedPause(uint256 seriesId, address a, address b, int256 d) private view {
        mapping(address => Position) storage ps = _getFuturesMarketStorage().positions[seriesId];
        int256 x = ps[a].sizeCh;
        int256 y = ps[b].sizeCh;
        if (FuturesLedger.isIncrease(x, x + d) || FuturesLedger.isIncrease(y, y - d)) _requireActive(FEATURE_TRADE);
    }

    /// @inheritdoc IFuturesMarket
    function cancelSignedOrder(Order calldata) external {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function raiseMinNonce(uint256) external {
        _delegateToModule();
    }

    /// @dev The domain name as a constant (OpenZeppelin's documented override): a digest reads no storage for it.
    // solhint-disable-next-line func-name-mixedcase
    function _EIP712Name() internal pure override returns (string memory) {
        return EIP712_NAME;
    }

    /// @dev The domain version as a constant (see `_EIP712Name`).
    // solhint-disable-next-line func-name-mixedcase
    function _EIP712Version() internal pure override returns (string memory) {
        return EIP712_VERSION;
    }

    // ───────────────────────────── delegated to FuturesDelivery ─────────────────────────────

    /// @inheritdoc IFuturesExercise
    function openFromExercise(uint256, address, address, uint256, uint256) external {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function electDelivery(uint256, uint256) external {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function deliver(uint256, uint256) external {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function withdrawEscrow(uint256, uint256) external {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function takeDelivery(uint256, address, address) external returns (uint256, uint256) {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function demandDeliveryProof(uint256, address) external {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function closeUnproven(uint256, address) external returns (uint256) {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function fixSettlementPrice(uint256) external returns (uint256) {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function fixSettlementPriceAt(uint256, uint80, uint64[] calldata) external returns (uint256) {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function fixSettlementPriceFallback(uint256, uint80, uint64, uint80, uint64) external returns (uint256) {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function disputeSettlementPrice(uint256, uint256) external {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function finalizeSettlement(uint256) external {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function settlePosition(uint256, address) external {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function settlePositions(uint256, address[] calldata) external returns (uint256) {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function claimBounties(address) external returns (uint256) {
        _delegateToModule();
    }

    /// @inheritdoc ILiquidatableMarket
    function onPositionLiquidated(address, int256, uint256, int256) external {
        _delegateToModule();
    }

    /// @inheritdoc IKeeperUpkeep
    function performUpkeep(bytes calldata) external {
        _delegateToModule();
    }

    /// @inheritdoc IVaultMarket
    function fundFromVault(uint256) external {
        _delegateToModule();
    }

    /// @inheritdoc IVaultMarket
    function returnToVault(uint256) external {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function setDeliveryOrders(address) external {
        _delegateToModule();
    }

    /// @dev Delegate-calls the FuturesDelivery module with the current calldata and returns or reverts with its
    ///      result. The module runs on this contract's storage and keeps its own reentrancy and access checks.
    function _delegateToModule() private {
        address module = _getFuturesMarketStorage().deliveryModule;
        assembly ("memory-safe") {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), module, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) {
                revert(0, returndatasize())
            }
            return(0, returndatasize())
        }
    }

    // ───────────────────────────── clearing hook ─────────────────────────────

    /// @inheritdoc IMarketAccountRisk
    function accountRisk(
        address account,
        uint256 priceWad
    ) external view returns (int256 equityAdjustmentUsdc, uint256 extraInitialUsdc, uint256 extraMaintenanceUsdc) {
        return FuturesRisk.accountRisk(_getFuturesMarketStorage(), account, priceWad);
    }

    // ───────────────────────────── vault ─────────────────────────────

    /// @inheritdoc IVaultMarket
    /// @dev Traders' positions at what closing them would pay: their PnL at the index plus the basis cash the closing
    ///      trades of every live series' skew would credit them (FuturesRisk.skewCloseCostUsdc, issue 17 item 2).
    ///      What pending orders hold in the pool (execution fees, escrowed margins) is not LP capital.
    function vaultEquityUsdc() public view returns (int256) {
        return FuturesRisk.vaultEquityUsdc(_getFuturesMarketStorage());
    }

    /// @inheritdoc IVaultMarket
    function withdrawableToVaultUsdc() external view returns (uint256) {
        return FuturesRisk.withdrawableUsdc(_getFuturesMarketStorage());
    }

    // ───────────────────────────── keeper ─────────────────────────────

    /// @inheritdoc IKeeperChecker
    /// @dev Orders first (the first due among the first FuturesOrders.ORDER_SCAN pending: an expired one is
    ///      cancelled, a ready one executed at the round the oracle finds for its price time), then expiry work,
    ///      then the keeper's listing of monthly series (`setKeeperListingMonths`; sent to this contract directly).
    function checker() public view returns (bool canExec, bytes memory execPayload) {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        execPayload = FuturesOrders.keeperWork($);
        if (execPayload.length == 0) execPayload = FuturesListing.listingWork($, this.isFeaturePaused(FEATURE_LIST));
        canExec = execPayload.length != 0;
    }

    /// @inheritdoc IKeeperUpkeep
    /// @dev The work `performUpkeep` dispatches (orders and expiry), without the checker's listing step: a listing
    ///      is sent to `listStandardSeriesAt` directly (the checker job), never through `performUpkeep`.
    function checkUpkeep(bytes calldata) external view returns (bool canExec, bytes memory performData) {
        performData = FuturesOrders.keeperWork(_getFuturesMarketStorage());
        canExec = performData.length != 0;
    }

    // ───────────────────────────── governance ─────────────────────────────

    /// @inheritdoc IFuturesMarket
    function setParams(Params calldata) external {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function setVault(address) external {
        _delegateToModule();
    }

    /// @inheritdoc IFuturesMarket
    function setDeliveryModule(address module) external restricted {
        if (module == address(0)) revert ChxZeroAddress();
        _getFuturesMarketStorage().deliveryModule = module;
        emit DeliveryModuleSet(module);
    }

    /// @inheritdoc IFuturesMarket
    function setSeriesOiCap(uint256, uint256) external {
        _delegateToModule();
    }
}
