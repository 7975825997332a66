// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IRiskEngine} from "../../interfaces/clearing/IRiskEngine.sol";
import {IClearingRiskSync} from "../../interfaces/callback/IClearingRiskSync.sol";
import {MarketSetLib} from "../../types/MarketSet.sol";
import {ClearingHouseStorage, ClearingStorage} from "../../libraries/clearing/ClearingStorage.sol";
import {ClearingMargin} from "../../libraries/clearing/ClearingMargin.sol";
import {ClearingPositions} from "../../libraries/clearing/ClearingPositions.sol";
import {ClearingLiquidation} from "../../libraries/clearing/ClearingLiquidation.sol";
import {ClearingConfig} from "../../libraries/clearing/ClearingConfig.sol";
import {ClearingCollateral} from "../../libraries/clearing/ClearingCollateral.sol";
import {LinkedCall} from "../../libraries/clearing/LinkedCall.sol";
import {IClearingHouseCollateral} from "../../interfaces/clearing/IClearingHouseCollateral.sol";

/// @title ClearingHouse
/// @notice Cross-margined USDC accounts and the positions markets open in them. See IClearingHouse.
/// @dev Storage, access, token transfers and gates; mechanisms in libraries on the storage pointer (ClearingMargin,
///      ClearingPositions, ClearingLiquidation, ClearingConfig). Cold entry points forward their calldata to a linked
///      library (LinkedCall; docs/clearing.md "Linked entry points"; docs/architecture.md for the full map).
/// @custom:oz-upgrades-unsafe-allow delegatecall external-library-linking constructor state-variable-immutable
contract ClearingHouse is
    ChxUpgradeable,
    ClearingHouseStorage,
    IClearingHouse,
    IClearingHouseCollateral,
    IClearingRiskSync
{
    using SafeERC20 for IERC20;
    using SafeCast for int256;
    using SafeCast for uint256;

    /// @notice Most markets one account may hold positions in: bounds every per-account loop.
    uint256 public constant MAX_MARKETS_PER_ACCOUNT = MarketSetLib.MAX;

    bytes32 internal constant FEATURE_DEPOSIT = keccak256("clearing.deposit");
    bytes32 internal constant FEATURE_WITHDRAW = ClearingStorage.FEATURE_WITHDRAW;
    bytes32 internal constant FEATURE_NEW_RISK = ClearingStorage.FEATURE_NEW_RISK;
    /// @dev Per-market pause of new risk: feature id keccak256(abi.encode(FEATURE_MARKET, market)).
    bytes32 internal constant FEATURE_MARKET = keccak256("clearing.market");

    /// @dev The collateral token, fixed in the implementation (upgrades: deployer.ts upgradeConstructorArgs);
    ///      the proxy's `usdc` slot keeps the same address for the linked libraries; modules() returns the immutable.
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IERC20 private immutable USDC;

    /// @notice The implementation for collateral token `usdc` (initialize must name the same token).
    /// @param usdc The collateral token (not zero).
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(address usdc) {
        if (usdc == address(0)) revert ChxZeroAddress();
        USDC = IERC20(usdc);
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param usdc The collateral token: the implementation's own (ClearingUsdcMismatch otherwise, zero included).
    function initialize(address authority, address usdc) external initializer {
        __ChxUpgradeable_init(authority);
        address implUsdc = address(USDC);
        if (usdc != implUsdc) revert ClearingUsdcMismatch(usdc, implUsdc);
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        $.usdc = IERC20(usdc);
        // A new proxy's flags are all clear: both mirrored gates start known-active.
        $.activeGates = ClearingStorage.GATE_WITHDRAW | ClearingStorage.GATE_NEW_RISK;
    }

    // ───────────────────────────── configuration ─────────────────────────────

    /// @inheritdoc IClearingHouse
    function setModules(address, address, address, address, address) external restricted {
        LinkedCall.forwardSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function registerMarket(address) external restricted {
        LinkedCall.forwardSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function setMarketLossAbsorber(address, bool) external restricted {
        LinkedCall.forwardSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function setMarketAccountRisk(address, bool) external restricted {
        LinkedCall.forwardSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function setMarketHoldsAccounts(address, bool) external restricted {
        LinkedCall.forwardSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function setMarketScenarioRisk(address, bool) external restricted {
        LinkedCall.forwardSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function syncPauseMirror() external restricted {
        LinkedCall.forwardSame(address(ClearingConfig));
    }

    /// @dev The pause hook (inside the restricted pauseFeature / unpauseFeature): both copies re-read from the flags
    ///      (ClearingConfig.syncPauseMirror; docs/clearing.md "Pause flags beside the oracle address").
    function _afterPauseChanged(bytes32, bool) internal override {
        LinkedCall.forward(address(ClearingConfig), ClearingConfig.syncPauseMirror.selector);
    }

    /// @dev `feature`'s pause flag, read only when its mirror bit does not say "active".
    function _gate(uint8 bit, bytes32 feature) private view {
        if (ClearingStorage.layout().activeGates & bit == 0) _requireActive(feature);
    }

    /// @inheritdoc IClearingRiskSync
    /// @dev The caller check (the RiskEngine; anyone else is ignored) is the library's (ClearingConfig.fromRiskEngine).
    function syncVolatility(uint256) external {
        LinkedCall.forwardSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingRiskSync
    function syncMarketRisk(address, IRiskEngine.MarketRiskParams calldata) external {
        LinkedCall.forward(address(ClearingConfig), ClearingConfig.syncMarketRisk.selector);
    }

    /// @inheritdoc IClearingRiskSync
    function syncMarketVolatility(address, uint256, uint256, uint256) external {
        LinkedCall.forwardSame(address(ClearingConfig));
    }

    // ───────────────────────────── traders ─────────────────────────────

    /// @inheritdoc IClearingHouse
    function deposit(uint256 amountUsdc) external nonReentrant whenActive(FEATURE_DEPOSIT) {
        if (amountUsdc == 0) revert ClearingZeroAmount();
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.Account storage a = $.accounts[msg.sender];
        int256 before = a.collateralUsdc;
        int256 collateral = before + amountUsdc.toInt256();
        a.collateralUsdc = collateral.toInt88();
        ClearingStorage.bookUncovered($, before, collateral);
        emit MarginDeposited(msg.sender, amountUsdc, collateral);
        USDC.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @inheritdoc IClearingHouse
    function withdraw(uint256 amountUsdc, address to) external nonReentrant {
        _gate(ClearingStorage.GATE_WITHDRAW, FEATURE_WITHDRAW);
        if (amountUsdc == 0) revert ClearingZeroAmount();
        if (to == address(0)) revert ChxZeroAddress();
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.Account storage account = $.accounts[msg.sender];
        ClearingHouseStorage.Account memory acc = account;
        int256 collateral = acc.collateralUsdc;
        // Never negative before or after (so no uncovered collateral to book): a deficit cannot be withdrawn.
        if (collateral < amountUsdc.toInt256()) {
            revert ClearingInsufficientCollateral(msg.sender, amountUsdc, collateral);
        }
        collateral -= int256(amountUsdc);
        acc.collateralUsdc = collateral.toInt88();
        account.collateralUsdc = acc.collateralUsdc;
        // Withdrawing against open positions adds risk. Without positions the oracle is not read at all (SEC-05).
        if (acc.markets.count() != 0) _checkWithdrawalMargin($, acc);
        emit MarginWithdrawn(msg.sender, to, amountUsdc, collateral);
        USDC.safeTransfer(to, amountUsdc);
    }

    // ───────────────────────────── token collateral ─────────────────────────────

    /// @inheritdoc IClearingHouseCollateral
    function setCollateralToken(address, CollateralTokenConfig calldata) external restricted {
        // the explicit selector: a library function's selector names a struct parameter by its type, not its tuple
        LinkedCall.forward(address(ClearingCollateral), ClearingCollateral.configure.selector);
    }

    /// @inheritdoc IClearingHouseCollateral
    function depositToken(address, uint256) external nonReentrant whenActive(FEATURE_DEPOSIT) {
        LinkedCall.forwardSame(address(ClearingCollateral));
    }

    /// @inheritdoc IClearingHouseCollateral
    function withdrawToken(address token, uint256 amount, address to) external nonReentrant {
        _gate(ClearingStorage.GATE_WITHDRAW, FEATURE_WITHDRAW);
        if (to == address(0)) revert ChxZeroAddress();
        // The flash-collateral guard: what the token backed must still be covered without it.
        if (ClearingCollateral.withdraw(token, amount, to)) {
            ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
            _checkWithdrawalMargin($, $.accounts[msg.sender]);
        }
        IERC20(token).safeTransfer(to, amount);
    }

    /// @inheritdoc IClearingHouseCollateral
    function seizeTokenCollateral(
        address,
        address,
        uint256,
        bool
    ) external nonReentrant returns (int256 collateralUsdc, uint256 tokenMask) {
        _onlyLiquidationEngine(ClearingStorage.layout());
        return
            abi.decode(
                LinkedCall.forwardData(address(ClearingCollateral), ClearingCollateral.seize.selector),
                (int256, uint256)
            );
    }

    /// @inheritdoc IClearingHouseCollateral
    function tokenCollateralOf(address, address) external view returns (uint256) {
        LinkedCall.forwardViewSame(address(ClearingCollateral));
    }

    /// @inheritdoc IClearingHouseCollateral
    function collateralToken(address) external view returns (CollateralTokenConfig memory, uint256, uint256) {
        LinkedCall.forwardViewSame(address(ClearingCollateral));
    }

    // ───────────────────────────── markets ─────────────────────────────

    /// @inheritdoc IClearingHouse
    function modifyPosition(
        address account,
        int256 sizeDeltaCh,
        uint256 tradePriceWad,
        uint256 feeUsdc
    ) external nonReentrant returns (int256 realisedPnlUsdc) {
        (realisedPnlUsdc, ) = _modifyPosition(account, sizeDeltaCh, tradePriceWad, feeUsdc, 0);
    }

    /// @inheritdoc IClearingHouse
    function modifyPositionAndSettle(
        address account,
        int256 sizeDeltaCh,
        uint256 tradePriceWad,
        uint256 feeUsdc,
        int256 settleUsdc
    ) external nonReentrant returns (int256 realisedPnlUsdc, Position memory position) {
        return _modifyPosition(account, sizeDeltaCh, tradePriceWad, feeUsdc, settleUsdc);
    }

    /// @dev modifyPosition with an optional settle first (one caller check, one account and one pool write).
    function _modifyPosition(
        address account,
        int256 sizeDeltaCh,
        uint256 tradePriceWad,
        uint256 feeUsdc,
        int256 settleUsdc
    ) private returns (int256 realisedPnlUsdc, Position memory position) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.Account memory acc = $.accounts[account];
        ClearingMargin.Traded memory tr;
        tr.market = msg.sender;
        bool increasing;
        (realisedPnlUsdc, increasing) = ClearingPositions.applyMarketTrade(
            $,
            account,
            acc,
            tr,
            sizeDeltaCh,
            tradePriceWad,
            feeUsdc,
            settleUsdc,
            _newRiskGate
        );
        position = tr.position;
        // Risk-reducing: nothing else called (SEC-05); the guarantor keeps the last higher exposure until syncExposure.
        if (!increasing) return (realisedPnlUsdc, position);
        _checkInitialMargin($, account, acc, tr, feeUsdc);
    }

    /// @dev One pass over the account's markets gives the guarantor's exposure and the margin state (oracle read once);
    ///      the guarantor's pre-trade gate (admission, customer limit, capacity), then equity ≥ initial margin.
    function _checkInitialMargin(
        ClearingHouseStorage.Layout storage $,
        address account,
        ClearingHouseStorage.Account memory acc,
        ClearingMargin.Traded memory tr,
        uint256 feeUsdc
    ) private {
        (MarginState memory s, uint256 grossOpenUsdc) = ClearingMargin.scan(
            $,
            account,
            acc,
            tr,
            true,
            $.oracle.indexPrice()
        );
        $.guarantorPool.onRiskIncrease(account, grossOpenUsdc, feeUsdc);
        ClearingMargin.requireInitial(s, account);
    }

    /// @dev A risk-increasing trade passes the global new-risk pause and the market's own (FEATURE_MARKET, market)
    ///      pause (the GUARDIAN freezes one market at once). Reductions, closes, cash flows, liquidations stay open.
    function _newRiskGate(address market) private view {
        _gate(ClearingStorage.GATE_NEW_RISK, FEATURE_NEW_RISK);
        _requireActive(keccak256(abi.encode(FEATURE_MARKET, market)));
    }

    /// @inheritdoc IClearingHouse
    function settle(address account, int256 amountUsdc) external {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.Market memory m = ClearingPositions.registered($, msg.sender);
        ClearingHouseStorage.Account memory acc = $.accounts[account];
        ClearingPositions.settle($, account, acc, m, msg.sender, amountUsdc);
        $.accounts[account] = acc;
        $.markets[msg.sender].poolUsdc = m.poolUsdc;
    }

    /// @inheritdoc IClearingHouse
    function checkRiskIncrease(address account) external nonReentrant {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.Market memory m = ClearingPositions.registered($, msg.sender);
        _newRiskGate(msg.sender);
        ClearingHouseStorage.Account memory acc = $.accounts[account];
        ClearingPositions.hold($, account, acc, m.id);
        _checkInitialMargin($, account, acc, _noTrade(), 0);
    }

    /// @inheritdoc IClearingHouse
    function releaseAccount(address account) external {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingPositions.release($, account, ClearingPositions.registered($, msg.sender).id);
    }

    /// @inheritdoc IClearingHouse
    function fundMarketPool(uint256) external restricted nonReentrant {
        LinkedCall.forwardSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function withdrawMarketPool(uint256, address) external restricted nonReentrant {
        LinkedCall.forwardSame(address(ClearingConfig));
    }

    // ───────────────────────────── liquidation ─────────────────────────────

    /// @inheritdoc IClearingHouse
    function liquidationClose(
        address,
        uint256,
        uint256,
        address,
        uint256
    ) external nonReentrant returns (int256 collateralUsdc, uint256 positionsLeft, uint256 paidBountyUsdc) {
        _onlyLiquidationEngine(ClearingStorage.layout());
        return
            abi.decode(
                LinkedCall.forwardData(address(ClearingLiquidation), ClearingLiquidation.close.selector),
                (int256, uint256, uint256)
            );
    }

    /// @inheritdoc IClearingHouse
    function absorbDeficit(address, uint256, uint256) external returns (int256) {
        _onlyLiquidationEngine(ClearingStorage.layout());
        LinkedCall.forwardReturn(address(ClearingLiquidation), ClearingLiquidation.absorbDeficit.selector);
    }

    /// @inheritdoc IClearingHouse
    function adlReduce(
        AdlStep calldata
    ) external nonReentrant returns (int256 realisedPnlUsdc, uint256 haircutUsdc, uint256 paidBountyUsdc) {
        _onlyLiquidationEngine(ClearingStorage.layout());
        return
            abi.decode(
                LinkedCall.forwardData(address(ClearingLiquidation), ClearingLiquidation.adlReduce.selector),
                (int256, uint256, uint256)
            );
    }

    /// @inheritdoc IClearingHouse
    function adlSourceOf(address) external view returns (address, int256) {
        LinkedCall.forwardViewSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function syncExposure(address) external nonReentrant {
        LinkedCall.forward(address(ClearingLiquidation), ClearingLiquidation.syncExposure.selector);
    }

    /// @inheritdoc IClearingHouse
    function flushFees() external nonReentrant {
        LinkedCall.forwardSame(address(ClearingConfig));
    }

    // ───────────────────────────── views ─────────────────────────────

    /// @inheritdoc IClearingHouse
    function marginState(address account) external view returns (MarginState memory) {
        return _stateAt(account, ClearingStorage.layout().oracle.indexPrice());
    }

    /// @inheritdoc IClearingHouse
    function liquidationState(address account) external view returns (MarginState memory state, uint256 priceWad) {
        priceWad = ClearingStorage.layout().oracle.indexPrice();
        state = _stateAt(account, priceWad);
    }

    /// @inheritdoc IClearingHouse
    function marginStateAt(address account, uint256 priceWad) external view returns (MarginState memory) {
        return _stateAt(account, priceWad);
    }

    /// @inheritdoc IClearingHouse
    function tenorMarginSource(address market) external view returns (address) {
        return ClearingStorage.tenorMarginSource(ClearingStorage.layout(), market);
    }

    /// @inheritdoc IClearingHouse
    function marketFlags(address) external view returns (bool, bool, bool) {
        LinkedCall.forwardViewSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function collateralOf(address account) external view returns (int256) {
        return ClearingStorage.layout().accounts[account].collateralUsdc;
    }

    /// @inheritdoc IClearingHouse
    function accountOf(address) external view returns (int256, uint256) {
        LinkedCall.forwardViewSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function positionOf(address, address) external view returns (Position memory) {
        LinkedCall.forwardViewSame(address(ClearingLiquidation));
    }

    /// @inheritdoc IClearingHouse
    function marketsOf(address) external view returns (address[] memory) {
        LinkedCall.forwardViewSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function grossOpenNotionalOf(address) external view returns (uint256) {
        LinkedCall.forwardViewSame(address(ClearingLiquidation));
    }

    /// @inheritdoc IClearingHouse
    function marketInfo(address) external view returns (bool, int256) {
        LinkedCall.forwardViewSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function totals() external view returns (uint256, uint256) {
        LinkedCall.forwardViewSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function uncoveredCollateralUsdc() external view returns (uint256) {
        LinkedCall.forwardViewSame(address(ClearingConfig));
    }

    /// @inheritdoc IClearingHouse
    function liquidationModules() external view returns (address, address, address) {
        LinkedCall.forwardViewSame(address(ClearingLiquidation));
    }

    /// @inheritdoc IClearingHouse
    function modules() external view returns (address, address, address, address, address, address) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        return (
            address(USDC),
            address($.oracle),
            address($.riskEngine),
            address($.guarantorPool),
            address($.insuranceFund),
            $.liquidationEngine
        );
    }

    /// @dev Equity after a withdrawal (USDC or token) must still cover initial margin, at the price gated like every
    ///      risk-increasing action (sequencer grace period, spot deviation, the oracle's risk pause: ORC-01).
    function _checkWithdrawalMargin(
        ClearingHouseStorage.Layout storage $,
        ClearingHouseStorage.Account memory acc
    ) private view {
        (MarginState memory s, ) = ClearingMargin.scan($, msg.sender, acc, _noTrade(), true, $.oracle.riskPrice());
        ClearingMargin.requireInitial(s, msg.sender);
    }

    function _onlyLiquidationEngine(ClearingHouseStorage.Layout storage $) private view {
        if (msg.sender != $.liquidationEngine) revert ClearingOnlyLiquidationEngine(msg.sender);
    }

    /// @dev `account`'s margin state at `priceWad` (the views).
    function _stateAt(address account, uint256 priceWad) private view returns (MarginState memory s) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        (s, ) = ClearingMargin.scan($, account, $.accounts[account], _noTrade(), true, priceWad);
    }

    /// @dev No traded market: every position is read from storage (market ids start at 1).
    function _noTrade() private pure returns (ClearingMargin.Traded memory tr) {}
}
