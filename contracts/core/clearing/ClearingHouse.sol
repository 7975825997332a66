// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IClearingHouse} from "../../interfaces/IClearingHouse.sol";
import {IComputePriceOracle} from "../../interfaces/IComputePriceOracle.sol";
import {IRiskEngine} from "../../interfaces/IRiskEngine.sol";
import {IGuarantorPool} from "../../interfaces/IGuarantorPool.sol";
import {IInsuranceFund} from "../../interfaces/IInsuranceFund.sol";
import {ILiquidatableMarket} from "../../interfaces/ILiquidatableMarket.sol";
import {IClearingRiskSync} from "../../interfaces/IClearingRiskSync.sol";
import {IMarketAccountRisk} from "../../interfaces/IMarketAccountRisk.sol";
import {ClearingMath} from "../../libraries/ClearingMath.sol";
import {RiskMath} from "../../libraries/RiskMath.sol";

/// @title ClearingHouse
/// @notice Cross-margined USDC accounts and the positions markets open in them. See IClearingHouse.
contract ClearingHouse is ChxUpgradeable, IClearingHouse, IClearingRiskSync {
    using SafeERC20 for IERC20;
    using SafeCast for int256;
    using SafeCast for uint256;

    /// @notice Most markets one account may hold positions in: bounds every per-account loop.
    uint256 public constant MAX_MARKETS_PER_ACCOUNT = 8;

    bytes32 internal constant FEATURE_DEPOSIT = keccak256("clearing.deposit");
    bytes32 internal constant FEATURE_WITHDRAW = keccak256("clearing.withdraw");
    bytes32 internal constant FEATURE_NEW_RISK = keccak256("clearing.newRisk");
    /// @dev Per-market pause of new risk: feature id keccak256(abi.encode(FEATURE_MARKET, market)).
    bytes32 internal constant FEATURE_MARKET = keccak256("clearing.market");

    /// @dev One slot holds everything a trade, a withdrawal or a liquidation needs about the account: collateral,
    ///      the last loss-absorbing market it traded or settled in (its socialised loss goes there) and the set of markets it holds positions
    ///      in, as up to MAX_MARKETS_PER_ACCOUNT 16-bit market ids (id i at bits [16 i, 16 i + 16) of `marketIds`).
    ///      Opening or closing a position therefore writes no slot of its own (an address[] cost two fresh slots).
    ///      `heldMask` bit i: the market at place i holds the account (FLAG_HOLDS_ACCOUNTS): it stays in the set at
    ///      zero size until that market releases it (`releaseAccount`).
    struct Account {
        int96 collateralUsdc;
        uint16 lastMarketId;
        uint8 marketCount;
        uint128 marketIds;
        uint8 heldMask;
    }

    /// @dev One slot; `id` (1-based, registration order) is what accounts store; `flags` FLAG_* bits.
    struct Market {
        bool registered;
        uint16 id;
        int128 poolUsdc;
        uint8 flags;
    }

    /// @dev Market flag: margin computations call IMarketAccountRisk.accountRisk for the market's accounts.
    uint8 private constant FLAG_ACCOUNT_RISK = 1;
    /// @dev Market flag: socialised loss may be charged to its pool (the account's `lastMarketId` only names such).
    uint8 private constant FLAG_LOSS_ABSORBER = 2;
    /// @dev Market flag: an account stays in the market's set (at zero size) until the market releases it.
    uint8 private constant FLAG_HOLDS_ACCOUNTS = 4;
    /// @dev `_placeOf` result for a market not in the account's set.
    uint256 private constant NOT_IN_SET = type(uint256).max;

    /// @dev What the account scan reads per market id: the address and its flags (one slot).
    struct MarketRef {
        address market;
        uint8 flags;
    }

    struct OpenInterest {
        uint128 longCh;
        uint128 shortCh;
    }

    /// @custom:storage-location erc7201:chx.storage.ClearingHouse
    struct ClearingHouseStorage {
        IERC20 usdc;
        IComputePriceOracle oracle;
        IRiskEngine riskEngine;
        IGuarantorPool guarantorPool;
        /// @dev Beside the pool address every trade reads: a fee-paying trade rewrites this slot instead of a second one.
        uint96 feesUsdc;
        IInsuranceFund insuranceFund;
        mapping(address account => Account) accounts;
        mapping(address account => mapping(address market => Position)) positions;
        mapping(address market => Market) markets;
        mapping(address market => OpenInterest) openInterest;
        mapping(uint256 id => MarketRef) marketById;
        uint256 socialisedLossUsdc;
        // One slot, read by every margin check and every liquidation: the liquidation engine, the market count and
        // the pushed copy of σ (IClearingRiskSync) as σ + 1 (0: no copy, the RiskEngine is called), valid for the
        // risk-engine generation `riskGeneration` (bumped when setModules replaces the risk engine).
        address liquidationEngine;
        uint16 marketCount;
        uint8 riskGeneration;
        uint72 sigmaPlusOneWad;
        mapping(address market => uint256 packed) riskParams;
    }

    /// @dev A market's pushed IRiskEngine.MarketRiskParams in one word: imMultiple (bits 0-63), mmMultiple (64-127),
    ///      imFloor (128-187), mmFloor (188-247) — floors are < 1 WAD < 2^60, checked by the RiskEngine — and the
    ///      risk-engine generation that pushed them (248-255); a copy of another generation is ignored.
    uint256 private constant MASK60 = (1 << 60) - 1;

    // keccak256(abi.encode(uint256(keccak256("chx.storage.ClearingHouse")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant CLEARING_HOUSE_STORAGE_LOCATION =
        0x55052fae2fc50d74c9cbac33e5ea35893b9adcb7f74bd0a66b4cdacc551a8700;

    function _getClearingHouseStorage() private pure returns (ClearingHouseStorage storage $) {
        assembly {
            $.slot := CLEARING_HOUSE_STORAGE_LOCATION
        }
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param usdc The collateral token.
    function initialize(address authority, address usdc) external initializer {
        __ChxUpgradeable_init(authority);
        if (usdc == address(0)) revert ChxZeroAddress();
        _getClearingHouseStorage().usdc = IERC20(usdc);
    }

    // ───────────────────────────── configuration ─────────────────────────────

    /// @inheritdoc IClearingHouse
    function setModules(
        address oracle,
        address riskEngine,
        address guarantorPool,
        address insuranceFund,
        address liquidationEngine
    ) external restricted {
        if (
            oracle == address(0) ||
            riskEngine == address(0) ||
            guarantorPool == address(0) ||
            liquidationEngine == address(0)
        ) revert ChxZeroAddress();
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        $.oracle = IComputePriceOracle(oracle);
        // @dev unchecked: the generation wraps after 256 replacements (a copy that old is never revived in practice:
        //      every replacement is followed by setMarketParams for each market).
        unchecked {
            if (riskEngine != address($.riskEngine)) ++$.riskGeneration;
        }
        $.riskEngine = IRiskEngine(riskEngine);
        $.guarantorPool = IGuarantorPool(guarantorPool);
        $.insuranceFund = IInsuranceFund(insuranceFund);
        $.liquidationEngine = liquidationEngine;
        _cacheSigma($, riskEngine);
        emit ModulesSet(oracle, riskEngine, guarantorPool, insuranceFund, liquidationEngine);
    }

    /// @inheritdoc IClearingHouse
    function registerMarket(address market) external restricted {
        if (market == address(0)) revert ChxZeroAddress();
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Market storage m = $.markets[market];
        if (m.registered) revert ClearingMarketAlreadyRegistered(market);
        uint16 id = (uint256($.marketCount) + 1).toUint16();
        $.marketCount = id;
        $.marketById[id].market = market;
        m.registered = true;
        m.id = id;
        emit MarketRegistered(market);
    }

    /// @inheritdoc IClearingHouse
    function setMarketLossAbsorber(address market, bool enabled) external restricted {
        _setFlag(market, FLAG_LOSS_ABSORBER, enabled);
    }

    /// @inheritdoc IClearingHouse
    function setMarketAccountRisk(address market, bool enabled) external restricted {
        _setFlag(market, FLAG_ACCOUNT_RISK, enabled);
    }

    /// @inheritdoc IClearingHouse
    function setMarketHoldsAccounts(address market, bool enabled) external restricted {
        _setFlag(market, FLAG_HOLDS_ACCOUNTS, enabled);
    }

    /// @dev Writes the flag in the market's slot and in its id's slot (read by the account scan).
    function _setFlag(address market, uint8 flag, bool enabled) private {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Market storage m = $.markets[market];
        if (!m.registered) revert ClearingUnknownMarket(market);
        uint8 flags = enabled ? m.flags | flag : m.flags & ~flag;
        m.flags = flags;
        $.marketById[m.id].flags = flags;
        emit MarketFlagsSet(
            market,
            flags & FLAG_ACCOUNT_RISK != 0,
            flags & FLAG_LOSS_ABSORBER != 0,
            flags & FLAG_HOLDS_ACCOUNTS != 0
        );
    }

    /// @inheritdoc IClearingRiskSync
    function syncVolatility(uint256 sigmaWad) external {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        if (msg.sender == address($.riskEngine)) _copySigma($, sigmaWad);
    }

    /// @inheritdoc IClearingRiskSync
    function syncMarketRisk(address market, IRiskEngine.MarketRiskParams calldata params) external {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        if (msg.sender != address($.riskEngine)) return;
        // A floor ≥ 2^60 cannot come from the RiskEngine (it checks < 1 WAD); such a market keeps no copy (the
        // RiskEngine is then asked), never a stale one.
        if (params.imFloorWad >= 1 << 60 || params.mmFloorWad >= 1 << 60) {
            delete $.riskParams[market];
            return;
        }
        $.riskParams[market] =
            uint256(params.imMultipleWad) |
            (uint256(params.mmMultipleWad) << 64) |
            (uint256(params.imFloorWad) << 128) |
            (uint256(params.mmFloorWad) << 188) |
            (uint256($.riskGeneration) << 248);
    }

    /// @dev Takes σ from a newly set risk engine (its later updates are pushed); a risk engine that cannot answer
    ///      leaves no copy (every margin check then calls it).
    function _cacheSigma(ClearingHouseStorage storage $, address riskEngine) private {
        try IRiskEngine(riskEngine).volatility() returns (uint256 sigmaWad, uint256, uint256, uint256) {
            _copySigma($, sigmaWad);
        } catch {
            $.sigmaPlusOneWad = 0;
        }
    }

    function _copySigma(ClearingHouseStorage storage $, uint256 sigmaWad) private {
        $.sigmaPlusOneWad = sigmaWad < type(uint72).max ? uint72(sigmaWad + 1) : 0;
    }

    // ───────────────────────────── traders ─────────────────────────────

    /// @inheritdoc IClearingHouse
    function deposit(uint256 amountUsdc) external nonReentrant whenActive(FEATURE_DEPOSIT) {
        if (amountUsdc == 0) revert ClearingZeroAmount();
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Account storage a = $.accounts[msg.sender];
        int256 collateral = a.collateralUsdc + amountUsdc.toInt256();
        a.collateralUsdc = collateral.toInt96();
        emit MarginDeposited(msg.sender, amountUsdc, collateral);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @inheritdoc IClearingHouse
    function withdraw(uint256 amountUsdc, address to) external nonReentrant whenActive(FEATURE_WITHDRAW) {
        if (amountUsdc == 0) revert ClearingZeroAmount();
        if (to == address(0)) revert ChxZeroAddress();
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Account memory acc = $.accounts[msg.sender];
        int256 collateral = acc.collateralUsdc;
        if (collateral < amountUsdc.toInt256()) {
            revert ClearingInsufficientCollateral(msg.sender, amountUsdc, collateral);
        }
        collateral -= int256(amountUsdc);
        acc.collateralUsdc = collateral.toInt96();
        $.accounts[msg.sender].collateralUsdc = acc.collateralUsdc;
        if (acc.marketCount != 0) {
            // Withdrawing against open positions adds risk: equity after must still cover initial margin, at the
            // price gated like every risk-increasing action (sequencer grace period, spot deviation, the oracle's
            // risk pause: ORC-01). Without positions the oracle is not read at all (SEC-05).
            (MarginState memory s, ) = _scan($, msg.sender, acc, _noTrade(), true, $.oracle.riskPrice());
            if (s.equityUsdc < s.initialMarginUsdc.toInt256()) {
                revert ClearingInsufficientMargin(msg.sender, s.initialMarginUsdc, s.equityUsdc);
            }
        }
        emit MarginWithdrawn(msg.sender, to, amountUsdc, collateral);
        $.usdc.safeTransfer(to, amountUsdc);
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
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Account memory acc = $.accounts[account];
        Traded memory tr;
        tr.market = msg.sender;
        bool increasing;
        (realisedPnlUsdc, increasing) = _applyMarketTrade(
            $,
            account,
            acc,
            tr,
            sizeDeltaCh,
            tradePriceWad,
            feeUsdc,
            settleUsdc
        );
        position = tr.position;
        // A risk-reducing trade calls nothing else (SEC-05): the guarantor keeps the higher exposure recorded by the
        // last risk-increasing trade until the next one or a permissionless syncExposure (as after a liquidation).
        if (!increasing) return (realisedPnlUsdc, position);
        // One pass over the account's markets gives both the guarantor's exposure and the margin state; the traded
        // position is taken from memory, the oracle is read once.
        (MarginState memory s, uint256 grossOpenUsdc) = _scan($, account, acc, tr, true, $.oracle.indexPrice());
        // The guarantor's pre-trade gate (admission, customer limit, capacity), then the margin check.
        $.guarantorPool.onExposureChanged(account, grossOpenUsdc, true);
        if (s.equityUsdc < s.initialMarginUsdc.toInt256()) {
            revert ClearingInsufficientMargin(account, s.initialMarginUsdc, s.equityUsdc);
        }
    }

    /// @dev The market a trade or liquidation step touched, and its position after it: the account scan reads it from
    ///      memory instead of storage.
    struct Traded {
        address market;
        uint256 id;
        Position position;
        uint8 flags;
    }

    function _applyMarketTrade(
        ClearingHouseStorage storage $,
        address account,
        Account memory acc,
        Traded memory tr,
        int256 sizeDeltaCh,
        uint256 tradePriceWad,
        uint256 feeUsdc,
        int256 settleUsdc
    ) private returns (int256 pnl, bool increasing) {
        Market memory m = _registeredMarket($, tr.market);
        tr.id = m.id;
        tr.flags = m.flags;
        if (settleUsdc != 0) _settle(account, acc, m, tr.market, settleUsdc);
        (pnl, increasing) = _movePosition($, account, acc, tr, sizeDeltaCh, tradePriceWad);
        int256 collateral = int256(acc.collateralUsdc) + pnl - feeUsdc.toInt256();
        acc.collateralUsdc = collateral.toInt96();
        if (m.flags & FLAG_LOSS_ABSORBER != 0) acc.lastMarketId = m.id;
        $.accounts[account] = acc;
        if (pnl != 0 || settleUsdc != 0) $.markets[tr.market].poolUsdc = (int256(m.poolUsdc) - pnl).toInt128();
        // @dev uint96: 7.9e22 USDC between two flushes; beyond it a fee-paying trade reverts (SafeCast).
        if (feeUsdc > 0) $.feesUsdc = (uint256($.feesUsdc) + feeUsdc).toUint96();
        emit PositionModified(
            account,
            tr.market,
            sizeDeltaCh,
            tradePriceWad,
            tr.position.sizeCh,
            tr.position.openNotionalUsdc,
            pnl,
            feeUsdc,
            collateral
        );
    }

    /// @dev Applies the trade to the position (one slot write), the account's market set (in memory) and the
    ///      market's open interest; `tr.position` is the position after it.
    function _movePosition(
        ClearingHouseStorage storage $,
        address account,
        Account memory acc,
        Traded memory tr,
        int256 sizeDeltaCh,
        uint256 tradePriceWad
    ) private returns (int256 pnl, bool increasing) {
        Position storage p = $.positions[account][tr.market];
        int256 oldSize = p.sizeCh;
        int256 newSize;
        int256 newOpen;
        (newSize, newOpen, pnl) = ClearingMath.applyTrade(oldSize, p.openNotionalUsdc, sizeDeltaCh, tradePriceWad);
        increasing =
            ClearingMath.abs(newSize) > ClearingMath.abs(oldSize) ||
            (oldSize != 0 && newSize != 0 && (oldSize > 0) != (newSize > 0));
        if (increasing) {
            _requireActive(FEATURE_NEW_RISK);
            // The per-market pause gates new risk only: reductions, closes, cash flows and liquidations stay open
            // (SEC-05).
            _requireActive(keccak256(abi.encode(FEATURE_MARKET, tr.market)));
        }
        // A closed position keeps no residual basis (it was realised in full).
        if (newSize == 0) newOpen = 0;
        tr.position = Position(newSize.toInt128(), newOpen.toInt128());
        $.positions[account][tr.market] = tr.position;
        _updateMembership(acc, account, tr.id, oldSize, newSize, tr.flags & FLAG_HOLDS_ACCOUNTS != 0);
        _updateOpenInterest($, tr.market, oldSize, newSize);
    }

    /// @inheritdoc IClearingHouse
    function settle(address account, int256 amountUsdc) external {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Market memory m = _registeredMarket($, msg.sender);
        Account memory acc = $.accounts[account];
        _settle(account, acc, m, msg.sender, amountUsdc);
        $.accounts[account] = acc;
        $.markets[msg.sender].poolUsdc = m.poolUsdc;
    }

    /// @inheritdoc IClearingHouse
    function releaseAccount(address account) external {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Market memory m = _registeredMarket($, msg.sender);
        Account memory acc = $.accounts[account];
        uint256 place = _placeOf(acc, m.id);
        if (place == NOT_IN_SET) return;
        acc.heldMask &= ~uint8(1 << place);
        // Idempotent and never reverting (a market may call it from its liquidation hook, where the ClearingHouse
        // re-reads the account's set afterwards): a position still open keeps the market in the set until it closes.
        if ($.positions[account][msg.sender].sizeCh == 0) _removeAt(acc, place);
        $.accounts[account] = acc;
        emit AccountReleased(account, msg.sender, acc.marketCount);
    }

    /// @dev A market's cash flow between the account and its pool, in memory (the caller writes both back).
    function _settle(address account, Account memory acc, Market memory m, address market, int256 amountUsdc) private {
        int256 collateral = int256(acc.collateralUsdc) + amountUsdc;
        acc.collateralUsdc = collateral.toInt96();
        if (m.flags & FLAG_LOSS_ABSORBER != 0) acc.lastMarketId = m.id;
        int256 pool = int256(m.poolUsdc) - amountUsdc;
        m.poolUsdc = pool.toInt128();
        emit AccountSettled(account, market, amountUsdc, collateral, pool);
    }

    /// @inheritdoc IClearingHouse
    function fundMarketPool(uint256 amountUsdc) external restricted nonReentrant {
        if (amountUsdc == 0) revert ClearingZeroAmount();
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Market memory m = _registeredMarket($, msg.sender);
        int256 pool = int256(m.poolUsdc) + amountUsdc.toInt256();
        $.markets[msg.sender].poolUsdc = pool.toInt128();
        emit MarketPoolChanged(msg.sender, int256(amountUsdc), pool);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @inheritdoc IClearingHouse
    function withdrawMarketPool(uint256 amountUsdc, address to) external restricted nonReentrant {
        if (amountUsdc == 0) revert ClearingZeroAmount();
        if (to == address(0)) revert ChxZeroAddress();
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Market memory m = _registeredMarket($, msg.sender);
        int256 pool = m.poolUsdc;
        if (pool < amountUsdc.toInt256()) revert ClearingMarketPoolTooLow(msg.sender, amountUsdc, pool);
        pool -= int256(amountUsdc);
        $.markets[msg.sender].poolUsdc = pool.toInt128();
        emit MarketPoolChanged(msg.sender, -int256(amountUsdc), pool);
        $.usdc.safeTransfer(to, amountUsdc);
    }

    // ───────────────────────────── liquidation ─────────────────────────────

    /// @inheritdoc IClearingHouse
    function liquidationClose(
        address account,
        uint256 fractionWad,
        uint256 priceWad,
        address keeper,
        uint256 bountyUsdc
    ) external nonReentrant returns (int256 collateralUsdc, uint256 positionsLeft, uint256 paidBountyUsdc) {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        _onlyLiquidationEngine($);
        if (fractionWad == 0 || fractionWad > ClearingMath.WAD) revert ClearingInvalidFraction(fractionWad);
        Account memory acc = $.accounts[account];
        collateralUsdc = acc.collateralUsdc;
        // Reverse order: removing a closed market swaps the last entry into its slot.
        for (uint256 i = acc.marketCount; i > 0; --i) {
            collateralUsdc += _liquidatePosition(
                $,
                account,
                acc,
                _marketIdAt(acc.marketIds, i - 1),
                fractionWad,
                priceWad,
                collateralUsdc
            );
        }
        positionsLeft = acc.marketCount;
        if (bountyUsdc > 0 && collateralUsdc > 0) {
            // LIQ-04: the bounty never exceeds the margin there is to seize.
            paidBountyUsdc = bountyUsdc < uint256(collateralUsdc) ? bountyUsdc : uint256(collateralUsdc);
            collateralUsdc -= int256(paidBountyUsdc);
        }
        acc.collateralUsdc = collateralUsdc.toInt96();
        $.accounts[account] = acc;
        if (paidBountyUsdc > 0) {
            emit LiquidationBountyPaid(account, keeper, paidBountyUsdc, collateralUsdc);
            $.usdc.safeTransfer(keeper, paidBountyUsdc);
        }
    }

    function _liquidatePosition(
        ClearingHouseStorage storage $,
        address account,
        Account memory acc,
        uint256 id,
        uint256 fractionWad,
        uint256 priceWad,
        int256 collateralBefore
    ) private returns (int256 pnl) {
        Traded memory tr;
        MarketRef memory ref = $.marketById[id];
        (tr.market, tr.id, tr.flags) = (ref.market, id, ref.flags);
        int256 delta = _closeDelta($.positions[account][tr.market].sizeCh, fractionWad);
        // A market holding the account at zero size (FLAG_HOLDS_ACCOUNTS) hears Δ = 0: it reduces what it holds.
        if (delta != 0) {
            // A close is never new risk, so the new-risk pause does not apply (LIQ-05).
            (pnl, ) = _movePosition($, account, acc, tr, delta, priceWad);
            Market storage m = $.markets[tr.market];
            m.poolUsdc = (int256(m.poolUsdc) - pnl).toInt128();
            if (tr.flags & FLAG_LOSS_ABSORBER != 0) acc.lastMarketId = uint16(id);
            // A closed position leaves the account's market set before the market hears of it; the rest of the
            // account (collateral, last market) is written once by the caller.
            if (tr.position.sizeCh == 0) $.accounts[account] = acc;
            emit PositionLiquidated(
                account,
                tr.market,
                delta,
                priceWad,
                pnl,
                tr.position.sizeCh,
                collateralBefore + pnl
            );
        }
        ILiquidatableMarket(tr.market).onPositionLiquidated(account, delta, priceWad, pnl);
        // A market that holds the account may release it from the hook: take the set back from storage.
        if (tr.flags & FLAG_HOLDS_ACCOUNTS != 0) {
            Account storage stored = $.accounts[account];
            (acc.marketIds, acc.marketCount, acc.heldMask) = (stored.marketIds, stored.marketCount, stored.heldMask);
        }
    }

    /// @dev The signed size a liquidation of `fractionWad` closes. The closed size rounds up, so a partial liquidation
    ///      never leaves more risk than asked.
    function _closeDelta(int256 sizeCh, uint256 fractionWad) private pure returns (int256) {
        uint256 absSize = ClearingMath.abs(sizeCh);
        uint256 closeAbs = fractionWad == ClearingMath.WAD ? absSize : ClearingMath.mulWadUp(absSize, fractionWad);
        if (closeAbs > absSize) closeAbs = absSize;
        return sizeCh > 0 ? -int256(closeAbs) : int256(closeAbs);
    }

    /// @inheritdoc IClearingHouse
    function absorbDeficit(
        address account,
        uint256 fromGuarantorUsdc,
        uint256 fromInsuranceUsdc
    ) external returns (uint256 socialisedUsdc) {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        _onlyLiquidationEngine($);
        Account storage a = $.accounts[account];
        int256 collateral = a.collateralUsdc;
        uint256 count = a.marketCount;
        if (collateral >= 0 || count != 0) revert ClearingNoDeficit(account, collateral, count);
        uint256 deficit = uint256(-collateral);
        deficit = _absorb(account, Layer.Guarantor, fromGuarantorUsdc, deficit, address(0));
        deficit = _absorb(account, Layer.Insurance, fromInsuranceUsdc, deficit, address(0));
        // Any over-payment by a layer stays with the account (it can only come from a layer paying more than asked).
        uint256 paid = fromGuarantorUsdc + fromInsuranceUsdc;
        uint256 total = uint256(-collateral);
        a.collateralUsdc = paid > total ? (paid - total).toInt256().toInt96() : int96(0);
        if (deficit == 0) return 0;
        // Socialised only to a market that can absorb a loss (ACC-01: never an options pool); `lastMarketId` names
        // only such markets, and one whose flag was removed since is skipped.
        address market = $.marketById[a.lastMarketId].market;
        Market storage m = $.markets[market];
        if (market == address(0) || m.flags & FLAG_LOSS_ABSORBER == 0) {
            int256 left = -deficit.toInt256();
            a.collateralUsdc = left.toInt96();
            emit DeficitUnabsorbed(account, deficit, left);
            return 0;
        }
        socialisedUsdc = deficit;
        m.poolUsdc = (int256(m.poolUsdc) - int256(socialisedUsdc)).toInt128();
        $.socialisedLossUsdc += socialisedUsdc;
        _absorb(account, Layer.Socialised, socialisedUsdc, socialisedUsdc, market);
    }

    function _absorb(
        address account,
        Layer layer,
        uint256 amountUsdc,
        uint256 deficitUsdc,
        address market
    ) private returns (uint256 remaining) {
        remaining = amountUsdc >= deficitUsdc ? 0 : deficitUsdc - amountUsdc;
        if (amountUsdc > 0) emit DeficitAbsorbed(account, layer, amountUsdc, remaining, market);
    }

    /// @inheritdoc IClearingHouse
    function syncExposure(address account) external nonReentrant {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        (, uint256 grossOpenUsdc) = _scan($, account, $.accounts[account], _noTrade(), false, 0);
        $.guarantorPool.onExposureChanged(account, grossOpenUsdc, false);
    }

    /// @inheritdoc IClearingHouse
    function flushFees() external nonReentrant {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        uint256 fees = $.feesUsdc;
        if (fees == 0) revert ClearingZeroAmount();
        address fund = address($.insuranceFund);
        if (fund == address(0)) revert ChxZeroAddress();
        $.feesUsdc = 0;
        emit FeesFlushed(fees, fund);
        $.usdc.forceApprove(fund, fees);
        IInsuranceFund(fund).depositFees(fees);
    }

    // ───────────────────────────── views ─────────────────────────────

    /// @inheritdoc IClearingHouse
    function marginState(address account) external view returns (MarginState memory s) {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        (s, ) = _scan($, account, $.accounts[account], _noTrade(), true, $.oracle.indexPrice());
    }

    /// @inheritdoc IClearingHouse
    function liquidationState(address account) external view returns (MarginState memory state, uint256 priceWad) {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        priceWad = $.oracle.indexPrice();
        (state, ) = _scan($, account, $.accounts[account], _noTrade(), true, priceWad);
    }

    /// @inheritdoc IClearingHouse
    function marginStateAt(address account, uint256 priceWad) external view returns (MarginState memory s) {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        (s, ) = _scan($, account, $.accounts[account], _noTrade(), true, priceWad);
    }

    /// @inheritdoc IClearingHouse
    function marketFlags(
        address market
    ) external view returns (bool accountRisk, bool lossAbsorber, bool holdsAccounts) {
        uint8 flags = _getClearingHouseStorage().markets[market].flags;
        return (flags & FLAG_ACCOUNT_RISK != 0, flags & FLAG_LOSS_ABSORBER != 0, flags & FLAG_HOLDS_ACCOUNTS != 0);
    }

    /// @inheritdoc IClearingHouse
    function collateralOf(address account) external view returns (int256) {
        return _getClearingHouseStorage().accounts[account].collateralUsdc;
    }

    /// @inheritdoc IClearingHouse
    function positionOf(address account, address market) external view returns (Position memory) {
        return _getClearingHouseStorage().positions[account][market];
    }

    /// @inheritdoc IClearingHouse
    function marketsOf(address account) external view returns (address[] memory list) {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Account memory acc = $.accounts[account];
        list = new address[](acc.marketCount);
        for (uint256 i; i < list.length; ++i) list[i] = $.marketById[_marketIdAt(acc.marketIds, i)].market;
    }

    /// @inheritdoc IClearingHouse
    function grossOpenNotionalOf(address account) external view returns (uint256 grossOpenUsdc) {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        (, grossOpenUsdc) = _scan($, account, $.accounts[account], _noTrade(), false, 0);
    }

    /// @inheritdoc IClearingHouse
    function marketInfo(
        address market
    ) external view returns (bool registered, int256 poolUsdc, uint256 longOiCh, uint256 shortOiCh) {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Market storage m = $.markets[market];
        OpenInterest storage oi = $.openInterest[market];
        return (m.registered, m.poolUsdc, oi.longCh, oi.shortCh);
    }

    /// @inheritdoc IClearingHouse
    function totals() external view returns (uint256 feesUsdc, uint256 socialisedLossUsdc) {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        return ($.feesUsdc, $.socialisedLossUsdc);
    }

    /// @inheritdoc IClearingHouse
    function modules()
        external
        view
        returns (
            address usdc,
            address oracle,
            address riskEngine,
            address guarantorPool,
            address insuranceFund,
            address liquidationEngine
        )
    {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        return (
            address($.usdc),
            address($.oracle),
            address($.riskEngine),
            address($.guarantorPool),
            address($.insuranceFund),
            $.liquidationEngine
        );
    }

    // ───────────────────────────── internals ─────────────────────────────

    function _onlyLiquidationEngine(ClearingHouseStorage storage $) private view {
        if (msg.sender != $.liquidationEngine) revert ClearingOnlyLiquidationEngine(msg.sender);
    }

    /// @dev The caller check of the market hot path (modifyPosition, settle) and of the pool functions: a registered
    ///      market (registration is ADMIN). It replaces the AccessManager round trip (~16k gas per trade). The
    ///      market's own pause `keccak256(abi.encode(FEATURE_MARKET, market))` (the GUARDIAN freezes one market at
    ///      once) is checked on risk-increasing trades only (_movePosition), so exits and cash flows stay open.
    function _registeredMarket(ClearingHouseStorage storage $, address market) private view returns (Market memory m) {
        m = $.markets[market];
        if (!m.registered) revert ClearingMarketNotRegistered(market);
    }

    /// @dev No traded market: every position is read from storage (market ids start at 1).
    function _noTrade() private pure returns (Traded memory tr) {}

    function _marketIdAt(uint128 ids, uint256 i) private pure returns (uint256) {
        return uint16(ids >> (16 * i));
    }

    /// @dev One pass over the account's markets (bounded by MAX_MARKETS_PER_ACCOUNT): the gross open notional
    ///      Σ |cost basis| (the exposure guarantors limit, independent of the oracle) and, with `withMargin`, the margin
    ///      state at `priceWad` (one RiskEngine read per market, one IMarketAccountRisk call per flagged market). The
    ///      position of `tr.id` is taken from `tr`.
    function _scan(
        ClearingHouseStorage storage $,
        address account,
        Account memory acc,
        Traded memory tr,
        bool withMargin,
        uint256 priceWad
    ) private view returns (MarginState memory s, uint256 grossOpenUsdc) {
        s.collateralUsdc = acc.collateralUsdc;
        uint256 n = acc.marketCount;
        s.positionCount = n;
        MarginInputs memory m;
        if (withMargin) (m.generation, m.sigmaPlusOneWad, m.priceWad) = ($.riskGeneration, $.sigmaPlusOneWad, priceWad);
        for (uint256 i; i < n; ++i) {
            (MarketRef memory ref, Position memory p) = _positionAt($, account, tr, _marketIdAt(acc.marketIds, i));
            grossOpenUsdc += ClearingMath.abs(p.openNotionalUsdc);
            if (!withMargin) continue;
            if (p.sizeCh != 0) _addMargin($, s, m, ref.market, p);
            if (ref.flags & FLAG_ACCOUNT_RISK != 0) _addAccountRisk(s, ref.market, account, priceWad);
        }
        s.equityUsdc = s.collateralUsdc + s.unrealisedPnlUsdc;
    }

    /// @dev What the account holds in a flagged market beyond its position (IMarketAccountRisk): the equity
    ///      adjustment joins the unrealised PnL (so equity includes it), the extras join the requirements.
    function _addAccountRisk(MarginState memory s, address market, address account, uint256 priceWad) private view {
        (int256 adjustmentUsdc, uint256 extraInitialUsdc, uint256 extraMaintenanceUsdc) = IMarketAccountRisk(market)
            .accountRisk(account, priceWad);
        s.unrealisedPnlUsdc += adjustmentUsdc;
        s.initialMarginUsdc += extraInitialUsdc;
        s.maintenanceMarginUsdc += extraMaintenanceUsdc;
    }

    /// @dev What a margin computation needs besides the position: the copy's generation and σ + 1, the price.
    struct MarginInputs {
        uint256 generation;
        uint256 sigmaPlusOneWad;
        uint256 priceWad;
    }

    function _positionAt(
        ClearingHouseStorage storage $,
        address account,
        Traded memory tr,
        uint256 id
    ) private view returns (MarketRef memory ref, Position memory p) {
        if (id == tr.id) return (MarketRef(tr.market, tr.flags), tr.position);
        ref = $.marketById[id];
        p = $.positions[account][ref.market];
    }

    /// @dev Adds one position to the margin state. The rates come from the pushed copy of the RiskEngine's inputs
    ///      (same rule, RiskMath) while it is current, otherwise from the RiskEngine itself.
    function _addMargin(
        ClearingHouseStorage storage $,
        MarginState memory s,
        MarginInputs memory m,
        address market,
        Position memory p
    ) private view {
        uint256 imRate;
        uint256 mmRate;
        uint256 c = $.riskParams[market];
        if (m.sigmaPlusOneWad != 0 && c >> 248 == m.generation && (c >> 128) & MASK60 != 0) {
            (imRate, mmRate) = RiskMath.marginRates(
                IRiskEngine.MarketRiskParams(
                    uint64(c),
                    uint64(c >> 64),
                    uint64((c >> 128) & MASK60),
                    uint64((c >> 188) & MASK60)
                ),
                m.sigmaPlusOneWad - 1
            );
        } else {
            (imRate, mmRate) = $.riskEngine.marginRates(market);
        }
        uint256 priceWad = m.priceWad;
        s.unrealisedPnlUsdc += ClearingMath.valueUsdcDown(p.sizeCh, priceWad) - p.openNotionalUsdc;
        uint256 notional = ClearingMath.notionalUsdcUp(ClearingMath.abs(p.sizeCh), priceWad);
        s.grossNotionalUsdc += notional;
        s.initialMarginUsdc += ClearingMath.mulWadUp(notional, imRate);
        s.maintenanceMarginUsdc += ClearingMath.mulWadUp(notional, mmRate);
    }

    /// @dev Adds or removes `id` in the account's packed market set (in memory; the caller stores the account).
    ///      Removal swaps the last id into the freed place, as the liquidation loop (last to first) expects. A market
    ///      that holds its accounts (`holds`) marks the place held when it adds it; a held place stays at zero size.
    function _updateMembership(
        Account memory acc,
        address account,
        uint256 id,
        int256 oldSize,
        int256 newSize,
        bool holds
    ) private pure {
        if (oldSize == 0 && newSize != 0) {
            if (holds && _placeOf(acc, id) != NOT_IN_SET) return; // held at zero size: already in the set
            uint256 n = acc.marketCount;
            if (n >= MAX_MARKETS_PER_ACCOUNT) revert ClearingTooManyMarkets(account, MAX_MARKETS_PER_ACCOUNT);
            acc.marketIds |= uint128(id << (16 * n));
            acc.marketCount = uint8(n + 1);
            if (holds) acc.heldMask |= uint8(1 << n);
        } else if (oldSize != 0 && newSize == 0) {
            uint256 place = _placeOf(acc, id);
            if (acc.heldMask & (1 << place) == 0) _removeAt(acc, place);
        }
    }

    /// @dev The place of `id` in the account's set, or NOT_IN_SET.
    function _placeOf(Account memory acc, uint256 id) private pure returns (uint256) {
        uint256 n = acc.marketCount;
        uint128 ids = acc.marketIds;
        for (uint256 i; i < n; ++i) if (_marketIdAt(ids, i) == id) return i;
        return NOT_IN_SET;
    }

    /// @dev Removes the set's entry at `place`: the last entry (id and held bit) moves into it.
    function _removeAt(Account memory acc, uint256 place) private pure {
        uint256 last = uint256(acc.marketCount) - 1;
        uint128 ids = acc.marketIds;
        uint256 lastId = _marketIdAt(ids, last);
        ids &= ~uint128(0xffff << (16 * place));
        ids |= uint128(lastId << (16 * place));
        ids &= ~uint128(0xffff << (16 * last));
        uint8 mask = acc.heldMask;
        bool lastHeld = mask & (1 << last) != 0;
        mask &= ~uint8(1 << place);
        if (lastHeld) mask |= uint8(1 << place);
        mask &= ~uint8(1 << last);
        acc.marketIds = ids;
        acc.marketCount = uint8(last);
        acc.heldMask = mask;
    }

    function _updateOpenInterest(
        ClearingHouseStorage storage $,
        address market,
        int256 oldSize,
        int256 newSize
    ) private {
        if (oldSize == newSize) return;
        OpenInterest storage oi = $.openInterest[market];
        uint256 longCh = oi.longCh;
        uint256 shortCh = oi.shortCh;
        if (oldSize > 0) longCh -= uint256(oldSize);
        else shortCh -= uint256(-oldSize);
        if (newSize > 0) longCh += uint256(newSize);
        else shortCh += uint256(-newSize);
        oi.longCh = longCh.toUint128();
        oi.shortCh = shortCh.toUint128();
    }
}
