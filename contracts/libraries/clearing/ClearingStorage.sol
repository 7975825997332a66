// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseEvents} from "../../interfaces/clearing/IClearingHouseEvents.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {IRiskEngine} from "../../interfaces/clearing/IRiskEngine.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IInsuranceFund} from "../../interfaces/clearing/IInsuranceFund.sol";
import {MarketSet} from "../../types/MarketSet.sol";
import {RiskWord} from "../../types/RiskWord.sol";

/// @title ClearingHouseStorage
/// @notice The ClearingHouse's ERC-7201 storage records, inherited by the ClearingHouse (so the upgrade-safety gate
///         sees its namespace) and used by the clearing libraries through ClearingStorage.layout().
abstract contract ClearingHouseStorage {
    /// @dev One slot holds everything a trade, a withdrawal or a liquidation needs about the account: USDC
    ///      collateral (int88: ±1.5e20 USDC), the last loss-absorbing market it traded or settled in, the set of
    ///      markets it holds positions in (MarketSet) and the mask of collateral tokens it holds (bit id − 1 of
    ///      `collateralTokenById`): an account without token collateral pays one bit test, never a token read.
    struct Account {
        int88 collateralUsdc;
        uint16 lastMarketId;
        MarketSet markets;
        uint8 tokenMask;
    }

    /// @dev A non-USDC collateral token (ClearingCollateral). Slot 1: price source and id; slot 2: haircut rule
    ///      h = min(maxHaircut, baseHaircut + σMultiple × σ); slot 3: the deposit cap and the recorded total (the
    ///      token's ledger: Σ account balances = totalDeposited ≤ balanceOf(ClearingHouse)).
    struct CollateralToken {
        address feed;
        uint32 heartbeatSec;
        uint8 id;
        uint8 feedDecimals;
        bool indexPriced;
        uint64 baseHaircutWad;
        uint64 sigmaMultipleWad;
        uint64 maxHaircutWad;
        uint128 depositCap;
        uint128 totalDeposited;
    }

    /// @dev One slot; `id` (1-based, registration order) is what accounts store; `flags` FLAG_* bits; `risk` the same
    ///      compact risk copy as the id slot's (MarketRef.risk), for the traded market of a trade.
    struct Market {
        bool registered;
        uint16 id;
        int128 poolUsdc;
        uint8 flags;
        uint88 risk;
    }

    /// @dev What the account scan reads per market id: the address, its flags and, when the RiskEngine's last push
    ///      was exact in it, a compact copy of the market's risk parameters (one slot; ClearingStorage.RISK_* layout,
    ///      0: none, the `riskParams` word is read).
    struct MarketRef {
        address market;
        uint8 flags;
        uint88 risk;
    }

    /// @dev Retired (round 47): each market keeps its own open interest, the one record of it (PerpMarket.marketState,
    ///      the futures and options series); the ClearingHouse no longer rewrites a second copy on every trade.
    struct OpenInterest {
        uint128 longCh;
        uint128 shortCh;
    }

    /// @custom:storage-location erc7201:chx.storage.ClearingHouse
    struct Layout {
        IERC20 usdc;
        IComputePriceOracle oracle;
        // Beside the oracle address, read by every margin check (so warm once the price is read): the pushed copy of
        // σ (IClearingRiskSync) as σ + 1 (0: no copy, the RiskEngine is called), valid for the risk-engine
        // generation `riskGeneration` (bumped when setModules replaces the risk engine). `activeGates`: the GATE_*
        // bits of the features known not paused (mirror of ChxUpgradeable's flags, ClearingHouse._afterPauseChanged);
        // a clear bit means "read the flag", so an empty mirror (an upgraded proxy before syncPauseMirror) is safe.
        uint8 riskGeneration;
        uint72 sigmaPlusOneWad;
        uint8 activeGates;
        IRiskEngine riskEngine;
        IGuarantorPool guarantorPool;
        /// @dev Beside the pool address every trade reads: a fee-paying trade rewrites this slot instead of a second one.
        uint96 feesUsdc;
        IInsuranceFund insuranceFund;
        mapping(address account => Account) accounts;
        mapping(address account => mapping(address market => IClearingHouse.Position)) positions;
        mapping(address market => Market) markets;
        /// @custom:oz-renamed-from openInterest
        mapping(address market => OpenInterest) __deprecated_openInterest;
        mapping(uint256 id => MarketRef) marketById;
        uint256 socialisedLossUsdc;
        address liquidationEngine;
        uint16 marketCount;
        mapping(address market => RiskWord) riskParams;
        /// @dev Written by a liquidation close that leaves the account bankrupt (no positions, collateral < 0): the
        ///      loss-absorbing market of its largest closed position and the signed size closed (auto-deleveraging's
        ///      side and bankruptcy distance).
        mapping(address account => AdlSource) adlSource;
        /// @dev A market's own σ pushed by the RiskEngine (IClearingRiskSync.syncMarketVolatility): σ + 1 (bits
        ///      0-71), stale σ (72-143), stale-at unix seconds (144-183), the per-tenor bit (184, TENOR_MARGIN_BIT),
        ///      risk-engine generation (248-255). Read by the scan only for a market flagged FLAG_MARKET_SIGMA.
        mapping(address market => uint256) marketSigma;
        /// @dev Non-USDC collateral (ClearingCollateral): per-token configuration, id → token (ids 1..8, the bit of
        ///      Account.tokenMask), and each account's recorded balance (never balanceOf: a donation counts for nobody).
        mapping(address token => CollateralToken) collateralTokens;
        mapping(uint256 id => address) collateralTokenById;
        uint8 collateralTokenCount;
        mapping(address account => mapping(address token => uint256)) tokenBalances;
        /// @dev Σ max(0, −collateralUsdc) over all accounts: USDC the pools were credited with that the ClearingHouse
        ///      does not hold (a loss beyond an account's collateral, until a deposit, a token sale, the guarantor,
        ///      the insurance fund or auto-deleveraging covers it). Pool withdrawals stop at pool − this
        ///      (ClearingStorage.bookUncovered; docs/clearing.md "Uncovered collateral and pool cash").
        uint256 uncoveredUsdc;
    }

    /// @dev One slot: the market id (MarketRef) and the signed size a bankrupting close took out of it.
    struct AdlSource {
        uint16 marketId;
        int128 closedCh;
    }
}

