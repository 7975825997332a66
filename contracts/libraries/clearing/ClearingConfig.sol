// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IChxModule} from "../../interfaces/base/IChxModule.sol";
import {IClearingHouseErrors} from "../../interfaces/clearing/IClearingHouseErrors.sol";
import {IClearingHouseEvents} from "../../interfaces/clearing/IClearingHouseEvents.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {IRiskEngine} from "../../interfaces/clearing/IRiskEngine.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IInsuranceFund} from "../../interfaces/clearing/IInsuranceFund.sol";
import {RiskWord, RiskWordLib} from "../../types/RiskWord.sol";
import {MarketSet} from "../../types/MarketSet.sol";
import {ClearingHouseStorage, ClearingStorage} from "./ClearingStorage.sol";

/// @title ClearingConfig
/// @notice The ClearingHouse's configuration paths (modules, market registration and flags, the pushed risk copies),
///         the market pools' funding and the views that are not on a margin path.
/// @dev An external library the ClearingHouse links and runs by delegatecall (EIP-170 room; none of these is on a
///      trade, withdrawal or liquidation path). Access control stays in the ClearingHouse.
library ClearingConfig {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;
    using SafeCast for int256;

    /// @notice IClearingHouse.setModules after its access check.
    function setModules(
        address oracle,
        address riskEngine,
        address guarantorPool,
        address insuranceFund,
        address liquidationEngine
    ) external {
        if (
            oracle == address(0) ||
            riskEngine == address(0) ||
            guarantorPool == address(0) ||
            liquidationEngine == address(0)
        ) revert IChxModule.ChxZeroAddress();
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
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
        // Takes σ from the new risk engine (its later updates are pushed); one that cannot answer leaves no copy
        // (every margin check then calls it).
        try IRiskEngine(riskEngine).volatility() returns (uint256 sigmaWad, uint256, uint256, uint256) {
            copySigma($, sigmaWad);
        } catch {
            $.sigmaPlusOneWad = 0;
        }
        emit IClearingHouseEvents.ModulesSet(oracle, riskEngine, guarantorPool, insuranceFund, liquidationEngine);
    }

    /// @notice IClearingHouse.registerMarket after its access check.
    function registerMarket(address market) external {
        if (market == address(0)) revert IChxModule.ChxZeroAddress();
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.Market storage m = $.markets[market];
        if (m.registered) revert IClearingHouseErrors.ClearingMarketAlreadyRegistered(market);
        uint16 id = (uint256($.marketCount) + 1).toUint16();
        $.marketCount = id;
        $.marketById[id].market = market;
        m.registered = true;
        m.id = id;
        // Risk parameters pushed before registration get their compact copy (the word's generation, so a copy
        // from a replaced risk engine stays stale).
        RiskWord w = $.riskParams[market];
        if (RiskWord.unwrap(w) != 0) {
            uint88 risk = compactRisk(w.params(), w.generation());
            m.risk = risk;
            $.marketById[id].risk = risk;
        }
        // A σ pushed before registration (RiskEngine.setMarketVolParams first) is used from the start.
        if ($.marketSigma[market] != 0) {
            m.flags = ClearingStorage.FLAG_MARKET_SIGMA;
            $.marketById[id].flags = ClearingStorage.FLAG_MARKET_SIGMA;
        }
        emit IClearingHouseEvents.MarketRegistered(market);
    }

    /// @notice IClearingHouse.setMarketLossAbsorber after its access check.
    function setMarketLossAbsorber(address market, bool enabled) external {
        setFlag(market, ClearingStorage.FLAG_LOSS_ABSORBER, enabled);
    }

    /// @notice IClearingHouse.setMarketAccountRisk after its access check.
    function setMarketAccountRisk(address market, bool enabled) external {
        setFlag(market, ClearingStorage.FLAG_ACCOUNT_RISK, enabled);
    }

    /// @notice IClearingHouse.setMarketHoldsAccounts after its access check.
    function setMarketHoldsAccounts(address market, bool enabled) external {
        setFlag(market, ClearingStorage.FLAG_HOLDS_ACCOUNTS, enabled);
    }

    /// @notice IClearingHouse.setMarketScenarioRisk after its access check.
    function setMarketScenarioRisk(address market, bool enabled) external {
        setFlag(market, ClearingStorage.FLAG_SCENARIO_RISK, enabled);
    }

    /// @notice Sets or clears `flag` of `market`, in the market's slot and in its id's slot (read by the scan).
    function setFlag(address market, uint8 flag, bool enabled) internal {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.Market storage m = $.markets[market];
        if (!m.registered) revert IClearingHouseErrors.ClearingUnknownMarket(market);
        // The hook adds a per-tenor market's margin above its lowest σ: it stays on while that copy is current
        // (IRiskEngine.setTenorMargin(market, false) first).
        if (!enabled && flag & ClearingStorage.FLAG_ACCOUNT_RISK != 0) {
            if (ClearingStorage.tenorMarginSource($, market) != address(0))
                revert IRiskEngine.RiskTenorMarginNeedsHook(market);
        }
        uint8 flags = enabled ? m.flags | flag : m.flags & ~flag;
        m.flags = flags;
        $.marketById[m.id].flags = flags;
        emit IClearingHouseEvents.MarketFlagsSet(
            market,
            flags & ClearingStorage.FLAG_ACCOUNT_RISK != 0,
            flags & ClearingStorage.FLAG_LOSS_ABSORBER != 0,
            flags & ClearingStorage.FLAG_HOLDS_ACCOUNTS != 0
        );
    }

    /// @notice IClearingRiskSync.syncMarketRisk from the RiskEngine: keeps the market's copy as a RiskWord. A floor
    ///         ≥ 2^60 cannot come from the RiskEngine (it checks < 1 WAD); such a market keeps no copy (the RiskEngine
    ///         is then asked), never a stale one.
    function syncMarketRisk(address market, IRiskEngine.MarketRiskParams calldata params) external {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        if (!fromRiskEngine($)) return;
        // The compact copy in the market's id slot (what the scan reads anyway): rewritten on every push, 0 when
        // the parameters are not exact in it (the word below is then read), so it is never older than the word.
        ClearingHouseStorage.Market storage m = $.markets[market];
        if (m.registered) {
            uint88 risk = compactRisk(params, $.riskGeneration);
            m.risk = risk;
            $.marketById[m.id].risk = risk;
        }
        if (!RiskWordLib.fits(params)) {
            $.riskParams[market] = RiskWord.wrap(0);
            return;
        }
        $.riskParams[market] = RiskWordLib.pack(params, $.riskGeneration);
    }

    /// @notice `p` pushed under risk-engine generation `gen` as a MarketRef compact copy (ClearingStorage.RISK_*),
    ///         or 0 when a parameter is not an exact multiple of RISK_UNIT below 2^RISK_BITS units (or the initial
    ///         floor is 0, which no current copy has), and 0 whenever the full RiskWord could not hold them either: the
    ///         scan expands a copy into a RiskWord, whose 60-bit floor fields a larger floor would overflow.
    function compactRisk(IRiskEngine.MarketRiskParams memory p, uint256 gen) internal pure returns (uint88) {
        uint256[4] memory v = [uint256(p.imMultipleWad), p.mmMultipleWad, p.imFloorWad, p.mmFloorWad];
        if (v[2] == 0 || !RiskWordLib.fits(p)) return 0;
        uint256 c = uint256(uint8(gen)) << ClearingStorage.RISK_GEN_SHIFT;
        for (uint256 i; i < 4; ++i) {
            uint256 units = v[i] / ClearingStorage.RISK_UNIT;
            if (units * ClearingStorage.RISK_UNIT != v[i] || units >> ClearingStorage.RISK_BITS != 0) return 0;
            c |= units << (i * ClearingStorage.RISK_BITS);
        }
        return uint88(c);
    }

    /// @notice IClearingRiskSync.syncMarketVolatility from the RiskEngine: keeps the market's σ word and flags the
    ///         market so the scan reads it. Values that do not fit leave no copy (the RiskEngine is then asked).
    ///         Bit 40 of `staleAt` (the per-tenor bit, word bit 184: ClearingStorage.TENOR_MARGIN_BIT) marks a copy of
    ///         the lowest tenor σ whose per-tenor rest the market's account-risk hook adds.
    function syncMarketVolatility(address market, uint256 sigmaWad, uint256 staleSigmaWad, uint256 staleAt) external {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        if (!fromRiskEngine($)) return;
        uint256 word;
        if (sigmaWad < type(uint72).max && staleSigmaWad <= type(uint72).max && staleAt < uint256(1) << 41) {
            word = (sigmaWad + 1) | (staleSigmaWad << 72) | (staleAt << 144) | (uint256($.riskGeneration) << 248);
        }
        $.marketSigma[market] = word;
        ClearingHouseStorage.Market storage m = $.markets[market];
        if (m.registered && m.flags & ClearingStorage.FLAG_MARKET_SIGMA == 0) {
            uint8 flags = m.flags | ClearingStorage.FLAG_MARKET_SIGMA;
            m.flags = flags;
            $.marketById[m.id].flags = flags;
        }
    }

    /// @notice IClearingHouse.flushFees: the guarantors' accrued fee share to the GuarantorPool
    ///         (IGuarantorPool.fundIncome), the rest to the insurance fund.
    function flushFees() external {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        uint256 fees = $.feesUsdc;
        if (fees == 0) revert IClearingHouseErrors.ClearingZeroAmount();
        address fund = address($.insuranceFund);
        if (fund == address(0)) revert IChxModule.ChxZeroAddress();
        $.feesUsdc = 0;
        emit IClearingHouseEvents.FeesFlushed(fees, fund);
        IGuarantorPool pool = $.guarantorPool;
        // Each accrued share came out of a fee counted here; min() only guards a pool swapped by governance.
        uint256 toPool = Math.min(pool.incomeOwed(), fees);
        if (toPool != 0) {
            $.usdc.forceApprove(address(pool), toPool);
            pool.fundIncome(toPool);
            fees -= toPool;
            if (fees == 0) return;
        }
        $.usdc.forceApprove(fund, fees);
        IInsuranceFund(fund).depositFees(fees);
    }

    /// @notice IClearingHouse.fundMarketPool after its access check: the calling market's pool grows by
    ///         `amountUsdc`, pulled from it.
    function fundMarketPool(uint256 amountUsdc) external {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        int256 pool = _registeredPool($, amountUsdc) + amountUsdc.toInt256();
        $.markets[msg.sender].poolUsdc = pool.toInt128();
        emit IClearingHouseEvents.MarketPoolChanged(msg.sender, int256(amountUsdc), pool);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @notice IClearingHouse.withdrawMarketPool after its access check: at most the calling market's pool, and at
    ///         most its cash: the pool less every account's uncovered negative collateral (Layout.uncoveredUsdc).
    function withdrawMarketPool(uint256 amountUsdc, address to) external {
        if (to == address(0)) revert IChxModule.ChxZeroAddress();
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        int256 pool = _registeredPool($, amountUsdc);
        if (pool < amountUsdc.toInt256()) {
            revert IClearingHouseErrors.ClearingMarketPoolTooLow(msg.sender, amountUsdc, pool);
        }
        uint256 uncovered = $.uncoveredUsdc;
        if (uncovered != 0 && pool - int256(amountUsdc) < uncovered.toInt256()) {
            revert IClearingHouseErrors.ClearingPoolCashShort(msg.sender, amountUsdc, pool, uncovered);
        }
        pool -= int256(amountUsdc);
        $.markets[msg.sender].poolUsdc = pool.toInt128();
        emit IClearingHouseEvents.MarketPoolChanged(msg.sender, -int256(amountUsdc), pool);
        $.usdc.safeTransfer(to, amountUsdc);
    }

    /// @dev The calling market's pool (reverts for a zero amount or an unregistered caller).
    function _registeredPool(ClearingHouseStorage.Layout storage $, uint256 amountUsdc) private view returns (int256) {
        if (amountUsdc == 0) revert IClearingHouseErrors.ClearingZeroAmount();
        ClearingHouseStorage.Market storage m = $.markets[msg.sender];
        if (!m.registered) revert IClearingHouseErrors.ClearingMarketNotRegistered(msg.sender);
        return m.poolUsdc;
    }

    /// @notice IClearingHouse.marketFlags.
    function marketFlags(address market) external view returns (bool accountRisk, bool lossAbsorber, bool holds) {
        uint8 flags = ClearingStorage.layout().markets[market].flags;
        return (
            flags & ClearingStorage.FLAG_ACCOUNT_RISK != 0,
            flags & ClearingStorage.FLAG_LOSS_ABSORBER != 0,
            flags & ClearingStorage.FLAG_HOLDS_ACCOUNTS != 0
        );
    }

    /// @notice IClearingHouse.adlSourceOf.
    function adlSourceOf(address account) external view returns (address market, int256 closedCh) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.AdlSource memory src = $.adlSource[account];
        return ($.marketById[src.marketId].market, src.closedCh);
    }

    /// @notice IClearingHouse.totals.
    function totals() external view returns (uint256 feesUsdc, uint256 socialisedLossUsdc) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        return ($.feesUsdc, $.socialisedLossUsdc);
    }

    /// @notice IClearingHouse.syncPauseMirror after its access check, and the ClearingHouse's pause hook: each GATE_*
    ///         bit set exactly when its flag is clear (the flags read through isFeaturePaused, their one source).
    function syncPauseMirror() external {
        IChxModule house = IChxModule(address(this));
        uint8 gates;
        if (!house.isFeaturePaused(ClearingStorage.FEATURE_WITHDRAW)) gates = ClearingStorage.GATE_WITHDRAW;
        if (!house.isFeaturePaused(ClearingStorage.FEATURE_NEW_RISK)) gates |= ClearingStorage.GATE_NEW_RISK;
        ClearingStorage.layout().activeGates = gates;
    }

    /// @notice IClearingHouse.marketInfo (the vault paths, which then move pool cash through this library).
    function marketInfo(address market) external view returns (bool, int256) {
        ClearingHouseStorage.Market storage m = ClearingStorage.layout().markets[market];
        return (m.registered, m.poolUsdc);
    }

    /// @notice IClearingHouse.marketsOf (the array built by hand: n ≤ MarketSetLib.MAX ids, all in the set).
    function marketsOf(address account) external view returns (address[] memory list) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        MarketSet set = $.accounts[account].markets;
        uint256 n = set.count();
        assembly ("memory-safe") {
            list := mload(0x40)
            mstore(list, n)
            mstore(0x40, add(list, shl(5, add(n, 1))))
        }
        for (uint256 i; i < n; ++i) {
            address market = $.marketById[set.idAt(i)].market;
            assembly ("memory-safe") {
                mstore(add(list, shl(5, add(i, 1))), market)
            }
        }
    }

    /// @notice IClearingRiskSync.syncVolatility from the RiskEngine (anyone else: ignored).
    function syncVolatility(uint256 sigmaWad) external {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        if (fromRiskEngine($)) copySigma($, sigmaWad);
    }

    /// @notice Whether the ClearingHouse's caller is its RiskEngine: the IClearingRiskSync pushes ignore anyone else
    ///         (never a revert: the RiskEngine's own paths do not depend on the copy).
    function fromRiskEngine(ClearingHouseStorage.Layout storage $) internal view returns (bool) {
        return msg.sender == address($.riskEngine);
    }

    /// @notice IClearingHouse.accountOf (a cold read: admissions and options debits; the hot paths use collateralOf).
    function accountOf(address account) external view returns (int256, uint256) {
        ClearingHouseStorage.Account storage a = ClearingStorage.layout().accounts[account];
        return (a.collateralUsdc, a.markets.count());
    }

    /// @notice IClearingHouse.uncoveredCollateralUsdc.
    function uncoveredCollateralUsdc() external view returns (uint256) {
        return ClearingStorage.layout().uncoveredUsdc;
    }

    /// @notice Keeps σ + 1 (0, no copy, when σ does not fit).
    function copySigma(ClearingHouseStorage.Layout storage $, uint256 sigmaWad) internal {
        $.sigmaPlusOneWad = sigmaWad < type(uint72).max ? uint72(sigmaWad + 1) : 0;
    }
}
