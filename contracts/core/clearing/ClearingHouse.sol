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
import {ClearingMath} from "../../libraries/ClearingMath.sol";

/// @title ClearingHouse
/// @notice Cross-margined USDC accounts and the positions markets open in them. See IClearingHouse.
contract ClearingHouse is ChxUpgradeable, IClearingHouse {
    using SafeERC20 for IERC20;
    using SafeCast for int256;
    using SafeCast for uint256;

    /// @notice Most markets one account may hold positions in: bounds every per-account loop.
    uint256 public constant MAX_MARKETS_PER_ACCOUNT = 8;

    bytes32 internal constant FEATURE_DEPOSIT = keccak256("clearing.deposit");
    bytes32 internal constant FEATURE_WITHDRAW = keccak256("clearing.withdraw");
    bytes32 internal constant FEATURE_NEW_RISK = keccak256("clearing.newRisk");

    /// @dev One slot: collateral and the last market the account traded (its socialised loss goes there).
    struct Account {
        int96 collateralUsdc;
        address lastMarket;
    }

    struct Market {
        bool registered;
        int128 poolUsdc;
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
        IInsuranceFund insuranceFund;
        mapping(address account => Account) accounts;
        mapping(address account => address[]) accountMarkets;
        mapping(address account => mapping(address market => Position)) positions;
        mapping(address market => Market) markets;
        mapping(address market => OpenInterest) openInterest;
        uint256 feesUsdc;
        uint256 socialisedLossUsdc;
        address liquidationEngine;
    }

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
        $.riskEngine = IRiskEngine(riskEngine);
        $.guarantorPool = IGuarantorPool(guarantorPool);
        $.insuranceFund = IInsuranceFund(insuranceFund);
        $.liquidationEngine = liquidationEngine;
        emit ModulesSet(oracle, riskEngine, guarantorPool, insuranceFund, liquidationEngine);
    }

    /// @inheritdoc IClearingHouse
    function registerMarket(address market) external restricted {
        if (market == address(0)) revert ChxZeroAddress();
        Market storage m = _getClearingHouseStorage().markets[market];
        if (m.registered) revert ClearingMarketAlreadyRegistered(market);
        m.registered = true;
        emit MarketRegistered(market);
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
        Account storage a = $.accounts[msg.sender];
        int256 collateral = a.collateralUsdc;
        if (collateral < amountUsdc.toInt256()) {
            revert ClearingInsufficientCollateral(msg.sender, amountUsdc, collateral);
        }
        collateral -= int256(amountUsdc);
        a.collateralUsdc = collateral.toInt96();
        if ($.accountMarkets[msg.sender].length != 0) {
            // Withdrawing against open positions adds risk: equity after must still cover initial margin.
            MarginState memory s = _marginState($, msg.sender, $.oracle.indexPrice());
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
    ) external restricted nonReentrant returns (int256 realisedPnlUsdc) {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        bool increasing;
        (realisedPnlUsdc, increasing) = _applyMarketTrade($, account, msg.sender, sizeDeltaCh, tradePriceWad, feeUsdc);
        // The guarantor's pre-trade gate (admission, customer limit, capacity) and the margin check.
        $.guarantorPool.onExposureChanged(account, _grossOpenNotional($, account), increasing);
        if (increasing) {
            MarginState memory s = _marginState($, account, $.oracle.indexPrice());
            if (s.equityUsdc < s.initialMarginUsdc.toInt256()) {
                revert ClearingInsufficientMargin(account, s.initialMarginUsdc, s.equityUsdc);
            }
        }
    }

    struct TradeResult {
        int256 oldSize;
        int256 newSize;
        int256 newOpen;
        int256 pnl;
        int256 collateral;
    }

    function _applyMarketTrade(
        ClearingHouseStorage storage $,
        address account,
        address market,
        int256 sizeDeltaCh,
        uint256 tradePriceWad,
        uint256 feeUsdc
    ) private returns (int256, bool increasing) {
        Market storage m = _registeredMarket($, market);
        Position storage p = $.positions[account][market];
        TradeResult memory t;
        t.oldSize = p.sizeCh;
        (t.newSize, t.newOpen, t.pnl) = ClearingMath.applyTrade(
            t.oldSize,
            p.openNotionalUsdc,
            sizeDeltaCh,
            tradePriceWad
        );
        increasing =
            ClearingMath.abs(t.newSize) > ClearingMath.abs(t.oldSize) ||
            (t.oldSize != 0 && t.newSize != 0 && (t.oldSize > 0) != (t.newSize > 0));
        if (increasing) _requireActive(FEATURE_NEW_RISK);
        p.sizeCh = t.newSize.toInt128();
        p.openNotionalUsdc = t.newOpen.toInt128();
        _updateMembership($, account, market, t.oldSize, t.newSize);
        _updateOpenInterest($, market, t.oldSize, t.newSize);
        Account storage a = $.accounts[account];
        t.collateral = int256(a.collateralUsdc) + t.pnl - feeUsdc.toInt256();
        a.collateralUsdc = t.collateral.toInt96();
        a.lastMarket = market;
        m.poolUsdc = (int256(m.poolUsdc) - t.pnl).toInt128();
        if (feeUsdc > 0) $.feesUsdc += feeUsdc;
        emit PositionModified(
            account,
            market,
            sizeDeltaCh,
            tradePriceWad,
            t.newSize,
            t.newOpen,
            t.pnl,
            feeUsdc,
            t.collateral
        );
        return (t.pnl, increasing);
    }

    /// @inheritdoc IClearingHouse
    function settle(address account, int256 amountUsdc) external restricted {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Market storage m = _registeredMarket($, msg.sender);
        Account storage a = $.accounts[account];
        int256 collateral = int256(a.collateralUsdc) + amountUsdc;
        a.collateralUsdc = collateral.toInt96();
        a.lastMarket = msg.sender;
        int256 pool = int256(m.poolUsdc) - amountUsdc;
        m.poolUsdc = pool.toInt128();
        emit AccountSettled(account, msg.sender, amountUsdc, collateral, pool);
    }

    /// @inheritdoc IClearingHouse
    function fundMarketPool(uint256 amountUsdc) external restricted nonReentrant {
        if (amountUsdc == 0) revert ClearingZeroAmount();
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Market storage m = _registeredMarket($, msg.sender);
        int256 pool = int256(m.poolUsdc) + amountUsdc.toInt256();
        m.poolUsdc = pool.toInt128();
        emit MarketPoolChanged(msg.sender, int256(amountUsdc), pool);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @inheritdoc IClearingHouse
    function withdrawMarketPool(uint256 amountUsdc, address to) external restricted nonReentrant {
        if (amountUsdc == 0) revert ClearingZeroAmount();
        if (to == address(0)) revert ChxZeroAddress();
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        Market storage m = _registeredMarket($, msg.sender);
        int256 pool = m.poolUsdc;
        if (pool < amountUsdc.toInt256()) revert ClearingMarketPoolTooLow(msg.sender, amountUsdc, pool);
        pool -= int256(amountUsdc);
        m.poolUsdc = pool.toInt128();
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
        Account storage a = $.accounts[account];
        collateralUsdc = a.collateralUsdc;
        address[] storage list = $.accountMarkets[account];
        // Reverse order: removing a closed market swaps the last entry into its slot.
        for (uint256 i = list.length; i > 0; --i) {
            address market = list[i - 1];
            collateralUsdc += _liquidatePosition($, account, market, fractionWad, priceWad, collateralUsdc);
        }
        positionsLeft = list.length;
        if (bountyUsdc > 0 && collateralUsdc > 0) {
            // LIQ-04: the bounty never exceeds the margin there is to seize.
            paidBountyUsdc = bountyUsdc < uint256(collateralUsdc) ? bountyUsdc : uint256(collateralUsdc);
            collateralUsdc -= int256(paidBountyUsdc);
        }
        a.collateralUsdc = collateralUsdc.toInt96();
        if (paidBountyUsdc > 0) {
            emit LiquidationBountyPaid(account, keeper, paidBountyUsdc, collateralUsdc);
            $.usdc.safeTransfer(keeper, paidBountyUsdc);
        }
    }

    function _liquidatePosition(
        ClearingHouseStorage storage $,
        address account,
        address market,
        uint256 fractionWad,
        uint256 priceWad,
        int256 collateralBefore
    ) private returns (int256) {
        Position storage p = $.positions[account][market];
        TradeResult memory t;
        t.oldSize = p.sizeCh;
        uint256 absSize = ClearingMath.abs(t.oldSize);
        // @dev The closed size rounds up, so a partial liquidation never leaves more risk than asked.
        uint256 closeAbs = fractionWad == ClearingMath.WAD ? absSize : ClearingMath.mulWadUp(absSize, fractionWad);
        if (closeAbs > absSize) closeAbs = absSize;
        int256 delta = t.oldSize > 0 ? -int256(closeAbs) : int256(closeAbs);
        (t.newSize, t.newOpen, t.pnl) = ClearingMath.applyTrade(t.oldSize, p.openNotionalUsdc, delta, priceWad);
        p.sizeCh = t.newSize.toInt128();
        p.openNotionalUsdc = t.newOpen.toInt128();
        _updateMembership($, account, market, t.oldSize, t.newSize);
        _updateOpenInterest($, market, t.oldSize, t.newSize);
        Market storage m = $.markets[market];
        m.poolUsdc = (int256(m.poolUsdc) - t.pnl).toInt128();
        $.accounts[account].lastMarket = market;
        emit PositionLiquidated(account, market, delta, priceWad, t.pnl, t.newSize, collateralBefore + t.pnl);
        ILiquidatableMarket(market).onPositionLiquidated(account, delta, priceWad, t.pnl);
        return t.pnl;
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
        uint256 count = $.accountMarkets[account].length;
        if (collateral >= 0 || count != 0) revert ClearingNoDeficit(account, collateral, count);
        uint256 deficit = uint256(-collateral);
        deficit = _absorb(account, Layer.Guarantor, fromGuarantorUsdc, deficit, address(0));
        deficit = _absorb(account, Layer.Insurance, fromInsuranceUsdc, deficit, address(0));
        socialisedUsdc = deficit;
        if (socialisedUsdc > 0) {
            address market = a.lastMarket;
            Market storage m = $.markets[market];
            m.poolUsdc = (int256(m.poolUsdc) - int256(socialisedUsdc)).toInt128();
            $.socialisedLossUsdc += socialisedUsdc;
            _absorb(account, Layer.Socialised, socialisedUsdc, socialisedUsdc, market);
        }
        // Any over-payment by a layer stays with the account (it can only come from a layer paying more than asked).
        uint256 paid = fromGuarantorUsdc + fromInsuranceUsdc;
        uint256 total = uint256(-collateral);
        a.collateralUsdc = paid > total ? (paid - total).toInt256().toInt96() : int96(0);
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
        $.guarantorPool.onExposureChanged(account, _grossOpenNotional($, account), false);
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
    function marginState(address account) external view returns (MarginState memory) {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        return _marginState($, account, $.oracle.indexPrice());
    }

    /// @inheritdoc IClearingHouse
    function liquidationState(address account) external view returns (MarginState memory state, uint256 priceWad) {
        ClearingHouseStorage storage $ = _getClearingHouseStorage();
        priceWad = $.oracle.indexPrice();
        state = _marginState($, account, priceWad);
    }

    /// @inheritdoc IClearingHouse
    function marginStateAt(address account, uint256 priceWad) external view returns (MarginState memory) {
        return _marginState(_getClearingHouseStorage(), account, priceWad);
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
    function marketsOf(address account) external view returns (address[] memory) {
        return _getClearingHouseStorage().accountMarkets[account];
    }

    /// @inheritdoc IClearingHouse
    function grossOpenNotionalOf(address account) external view returns (uint256) {
        return _grossOpenNotional(_getClearingHouseStorage(), account);
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

    function _registeredMarket(ClearingHouseStorage storage $, address market) private view returns (Market storage m) {
        m = $.markets[market];
        if (!m.registered) revert ClearingMarketNotRegistered(market);
    }

    /// @dev Bounded by MAX_MARKETS_PER_ACCOUNT.
    function _marginState(
        ClearingHouseStorage storage $,
        address account,
        uint256 priceWad
    ) private view returns (MarginState memory s) {
        s.collateralUsdc = $.accounts[account].collateralUsdc;
        address[] storage list = $.accountMarkets[account];
        uint256 n = list.length;
        s.positionCount = n;
        IRiskEngine risk = $.riskEngine;
        for (uint256 i; i < n; ++i) {
            address market = list[i];
            Position memory p = $.positions[account][market];
            (uint256 imRate, uint256 mmRate) = risk.marginRates(market);
            s.unrealisedPnlUsdc += ClearingMath.valueUsdcDown(p.sizeCh, priceWad) - p.openNotionalUsdc;
            uint256 notional = ClearingMath.notionalUsdcUp(ClearingMath.abs(p.sizeCh), priceWad);
            s.grossNotionalUsdc += notional;
            s.initialMarginUsdc += ClearingMath.mulWadUp(notional, imRate);
            s.maintenanceMarginUsdc += ClearingMath.mulWadUp(notional, mmRate);
        }
        s.equityUsdc = s.collateralUsdc + s.unrealisedPnlUsdc;
    }

    /// @dev Σ |openNotional|: the exposure guarantors limit, independent of the oracle. Bounded loop.
    function _grossOpenNotional(ClearingHouseStorage storage $, address account) private view returns (uint256 total) {
        address[] storage list = $.accountMarkets[account];
        uint256 n = list.length;
        for (uint256 i; i < n; ++i) {
            total += ClearingMath.abs($.positions[account][list[i]].openNotionalUsdc);
        }
    }

    function _updateMembership(
        ClearingHouseStorage storage $,
        address account,
        address market,
        int256 oldSize,
        int256 newSize
    ) private {
        if (oldSize == 0 && newSize != 0) {
            address[] storage list = $.accountMarkets[account];
            if (list.length >= MAX_MARKETS_PER_ACCOUNT) revert ClearingTooManyMarkets(account, MAX_MARKETS_PER_ACCOUNT);
            list.push(market);
        } else if (oldSize != 0 && newSize == 0) {
            address[] storage list = $.accountMarkets[account];
            uint256 n = list.length;
            for (uint256 i; i < n; ++i) {
                if (list[i] == market) {
                    list[i] = list[n - 1];
                    list.pop();
                    break;
                }
            }
            // A closed position keeps no residual basis (it was realised in full).
            $.positions[account][market].openNotionalUsdc = 0;
        }
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
