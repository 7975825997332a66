// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IChxModule} from "../../interfaces/base/IChxModule.sol";
import {ISpotMarketErrors} from "../../interfaces/markets/ISpotMarketErrors.sol";
import {ISpotMarketEvents} from "../../interfaces/markets/ISpotMarketEvents.sol";
import {ISpotMarketConfigEvents} from "../../interfaces/markets/ISpotMarketConfigEvents.sol";
import {IInsuranceFund} from "../../interfaces/clearing/IInsuranceFund.sol";
import {SpotMath} from "../SpotMath.sol";
import {SpotLayout, SpotStorage} from "./SpotStorage.sol";

/// @title SpotAdmin
/// @notice The SpotMarket's governance setters and fee distribution: external library functions, run by
///         delegatecall in the market's storage (linked at deployment; docs/upgrades.md). Access control stays in
///         the market (`restricted` on each entry point); the library only checks bounds and writes.
library SpotAdmin {
    using SafeERC20 for IERC20;

    /// @notice Upper bound on maker and taker fees (1 %).
    uint256 internal constant MAX_FEE_BPS = 100;
    /// @notice Upper bound on a seat discount (90 % of the fee).
    uint256 internal constant MAX_SEAT_DISCOUNT_BPS = 9_000;
    /// @notice Number of seat tiers (they pack into one storage word).
    uint256 internal constant MAX_SEAT_TIERS = 4;
    /// @notice Upper bound on the seat unstake delay.
    uint256 internal constant MAX_UNSTAKE_DELAY = 30 days;
    /// @notice Bounds on the TWAP observation interval.
    uint256 internal constant MIN_OBSERVATION_INTERVAL = 1 minutes;
    uint256 internal constant MAX_OBSERVATION_INTERVAL = 1 days;

    /// @notice See ISpotMarket.setFees.
    function setFees(uint16 makerFeeBps, uint16 takerFeeBps, uint16 insuranceShareBps) public {
        if (makerFeeBps > MAX_FEE_BPS) revert ISpotMarketErrors.SpotBpsTooHigh(makerFeeBps, MAX_FEE_BPS);
        if (takerFeeBps > MAX_FEE_BPS) revert ISpotMarketErrors.SpotBpsTooHigh(takerFeeBps, MAX_FEE_BPS);
        if (insuranceShareBps > SpotMath.BPS) revert ISpotMarketErrors.SpotBpsTooHigh(insuranceShareBps, SpotMath.BPS);
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        $.makerFeeBps = makerFeeBps;
        $.takerFeeBps = takerFeeBps;
        $.insuranceShareBps = insuranceShareBps;
        emit ISpotMarketConfigEvents.FeesSet(makerFeeBps, takerFeeBps, insuranceShareBps);
    }

    /// @notice See ISpotMarket.setFeeRecipients.
    function setFeeRecipients(address treasury, address insuranceFund) public {
        if (treasury == address(0) || insuranceFund == address(0)) revert IChxModule.ChxZeroAddress();
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        $.treasury = treasury;
        $.insuranceFund = insuranceFund;
        emit ISpotMarketConfigEvents.FeeRecipientsSet(treasury, insuranceFund);
    }

    /// @notice See ISpotMarket.setSeatTiers.
    function setSeatTiers(uint256[] calldata minStakeDps, uint256[] calldata discountBps) external {
        uint256 n = minStakeDps.length;
        if (n > MAX_SEAT_TIERS || n != discountBps.length) revert ISpotMarketErrors.SpotInvalidSeatTiers();
        uint256 packed;
        for (uint256 i = 0; i < n; ++i) {
            uint256 whole = minStakeDps[i] / 1e18;
            if (whole * 1e18 != minStakeDps[i] || whole == 0 || whole > type(uint48).max) {
                revert ISpotMarketErrors.SpotInvalidSeatTiers();
            }
            if (discountBps[i] > MAX_SEAT_DISCOUNT_BPS) {
                revert ISpotMarketErrors.SpotBpsTooHigh(discountBps[i], MAX_SEAT_DISCOUNT_BPS);
            }
            if (i > 0 && (minStakeDps[i] <= minStakeDps[i - 1] || discountBps[i] < discountBps[i - 1])) {
                revert ISpotMarketErrors.SpotInvalidSeatTiers();
            }
            packed |= (whole | (discountBps[i] << 48)) << (64 * i);
        }
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        $.seatTiers = packed;
        // @dev mirrored into a word every fill reads anyway, so a market without tiers reads no tier word
        $.hasSeatTiers = packed != 0;
        emit ISpotMarketConfigEvents.SeatTiersSet(minStakeDps, discountBps);
    }

    /// @notice See ISpotMarket.setUnstakeDelay.
    function setUnstakeDelay(uint32 unstakeDelaySec) public {
        if (unstakeDelaySec > MAX_UNSTAKE_DELAY) {
            revert ISpotMarketErrors.SpotDurationOutOfBounds(unstakeDelaySec, 0, MAX_UNSTAKE_DELAY);
        }
        SpotStorage.layout().unstakeDelaySec = unstakeDelaySec;
        emit ISpotMarketConfigEvents.UnstakeDelaySet(unstakeDelaySec);
    }

    /// @notice See ISpotMarket.setTwapParams.
    function setTwapParams(uint32 observationIntervalSec, uint128 minAmountCh) public {
        if (observationIntervalSec < MIN_OBSERVATION_INTERVAL || observationIntervalSec > MAX_OBSERVATION_INTERVAL) {
            revert ISpotMarketErrors.SpotDurationOutOfBounds(
                observationIntervalSec,
                MIN_OBSERVATION_INTERVAL,
                MAX_OBSERVATION_INTERVAL
            );
        }
        if (minAmountCh > type(uint80).max) revert ISpotMarketErrors.SpotInvalidAmount(minAmountCh);
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        $.twap.intervalSec = observationIntervalSec;
        $.twapMinAmountCh = uint80(minAmountCh);
        emit ISpotMarketConfigEvents.TwapParamsSet(observationIntervalSec, minAmountCh);
    }

    /// @notice See ISpotMarket.distributeFees.
    function distributeFees() external returns (uint256 insuranceUsdc, uint256 treasuryUsdc) {
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        IERC20 usdc = $.usdc;
        // @dev the pending fee income is the market's USDC balance (ACC-01; SpotSettlement.accrue)
        uint256 pending = usdc.balanceOf(address(this));
        if (pending == 0) return (0, 0);
        address fund = $.insuranceFund;
        address treasury = $.treasury;
        // @dev the insurance share rounds down; the treasury takes the remainder, so the two sum to `pending`
        if (fund != treasury) insuranceUsdc = SpotMath.bpsDown(pending, $.insuranceShareBps);
        treasuryUsdc = pending - insuranceUsdc;
        emit ISpotMarketEvents.FeesDistributed(insuranceUsdc, treasuryUsdc);
        if (insuranceUsdc != 0) {
            usdc.forceApprove(fund, insuranceUsdc);
            IInsuranceFund(fund).depositFees(insuranceUsdc);
        }
        if (treasuryUsdc != 0) usdc.safeTransfer(treasury, treasuryUsdc);
    }

    /// @notice SpotMarket.initialize's defaults after its token checks (one library call): the fee recipients, fees
    ///         5 / 10 bps with a 20 % insurance share, a 7-day unstake delay, 10-minute TWAP observations, and word 1's
    ///         copy of `spot.trade` (a new proxy has no flag set).
    function initDefaults(address treasury, address insuranceFund) public {
        setFeeRecipients(treasury, insuranceFund);
        setFees(5, 10, 2_000);
        setUnstakeDelay(7 days);
        setTwapParams(10 minutes, 0);
        SpotStorage.layout().activeGates = SpotStorage.GATE_TRADE;
    }

    /// @notice SpotMarket.syncPauseMirror after its access check, and the market's pause hook: word 1's copy of
    ///         `spot.trade` set exactly when the flag is clear (read through isFeaturePaused, its one source).
    function syncPauseMirror() public {
        bool paused = IChxModule(address(this)).isFeaturePaused(SpotStorage.FEATURE_TRADE);
        SpotStorage.layout().activeGates = paused ? 0 : SpotStorage.GATE_TRADE;
    }
}
