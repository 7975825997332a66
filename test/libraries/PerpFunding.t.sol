// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {PerpMath} from "../../contracts/libraries/PerpMath.sol";

/// @notice The funding accrual PerpFunding runs (PerpTrading.accrue → PerpMath.accrue: velocity model, docs/perps.md)
///         against an independent numeric reference: the rate r(τ) = clamp(r0 + v·τ / 1 day, ±maxRate), v = clamp(skew
///         / scale, ±1)·maxVelocity, sampled at N = 64 points and integrated by the trapezoid rule; the index moves by
///         price·∫r dτ / 1 day. The closed form must agree within the trapezoid's error at the one kink (where the rate
///         reaches its bound) plus flooring. Also: accruing in two steps equals one step of the summed interval up to
///         flooring (a keeper's poke frequency does not change what is owed: MKT-03's O(1) update is path
///         independent), a rate against the skew restarts from 0, and what a long and an equal short owe for the same
///         index move sums to ≥ 0 (MKT-01: Σ paid ≥ Σ received; ACC-05 rounding).
contract PerpFundingTest is Test {
    int256 internal constant WAD = 1e18;
    int256 internal constant DAY = 1 days;
    uint256 internal constant N = 64;

    struct P {
        int256 index;
        int256 rate;
        uint256 dt;
        int256 skew;
        uint256 scale;
        uint256 maxVel;
        uint256 maxRate;
        uint256 price;
    }

    /// @dev The fuzz inputs, bounded to the ranges a market can hold (rates per day, WAD; sizes in CH wei).
    function _bounded(uint256[7] memory raw) internal pure returns (P memory p) {
        p.maxRate = bound(raw[0], 1e12, 1e18);
        p.maxVel = bound(raw[1], 0, 10e18);
        p.scale = bound(raw[2], 1e18, 1e27);
        p.skew = bound(int256(raw[3]), -1e28, 1e28);
        p.rate = bound(int256(raw[4]), -2 * int256(p.maxRate), 2 * int256(p.maxRate));
        p.index = bound(int256(raw[5]), -1e30, 1e30);
        p.price = bound(raw[6], 1e12, 1e24);
    }

    function _abs(int256 x) internal pure returns (int256) {
        return x < 0 ? -x : x;
    }

    /// @dev The rate after the reset rules (against the skew: 0; beyond the cap: the cap), its bound and velocity.
    function _start(P memory p) internal pure returns (int256 r0, int256 bnd, int256 v) {
        int256 sign = p.skew > 0 ? int256(1) : int256(-1);
        bnd = sign * int256(p.maxRate);
        r0 = p.rate * sign < 0 ? int256(0) : p.rate;
        if (_abs(r0) > int256(p.maxRate)) r0 = bnd;
        int256 s = (p.skew * WAD) / int256(p.scale);
        if (s > WAD) s = WAD;
        if (s < -WAD) s = -WAD;
        v = (s * int256(p.maxVel)) / WAD;
    }

    function _rateAt(int256 r0, int256 v, int256 bnd, int256 tau) internal pure returns (int256 r) {
        r = r0 + (v * tau) / DAY;
        if (_abs(r) > _abs(bnd)) r = bnd;
    }

    /// @dev The reference: the trapezoid rule over N equal steps of h seconds, and the tolerance it needs.
    function _ref(P memory p) internal pure returns (int256 index, int256 rate, int256 tol) {
        if (p.skew == 0) return (p.index, 0, 0);
        (int256 r0, int256 bnd, int256 v) = _start(p);
        int256 h = int256(p.dt / N);
        int256 twice;
        int256 prev = r0;
        for (uint256 i = 1; i <= N; ++i) {
            int256 cur = _rateAt(r0, v, bnd, int256(i) * h);
            twice += (prev + cur) * h;
            prev = cur;
        }
        index = p.index + (twice * int256(p.price)) / (2 * DAY * WAD);
        rate = _rateAt(r0, v, bnd, int256(p.dt));
        // kink segment: ≤ |v|·h²/day of the twice-integral; each sampled rate floors by ≤ 1 wei (2h per step); the
        // closed form floors the time the rate hits its bound to the second (≤ |bound − r0|)
        int256 tolTwice = (_abs(v) * h * h) / DAY + 2 * int256(N) * h + 2 * h + _abs(bnd - r0);
        tol = (tolTwice * int256(p.price)) / (2 * DAY * WAD) + 2;
    }

    function _accrue(P memory p) internal pure returns (int256, int256) {
        return PerpMath.accrue(p.index, p.rate, p.dt, p.skew, p.scale, p.maxVel, p.maxRate, p.price);
    }

    /// @dev The closed form equals the numeric reference (rate exactly, index within the trapezoid's error).
    function testFuzz_accrue_matchesTrapezoidReference(uint256[7] memory raw, uint256 h) public pure {
        P memory p = _bounded(raw);
        p.dt = bound(h, 0, 4 days / N) * N; // a multiple of N: the reference's steps cover the interval exactly
        (int256 index, int256 rate) = _accrue(p);
        (int256 refIndex, int256 refRate, int256 tol) = _ref(p);
        assertEq(rate, refRate, "rate");
        assertApproxEqAbs(index, refIndex, uint256(tol), "index");
    }

    /// @dev Two pokes (dt1 then dt2, the rate carried) land where one poke over dt1 + dt2 does, up to flooring:
    ///      the rate to 1 wei per step, the index to the floored rate's effect over the interval.
    function testFuzz_accrue_twoStepsEqualOne(uint256[7] memory raw, uint256 dt1, uint256 dt2) public pure {
        P memory p = _bounded(raw);
        dt1 = bound(dt1, 0, 3 days);
        dt2 = bound(dt2, 0, 3 days);
        p.dt = dt1 + dt2;
        (int256 iOne, int256 rOne) = _accrue(p);
        p.dt = dt1;
        (int256 iMid, int256 rMid) = _accrue(p);
        (int256 iTwo, int256 rTwo) = PerpMath.accrue(iMid, rMid, dt2, p.skew, p.scale, p.maxVel, p.maxRate, p.price);
        assertApproxEqAbs(rTwo, rOne, 2, "rate");
        // the mid rate's floor (≤ 1 wei over dt2, twice), each path's bound-hit time floored to the second
        // (≤ 2·maxRate each) and the index divisions
        uint256 tolTwice = 4 * (dt1 + dt2) + 2 * 2 * 2 * p.maxRate + 4;
        uint256 tol = (tolTwice * p.price) / uint256(2 * DAY * WAD) + 3;
        assertApproxEqAbs(iTwo, iOne, tol, "index");
    }

    /// @dev A stored rate against the skew restarts from 0 (it never keeps paying the side that now pays nothing);
    ///      one beyond the cap is clamped before it accrues.
    function testFuzz_accrue_resetRules(uint256[7] memory raw) public pure {
        P memory p = _bounded(raw);
        if (p.skew == 0) p.skew = 1;
        p.dt = 0;
        (, int256 rate) = _accrue(p);
        (int256 r0, , ) = _start(p);
        assertEq(rate, r0);
        if (p.rate != 0 && (p.rate > 0) != (p.skew > 0)) assertEq(rate, 0);
        assertLe(_abs(rate), int256(p.maxRate));
    }

    /// @dev MKT-01 / ACC-05: a long and an equal short across the same index move owe amounts summing to ≥ 0 and ≤ 1
    ///      USDC wei (the payer rounds up, the receiver down).
    function testFuzz_fundingOwed_longShortConserve(int256 size, int256 from, int256 to) public pure {
        size = bound(size, 1, 1e30);
        from = bound(from, -1e30, 1e30);
        to = bound(to, -1e30, 1e30);
        int256 sum = PerpMath.fundingOwedUsdc(size, from, to) + PerpMath.fundingOwedUsdc(-size, from, to);
        assertGe(sum, 0);
        assertLe(sum, 1);
    }
}
