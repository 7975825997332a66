// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {ILiquidationEngine} from "../../interfaces/clearing/ILiquidationEngine.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IInsuranceFund} from "../../interfaces/clearing/IInsuranceFund.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {AggregatorV3Interface} from "@chainlink/contracts/src/v0.8/shared/interfaces/AggregatorV3Interface.sol";

/// @title LiquidationEngine
/// @notice Permissionless partial liquidation and the default waterfall. See ILiquidationEngine.
/// @dev The ClearingHouse accepts liquidationClose/absorbDeficit only from the engine set in its setModules; the
///      engine holds Roles.CLEARING for GuarantorPool.coverLoss and InsuranceFund.coverBadDebt. Reads the module addresses from the ClearingHouse on every call, so
///      a module swap there needs no second governance action here.
contract LiquidationEngine is ChxUpgradeable, ILiquidationEngine {
    uint256 internal constant WAD = 1e18;
    uint256 internal constant BPS = 10_000;
    uint256 internal constant MAX_BOUNTY_BPS = 1_000;

    /// @custom:storage-location erc7201:chx.storage.LiquidationEngine
    /// @dev One slot, read once per liquidation.
    struct LiquidationEngineStorage {
        IClearingHouse clearingHouse;
        uint16 bountyBps;
        uint40 maxBountyUsdc;
        uint40 dustNotionalUsdc;
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
        LiquidationEngineStorage memory $ = _getLiquidationEngineStorage();
        IClearingHouse ch = $.clearingHouse;
        // ORC-02: one price read for the whole liquidation, passed back to the ClearingHouse.
        (IClearingHouse.MarginState memory s, uint256 priceWad) = ch.liquidationState(account);
        if (s.equityUsdc >= int256(s.maintenanceMarginUsdc)) {
            revert LiquidationAccountHealthy(account, s.equityUsdc, s.maintenanceMarginUsdc);
        }
        (address oracle, address pool, address fund) = ch.liquidationModules();
        // A solvent account gets the sequencer grace period to top up; an insolvent one is liquidated at once.
        if (s.equityUsdc >= 0) _checkSequencerGrace(oracle, account, s.equityUsdc);
        int256 collateral = s.collateralUsdc;
        uint256 positionsLeft;
        if (s.positionCount > 0) {
            (fractionWad, collateral, positionsLeft, bountyUsdc) = _close($, ch, account, s, priceWad);
        }
        if (positionsLeft == 0 && collateral < 0) {
            collateral = _waterfall(ch, IGuarantorPool(pool), IInsuranceFund(fund), account, uint256(-collateral));
        }
        emit AccountLiquidated(account, msg.sender, fractionWad, priceWad, bountyUsdc, collateral, positionsLeft);
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
        LiquidationEngineStorage memory $,
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

    /// @dev LIQ-03: guarantor capital, then the insurance fund, then socialised; each layer pays at most the
    ///      remaining deficit and at most what it holds.
    function _waterfall(
        IClearingHouse ch,
        IGuarantorPool pool,
        IInsuranceFund fund,
        address account,
        uint256 deficit
    ) private returns (int256) {
        uint256 fromGuarantor = pool.coverLoss(account, deficit, address(ch));
        uint256 remaining = deficit - Math.min(fromGuarantor, deficit);
        uint256 fromInsurance;
        if (remaining > 0 && address(fund) != address(0)) {
            fromInsurance = fund.coverBadDebt(remaining, address(ch));
        }
        uint256 socialised = ch.absorbDeficit(account, fromGuarantor, fromInsurance);
        // The collateral absorbDeficit leaves, computed here instead of read back: an over-payment stays with the
        // account; a deficit left after both layers is socialised (0) or, with no absorber market, stays negative.
        uint256 paid = fromGuarantor + fromInsurance;
        if (paid >= deficit) return int256(paid - deficit);
        return socialised > 0 ? int256(0) : -int256(deficit - paid);
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
