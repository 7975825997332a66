// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {IPerpMarket, IPerpMarketErrors, IPerpMarketEvents} from "../../interfaces/markets/IPerpMarket.sol";
import {PerpMath} from "../PerpMath.sol";
import {PerpTrading} from "../PerpTrading.sol";
import {FixedPointMath} from "../math/FixedPointMath.sol";

/// @title PerpFunding
/// @notice PerpMarket's funding paths off the fill: the keeper's poke, settling one account and the liquidation hook's
///         bookkeeping. An external library run by delegatecall in PerpMarket's context (linked at deploy) on a storage
///         pointer to the market's `PerpTrading.Market`; it emits the market's events. The model (velocity, index,
///         offset) is PerpMath.accrue and docs/perps.md; the fill's own accrual and the funding term of `accountRisk`
///         stay in PerpTrading (warm inside a fill).
library PerpFunding {
    using SafeCast for int256;

    /// @notice The funding index and rate accrued to now at `price` (external: one copy of the model, in here).
    function accrued(
        PerpTrading.Market storage m,
        IPerpMarket.PerpParams storage p,
        uint256 price
    ) external view returns (int256 indexWad, int256 rateWad) {
        return PerpTrading.accrue(m, p, price);
    }

    /// @notice Accrues the stored funding to now at `price` and writes it.
    function accrueStored(
        PerpTrading.Market storage m,
        IPerpMarket.PerpParams storage p,
        uint256 price
    ) public returns (int256 indexWad, int256 rateWad) {
        (indexWad, rateWad) = PerpTrading.accrue(m, p, price);
        PerpTrading.storeFunding(m, indexWad, rateWad, m.funding.keeperOwedUsdc);
    }

    /// @notice The funding poke (IPerpMarket.pokeFunding): accrues the stored funding to now at `price` when it is at
    ///         least `pokeIntervalSec` old (else PerpAlreadyDone, before any oracle read) and credits `keeper` the bounty while positions are
    ///         open; emits FundingPoked.
    /// @return bounty The bounty credited.
    function poke(
        PerpTrading.Market storage m,
        IPerpMarket.PerpParams storage p,
        mapping(address => uint256) storage keeperBounty,
        IComputePriceOracle oracle,
        address keeper
    ) external returns (uint256 bounty) {
        PerpTrading.Funding memory f = m.funding;
        uint256 interval = p.pokeIntervalSec;
        if (block.timestamp < f.lastTime + interval) {
            revert IPerpMarketErrors.PerpAlreadyDone(f.lastTime, f.lastTime + interval);
        }
        uint256 price = oracle.indexPrice();
        (int256 index, int256 rate) = PerpTrading.accrue(m, p, price);
        PerpTrading.OpenInterest memory oi = m.oi;
        // @dev no open interest, no funding to keep current: no bounty (an empty market must not owe keepers
        //      before LPs have funded it, which would leave the vault's equity negative and block deposits)
        bounty = oi.longCh == 0 && oi.shortCh == 0 ? 0 : p.pokeBountyUsdc;
        uint256 owedAfter = uint256(f.keeperOwedUsdc) + bounty;
        // @dev the bounty stops (never reverts) if unclaimed bounties ever reached the packed field's range
        if (owedAfter > type(uint40).max) {
            bounty = 0;
            owedAfter = f.keeperOwedUsdc;
        }
        PerpTrading.storeFunding(m, index, rate, owedAfter);
        if (bounty > 0) keeperBounty[keeper] += bounty;
        emit IPerpMarketEvents.FundingPoked(keeper, index, rate, price, bounty);
    }

    /// @notice Settles `account`'s funding and pending funding through ClearingHouse.settle (IPerpMarket
    ///         .settleFunding); emits FundingSettled.
    function settleFunding(
        PerpTrading.Market storage m,
        IPerpMarket.PerpParams storage p,
        IClearingHouse clearingHouse,
        address account,
        uint256 price
    ) external returns (int256 fundingUsdc) {
        (int256 index, ) = accrueStored(m, p, price);
        PerpTrading.Account storage a = m.accounts[account];
        int256 size = a.sizeCh;
        int256 snap = a.snapshotWad;
        int256 owed = PerpMath.fundingOwedUsdc(size, snap, index);
        int256 offsetDelta = (size * index) / PerpMath.WAD - (size * snap) / PerpMath.WAD;
        if (a.hasPending) {
            int256 pending = m.pendingFunding[account];
            owed += pending;
            offsetDelta += pending * 1e12;
            delete m.pendingFunding[account];
            a.hasPending = false;
        }
        if (owed == 0 && offsetDelta == 0) revert IPerpMarketErrors.PerpNothingToSettle(account);
        a.snapshotWad = int112(index);
        PerpTrading.Aggregates storage g = m.agg;
        g.fundingOffsetWad = (g.fundingOffsetWad + offsetDelta).toInt128();
        fundingUsdc = -owed;
        emit IPerpMarketEvents.FundingSettled(account, fundingUsdc, index);
        if (fundingUsdc != 0) clearingHouse.settle(account, fundingUsdc);
    }

    /// @notice The liquidation hook's bookkeeping (ILiquidatableMarket.onPositionLiquidated): funding accrued at the
    ///         liquidation price, the account's unsettled funding carried as pending funding, its size mirror, open
    ///         interest (saturating) and Σ cost basis; emits PerpLiquidated. Never reverts on bounded values and
    ///         never calls the ClearingHouse.
    function onLiquidated(
        PerpTrading.Market storage m,
        IPerpMarket.PerpParams storage p,
        address account,
        int256 sizeDeltaCh,
        uint256 priceWad,
        int256 realisedPnlUsdc
    ) external {
        (int256 index, int256 rate) = accrueStored(m, p, priceWad);
        PerpTrading.Account memory a = m.accounts[account];
        int256 oldSize = a.sizeCh;
        int256 newSize = oldSize + sizeDeltaCh;
        int256 owed = PerpMath.fundingOwedUsdc(oldSize, a.snapshotWad, index);
        int256 pending = m.pendingFunding[account] + owed;
        m.pendingFunding[account] = pending;
        m.accounts[account] = PerpTrading.Account(int128(newSize), int112(index), pending != 0);
        // @dev the account's offset contribution changes from size·snapshot to size′·index − owed
        m.agg.fundingOffsetWad += int128(
            (newSize * index) / PerpMath.WAD - (oldSize * a.snapshotWad) / PerpMath.WAD - owed * 1e12
        );
        PerpTrading.OpenInterest memory oi = m.oi;
        uint256 closedCh = FixedPointMath.abs(sizeDeltaCh);
        if (oldSize > 0) oi.longCh = oi.longCh > closedCh ? uint96(oi.longCh - closedCh) : 0;
        else oi.shortCh = oi.shortCh > closedCh ? uint96(oi.shortCh - closedCh) : 0;
        m.oi = oi;
        m.agg.sumOpenNotionalUsdc += int128(
            PerpTrading.openNotionalDelta(oldSize, sizeDeltaCh, priceWad, realisedPnlUsdc)
        );
        emit IPerpMarketEvents.PerpLiquidated(
            account,
            sizeDeltaCh,
            priceWad,
            newSize,
            pending,
            index,
            rate,
            oi.longCh,
            oi.shortCh
        );
    }
}