/// @title ClearingStorage
/// @notice The pointer to the ClearingHouse storage and the market flags the clearing libraries share.
library ClearingStorage {
    /// @dev Market flag: margin computations call IMarketAccountRisk.accountRisk for the market's accounts.
    uint8 internal constant FLAG_ACCOUNT_RISK = 1;
    /// @dev Market flag: socialised loss may be charged to its pool (the account's `lastMarketId` only names such).
    uint8 internal constant FLAG_LOSS_ABSORBER = 2;
    /// @dev Market flag: an account stays in the market's set (at zero size) until the market releases it.
    uint8 internal constant FLAG_HOLDS_ACCOUNTS = 4;
    /// @dev Market flag (set by the RiskEngine's push, not by governance): the market has its own σ (marketSigma).
    uint8 internal constant FLAG_MARKET_SIGMA = 8;
    /// @dev Market flag: the market answers IMarketScenarioRisk and its accounts are portfolio-margined.
    uint8 internal constant FLAG_SCENARIO_RISK = 16;
    /// @dev Bit of a market's σ word: the copy is the lowest σ of a per-tenor market (IRiskEngine.setTenorMargin);
    ///      the market's account-risk hook adds each tenor's margin above it (FuturesRisk).
    uint256 internal constant TENOR_MARGIN_BIT = uint256(1) << 184;

    /// @dev Pause flags (ChxUpgradeable) of withdrawals and of risk-increasing trades.
    bytes32 internal constant FEATURE_WITHDRAW = keccak256("clearing.withdraw");
    bytes32 internal constant FEATURE_NEW_RISK = keccak256("clearing.newRisk");
    /// @dev Layout.activeGates bits: `clearing.withdraw` and `clearing.newRisk` are known not paused.
    uint8 internal constant GATE_WITHDRAW = 1;
    uint8 internal constant GATE_NEW_RISK = 2;

    /// @dev A MarketRef's compact risk copy: imMultiple, mmMultiple, imFloor, mmFloor as 20-bit counts of RISK_UNIT
    ///      (bits 0-19, 20-39, 40-59, 60-79) and the risk-engine generation that pushed them (80-87). Written only
    ///      when each parameter is an exact multiple of RISK_UNIT below 2^20 units (ClearingConfig.compactRisk).
    uint256 internal constant RISK_UNIT = 1e14;
    uint256 internal constant RISK_BITS = 20;
    uint256 internal constant RISK_GEN_SHIFT = 80;

    // keccak256(abi.encode(uint256(keccak256("chx.storage.ClearingHouse")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant LOCATION = 0x55052fae2fc50d74c9cbac33e5ea35893b9adcb7f74bd0a66b4cdacc551a8700;

    /// @notice The ClearingHouse storage.
    function layout() internal pure returns (ClearingHouseStorage.Layout storage $) {
        assembly {
            $.slot := LOCATION
        }
    }

    /// @notice Keeps `Layout.uncoveredUsdc` equal to Σ max(0, −collateral): called wherever an account's USDC collateral
    ///         is written, from `oldUsdc` to `newUsdc`. Neither negative (every solvent account) or no change: no read,
    ///         no write, no event. Otherwise the total after is written and emitted (UncoveredCollateralChanged).
    function bookUncovered(ClearingHouseStorage.Layout storage $, int256 oldUsdc, int256 newUsdc) internal {
        if ((oldUsdc >= 0 && newUsdc >= 0) || oldUsdc == newUsdc) return;
        uint256 total = $.uncoveredUsdc;
        if (oldUsdc < 0) total -= uint256(-oldUsdc);
        if (newUsdc < 0) total += uint256(-newUsdc);
        $.uncoveredUsdc = total;
        emit IClearingHouseEvents.UncoveredCollateralChanged(total);
    }

    /// @notice The RiskEngine that answers a market's per-tenor margin rates, or zero when the market's σ copy is not a
    ///         current per-tenor copy (a replaced RiskEngine's copy is not: the scan then asks the new one for the
    ///         largest σ).
    function tenorMarginSource(ClearingHouseStorage.Layout storage $, address market) internal view returns (address) {
        uint256 word = $.marketSigma[market];
        if (word & TENOR_MARGIN_BIT == 0 || word >> 248 != $.riskGeneration) return address(0);
        return address($.riskEngine);
    }
}
