// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {FuturesSolBase} from "../../helpers/FuturesSolBase.sol";
import {FuturesOrderSteps} from "../../helpers/FuturesOrderSteps.sol";
import {IFuturesTypes} from "../../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IMarketAccountRisk} from "../../../contracts/interfaces/callback/IMarketAccountRisk.sol";
import {FuturesMath} from "../../../contracts/libraries/FuturesMath.sol";

/// @notice The 24-series book the per-account aggregate tests share (SeriesAggregates.t.sol, RiskFastPath.t.sol): two
///         traders behind one guarantor, 24 series listed two weeks apart, and the leg-by-leg reference walk the
///         futures account-risk hook is checked against (CLR-01, MKT-08).
abstract contract SeriesLadderBase is FuturesSolBase {
    uint256 internal constant N = 24;
    uint256 internal constant BUCKET = 28 days;
    uint256 internal constant NEAR = 14 days;
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    uint256[] internal ids;

    function setUp() public virtual {
        _deployFutures();
        futures.setParams(_paramsLive(26));
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(alice, guarantor, 20_000e6);
        _setupTrader(bob, guarantor, 20_000e6);
        for (uint256 k; k < N; ++k) ids.push(futures.listSeries(uint64(block.timestamp + (k + 1) * 14 days), 0));
    }

    function _paramsLive(uint256 live) internal pure returns (IFuturesTypes.Params memory p) {
        p = _params();
        p.maxLiveSeries = uint8(live);
    }

    function _trade(address who, uint256 seriesId, int256 size) internal {
        FuturesOrderSteps.mustTrade(futures, who, seriesId, size);
    }

    function _risk(address who) internal view returns (int256 adj, uint256 im, uint256 mm) {
        return IMarketAccountRisk(address(futures)).accountRisk(who, PRICE0);
    }

    /// The leg-by-leg reference: the pre-issue-19 FuturesRisk walk over every series, except that a short in a
    /// series expiring beyond the near horizon owes no bond yet (docs/futures.md "Series per account: the bound").
    struct Ref {
        int256 net;
        uint256 liveLong;
        uint256 liveShort;
        uint256 farElected;
        uint256 nearBucket;
        uint256 penaltyBps;
    }

    function _refRisk(address who, uint256 price) internal view returns (int256 adj, uint256 im, uint256 mm) {
        Ref memory r;
        r.penaltyBps = futures.params().penaltyBps;
        r.nearBucket = (block.timestamp + NEAR) / BUCKET;
        for (uint256 k; k < ids.length; ++k) {
            (int256 a, uint256 bond) = _refLeg(who, ids[k], price, r);
            adj += a;
            im += bond;
            mm += bond;
        }
        if (r.farElected != 0) adj -= int256(FuturesMath.usdcUp(r.farElected, price));
        uint256 matched = r.liveLong < r.liveShort ? r.liveLong : r.liveShort;
        uint256 liveNet = r.liveLong - matched + r.liveShort - matched;
        uint256 totalNet = r.net < 0 ? uint256(-r.net) : uint256(r.net);
        uint256 hidden = matched + (liveNet > totalNet ? liveNet - totalNet : 0);
        if (hidden != 0) {
            (uint256 imRate, uint256 mmRate) = risk.marginRates(address(futures));
            uint256 notional = FuturesMath.usdcUp(hidden, price);
            im += Math.mulDiv(notional, imRate, 1e18, Math.Rounding.Ceil);
            mm += Math.mulDiv(notional, mmRate, 1e18, Math.Rounding.Ceil);
        }
    }

    function _refLeg(
        address who,
        uint256 sid,
        uint256 price,
        Ref memory r
    ) internal view returns (int256 adj, uint256 bond) {
        IFuturesTypes.Series memory s = futures.seriesInfo(sid);
        IFuturesTypes.Position memory p = futures.positionOf(sid, who);
        r.net += p.sizeCh;
        uint256 mark = price;
        if (s.finalAt != 0) {
            mark = s.settlementPriceWad;
            adj += FuturesMath.valueDown(p.sizeCh, mark) - FuturesMath.valueUp(p.sizeCh, price);
        } else if (p.sizeCh > 0) {
            r.liveLong += uint256(int256(p.sizeCh));
        } else {
            r.liveShort += uint256(-int256(p.sizeCh));
        }
        if (s.expiry / BUCKET > r.nearBucket) {
            r.farElected += p.electedCh;
            return (adj, 0);
        }
        if (p.electedCh != 0) adj -= int256(FuturesMath.usdcUp(p.electedCh, mark));
        uint256 base = p.sizeCh < 0 ? uint256(-int256(p.sizeCh)) : 0;
        if (base == 0) return (adj, 0);
        uint256 assignable = uint256(s.shortOiCh) + s.postExpiryShortCh;
        uint256 el = s.electedCh;
        uint256 assigned = FuturesMath.assignment(base, el < assignable ? el : assignable, assignable);
        if (assigned > p.escrowCh) {
            bond = (FuturesMath.usdcUp((assigned - p.escrowCh) * r.penaltyBps, mark) + 9_999) / 10_000;
        }
    }

    /// Σ legs = the ClearingHouse net; every leg with a size is listed in accountSeries; the risk hook = the walk.
    /// The hook = the reference walk. The far elections' payment rounds up once on their sum instead of once per
    /// leg: ≤ 1 wei per leg in the equity adjustment; the margin figures are exact.
    function _assertRiskExact(address who) internal view {
        (int256 adj, uint256 im, uint256 mm) = _risk(who);
        (int256 radj, uint256 rim, uint256 rmm) = _refRisk(who, PRICE0);
        assertApproxEqAbs(adj, radj, N, "equity adjustment");
        assertEq(im, rim, "extra initial");
        assertEq(mm, rmm, "extra maintenance");
    }
}
