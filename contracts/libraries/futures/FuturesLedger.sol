// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {FuturesBase} from "../../core/markets/futures/FuturesBase.sol";
import {FuturesRisk} from "../../core/markets/futures/FuturesRisk.sol";
import {IFuturesTypes} from "../../interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../interfaces/markets/IFuturesEvents.sol";
import {FuturesMath} from "../FuturesMath.sol";
import {SeriesSet} from "../../types/SeriesId.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {FixedPointMath} from "../math/FixedPointMath.sol";

/// @title FuturesLedger
/// @notice The FuturesMarket's shared bookkeeping on its storage (internal: inlined into the market, its
///         FuturesDelivery module and the futures libraries): series lookups, open interest, account records,
///         leg reductions, bounties, the traders' cost-basis mirror and the vault's withdrawable amount.
library FuturesLedger {
    using SafeCast for uint256;
    using SafeCast for int256;

    /// @dev Most series one account may hold unsettled positions in per expiry bucket
    ///      (FuturesMarket.MAX_SERIES_PER_ACCOUNT = SeriesSetLib.CAPACITY); the number of buckets is not bounded.
    uint256 internal constant MAX_SERIES_PER_ACCOUNT = 8;
    /// @dev Width of an expiry bucket: a leg expiring at `e` sits in bucket `e / BUCKET_SEC`.
    uint256 internal constant BUCKET_SEC = 28 days;
    /// @dev The margin check walks the account's legs in buckets up to `(now + NEAR_SEC) / BUCKET_SEC` one by one
    ///      (expiring, price-fixed, in delivery) and values every further leg from the account aggregates.
    uint256 internal constant NEAR_SEC = 14 days;
    /// @dev Most accounts one `settlePositions` call settles (keeps a batch far below the 16,777,216 gas cap).
    uint256 internal constant MAX_SETTLE_BATCH = 64;
    uint256 internal constant BPS = 10_000;
    uint256 internal constant WAD = 1e18;
    /// @dev Most live series (bounds `maxLiveSeries` and the keeper scan): 32, so a hedger's twelve monthlies, four
    ///      quarterlies and the next weekly and daily fit with room (24 open series per account, issue 19 item 3).
    uint256 internal constant SERIES_SCAN = 32;
    /// @dev How far ahead Monthly and Quarterly series may be listed permissionlessly (a hedger's twelve months).
    uint256 internal constant STANDARD_HORIZON_SEC = 366 days;
    /// @dev Most monthly expiries the keeper checker keeps listed ahead.
    uint256 internal constant MAX_KEEPER_LISTING_MONTHS = 12;

    /// @dev An account's aggregates over all its open legs, kept exact on every size and election change
    ///      (`syncLeg`), so the margin check values the legs beyond the near buckets in O(1). The sizes, the record
    ///      count, the lowest bitmap word and the lowest expiry share one slot (the one a fill writes); the elections,
    ///      the margin its pending orders hold and the liquidation corrections owed share a second (round 35: the
    ///      risk hook reads two slots for all three, docs/gas.md).
    struct AccountBook {
        uint96 longCh; // Σ long sizes (≤ 7.9e10 CH, far above any OI cap)
        uint96 shortCh; // Σ |short sizes|
        uint16 legs; // open records (≤ 32 live series + unsettled expired ones; the CH releases the account at 0)
        uint16 lowWord; // lowest bitmap word that may hold one of its buckets (lowered on insert, reset when empty)
        // A lower bound on the expiries of its open legs: lowered on insert (clamped to uint32), reset when empty,
        // never raised on a close. While it is in the future no leg has expired, so none is price-fixed or in delivery.
        uint32 minExpiry;
        uint128 electedCh; // Σ elections
        uint64 orderMarginUsdc; // initial margin its pending orders hold (escrowed; was a mapping of its own)
        int64 liquidationCashUsdc; // settlement-price corrections owed (+) or by (−) it (was a mapping of its own)
    }

    function existing(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId
    ) internal view returns (IFuturesTypes.SeriesState storage s) {
        s = $.series[seriesId];
        if (s.expiry == 0) revert IFuturesErrors.FuturesSeriesUnknown(seriesId);
    }

    function trading(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId
    ) internal view returns (IFuturesTypes.SeriesState storage s) {
        s = existing($, seriesId);
        if (block.timestamp >= s.expiry) revert IFuturesErrors.FuturesSeriesNotTrading(seriesId, s.expiry);
    }

    function cutoff(FuturesBase.FuturesMarketStorage storage $, uint64 expiry) internal view returns (uint64) {
        uint64 c = $.params.electionCutoffSec;
        return expiry > c ? expiry - c : 0;
    }

    function isIncrease(int256 oldSize, int256 newSize) internal pure returns (bool) {
        return
            FixedPointMath.abs(newSize) > FixedPointMath.abs(oldSize) ||
            (oldSize != 0 && newSize != 0 && (oldSize > 0) != (newSize > 0));
    }

    /// @dev |short size| the position must deliver against: its size, or the size it had at expiry when a
    ///      post-expiry liquidation reduced it.
    function shortBase(IFuturesTypes.Position storage p) internal view returns (uint256) {
        if (p.baseTaken) return p.deliveryBaseCh;
        int256 size = p.sizeCh;
        return size < 0 ? uint256(-size) : 0;
    }

    /// @dev Σ leg sizes of the account (= its ClearingHouse net position): O(1) from its aggregates.
    function netSize(FuturesBase.FuturesMarketStorage storage $, address account) internal view returns (int256) {
        AccountBook storage b = $.accountBooks[account];
        return int256(uint256(b.longCh)) - int256(uint256(b.shortCh));
    }

    /// @dev Moves one leg's size and election in the account aggregates (call on every change of either).
    function syncLeg(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        int256 oldSize,
        int256 newSize,
        uint256 oldElected,
        uint256 newElected
    ) internal {
        AccountBook storage b = $.accountBooks[account];
        if (oldSize != newSize) {
            uint256 longs = b.longCh;
            uint256 shorts = b.shortCh;
            if (oldSize > 0) longs -= uint256(oldSize);
            else shorts -= uint256(-oldSize);
            if (newSize > 0) longs += uint256(newSize);
            else shorts += uint256(-newSize);
            b.longCh = longs.toUint96();
            b.shortCh = shorts.toUint96();
        }
        if (oldElected != newElected) b.electedCh = (uint256(b.electedCh) + newElected - oldElected).toUint128();
    }

    /// @dev Moves the initial margin `account`'s pending orders hold by `delta` (AccountBook.orderMarginUsdc).
    function moveOrderMargin(FuturesBase.FuturesMarketStorage storage $, address account, int256 delta) internal {
        AccountBook storage b = $.accountBooks[account];
        b.orderMarginUsdc = (int256(uint256(b.orderMarginUsdc)) + delta).toUint256().toUint64();
    }

    /// @dev Adds a settlement-price correction owed to (+) or by (−) `account` (AccountBook.liquidationCashUsdc).
    function addLiquidationCash(FuturesBase.FuturesMarketStorage storage $, address account, int256 delta) internal {
        AccountBook storage b = $.accountBooks[account];
        b.liquidationCashUsdc = (int256(b.liquidationCashUsdc) + delta).toInt64();
    }

    /// @dev Takes the settlement-price corrections owed to (+) or by (−) `account` (zeroes them).
    function takeLiquidationCash(
        FuturesBase.FuturesMarketStorage storage $,
        address account
    ) internal returns (int256 owed) {
        AccountBook storage b = $.accountBooks[account];
        owed = b.liquidationCashUsdc;
        if (owed != 0) b.liquidationCashUsdc = 0;
    }

    /// @dev The expiry bucket of a series expiring at `expiry`.
    function bucketOf(uint256 expiry) internal pure returns (uint256) {
        return expiry / BUCKET_SEC;
    }

    /// @dev The last bucket the margin check walks leg by leg now.
    function nearBucket() internal view returns (uint256) {
        return (block.timestamp + NEAR_SEC) / BUCKET_SEC;
    }

    /// @dev The account's series in buckets ≤ `lastBucket`, in ascending bucket order (within a bucket in the
    ///      order it opened them). Reads one bitmap word per 256 buckets from its lowest and one slot per bucket
    ///      held; stops once every leg is found.
    function heldUpTo(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 lastBucket
    ) internal view returns (uint256[] memory ids) {
        AccountBook storage b = $.accountBooks[account];
        uint256 legs = b.legs;
        ids = new uint256[](legs);
        uint256 n;
        uint256 lastWord = lastBucket >> 8;
        for (uint256 w = b.lowWord; n < legs && w <= lastWord; ++w) {
            uint256 bits = $.accountBucketBits[account][w];
            if (w == lastWord && (lastBucket & 255) != 255) bits &= (uint256(1) << ((lastBucket & 255) + 1)) - 1;
            while (bits != 0) {
                uint256 low = bits & (~bits + 1);
                bits ^= low;
                SeriesSet set = $.accountBuckets[account][(w << 8) | Math.log2(low)];
                uint256 k = set.length();
                for (uint256 i; i < k; ++i) ids[n++] = set.at(i);
            }
        }
        assembly ("memory-safe") {
            mstore(ids, n)
        }
    }

    /// @dev Every series the account holds an open record in, in ascending expiry bucket.
    function heldSeries(
        FuturesBase.FuturesMarketStorage storage $,
        address account
    ) internal view returns (uint256[] memory) {
        return heldUpTo($, account, type(uint256).max);
    }

    /// @dev Σ long and Σ |short| of the account's legs whose settlement price is not fixed: the aggregates minus the
    ///      price-fixed legs, which are expired and so sit in buckets up to the current one (walked).
    function liveSums(
        FuturesBase.FuturesMarketStorage storage $,
        address account
    ) internal view returns (uint256 longs, uint256 shorts) {
        AccountBook storage b = $.accountBooks[account];
        longs = b.longCh;
        shorts = b.shortCh;
        // no leg expired yet (the book's lower bound on expiries is ahead): none is price-fixed, nothing to walk
        if (b.minExpiry > block.timestamp) return (longs, shorts);
        uint256[] memory ids = heldUpTo($, account, bucketOf(block.timestamp));
        for (uint256 i; i < ids.length; ++i) {
            if ($.series[ids[i]].finalAt == 0) continue;
            int256 size = $.positions[ids[i]][account].sizeCh;
            if (size > 0) longs -= uint256(size);
            else shorts -= uint256(-size);
        }
    }

    /// @dev How much a fill of `delta` on `seriesId` grows the margined size max(Σ live longs, Σ live shorts) of the
    ///      account (= |net| + the matched calendar-spread legs, what the ClearingHouse and FuturesRisk margin).
    ///      O(near buckets), not O(series held).
    function marginedGrowthCh(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 seriesId,
        int256 delta
    ) internal view returns (uint256) {
        (uint256 longs, uint256 shorts) = liveSums($, account);
        uint256 before = longs > shorts ? longs : shorts;
        int256 oldSize = $.positions[seriesId][account].sizeCh;
        int256 newSize = oldSize + delta;
        if (oldSize > 0) longs -= uint256(oldSize);
        else shorts -= uint256(-oldSize);
        if (newSize > 0) longs += uint256(newSize);
        else shorts += uint256(-newSize);
        uint256 afterCh = longs > shorts ? longs : shorts;
        return afterCh > before ? afterCh - before : 0;
    }

    /// @dev Whether the account can open a record in `seriesId` now (its bucket has room or already holds it).
    function hasRoom(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 seriesId
    ) internal view returns (bool) {
        if ($.positions[seriesId][account].open) return true;
        return $.accountBuckets[account][bucketOf($.series[seriesId].expiry)].length() < MAX_SERIES_PER_ACCOUNT;
    }

    function moveOi(
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId,
        int256 oldSize,
        int256 newSize,
        bool checkCap
    ) internal {
        uint256 longOi = s.longOiCh;
        uint256 shortOi = s.shortOiCh;
        if (oldSize > 0) longOi -= uint256(oldSize);
        else shortOi -= uint256(-oldSize);
        if (newSize > 0) longOi += uint256(newSize);
        else shortOi += uint256(-newSize);
        if (checkCap) {
            uint256 cap = s.oiCapCh;
            if (newSize > 0 && newSize > oldSize && longOi > cap)
                revert IFuturesErrors.FuturesOiCapExceeded(seriesId, longOi, cap);
            if (newSize < 0 && newSize < oldSize && shortOi > cap)
                revert IFuturesErrors.FuturesOiCapExceeded(seriesId, shortOi, cap);
        }
        s.longOiCh = longOi.toUint120();
        s.shortOiCh = shortOi.toUint120();
    }

    function shortCount(IFuturesTypes.SeriesState storage s, int256 oldSize, int256 newSize) internal {
        if ((oldSize < 0) == (newSize < 0)) return;
        if (newSize < 0) s.shortPositions += 1;
        else s.shortPositions -= 1;
    }

    function openRecord(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId,
        address account,
        IFuturesTypes.Position storage p
    ) internal {
        if (p.open || p.sizeCh == 0) return;
        _addToBucket($, account, seriesId, s.expiry);
        p.open = true;
        s.openPositions += 1;
        if (!p.listed) {
            p.listed = true;
            // @dev the length sits in the series' first word, which the count above just wrote
            uint256 n = s.accounts;
            if (n == type(uint32).max) revert IFuturesErrors.FuturesSeriesAccountsFull(seriesId, n);
            $.seriesAccountAt[seriesId][n] = account;
            s.accounts = uint32(n + 1);
        }
    }

    /// @dev Before expiry a record with no size, escrow or election closes; after expiry only settlement closes it.
    function closeRecordIfEmpty(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId,
        address account,
        IFuturesTypes.Position storage p
    ) internal {
        if (!p.open || p.sizeCh != 0 || p.escrowCh != 0 || p.electedCh != 0 || block.timestamp >= s.expiry) return;
        p.open = false;
        p.proofDeadline = 0;
        s.openPositions -= 1;
        removeAccountSeries($, account, seriesId);
    }

    function _addToBucket(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 seriesId,
        uint256 expiry
    ) private {
        uint256 bucket = bucketOf(expiry);
        SeriesSet set = $.accountBuckets[account][bucket];
        uint256 n = set.length();
        if (n >= MAX_SERIES_PER_ACCOUNT) revert IFuturesErrors.FuturesTooManySeries(account, MAX_SERIES_PER_ACCOUNT);
        if (seriesId > type(uint32).max) revert IFuturesErrors.FuturesSeriesUnknown(seriesId);
        $.accountBuckets[account][bucket] = set.pushAt(n, seriesId);
        uint256 word = bucket >> 8;
        if (n == 0) $.accountBucketBits[account][word] |= uint256(1) << (bucket & 255);
        AccountBook storage b = $.accountBooks[account];
        uint256 legs = b.legs;
        uint256 e = expiry < type(uint32).max ? expiry : type(uint32).max; // clamped down: still a lower bound
        if (legs == 0 || word < b.lowWord) b.lowWord = word.toUint16();
        if (legs == 0 || e < b.minExpiry) b.minExpiry = uint32(e);
        b.legs = (legs + 1).toUint16();
    }

    /// @dev Drops the series from the account's bucket; the last leg gone, the ClearingHouse stops holding the account
    ///      in this market (it leaves the set once its net position is zero: `releaseAccount`).
    function removeAccountSeries(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 seriesId
    ) internal {
        uint256 bucket = bucketOf($.series[seriesId].expiry);
        (SeriesSet rest, uint256 n, bool found) = $.accountBuckets[account][bucket].remove(seriesId);
        if (!found) return;
        $.accountBuckets[account][bucket] = rest;
        if (n == 1) $.accountBucketBits[account][bucket >> 8] &= ~(uint256(1) << (bucket & 255));
        AccountBook storage b = $.accountBooks[account];
        uint256 legs = b.legs - 1;
        b.legs = uint16(legs);
        if (legs == 0) $.clearingHouse.releaseAccount(account);
    }

    function creditBounty(FuturesBase.FuturesMarketStorage storage $, address keeper, uint256 amountUsdc) internal {
        if (amountUsdc == 0) return;
        uint256 owed = $.bountiesOwedUsdc[keeper] + amountUsdc;
        $.bountiesOwedUsdc[keeper] = owed;
        $.totalBountiesOwedUsdc += amountUsdc;
        emit IFuturesEvents.BountyCredited(keeper, amountUsdc, owed);
    }

    /// @dev Moves the keeper scan start past fully settled series (bounded steps).
    function advanceFirstOpen(FuturesBase.FuturesMarketStorage storage $) internal {
        uint256 first = $.firstOpenSeries;
        uint256 count = $.seriesCount;
        for (uint256 k; k < 8 && first <= count; ++k) {
            IFuturesTypes.SeriesState storage s = $.series[first];
            if (s.deliveryDeadline == 0 || s.openPositions != 0) break;
            ++first;
        }
        $.firstOpenSeries = uint64(first);
    }

    /// @dev Moves the series' settle cursor past settled or closed accounts (bounded steps; cursor ≤ length).
    function advanceCursor(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId
    ) internal {
        mapping(uint256 => address) storage accounts = $.seriesAccountAt[seriesId];
        uint256 c = s.settleCursor;
        uint256 start = c;
        uint256 n = s.accounts;
        for (uint256 k; k < MAX_SETTLE_BATCH && c < n && !$.positions[seriesId][accounts[c]].open; ++k) ++c;
        if (c != start) s.settleCursor = c.toUint32();
    }
    /// @dev Reduces one leg outside a trade (the vault takes the size): OI, short count, election cap before the
    ///      cut-off, delivery base after expiry. No ClearingHouse call (the caller does it, or it was done).
    function reduceLeg(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId,
        address account,
        IFuturesTypes.Position storage p,
        int256 delta,
        uint256 priceWad,
        IFuturesTypes.ReduceReason reason
    ) internal {
        int256 oldSize = p.sizeCh;
        int256 newSize = oldSize + delta;
        uint256 oldElected = p.electedCh;
        bool expired = block.timestamp >= s.expiry;
        if (expired) {
            if (oldSize < 0) {
                if (!p.baseTaken) {
                    p.baseTaken = true;
                    p.deliveryBaseCh = uint128(uint256(-oldSize));
                }
                if (s.finalAt == 0) s.postExpiryShortCh += uint128(uint256(delta));
            }
        } else {
            shortCount(s, oldSize, newSize);
        }
        // A forced reduction (liquidation, flattening) caps the election until the series is finalised, after the
        // cut-off too: it only lowers shorts' assignments, and it releases the payment the election holds (MKT-08).
        uint256 longSize = newSize > 0 ? uint256(newSize) : 0;
        if (p.electedCh > longSize && s.deliveryDeadline == 0) {
            s.electedCh -= p.electedCh - uint128(longSize);
            p.electedCh = uint128(longSize);
        }
        p.sizeCh = int120(newSize); // @dev |newSize| ≤ |oldSize|: a reduction, it fits
        if (newSize == 0) p.entryPriceWad = 0;
        if (oldSize > 0) s.longOiCh -= uint256(-delta).toUint120();
        else s.shortOiCh -= uint256(delta).toUint120();
        syncLeg($, account, oldSize, newSize, oldElected, p.electedCh);
        emitReduced(s, p, seriesId, account, delta, priceWad, reason);
    }

    function emitReduced(
        IFuturesTypes.SeriesState storage s,
        IFuturesTypes.Position storage p,
        uint256 seriesId,
        address account,
        int256 delta,
        uint256 priceWad,
        IFuturesTypes.ReduceReason reason
    ) internal {
        emit IFuturesEvents.PositionReduced(
            seriesId,
            account,
            delta,
            priceWad,
            p.sizeCh,
            p.electedCh,
            s.longOiCh,
            s.shortOiCh,
            reason
        );
    }

    /// @dev A short's assignment: ceil(base × min(elected, assignable) / assignable).
    function assignedOf(IFuturesTypes.SeriesState storage s, uint256 baseCh) internal view returns (uint256) {
        uint256 elected = s.electedCh;
        uint256 assignable = s.assignableShortCh;
        return FuturesMath.assignment(baseCh, elected < assignable ? elected : assignable, assignable);
    }

    /// @dev Mirrors the ClearingHouse's cost-basis change of one fill: Δbasis = Δsize × price + realised PnL
    ///      (exact up to 1 wei of rounding per fill).
    function mirror(FuturesBase.FuturesMarketStorage storage $, int256 delta, uint256 price, int256 realised) internal {
        $.traderNetSizeCh = (int256($.traderNetSizeCh) + delta).toInt128();
        $.traderOpenNotionalUsdc = (int256($.traderOpenNotionalUsdc) + FuturesMath.valueUp(delta, price) + realised)
            .toInt128();
    }

    function settleable(
        IFuturesTypes.SeriesState storage s,
        IFuturesTypes.Position storage p
    ) internal view returns (bool) {
        return FuturesRisk.settleable(s, p);
    }

    /// @dev Traders' unrealised PnL at the index against their ClearingHouse cost basis, rounded up (against LPs).
    function traderPnlUp(FuturesBase.FuturesMarketStorage storage $, uint256 index) internal view returns (int256) {
        return FuturesMath.valueUp($.traderNetSizeCh, index) - $.traderOpenNotionalUsdc;
    }

    /// @dev Pool money held for pending orders (their execution fees and escrowed margins) and unclaimed bounties:
    ///      not LP capital.
    function heldForOrders(FuturesBase.FuturesMarketStorage storage $) internal view returns (uint256) {
        return $.totalBountiesOwedUsdc + $.orders.feesUsdc + $.totalOrderMarginUsdc;
    }
}
