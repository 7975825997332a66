// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesMakerSetup} from "./FuturesMakerSetup.sol";
import {IFuturesTypes} from "../../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/markets/IFuturesErrors.sol";
import {IFuturesMarket} from "../../../contracts/interfaces/markets/IFuturesMarket.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";

/// @notice The words a series' first trade writes (issue 19 item 6, round 42): the series' account-list length and
///         settle cursor live in the series' first word and its open interest shares its word with a mark the
///         listing writes, so the first holder of a fresh series updates written words. Attacks: the first holder by
///         open, by roll and by signed fill, two accounts into a fresh series in one block, settlement paging through
///         the list (each holder once, the cursor resuming across pages), a series listed then expired with no
///         holder, the list length at its bound, a roll back and forth, a liquidation of a leg in a fresh series, and
///         the views. Index 10, IM 10 %, MM 5 % (FuturesSecuritySetup).
contract FuturesSeriesWordsTest is FuturesMakerSetup {
    address internal dave = makeAddr("dave");
    uint256 internal fresh;

    function setUp() public override {
        super.setUp();
        _setUpMaker(10_000e6);
        _setupTrader(carol, guarantor, 20_000e6);
        _setupTrader(dave, guarantor, 20_000e6);
        fresh = futures.listSeries(uint64(expiry + 30 days), 1_000_000e18);
    }

    // ───────────────────────────── helpers ─────────────────────────────

    function _seriesWord(uint256 seriesId, uint256 k) internal view returns (bytes32 slot, uint256 word) {
        slot = bytes32(uint256(keccak256(abi.encode(seriesId, FUTURES_LOCATION + SERIES_SLOT))) + k);
        word = uint256(vm.load(address(futures), slot));
    }

    /// The series' view against what the test expects of its trading fields.
    function _assertSeries(
        uint256 seriesId,
        uint256 open,
        uint256 shorts,
        uint256 longOi,
        uint256 shortOi,
        uint256 accounts
    ) internal view {
        IFuturesTypes.Series memory s = futures.seriesInfo(seriesId);
        assertEq(s.openPositions, open, "openPositions");
        assertEq(s.shortPositions, shorts, "shortPositions");
        assertEq(s.longOiCh, longOi, "longOiCh");
        assertEq(s.shortOiCh, shortOi, "shortOiCh");
        assertEq(_listed(seriesId), accounts, "accounts listed");
    }

    function _signedOrder(
        uint256 seriesId,
        bool isBuy,
        uint256 size,
        uint256 nonce
    ) internal view returns (IFuturesTypes.Order memory o, bytes memory sig) {
        o = IFuturesTypes.Order({
            maker: maker,
            seriesId: seriesId,
            isBuy: isBuy,
            sizeCh: size,
            priceWad: 10e18,
            nonce: nonce,
            expiry: uint64(block.timestamp + 1 hours),
            taker: address(0)
        });
        sig = _sign(o);
    }

    /// Expiry of `fresh` → price fixed → dispute window over → finalised (and the set-up series `id`, expired
    /// before it, too, so the keeper's only work left is settling `fresh`).
    function _finaliseFresh() internal {
        vm.warp(expiry + 30 days);
        futures.fixSettlementPrice(id);
        futures.fixSettlementPrice(fresh);
        vm.warp(block.timestamp + 1 hours);
        futures.finalizeSettlement(id);
        futures.finalizeSettlement(fresh);
    }

    /// The accounts of the keeper's next settlement batch for `seriesId`, or none.
    function _keeperBatch(uint256 seriesId) internal view returns (address[] memory batch) {
        (bool canExec, bytes memory payload) = futures.checker();
        if (!canExec) return batch;
        assertEq(bytes4(payload), IFuturesMarket.settlePositions.selector, "keeper work is not a settlement");
        bytes memory args = new bytes(payload.length - 4);
        for (uint256 i; i < args.length; ++i) args[i] = payload[i + 4];
        uint256 sid;
        (sid, batch) = abi.decode(args, (uint256, address[]));
        assertEq(sid, seriesId, "batch of another series");
    }

    // ───────────────────────────── first holder ─────────────────────────────

    /// A fresh series' first holder by a plain open: one leg, listed once, counted, OI booked; the view agrees.
    function test_firstHolder_byOpen_listedOnce() public {
        _assertSeries(fresh, 0, 0, 0, 0, 0);
        _trade(carol, fresh, 100e18);
        _assertSeries(fresh, 1, 0, 100e18, 0, 1);
        (address[] memory accounts, ) = futures.seriesAccounts(fresh, 0, 10);
        assertEq(accounts[0], carol);
        _trade(carol, fresh, 50e18); // an increase lists nothing again
        _assertSeries(fresh, 1, 0, 150e18, 0, 1);
    }

    /// A fresh series' first holder by a roll (a short): its leg, list entry, short count and short OI.
    function test_firstHolder_byRoll_short() public {
        _trade(dave, id, -300e18);
        _trade(carol, id, 300e18);
        vm.prank(dave);
        futures.roll(id, fresh, 100e18);
        _assertSeries(fresh, 1, 1, 0, 100e18, 1);
        _assertSeries(id, 2, 1, 300e18, 200e18, 2);
        assertEq(_size(fresh, dave), -100e18);
        assertEq(chouse.positionOf(dave, address(futures)).sizeCh, -300e18);
    }

    /// A fresh series' first two holders by one signed fill (maker and taker): both listed, OI on both sides.
    function test_firstHolders_bySignedFill() public {
        (IFuturesTypes.Order memory o, bytes memory sig) = _signedOrder(fresh, true, 100e18, 7);
        vm.prank(carol);
        futures.fillOrder(o, sig, 60e18);
        _assertSeries(fresh, 2, 1, 60e18, 60e18, 2);
        (address[] memory accounts, ) = futures.seriesAccounts(fresh, 0, 10);
        assertEq(accounts[0], maker);
        assertEq(accounts[1], carol);
        vm.prank(dave);
        futures.fillOrder(o, sig, 40e18);
        _assertSeries(fresh, 3, 2, 100e18, 100e18, 3);
    }

    /// Two accounts open the fresh series in one block: each its own list entry, in order, counted once.
    function test_twoAccountsIntoFreshSeries_oneBlock() public {
        _trade(carol, fresh, 100e18);
        _trade(dave, fresh, -40e18);
        _trade(carol, fresh, 10e18);
        _assertSeries(fresh, 2, 1, 110e18, 40e18, 2);
        (address[] memory accounts, uint256 total) = futures.seriesAccounts(fresh, 1, 10);
        assertEq(total, 2);
        assertEq(accounts.length, 1);
        assertEq(accounts[0], dave);
    }

    /// A roll back and forth between a held and a fresh series: the fresh leg opens, closes and reopens; the
    /// account is listed once and counted only while open; OI follows.
    function test_rollBackAndForth_freshSeries_listedOnce() public {
        _trade(dave, id, -500e18);
        _trade(carol, id, 500e18);
        vm.startPrank(dave);
        futures.roll(id, fresh, 200e18);
        futures.roll(fresh, id, 200e18);
        _assertSeries(fresh, 0, 0, 0, 0, 1);
        futures.roll(id, fresh, 50e18);
        vm.stopPrank();
        _assertSeries(fresh, 1, 1, 0, 50e18, 1);
        _assertSeries(id, 2, 1, 500e18, 450e18, 2);
    }

    /// A leg in a fresh series is liquidated: the series' OI, counts and list stay consistent with the leg, and a
    /// reopen lists the account no second time.
    function test_liquidation_ofLegInFreshSeries() public {
        _setupTrader(makeAddr("thin"), guarantor, 130e6);
        address thin = makeAddr("thin");
        _trade(thin, fresh, 100e18); // IM 100
        _trade(bob, fresh, -100e18);
        _setPrice(8.8e18); // loss ≈ 120: equity ≈ 10 < MM ≈ 44
        IClearingHouse.MarginState memory m = chouse.marginState(thin);
        assertLt(m.equityUsdc, int256(m.maintenanceMarginUsdc));
        vm.prank(keeper);
        liq.liquidate(thin);
        int256 left = _size(fresh, thin);
        assertLt(left, 100e18, "not reduced");
        IFuturesTypes.Series memory s = futures.seriesInfo(fresh);
        assertEq(s.longOiCh, uint256(left));
        assertEq(s.shortOiCh, 100e18);
        assertEq(s.openPositions, left != 0 ? 2 : 1);
        assertEq(_listed(fresh), 2);
        _setPrice(10e18);
        _depositFor(thin, 1_000e6);
        _trade(thin, fresh, 10e18);
        assertEq(_listed(fresh), 2);
        assertEq(futures.seriesInfo(fresh).longOiCh, uint256(left) + 10e18);
    }

    // ───────────────────────────── settlement paging ─────────────────────────────

    /// Three holders of the fresh series settle in pages: the keeper's batch starts at the cursor, which moves past
    /// settled accounts (by the keeper or by the holder itself) and resumes there; each is settled exactly once.
    function test_settlement_pagesThroughList_cursorResumes() public {
        _trade(carol, fresh, 100e18);
        _trade(dave, fresh, -60e18);
        _trade(alice, fresh, -40e18);
        _finaliseFresh();
        address[] memory batch = _keeperBatch(fresh);
        assertEq(batch.length, 3);
        assertEq(batch[0], carol);
        // page one: carol alone
        address[] memory page = new address[](1);
        page[0] = carol;
        assertEq(futures.settlePositions(fresh, page), 1);
        batch = _keeperBatch(fresh);
        assertEq(batch.length, 2);
        assertEq(batch[0], dave);
        // carol again: nothing left to settle, refused
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesAlreadyDone.selector, fresh, address(0)));
        futures.settlePositions(fresh, page);
        // alice settles herself (out of list order): the cursor waits at dave
        futures.settlePosition(fresh, alice);
        batch = _keeperBatch(fresh);
        assertEq(batch.length, 1);
        assertEq(batch[0], dave);
        assertEq(futures.settlePositions(fresh, batch), 1);
        assertEq(_keeperBatch(fresh).length, 0);
        _assertSeries(fresh, 0, 0, 0, 0, 3);
        assertEq(_size(fresh, carol), 0);
        assertEq(_size(fresh, dave), 0);
        assertEq(_size(fresh, alice), 0);
        assertEq(futures.seriesInfo(fresh).openPositions, 0);
    }

    /// A series listed then expired with no holder: fixed and finalised, no settlement batch, an empty list.
    function test_listedThenExpired_noHolder() public {
        _finaliseFresh();
        IFuturesTypes.Series memory s = futures.seriesInfo(fresh);
        assertGt(s.deliveryDeadline, 0);
        assertEq(s.openPositions, 0);
        assertEq(_listed(fresh), 0);
        (address[] memory accounts, uint256 total) = futures.seriesAccounts(fresh, 0, 10);
        assertEq(accounts.length, 0);
        assertEq(total, 0);
        assertEq(_keeperBatch(fresh).length, 0);
    }

    // ───────────────────────────── bounds and views ─────────────────────────────

    /// The account list's length is 32 bits in the series' first word: at its bound a new holder is refused with
    /// `FuturesSeriesAccountsFull` and nothing is written; a holder already listed still trades. The settle cursor
    /// never passes the length, so it shares the bound.
    function test_listLength_atBound_refused() public {
        _trade(carol, fresh, 100e18);
        (bytes32 slot, uint256 w) = _seriesWord(fresh, 0);
        uint256 shift = 184; // expiry, finalAt, deadline (40 bits each), openPositions, shortPositions (32 each)
        assertEq((w >> shift) & type(uint32).max, 1, "length not where the layout says");
        w = (w & ~(uint256(type(uint32).max) << shift)) | (uint256(type(uint32).max) << shift);
        vm.store(address(futures), slot, bytes32(w));
        assertEq(_listed(fresh), type(uint32).max);
        (IFuturesTypes.Order memory o, bytes memory sig) = _signedOrder(fresh, true, 10e18, 9);
        vm.expectRevert(
            abi.encodeWithSelector(IFuturesErrors.FuturesSeriesAccountsFull.selector, fresh, uint256(type(uint32).max))
        );
        vm.prank(dave);
        futures.fillOrder(o, sig, 10e18); // two new holders: the first push is refused
        assertEq(_size(fresh, dave), 0);
        assertEq(_size(fresh, maker), 0);
        _trade(carol, fresh, 10e18);
        assertEq(_size(fresh, carol), 110e18);
    }

    /// The listing writes the words a first trade updates: the series' first word (expiry) and its OI word (the
    /// listing's mark), so the view shows zero OI while the raw word is already non-zero.
    function test_listing_writesOiWord_viewShowsZero() public view {
        (, uint256 w0) = _seriesWord(fresh, 0);
        (, uint256 w1) = _seriesWord(fresh, 1);
        assertGt(w0, 0);
        assertGt(w1, 0);
        IFuturesTypes.Series memory s = futures.seriesInfo(fresh);
        assertEq(s.expiry, expiry + 30 days);
        assertEq(s.longOiCh, 0);
        assertEq(s.shortOiCh, 0);
        assertEq(s.oiCapCh, 1_000_000e18);
        assertEq(uint8(s.tenor), uint8(IFuturesTypes.Tenor.Custom));
        assertEq(s.finalAt, 0);
        assertEq(s.deliveryDeadline, 0);
    }

    /// The views after a full life (trade, fix, finalise, settle) return the values the old layout did.
    function test_views_fullLife_sameValues() public {
        _trade(carol, fresh, 100e18);
        _trade(dave, fresh, -100e18);
        IFuturesTypes.Series memory s = futures.seriesInfo(fresh);
        assertEq(s.expiry, expiry + 30 days);
        assertEq(s.openPositions, 2);
        assertEq(s.shortPositions, 1);
        assertEq(s.longOiCh, 100e18);
        assertEq(s.shortOiCh, 100e18);
        assertTrue(futures.isStandardSeries(fresh) == false);
        vm.warp(expiry + 30 days);
        futures.fixSettlementPrice(fresh);
        s = futures.seriesInfo(fresh);
        assertGt(s.finalAt, expiry + 30 days - 1);
        assertGt(s.settlementPriceWad, 0);
        assertEq(s.assignableShortCh, 100e18);
        vm.warp(block.timestamp + 1 hours);
        futures.finalizeSettlement(fresh);
        s = futures.seriesInfo(fresh);
        assertGt(s.deliveryDeadline, s.finalAt);
        futures.settlePosition(fresh, carol);
        futures.settlePosition(fresh, dave);
        s = futures.seriesInfo(fresh);
        assertEq(s.openPositions, 0);
        assertEq(s.shortPositions, 0);
        assertEq(s.longOiCh, 0);
        assertEq(s.shortOiCh, 0);
        assertEq(_listed(fresh), 2);
    }

    // ───────────────────────────── a held long's third slot ─────────────────────────────

    /// A short's proof demand is cleared when the leg stops being short; a held long's later fills do not read its
    /// third slot (escrow and demands need a short), and a demand never survives into a new short.
    function test_proofDemand_clearedOnTurnLong_heldLongSkipsThirdSlot() public {
        _trade(carol, fresh, 200e18);
        _trade(dave, fresh, -100e18);
        vm.prank(guarantor);
        futures.demandDeliveryProof(fresh, dave);
        assertGt(futures.positionOf(fresh, dave).proofDeadline, 0);
        _trade(dave, fresh, 150e18); // short 100 → long 50
        assertEq(futures.positionOf(fresh, dave).proofDeadline, 0, "demand kept on a long");
        (IFuturesTypes.Order memory o, bytes memory sig) = _signedOrder(fresh, false, 10e18, 11);
        bytes32 third = bytes32(
            uint256(keccak256(abi.encode(dave, keccak256(abi.encode(fresh, FUTURES_LOCATION + POSITIONS_SLOT))))) + 2
        );
        vm.record();
        vm.prank(dave);
        futures.fillOrder(o, sig, 10e18); // dave's held long grows
        (bytes32[] memory reads, bytes32[] memory writes) = vm.accesses(address(futures));
        for (uint256 i; i < reads.length; ++i) assertTrue(reads[i] != third, "third slot read");
        for (uint256 i; i < writes.length; ++i) assertTrue(writes[i] != third, "third slot written");
        assertEq(_size(fresh, dave), 60e18);
        _trade(dave, fresh, -100e18); // long 60 → short 40: no demand carried over
        assertEq(futures.positionOf(fresh, dave).proofDeadline, 0);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesDemandNotDue.selector, fresh, dave, uint64(0)));
        futures.closeUnproven(fresh, dave);
    }
}
