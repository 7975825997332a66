// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {FixedPointMath} from "../../libraries/math/FixedPointMath.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {ILiquidationEngine} from "../../interfaces/clearing/ILiquidationEngine.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseCollateral} from "../../interfaces/clearing/IClearingHouseCollateral.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IInsuranceFund} from "../../interfaces/clearing/IInsuranceFund.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {AggregatorV3Interface} from "@chainlink/contracts/src/v0.8/shared/interfaces/AggregatorV3Interface.sol";

/// @title LiquidationEngine
/// @notice Permissionless partial liquidation and the default waterfall. See ILiquidationEngine.
/// @dev The ClearingHouse accepts liquidationClose/absorbDeficit only from the engine set in its setModules; the
///      GuarantorPool admits the engine it trusts by address (setTrustedEngine) and the engine holds Roles.CLEARING for
///      InsuranceFund.coverBadDebt. The waterfall's guarantor pool and insurance fund are a copy of the
///      ClearingHouse's modules that anyone refreshes (`syncModules`, one SLOAD on the default path instead of a call);
///      until the first sync they are read from the ClearingHouse on every call. The oracle is always read there.
contract LiquidationEngine is ChxUpgradeable, ILiquidationEngine {
    using SafeCast for uint256;
    uint256 internal constant WAD = 1e18;
    uint256 internal constant BPS = 10_000;
    uint256 internal constant MAX_BOUNTY_BPS = 1_000;
    /// @notice Most nominees one ADL round keeps (and reduces): bounds every ADL loop.
    uint256 public constant ADL_MAX_NOMINEES = 8;
    uint256 internal constant DEFAULT_ADL_WINDOW_SEC = 300;
    uint256 internal constant MAX_ADL_WINDOW_SEC = 1 days;

    /// @custom:storage-location erc7201:chx.storage.LiquidationEngine
    /// @dev The first slot is read once per liquidation; the ADL fields follow.
    struct LiquidationEngineStorage {
        IClearingHouse clearingHouse;
        uint16 bountyBps;
        uint40 maxBountyUsdc;
        uint40 dustNotionalUsdc;
        /// @dev ADL nomination window; 0 reads as DEFAULT_ADL_WINDOW_SEC.
        uint32 adlWindowSec;
        /// @dev The ClearingHouse's guarantor pool as of the last `syncModules` (address(0): never synced — the
        ///      waterfall reads the ClearingHouse). Packed beside adlWindowSec (the slot before the claims mapping).
        address guarantorPool;
        mapping(address bankrupt => AdlClaim) adlClaims;
        /// @dev The ClearingHouse's insurance fund as of the last `syncModules` (read only when the pool leaves a
        ///      deficit).
        address insuranceFund;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.LiquidationEngine")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant LIQUIDATION_ENGINE_STORAGE_LOCATION =
        0xf78f6d8339ef61007db91e0e116a2c5c59a4a66a280c9151640011f569b94100;

    function _getLiquidationEngineStorage() private pure returns (LiquidationEngineStorage storage $) {
        assembly {
            $.slot := LIQUIDATION_ENGINE_STORAGE_LOCATION
        }
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param clearingHouse The ClearingHouse.
    /// @param bountyBps Bounty bps of closed notional.
    /// @param maxBountyUsdc Bounty cap.
    /// @param dustNotionalUsdc Dust floor.
    function initialize(
        address authority,
        address clearingHouse,
        uint256 bountyBps,
        uint256 maxBountyUsdc,
        uint256 dustNotionalUsdc
    ) external initializer {
        __ChxUpgradeable_init(authority);
        if (clearingHouse == address(0)) revert ChxZeroAddress();
        _getLiquidationEngineStorage().clearingHouse = IClearingHouse(clearingHouse);
        _setParams(_getLiquidationEngineStorage(), bountyBps, maxBountyUsdc, dustNotionalUsdc);
    }

    /// @inheritdoc ILiquidationEngine
    function liquidate(address account) external nonReentrant returns (uint256 fractionWad, uint256 bountyUsdc) {
        LiquidationEngineStorage storage $ = _getLiquidationEngineStorage();
        IClearingHouse ch = $.clearingHouse;
        // ORC-02: one price read for the whole liquidation, passed back to the ClearingHouse.
        (IClearingHouse.MarginState memory s, uint256 priceWad) = ch.liquidationState(account);
        if (s.equityUsdc >= int256(s.maintenanceMarginUsdc)) {
            revert LiquidationAccountHealthy(account, s.equityUsdc, s.maintenanceMarginUsdc);
        }
        // A solvent account gets the sequencer grace period to top up; an insolvent one is liquidated at once.
        if (s.equityUsdc >= 0) {
            (address oracle, , ) = ch.liquidationModules();
            _checkSequencerGrace(oracle, account, s.equityUsdc);
        }
        int256 collateral = s.collateralUsdc;
        // Token collateral first (docs/clearing.md "Non-USDC collateral"): the liquidator buys every priced token at
        // its haircut value (the discount it earns) and the USDC joins the account's collateral — equity is
        // unchanged, as the scan counted the tokens at that value. USDC-only accounts skip the call.
        if (s.tokenMask != 0) {
            (collateral, s.tokenMask) = IClearingHouseCollateral(address(ch)).seizeTokenCollateral(
                account,
                msg.sender,
                priceWad,
                false
            );
        }
        uint256 positionsLeft;
        if (s.positionCount > 0) {
            (fractionWad, collateral, positionsLeft, bountyUsdc) = _close($, ch, account, s, priceWad);
        }
        if (positionsLeft == 0 && collateral < 0) collateral = _default($, ch, account, s, priceWad, collateral);
        emit AccountLiquidated(account, msg.sender, fractionWad, priceWad, bountyUsdc, collateral, positionsLeft);
    }

    /// @dev A bankrupt account (no positions, collateral < 0): its unpriced token remainder goes to the insurance fund,
    ///      then LIQ-03's waterfall; what the insurance fund cannot pay opens an auto-deleveraging claim (CLR-03) on
    ///      the opposite side of the market of the largest position the bankrupting close took out.
    function _default(
        LiquidationEngineStorage storage $,
        IClearingHouse ch,
        address account,
        IClearingHouse.MarginState memory s,
        uint256 priceWad,
        int256 collateral
    ) private returns (int256) {
        if (s.tokenMask != 0) {
            (, , address fund) = ch.liquidationModules();
            IClearingHouseCollateral(address(ch)).seizeTokenCollateral(account, fund, priceWad, true);
        }
        collateral = _waterfall($, ch, account, uint256(-collateral));
        if (collateral < 0 && s.positionCount > 0) _openClaim($, ch, account, uint256(-collateral));
        return collateral;
    }

    /// @dev Aave's PriceOracleSentinel rule on the oracle's own sequencer configuration: after an L2 sequencer outage,
    ///      liquidations of solvent accounts wait until the grace period that gates new risk is over (the same
    ///      boundary: up for exactly the grace period is still inside it), so owners can react to the fresh price
    ///      first. The index read before already proved the sequencer is up. An oracle without a sequencer feed (L1),
    ///      or one that does not expose its configuration, imposes no wait.
    function _checkSequencerGrace(address oracle, address account, int256 equityUsdc) private view {
        IComputePriceOracle.SequencerConfig memory cfg;
        try IComputePriceOracle(oracle).sequencerConfig() returns (IComputePriceOracle.SequencerConfig memory c) {
            cfg = c;
        } catch {
            return;
        }
        if (cfg.feed == address(0)) return;
        (, , uint256 upSince, , ) = AggregatorV3Interface(cfg.feed).latestRoundData();
        uint256 graceEnds = upSince + cfg.gracePeriodSec;
        if (block.timestamp <= graceEnds) {
            revert LiquidationSequencerGracePeriod(account, upSince, graceEnds, equityUsdc);
        }
    }

    function _close(
        LiquidationEngineStorage storage $,
        IClearingHouse ch,
        address account,
        IClearingHouse.MarginState memory s,
        uint256 priceWad
    ) private returns (uint256 fractionWad, int256 collateral, uint256 positionsLeft, uint256 bountyUsdc) {
        uint256 bountyBps = $.bountyBps;
        uint256 maxBounty = $.maxBountyUsdc;
        fractionWad = _fraction(s, Math.min(maxBounty, (s.grossNotionalUsdc * bountyBps) / BPS), $.dustNotionalUsdc);
        // @dev The bounty rounds down and is proportional to the notional closed, capped: as the fraction is the
        //      least that restores initial margin, one liquidation restores health and splitting cannot pay more
        //      (LIQ-04).
        uint256 ask = Math.min(maxBounty, Math.mulDiv(s.grossNotionalUsdc, fractionWad * bountyBps, WAD * BPS));
        (collateral, positionsLeft, bountyUsdc) = ch.liquidationClose(account, fractionWad, priceWad, msg.sender, ask);
    }

    /// @dev Smallest fraction f with equity − bounty ≥ (1 − f) × IM, rounded up; 1 when equity after the bounty is
    ///      not positive or the remaining notional would be dust.
    function _fraction(
        IClearingHouse.MarginState memory s,
        uint256 bountyFullUsdc,
        uint256 dustUsdc
    ) private pure returns (uint256 f) {
        int256 after_ = s.equityUsdc - int256(bountyFullUsdc);
        if (after_ <= 0 || s.initialMarginUsdc == 0) return WAD;
        uint256 keep = Math.mulDiv(uint256(after_), WAD, s.initialMarginUsdc);
        if (keep >= WAD) return WAD; // cannot happen below maintenance; close fully to be safe
        f = WAD - keep;
        if (Math.mulDiv(s.grossNotionalUsdc, keep, WAD) < dustUsdc) f = WAD;
    }

    /// @dev LIQ-03: guarantor capital, then the insurance fund; each layer pays at most the remaining deficit and at
    ///      most what it holds. Returns the account's collateral after (< 0: left for auto-deleveraging).
    function _waterfall(
        LiquidationEngineStorage storage $,
        IClearingHouse ch,
        address account,
        uint256 deficit
    ) private returns (int256) {
        address pool = $.guarantorPool;
        address fund;
        bool synced = pool != address(0);
        if (!synced) (, pool, fund) = ch.liquidationModules();
        uint256 fromGuarantor = IGuarantorPool(pool).coverLoss(account, deficit, address(ch));
        uint256 remaining = deficit - Math.min(fromGuarantor, deficit);
        uint256 fromInsurance;
        if (remaining > 0) {
            if (synced) fund = $.insuranceFund;
            if (fund != address(0)) fromInsurance = IInsuranceFund(fund).coverBadDebt(remaining, address(ch));
        }
        return ch.absorbDeficit(account, fromGuarantor, fromInsurance);
    }

    /// @inheritdoc ILiquidationEngine
    function syncModules() external returns (address guarantorPool, address insuranceFund) {
        LiquidationEngineStorage storage $ = _getLiquidationEngineStorage();
        (, guarantorPool, insuranceFund) = $.clearingHouse.liquidationModules();
        $.guarantorPool = guarantorPool;
        $.insuranceFund = insuranceFund;
        emit LiquidationModulesSynced(guarantorPool, insuranceFund);
    }

    /// @inheritdoc ILiquidationEngine
    function waterfallModules() external view returns (address guarantorPool, address insuranceFund) {
        LiquidationEngineStorage storage $ = _getLiquidationEngineStorage();
        return ($.guarantorPool, $.insuranceFund);
    }

    // ───────────────────────────── auto-deleveraging ─────────────────────────────

    /// @dev Opens (or re-opens, after a new default of the same account) the claim on the bankrupt's largest closed
    ///      loss-absorbing position; none (e.g. only options were closed) leaves the deficit unabsorbed and visible.
    function _openClaim(
        LiquidationEngineStorage storage $,
        IClearingHouse ch,
        address bankrupt,
        uint256 deficit
    ) private {
        (address market, int256 closedCh) = ch.adlSourceOf(bankrupt);
        if (market == address(0) || closedCh == 0) return;
        AdlClaim storage c = $.adlClaims[bankrupt];
        uint256 size = FixedPointMath.abs(closedCh);
        c.market = market;
        // A liquidation close buys back a short (closed size > 0) and sells a long (< 0).
        c.bankruptLong = closedCh < 0;
        c.sizeCh = size.toUint128();
        c.perChWad = Math.mulDiv(deficit, WAD, size, Math.Rounding.Ceil).toUint128();
        _openRound($, c, bankrupt, deficit);
    }

    function _openRound(
        LiquidationEngineStorage storage $,
        AdlClaim storage c,
        address bankrupt,
        uint256 deficit
    ) private {
        c.roundStartSec = uint40(block.timestamp);
        delete c.nominees;
        delete c.scores;
        emit AdlRoundOpened(
            bankrupt,
            c.market,
            c.bankruptLong,
            deficit,
            c.sizeCh,
            c.perChWad,
            block.timestamp + _window($)
        );
    }

    /// @inheritdoc ILiquidationEngine
    function nominateAdl(
        address bankrupt,
        address candidate
    ) external nonReentrant returns (uint256 scoreUsdc, uint256 rank) {
        LiquidationEngineStorage storage $ = _getLiquidationEngineStorage();
        AdlClaim storage c = _claim($, bankrupt);
        uint256 ends = c.roundStartSec + _window($);
        if (block.timestamp >= ends) revert AdlNominationsClosed(bankrupt, ends);
        scoreUsdc = _score($.clearingHouse, c, bankrupt, candidate, _indexPrice($.clearingHouse));
        uint256 n = c.nominees.length;
        for (uint256 i; i < n; ++i) if (c.nominees[i] == candidate) revert AdlAlreadyNominated(candidate);
        address displaced;
        if (n == ADL_MAX_NOMINEES) {
            uint256 lowest = c.scores[n - 1];
            if (scoreUsdc <= lowest) revert AdlNotRanked(candidate, scoreUsdc, lowest);
            displaced = c.nominees[n - 1];
            c.nominees.pop();
            c.scores.pop();
            --n;
        }
        // Insertion keeps the list best first; equal scores keep nomination order (the earlier stays ahead).
        c.nominees.push(candidate);
        c.scores.push(scoreUsdc);
        rank = n;
        while (rank > 0 && c.scores[rank - 1] < scoreUsdc) {
            c.nominees[rank] = c.nominees[rank - 1];
            c.scores[rank] = c.scores[rank - 1];
            --rank;
        }
        c.nominees[rank] = candidate;
        c.scores[rank] = scoreUsdc;
        emit AdlNominated(bankrupt, candidate, msg.sender, scoreUsdc, rank, displaced);
    }

    /// @dev One ADL round's running totals (memory: keeps the stack small).
    struct Round {
        IClearingHouse ch;
        address bankrupt;
        uint256 priceWad;
        uint256 deficit;
        uint256 sizeLeft;
        uint256 steps;
        uint256 recovered;
    }

    /// @inheritdoc ILiquidationEngine
    function executeAdl(address bankrupt) external nonReentrant returns (uint256 steps, uint256 recoveredUsdc) {
        LiquidationEngineStorage storage $ = _getLiquidationEngineStorage();
        AdlClaim storage c = _claim($, bankrupt);
        uint256 ends = c.roundStartSec + _window($);
        if (block.timestamp < ends) revert AdlNominationsOpen(bankrupt, ends);
        Round memory r;
        (r.ch, r.bankrupt, r.sizeLeft) = ($.clearingHouse, bankrupt, c.sizeCh);
        int256 collateral = r.ch.collateralOf(bankrupt);
        if (collateral < 0) {
            // CLR-03: ADL only takes what the guarantor and the insurance fund cannot pay now (a refilled fund pays
            // first).
            collateral = _waterfall($, r.ch, bankrupt, uint256(-collateral));
        }
        r.deficit = collateral < 0 ? uint256(-collateral) : 0;
        r.priceWad = _indexPrice(r.ch);
        uint256 n = c.nominees.length;
        for (uint256 i; i < n && r.deficit > 0 && r.sizeLeft > 0; ++i) _step($, c, r, c.nominees[i]);
        c.sizeCh = uint128(r.sizeLeft);
        bool closed = r.deficit == 0 || r.sizeLeft == 0;
        emit AdlRoundExecuted(bankrupt, msg.sender, r.steps, r.recovered, r.deficit, r.sizeLeft, closed);
        if (closed) {
            delete $.adlClaims[bankrupt];
        } else {
            _openRound($, c, bankrupt, r.deficit);
        }
        return (r.steps, r.recovered);
    }

    /// @dev One reduction: the nominee's position is re-checked at the current index (a nominee that closed or turned
    ///      unprofitable since its nomination is skipped); it gives up the bankruptcy distance on the reduced size.
    function _step(LiquidationEngineStorage storage $, AdlClaim storage c, Round memory r, address candidate) private {
        IClearingHouse.Position memory p = r.ch.positionOf(candidate, c.market);
        if (!_opposite(c.bankruptLong, p.sizeCh) || _unrealised(p, r.priceWad) <= 0) {
            emit AdlNomineeSkipped(r.bankrupt, candidate);
            return;
        }
        uint256 q = Math.min(FixedPointMath.abs(p.sizeCh), r.sizeLeft);
        uint256 notional = Math.mulDiv(q, r.priceWad, WAD * 1e12);
        (, uint256 haircut, ) = r.ch.adlReduce(
            IClearingHouse.AdlStep({
                bankrupt: r.bankrupt,
                candidate: candidate,
                market: c.market,
                deltaCh: p.sizeCh > 0 ? -int256(q) : int256(q),
                priceWad: r.priceWad,
                maxHaircutUsdc: Math.mulDiv(q, c.perChWad, WAD, Math.Rounding.Ceil),
                keeper: msg.sender,
                bountyUsdc: Math.min($.maxBountyUsdc, (notional * $.bountyBps) / BPS)
            })
        );
        ++r.steps;
        r.sizeLeft -= q;
        r.deficit -= haircut;
        r.recovered += haircut;
    }

    /// @dev Score = unrealised PnL in the claim's market × leverage (gross notional / equity), USDC; reverts
    ///      AdlNotCandidate unless the candidate is opposite, profitable and at or above maintenance margin.
    function _score(
        IClearingHouse ch,
        AdlClaim storage c,
        address bankrupt,
        address candidate,
        uint256 priceWad
    ) private view returns (uint256) {
        IClearingHouse.Position memory p = ch.positionOf(candidate, c.market);
        int256 pnl = _unrealised(p, priceWad);
        IClearingHouse.MarginState memory s = ch.marginStateAt(candidate, priceWad);
        if (
            candidate == bankrupt ||
            !_opposite(c.bankruptLong, p.sizeCh) ||
            pnl <= 0 ||
            s.equityUsdc <= 0 ||
            s.equityUsdc < int256(s.maintenanceMarginUsdc)
        ) {
            revert AdlNotCandidate(candidate, p.sizeCh, pnl, s.equityUsdc);
        }
        return Math.mulDiv(uint256(pnl), s.grossNotionalUsdc, uint256(s.equityUsdc));
    }

    function _opposite(bool bankruptLong, int256 sizeCh) private pure returns (bool) {
        return bankruptLong ? sizeCh < 0 : sizeCh > 0;
    }

    /// @dev size × price − cost basis, rounded down (as the margin scan).
    function _unrealised(IClearingHouse.Position memory p, uint256 priceWad) private pure returns (int256) {
        return FixedPointMath.signedWadToUsdcDown(p.sizeCh, priceWad) - p.openNotionalUsdc;
    }

    function _claim(LiquidationEngineStorage storage $, address bankrupt) private view returns (AdlClaim storage c) {
        c = $.adlClaims[bankrupt];
        if (c.market == address(0)) revert AdlNoClaim(bankrupt);
    }

    function _indexPrice(IClearingHouse ch) private view returns (uint256) {
        (address oracle, , ) = ch.liquidationModules();
        return IComputePriceOracle(oracle).indexPrice();
    }

    function _window(LiquidationEngineStorage storage $) private view returns (uint256 w) {
        w = $.adlWindowSec;
        if (w == 0) w = DEFAULT_ADL_WINDOW_SEC;
    }

    /// @inheritdoc ILiquidationEngine
    function setAdlWindow(uint256 windowSec) external restricted {
        if (windowSec == 0 || windowSec > MAX_ADL_WINDOW_SEC) revert AdlInvalidWindow(windowSec);
        _getLiquidationEngineStorage().adlWindowSec = uint32(windowSec);
        emit AdlWindowSet(windowSec);
    }

    /// @inheritdoc ILiquidationEngine
    function adlWindow() external view returns (uint256) {
        return _window(_getLiquidationEngineStorage());
    }

    /// @inheritdoc ILiquidationEngine
    function adlClaim(address bankrupt) external view returns (AdlClaim memory) {
        return _getLiquidationEngineStorage().adlClaims[bankrupt];
    }

    /// @inheritdoc ILiquidationEngine
    function adlScore(address bankrupt, address candidate) external view returns (uint256) {
        LiquidationEngineStorage storage $ = _getLiquidationEngineStorage();
        AdlClaim storage c = _claim($, bankrupt);
        return _score($.clearingHouse, c, bankrupt, candidate, _indexPrice($.clearingHouse));
    }

    /// @inheritdoc ILiquidationEngine
    function setParams(uint256 bountyBps, uint256 maxBountyUsdc, uint256 dustNotionalUsdc) external restricted {
        _setParams(_getLiquidationEngineStorage(), bountyBps, maxBountyUsdc, dustNotionalUsdc);
    }

    function _setParams(
        LiquidationEngineStorage storage $,
        uint256 bountyBps,
        uint256 maxBountyUsdc,
        uint256 dustNotionalUsdc
    ) private {
        if (bountyBps > MAX_BOUNTY_BPS || maxBountyUsdc > type(uint40).max || dustNotionalUsdc > type(uint40).max) {
            revert LiquidationInvalidParams();
        }
        $.bountyBps = uint16(bountyBps);
        $.maxBountyUsdc = uint40(maxBountyUsdc);
        $.dustNotionalUsdc = uint40(dustNotionalUsdc);
        emit LiquidationParamsSet(bountyBps, maxBountyUsdc, dustNotionalUsdc);
    }

    /// @inheritdoc ILiquidationEngine
    function isLiquidatable(
        address account
    ) external view returns (bool liquidatable, int256 equityUsdc, uint256 maintenanceMarginUsdc) {
        IClearingHouse.MarginState memory s = _getLiquidationEngineStorage().clearingHouse.marginState(account);
        return (s.equityUsdc < int256(s.maintenanceMarginUsdc), s.equityUsdc, s.maintenanceMarginUsdc);
    }

    /// @inheritdoc ILiquidationEngine
    function params() external view returns (uint256 bountyBps, uint256 maxBountyUsdc, uint256 dustNotionalUsdc) {
        LiquidationEngineStorage storage $ = _getLiquidationEngineStorage();
        return ($.bountyBps, $.maxBountyUsdc, $.dustNotionalUsdc);
    }

    /// @notice The ClearingHouse this engine liquidates in.
    /// @return The address.
    function clearingHouse() external view returns (address) {
        return address(_getLiquidationEngineStorage().clearingHouse);
    }
}
