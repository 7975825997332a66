// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {GuarantorRules} from "../../contracts/libraries/clearing/GuarantorRules.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolErrors} from "../../contracts/interfaces/clearing/IGuarantorPoolErrors.sol";

/// @notice GuarantorRules against plain-arithmetic references (inputs bounded so the reference cannot overflow):
///         capacity = ⌊capital · leverage / 1e18⌋ and the capacity check's boundary, the insurance requirement
///         ⌈exposure · stress / 1e18⌉ and its split-never-lowers property (CLR-01, ACC-05), linear vesting
///         rounded down and monotone in time, the bounded rule slash, and the withdrawal notice's gates checked in
///         the documented order (CLR-02). The test contract is the harness for the notice (it holds one in storage).
contract GuarantorRulesTest is Test {
    IGuarantorPool.CapitalNotice internal notice;

    uint256 internal constant LIM = 1e36;

    function checkCapacityExt(address g, uint256 exposure, uint256 capital, uint256 lev) external pure {
        GuarantorRules.checkCapacity(g, exposure, capital, lev);
    }

    function spendExt(uint64 epoch, address g, address holder, uint256 shares) external view returns (uint256) {
        return GuarantorRules.spendNotice(notice, epoch, g, holder, shares);
    }

    /// @dev Capacity is the floored product; the check passes exactly at capacity (and for no exposure at all).
    function testFuzz_capacity_floorAndBoundary(uint256 capital, uint256 lev, uint256 exposure) public {
        capital = bound(capital, 0, LIM);
        lev = bound(lev, 0, 100e18);
        uint256 cap = (capital * lev) / 1e18;
        assertEq(GuarantorRules.capacity(capital, lev), cap);
        exposure = bound(exposure, 0, cap + 2);
        address g = address(0xA);
        if (exposure != 0 && exposure > cap) {
            vm.expectRevert(
                abi.encodeWithSelector(IGuarantorPoolErrors.PoolCapacityExceeded.selector, g, cap, exposure)
            );
        }
        this.checkCapacityExt(g, exposure, capital, lev);
    }

    /// @dev CLR-01 / ACC-05: the requirement rounds up, and splitting an exposure over two guarantors never lowers
    ///      the total required.
    function testFuzz_requirement_ceilAndSplit(uint256 exposure, uint256 stress, uint256 part) public pure {
        exposure = bound(exposure, 0, LIM);
        stress = bound(stress, 0, 10e18);
        part = bound(part, 0, exposure);
        uint256 req = GuarantorRules.requirement(exposure, stress);
        assertEq(req, (exposure * stress + 1e18 - 1) / 1e18);
        uint256 split = GuarantorRules.requirement(part, stress) + GuarantorRules.requirement(exposure - part, stress);
        assertGe(split, req);
        assertLe(split, req + 1);
    }

    /// @dev Linear vesting: 0 before the start, all after the end, ⌊u·elapsed/span⌋ between, monotone in time.
    function testFuzz_vestedPart_linearDownMonotone(
        uint256 u,
        uint256 start,
        uint256 span,
        uint256 t1,
        uint256 t2
    ) public pure {
        u = bound(u, 0, LIM);
        start = bound(start, 0, 1e12);
        span = bound(span, 1, 1e9);
        uint256 end = start + span;
        t1 = bound(t1, 0, end + 1e6);
        t2 = bound(t2, t1, end + 1e6);
        uint256 v1 = GuarantorRules.vestedPart(u, start, end, t1);
        uint256 ref =
            t1 >= end
                ? u
                : t1 <= start
                    ? 0
                    : (u * (t1 - start)) / span;
        assertEq(v1, ref);
        assertLe(v1, GuarantorRules.vestedPart(u, start, end, t2), "monotone");
        assertLe(v1, u);
    }

    /// @dev The rule slash is ⌊bond · bps / 10,000⌋ with a sink, 0 without; n slashes leave ≥ bond·(1 − bps)^n
    ///      rounded, never below 0 and never more than the bond.
    function testFuzz_ruleSlash_bounded(uint256 bond, uint256 bps, address sink, uint8 n) public pure {
        bond = bound(bond, 0, LIM);
        bps = bound(bps, 0, 10_000);
        n = uint8(bound(n, 1, 20));
        assertEq(GuarantorRules.ruleSlash(bond, bps, sink), sink == address(0) ? 0 : (bond * bps) / 10_000);
        if (sink == address(0)) return;
        uint256 left = bond;
        for (uint256 i; i < n; ++i) {
            uint256 s = GuarantorRules.ruleSlash(left, bps, sink);
            assertLe(s, left);
            left -= s;
        }
        if (bps < 10_000 && bond > 0) assertGt(left, 0, "a partial rule never empties a bond");
    }

    /// @dev CLR-02: a notice is spendable only in its epoch, from readyAt through expiresAt, up to its shares; the
    ///      first failing gate in that order is the error.
    function testFuzz_spendNotice_gates(
        uint256 noticed,
        uint64 noticeEpoch,
        uint64 epoch,
        uint64 readyAt,
        uint64 window,
        uint256 nowSec,
        uint256 shares
    ) public {
        noticed = bound(noticed, 0, LIM);
        shares = bound(shares, 0, LIM);
        readyAt = uint64(bound(readyAt, 1, 1e12));
        window = uint64(bound(window, 0, 30 days));
        if (epoch % 2 == 0) epoch = noticeEpoch;
        nowSec = bound(nowSec, readyAt > 10 days ? readyAt - 10 days : 0, uint256(readyAt) + window + 10 days);
        notice = IGuarantorPool.CapitalNotice(noticed, readyAt, readyAt + window, noticeEpoch);
        vm.warp(nowSec);
        address g = address(0xB);
        address holder = address(0xC);
        if (noticed == 0 || noticeEpoch != epoch) {
            vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNoticeRequired.selector, g, holder));
        } else if (nowSec < readyAt) {
            vm.expectRevert(
                abi.encodeWithSelector(IGuarantorPoolErrors.PoolNoticeNotElapsed.selector, holder, readyAt, nowSec)
            );
        } else if (nowSec > uint256(readyAt) + window) {
            vm.expectRevert(
                abi.encodeWithSelector(
                    IGuarantorPoolErrors.PoolNoticeExpired.selector,
                    holder,
                    readyAt + window,
                    nowSec
                )
            );
        } else if (shares > noticed) {
            vm.expectRevert(
                abi.encodeWithSelector(IGuarantorPoolErrors.PoolExceedsNotice.selector, holder, noticed, shares)
            );
        } else {
            assertEq(this.spendExt(epoch, g, holder, shares), noticed - shares);
            return;
        }
        this.spendExt(epoch, g, holder, shares);
    }
}
