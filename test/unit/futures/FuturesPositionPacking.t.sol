// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {FuturesMakerSetup} from "./FuturesMakerSetup.sol";
import {IFuturesTypes} from "../../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/markets/IFuturesErrors.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {FuturesOrderSteps} from "../../helpers/FuturesOrderSteps.sol";

/// @notice The packed futures position (issue 19 item 6, round 40): size (int120), entry (uint120) and the `listed` /
///         `open` flags share the first slot, so a new leg creates one storage slot and never touches the other two.
///         Attacks first: a size or price beyond the new bounds reverts with SafeCast's error and changes nothing;
///         then the flags through open → close → reopen, election and settlement, rolls, liquidation and two
///         accounts opening one series in one block. Index 10, IM 10 %, MM 5 % (FuturesSecuritySetup).
contract FuturesPositionPackingTest is FuturesMakerSetup {
    function setUp() public override {
        super.setUp();
        _setUpMaker(10_000e6);
    }

    // ───────────────────────────── helpers ─────────────────────────────

    function _slot(uint256 seriesId, address account) internal pure returns (bytes32) {
        bytes32 inner = keccak256(abi.encode(seriesId, FUTURES_LOCATION + POSITIONS_SLOT));
        return keccak256(abi.encode(account, inner));
    }

    function _word(uint256 seriesId, address account, uint256 k) internal view returns (uint256) {
        return uint256(vm.load(address(futures), bytes32(uint256(_slot(seriesId, account)) + k)));
    }

    /// The first slot decoded by hand: size (low 15 bytes, signed), entry (next 15 bytes), listed, open.
    function _first(
        uint256 seriesId,
        address account
    ) internal view returns (int256 size, uint256 entry, bool listed, bool open) {
        uint256 w = _word(seriesId, account, 0);
        size = int256(int120(uint120(w)));
        entry = uint120(w >> 120);
        listed = uint8(w >> 240) != 0;
        open = uint8(w >> 248) != 0;
    }

    /// The view and the raw first slot agree, and the flags are what the test expects.
    function _assertFirst(uint256 seriesId, address account, int256 size, bool listed, bool open) internal view {
        IFuturesTypes.Position memory p = futures.positionOf(seriesId, account);
        (int256 s, uint256 e, bool l, bool o) = _first(seriesId, account);
        assertEq(s, size, "size");
        assertEq(int256(p.sizeCh), size, "view size");
        assertEq(e, uint256(p.entryPriceWad), "entry");
        assertEq(l, listed, "listed");
        assertEq(p.listed, listed, "view listed");
        assertEq(o, open, "open");
        assertEq(p.open, open, "view open");
    }

    function _order(bool isBuy, uint256 size, uint256 price) internal view returns (IFuturesTypes.Order memory) {
        return _order(maker, isBuy, size, price, 1);
    }

    /// alice takes `size` of the maker's signed order; expects `err` (empty: any revert) and no state change.
    function _fillRevertsChangesNothing(bytes memory err, bool isBuy, uint256 size, uint256 price) internal {
        IFuturesTypes.Order memory o = _order(isBuy, size, price);
        bytes memory sig = _sign(o);
        IFuturesTypes.Series memory before = futures.seriesInfo(id);
        if (err.length == 0) vm.expectRevert();
        else vm.expectRevert(err);
        vm.prank(alice);
        futures.fillOrder(o, sig, size);
        assertEq(_word(id, maker, 0), 0, "maker's slot written");
        assertEq(_word(id, alice, 0), 0, "taker's slot written");
        IFuturesTypes.Series memory s = futures.seriesInfo(id);
        assertEq(s.longOiCh, before.longOiCh);
        assertEq(s.shortOiCh, before.shortOiCh);
        assertEq(s.openPositions, before.openPositions);
        assertEq(_listed(id), 0);
        // the order was not consumed: a fair fill of it still goes through
    }

    // ───────────────────────────── attacks: the bounds ─────────────────────────────

    /// A long of 2^119 CH-wei does not fit int120: SafeCast's error, nothing written; one wei less fits the slot
    /// and is stopped by the series' OI cap instead.
    function test_fillBeyondSizeBound_reverts_SafeCast_changesNothing() public {
        uint256 bound = uint256(1) << 119;
        _fillRevertsChangesNothing(
            abi.encodeWithSelector(SafeCast.SafeCastOverflowedIntDowncast.selector, uint8(120), int256(bound)),
            true,
            bound,
            10e18
        );
        _fillRevertsChangesNothing(
            abi.encodeWithSelector(IFuturesErrors.FuturesOiCapExceeded.selector, id, bound - 1, 1_000_000e18),
            true,
            bound - 1,
            10e18
        );
    }

    /// A short of 2^119 + 1 CH-wei does not fit int120 (its minimum is −2^119): SafeCast's error, nothing written.
    function test_fillBeyondShortSizeBound_reverts_SafeCast_changesNothing() public {
        uint256 beyond = (uint256(1) << 119) + 1;
        _fillRevertsChangesNothing(
            abi.encodeWithSelector(SafeCast.SafeCastOverflowedIntDowncast.selector, uint8(120), -int256(beyond)),
            false,
            beyond,
            10e18
        );
    }

    /// An entry price of 2^120 wad does not fit uint120: SafeCast's error, nothing written; 2^120 − 1 fits the slot
    /// and the fill still reverts (the curve point's uint96), nothing written.
    function test_fillBeyondPriceBound_reverts_SafeCast_changesNothing() public {
        uint256 bound = uint256(1) << 120;
        _fillRevertsChangesNothing(
            abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, uint8(120), bound),
            true,
            1e18,
            bound
        );
        _fillRevertsChangesNothing("", true, 1e18, bound - 1);
        // a fair fill of the same order afterwards
        IFuturesTypes.Order memory o = _order(true, 1e18, 10e18);
        bytes memory sig = _sign(o);
        vm.prank(alice);
        futures.fillOrder(o, sig, 1e18);
        _assertFirst(id, maker, 1e18, true, true);
        _assertFirst(id, alice, -1e18, true, true);
    }

    // ───────────────────────────── the new leg: one slot ─────────────────────────────

    /// A new long and a new short leg write the first slot only; the second and third are neither written nor read
    /// (no cold read of the elections / escrow slot, no proof-deadline clear).
    function test_newLeg_touchesFirstSlotOnly() public {
        uint256 tLong = _commit(alice, 100e18);
        uint256 tShort = _commit(bob, -100e18);
        bytes32 base = _slot(id, alice);
        bytes32 baseB = _slot(id, bob);
        vm.record();
        _execute(alice, tLong);
        (bytes32[] memory reads, bytes32[] memory writes) = vm.accesses(address(futures));
        for (uint256 i; i < reads.length; ++i) {
            for (uint256 k = 1; k <= 2; ++k) assertTrue(reads[i] != bytes32(uint256(base) + k), "slot 1/2 read");
        }
        for (uint256 i; i < writes.length; ++i) {
            for (uint256 k = 1; k <= 2; ++k) assertTrue(writes[i] != bytes32(uint256(base) + k), "slot 1/2 written");
        }
        // a new short: the book writes slot 0 only (the margin hook reads a short's delivery base in slot 2)
        vm.record();
        _execute(bob, tShort);
        (, writes) = vm.accesses(address(futures));
        for (uint256 i; i < writes.length; ++i) {
            for (uint256 k = 1; k <= 2; ++k) assertTrue(writes[i] != bytes32(uint256(baseB) + k), "bob: written");
        }
        _assertFirst(id, alice, 100e18, true, true);
        _assertFirst(id, bob, -100e18, true, true);
        assertEq(_word(id, alice, 1) | _word(id, alice, 2) | _word(id, bob, 1) | _word(id, bob, 2), 0);
    }

    /// Two accounts open the same series in one block (both orders executed in one block): each its own record,
    /// both listed once, two open positions.
    function test_twoAccountsOpenSameSeriesSameBlock() public {
        uint256 tA = _commit(alice, 100e18);
        uint256 tB = _commit(bob, 50e18);
        vm.warp(tA > tB ? tA + 1 : tB + 1);
        uint256 blockNo = block.number;
        _execute(alice, tA);
        _execute(bob, tB);
        assertEq(block.number, blockNo);
        _assertFirst(id, alice, 100e18, true, true);
        _assertFirst(id, bob, 50e18, true, true);
        assertEq(_listed(id), 2);
        assertEq(futures.seriesInfo(id).openPositions, 2);
        assertEq(futures.seriesInfo(id).longOiCh, 150e18);
    }

    // ───────────────────────────── flags through the life of a leg ─────────────────────────────

    /// open → close → reopen the same series: the close clears `open` (not `listed`), the reopen sets `open` again
    /// and does not list the account twice; the entry price restarts from the new fill.
    function test_openCloseReopen_flagsReset_listedOnce() public {
        _trade(alice, id, 100e18);
        _assertFirst(id, alice, 100e18, true, true);
        FuturesOrderSteps.mustClose(futures, alice, id);
        _assertFirst(id, alice, 0, true, false);
        assertEq(futures.positionOf(id, alice).entryPriceWad, 0, "entry kept after the close");
        assertEq(futures.seriesInfo(id).openPositions, 0);
        assertEq(futures.accountSeries(alice).length, 0);
        _trade(alice, id, -40e18);
        _assertFirst(id, alice, -40e18, true, true);
        assertGt(futures.positionOf(id, alice).entryPriceWad, 0);
        assertEq(_listed(id), 1, "listed twice");
        assertEq(futures.seriesInfo(id).openPositions, 1);
        assertEq(futures.accountSeries(alice).length, 1);
        assertEq(_word(id, alice, 1) | _word(id, alice, 2), 0);
    }

    /// A long that elected delivery and a short that escrowed it settle; each settlement empties the first slot
    /// (`listed` too: the series never trades again, so nothing re-lists) and a second settlement reverts.
    function test_electThenSettle_clearsFirstSlot_noRelist() public {
        _deliveringPair();
        assertEq(futures.positionOf(id, alice).electedCh, 100e18);
        assertEq(futures.positionOf(id, bob).escrowCh, 100e18);
        _finalise();
        vm.prank(bob); // shorts first (the longs' delivery waits for them)
        futures.settlePosition(id, bob);
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(_word(id, alice, 0), 0, "alice's first slot");
        assertEq(_word(id, bob, 0), 0, "bob's first slot");
        _assertFirst(id, alice, 0, false, false);
        assertEq(_listed(id), 2);
        assertEq(futures.seriesInfo(id).openPositions, 0);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesAlreadyDone.selector, id, alice));
        futures.settlePosition(id, alice);
        // no leg can re-open (and be listed again) in a settled series
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesSeriesNotTrading.selector, id, expiry));
        futures.commitOrder(id, 1e18, 0);
    }

    /// A roll into a series the account does not hold creates its leg (flags set, slots 1 and 2 empty); a second
    /// roll into the now-held leg adds to it without listing the account twice.
    function test_rollIntoNewSeriesThenExistingLeg_flags() public {
        uint256 far = futures.listSeries(uint64(expiry + 30 days), 1_000_000e18);
        _setupTrader(carol, guarantor, 20_000e6);
        _trade(bob, id, -5_000e18);
        _trade(carol, id, 5_000e18);
        vm.prank(carol);
        futures.roll(id, far, 1_000e18);
        _assertFirst(far, carol, 1_000e18, true, true);
        assertEq(_word(far, carol, 1) | _word(far, carol, 2), 0);
        vm.prank(carol);
        futures.roll(id, far, 1_000e18);
        _assertFirst(far, carol, 2_000e18, true, true);
        _assertFirst(id, carol, 3_000e18, true, true);
        assertEq(_listed(far), 1);
        assertEq(futures.seriesInfo(far).openPositions, 1);
        // rolling the rest out closes the source leg: open cleared, listed kept
        vm.prank(carol);
        futures.roll(id, far, 3_000e18);
        _assertFirst(id, carol, 0, true, false);
        _assertFirst(far, carol, 5_000e18, true, true);
    }

    /// A liquidation reduces a packed leg: the first slot keeps size, entry and flags consistent with the view and
    /// with the series' open-interest; a full reduction closes the record (open cleared, listed kept).
    function test_liquidationOfPackedLeg_keepsFlagsConsistent() public {
        _setupTrader(carol, guarantor, 130e6);
        _trade(carol, id, 100e18); // IM 100
        _trade(bob, id, -100e18);
        _setPrice(8.8e18); // loss ≈ 120: equity ≈ 10 < MM ≈ 44
        IClearingHouse.MarginState memory m = chouse.marginState(carol);
        assertLt(m.equityUsdc, int256(m.maintenanceMarginUsdc));
        vm.prank(keeper);
        liq.liquidate(carol);
        IFuturesTypes.Position memory p = futures.positionOf(id, carol);
        assertLt(p.sizeCh, int120(100e18), "not reduced");
        _assertFirst(id, carol, p.sizeCh, true, p.sizeCh != 0);
        IFuturesTypes.Series memory s = futures.seriesInfo(id);
        assertEq(s.longOiCh, uint256(int256(p.sizeCh)));
        assertEq(s.openPositions, p.sizeCh != 0 ? 2 : 1);
        if (p.sizeCh == 0) assertEq(p.entryPriceWad, 0);
        assertEq(_word(id, carol, 2), 0);
        // the liquidated account opens the series again: listed once
        _setPrice(10e18);
        _depositFor(carol, 1_000e6);
        _trade(carol, id, 10e18);
        _assertFirst(id, carol, p.sizeCh + 10e18, true, true);
        assertEq(_listed(id), 2);
    }
}
