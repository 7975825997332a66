// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IPerpMarket} from "../../interfaces/markets/IPerpMarket.sol";
import {ClearingMath} from "../ClearingMath.sol";
import {PerpMath} from "../PerpMath.sol";
import {PerpTrading} from "../PerpTrading.sol";
import {FixedPointMath} from "../math/FixedPointMath.sol";

/// @title PerpLpClaims
/// @notice The LiquidityVault's claim on PerpMarket's PnL pool (IVaultMarket): vault equity and what may return to the
///         vault, O(1) from the market's aggregates (MKT-03). An external library run by delegatecall in PerpMarket's
///         context (linked at deploy) on a storage pointer to the market's `PerpTrading.Market`; off the trade path.
library PerpLpClaims {
    uint256 internal constant BPS = 10_000;

    /// @notice The vault's claim on the market: pool − reserves − traders' unrealised PnL + their funding debt
    ///         (IVaultMarket.vaultEquityUsdc).
    /// @param reservedUsdc Pool money that is not LP capital (burn reserve, bounties, order fees).
    function vaultEquity(
        PerpTrading.Market storage m,
        IPerpMarket.PerpParams storage p,
        uint256 price,
        int256 pool,
        int256 reservedUsdc
    ) external view returns (int256) {
        (int256 unrealised, int256 fundingDebt, ) = _traderClaims(m, p, price);
        return pool - reservedUsdc - unrealised + fundingDebt;
    }

    /// @notice What the vault may take back now (IVaultMarket.withdrawableToVaultUsdc): the pool less reserves, the
    ///         traders' net claim, lpReserveBps of the gross notional and, while positions are open, a runway of poke
    ///         bounties.
    function withdrawable(
        PerpTrading.Market storage m,
        IPerpMarket.PerpParams storage p,
        uint256 price,
        int256 pool,
        int256 reservedUsdc
    ) external view returns (uint256) {
        (int256 unrealised, int256 fundingDebt, uint256 gross) = _traderClaims(m, p, price);
        int256 owedToTraders = unrealised - fundingDebt;
        if (owedToTraders < 0) owedToTraders = 0;
        int256 buffer = int256((gross * p.lpReserveBps + BPS - 1) / BPS);
        // @dev pokes pay bounties only while positions are open: then keep a runway of them in the pool
        if (gross != 0) {
            uint256 interval = p.pokeIntervalSec;
            buffer += int256(uint256(p.pokeBountyUsdc) * ((PerpTrading.BOUNTY_RUNWAY_SEC + interval - 1) / interval));
        }
        int256 free = pool - reservedUsdc - owedToTraders - buffer;
        return free > 0 ? uint256(free) : 0;
    }

    /// @dev Traders' net unrealised PnL (rounded up: against LPs) and their funding debt to the pool accrued to now
    ///      (rounded down), both O(1) from the aggregates. Positions are valued at what closing them all would pay:
    ///      the price impact is path-independent, so moving the skew from `net` to 0 pays
    ///      net · index + index · net² / (2 · skewScale) in any order of closes. Valuing at the bare index would
    ///      count the premium traders paid to open as LP equity until they close and take it back (issue 17 item 2:
    ///      an LP opening skew, redeeming at the inflated price, then closing).
    function _traderClaims(
        PerpTrading.Market storage m,
        IPerpMarket.PerpParams storage p,
        uint256 price
    ) private view returns (int256 unrealisedUsdc, int256 fundingDebtUsdc, uint256 grossNotionalUsdc) {
        PerpTrading.OpenInterest memory oi = m.oi;
        int256 net = int256(uint256(oi.longCh)) - int256(uint256(oi.shortCh));
        PerpTrading.Aggregates memory g = m.agg;
        uint256 absNet = FixedPointMath.abs(net);
        // @dev the impact term is ≥ 0 whatever the side and rounds up (traders' claim, against LPs)
        uint256 impactUsdc = Math.mulDiv(price, absNet * absNet, 2e30 * uint256(p.skewScaleCh), Math.Rounding.Ceil);
        unrealisedUsdc = ClearingMath.valueUsdcUp(net, price) + int256(impactUsdc) - g.sumOpenNotionalUsdc;
        (int256 index, ) = PerpTrading.accrue(m, p, price);
        fundingDebtUsdc = FixedPointMath.divDown((net * index) / PerpMath.WAD - g.fundingOffsetWad, 1e12);
        grossNotionalUsdc = ClearingMath.notionalUsdcUp(uint256(oi.longCh) + uint256(oi.shortCh), price);
    }
}
