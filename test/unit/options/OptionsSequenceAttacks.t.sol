// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OptionsSolBase} from "../../helpers/OptionsSolBase.sol";
import {IOptionsMarket, IOptionsMarketTypes} from "../../../contracts/interfaces/markets/IOptionsMarket.sol";
import {IOptionsMarketErrors} from "../../../contracts/interfaces/markets/IOptionsMarketErrors.sol";
import {IKeeperCompatible} from "../../../contracts/interfaces/keepers/IKeeperCompatible.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {MockFuturesExercise} from "../../../contracts/mocks/MockFuturesExercise.sol";

/// @notice Sequence attacks on the options market (round 49): a second account, a transfer or a governance change
///         between two steps, a pull exercise inside a paged settlement, a delisting race, a ClearingHouse
///         liquidation and pauses between the fix and the settlement. Each test asserts the protocol's correct
///         behaviour (MKT-07, ACC-01, ACC-02, SEC-03). Series 1: put 8 (cap 8); series 2: call 12 capped at 6.
contract OptionsSequenceAttacksTest is OptionsSolBase {
    uint256 internal constant MAKER_PK = 0xA11CE;
    address internal maker = vm.addr(MAKER_PK);
    uint256 internal constant WRITER_PK = 0xB0B;
    uint256 internal constant HOLDER2_PK = 0xC0C;
    address internal writer = vm.addr(WRITER_PK);
    address internal holder = makeAddr("holder");
    address internal holder2 = vm.addr(HOLDER2_PK);
    address internal keeper = makeAddr("keeper");

    function setUp() public {
        _deployOptions();
        _fundAccount(writer, 1_000e6);
        _fundAccount(holder, 100e6);
        _fundAccount(holder2, 100e6);
        _fundAccount(maker, 1_000e6);
    }

    // ------------------------------------------------------------------ helpers

    function _offer(
        uint256 seriesId,
        bool isBuy,
        uint256 sizeCh,
        uint256 nonce
    ) internal view returns (IOptionsMarketTypes.Offer memory) {
        return IOptionsMarketTypes.Offer(maker, seriesId, isBuy, sizeCh, 0.5e18, nonce, uint64(expiry), address(0));
    }

    function _sign(
        IOptionsMarket market,
        uint256 pk,
        IOptionsMarketTypes.Offer memory o
    ) internal view returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(pk, market.offerHash(o));
        return abi.encodePacked(r, s, v);
    }

    function _fix(uint256 seriesId, uint256 priceWad) internal {
        vm.warp(expiry);
        oracle.setPrice(priceWad);
        options.fixSettlementPrice(seriesId);
    }

    /// @dev MKT-07 and ACC-01 for one series and the whole pool.
    function _assertConservation(uint256 seriesId) internal view {
        IOptionsMarketTypes.Series memory s = options.series(seriesId);
        assertLe(uint256(s.paidUsdc) + s.releasedUsdc, s.postedUsdc, "MKT-07: paid + released <= posted");
        (uint256 fees, uint256 reserved) = options.poolClaims();
        (, int256 pool) = chouse.marketInfo(address(options));
        assertGe(pool, int256(fees + reserved), "ACC-01: pool >= fees + reserves");
    }

    // ------------------------------------------------------------------ MKT-07: collateral stays reserved

    /// Sequence: the writer writes and sells every long (signed offer), the buyer passes part of them to a second
    /// account, the writer tries to close and to withdraw everything, buys part back and closes it, then the index
    /// collapses. MKT-07: the writer can never free the collateral of a short whose long is held by someone else;
    /// what stays after the partial close still pays both holders at the extreme payoff.
    function test_writerAfterLongResold_cannotFreeReservedCollateral_MKT07() public {
        vm.prank(writer);
        options.write(1, 10e18); // 80 USDC posted
        IOptionsMarketTypes.Offer memory sell = IOptionsMarketTypes.Offer(
            writer,
            1,
            false,
            10e18,
            0.5e18,
            1,
            uint64(expiry),
            address(0)
        );
        bytes memory sellSig = _sign(options, WRITER_PK, sell);
        vm.prank(holder);
        options.fillOffer(sell, sellSig, 10e18); // longs delivered first: no new writing
        assertEq(options.positionOf(1, writer).longCh, 0);
        assertEq(options.positionOf(1, writer).shortCh, 10e18);
        vm.prank(holder);
        options.transferLong(1, holder2, 6e18);

        // the writer has no long left to net against its short
        vm.prank(writer);
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsInsufficientLong.selector, 1, writer, 1e18, 0)
        );
        options.close(1, 1e18);

        // buys 4 back from the second account (which sells its longs, writing nothing) and closes them
        IOptionsMarketTypes.Offer memory back = IOptionsMarketTypes.Offer(
            holder2,
            1,
            false,
            4e18,
            0.5e18,
            1,
            uint64(expiry),
            address(0)
        );
        bytes memory backSig = _sign(options, HOLDER2_PK, back);
        vm.prank(writer);
        options.fillOffer(back, backSig, 4e18);
        assertEq(options.positionOf(1, holder2).shortCh, 0, "the seller wrote nothing");
        vm.prank(writer);
        assertEq(options.close(1, 4e18), 32e6, "4/10 of the collateral");
        vm.prank(writer);
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsInsufficientLong.selector, 1, writer, 1e18, 0)
        );
        options.close(1, 1e18);
        assertEq(options.positionOf(1, writer).collateralUsdc, 48e6, "6 shorts x 8 stay reserved");

        // everything withdrawable leaves; the reserved 48 does not
        uint256 free = uint256(chouse.collateralOf(writer));
        assertEq(free, 1_000e6 - 80e6 + 4.995e6 - 2.006e6 + 32e6);
        vm.prank(writer);
        chouse.withdraw(free, writer);
        vm.prank(writer);
        vm.expectRevert();
        chouse.withdraw(1, writer);

        // the index collapses to 0.001: payoff 7.999 per CH, nearly the whole collateral is owed
        _fix(1, 1e15);
        vm.warp(block.timestamp + 1 hours);
        assertEq(options.exercise(1, holder), 31.996e6);
        assertEq(options.exercise(1, holder2), 15.998e6);
        assertEq(options.exercise(1, writer), 0);
        assertEq(chouse.collateralOf(writer), 0.006e6, "48 - ceil(6 x 7.999)");
        options.settleSeries(1, 100);
        _assertConservation(1);
    }

    // ------------------------------------------------------------------ SEC-03: replay

    /// Sequence: an offer is partially filled by a first taker, the maker raises its minimum nonce, a second taker
    /// replays the same signed offer for the rest; then the same signature is replayed on a second options market
    /// (another verifying contract) with the same series. SEC-03: both replays are rejected and nothing moves.
    function test_partialFill_thenNonceRaised_replayRejectedHereAndOnAnotherMarket_SEC03() public {
        IOptionsMarketTypes.Offer memory o = _offer(1, false, 10e18, 3);
        bytes memory sig = _sign(options, MAKER_PK, o);
        vm.prank(holder);
        options.fillOffer(o, sig, 6e18);
        vm.prank(maker);
        options.raiseMinNonce(4);
        bytes32 hash = options.offerHash(o);
        vm.prank(holder2);
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsNonceBelowMinimum.selector, maker, 3, 4));
        options.fillOffer(o, sig, 4e18);
        (uint256 filled, ) = options.offerState(hash);
        assertEq(filled, 6e18);
        assertEq(options.positionOf(1, maker).shortCh, 6e18);
        assertEq(options.positionOf(1, holder2).longCh, 0);

        // a second market (same series id 1, same maker, same nonce): the signature binds the first market
        IOptionsMarket other = IOptionsMarket(_deployOptionsMarket(stack, address(oracle), address(this)));
        other.listSeries(
            IOptionsMarketTypes.SeriesParams(IOptionsMarketTypes.OptionKind.Put, false, 0, expiry, 8e18, 0)
        );
        bytes32 otherHash = other.offerHash(o);
        vm.prank(holder2);
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsInvalidSignature.selector, maker, otherHash)
        );
        other.fillOffer(o, sig, 4e18);
        assertEq(other.positionOf(1, holder2).longCh, 0);
    }

    // ------------------------------------------------------------------ MKT-07: correction after settlement began

    /// Sequence: the price is fixed and becomes final, the writer is settled at it, governance then raises
    /// disputeWindowSec (so the series would be disputable again) and the guardian corrects the price; the holder
    /// settles next. MKT-07: the dispute window is fixed when the price is fixed, so the correction is refused and
    /// the holder is paid at the price the writer was settled at (paid + released = posted; the series completes).
    function test_disputeWindowRaisedAfterSettlementBegan_cannotRepriceTheRest_MKT07() public {
        vm.prank(writer);
        options.write(1, 10e18); // 80 posted
        vm.prank(writer);
        options.transferLong(1, holder, 10e18);
        _fix(1, 6e18); // payoff 2
        uint256 fixedAt = block.timestamp;
        vm.warp(fixedAt + 1 hours);
        assertEq(options.exercise(1, writer), 0);
        assertEq(chouse.collateralOf(writer), int256(1_000e6 - 80e6 + 60e6), "released 80 - 20");

        IOptionsMarketTypes.Params memory p = options.params();
        p.disputeWindowSec = 3 days;
        options.setParams(p);
        assertEq(uint8(options.seriesStatus(1)), uint8(IOptionsMarketTypes.SeriesStatus.Final), "still final");
        vm.expectRevert(
            abi.encodeWithSelector(
                IOptionsMarketErrors.OptionsNotDisputable.selector,
                1,
                fixedAt + 1 hours,
                block.timestamp
            )
        );
        options.correctSettlementPrice(1, 5.4e18); // would make the payoff 2.6: 26 paid against 20 owed

        assertEq(options.exercise(1, holder), 20e6);
        (, bool done) = options.settleSeries(1, 100);
        assertTrue(done);
        IOptionsMarketTypes.Series memory s = options.series(1);
        assertEq(uint256(s.paidUsdc) + s.releasedUsdc, s.postedUsdc);
        _assertConservation(1);
    }

    /// Sequence: the price is fixed, then governance shortens disputeWindowSec before the window ends and a settler
    /// races the guardian. The guardian keeps the window the fix announced (SettlementPriceFixed's finalAt): nobody
    /// can settle early, the correction inside it applies to everyone (MKT-07).
    function test_disputeWindowShortenedAfterFix_guardianKeepsTheAnnouncedWindow_MKT07() public {
        vm.prank(writer);
        options.write(1, 10e18);
        vm.prank(writer);
        options.transferLong(1, holder, 10e18);
        _fix(1, 6e18);
        uint256 fixedAt = block.timestamp;
        IOptionsMarketTypes.Params memory p = options.params();
        p.disputeWindowSec = 10 minutes;
        options.setParams(p);
        vm.warp(fixedAt + 30 minutes);
        vm.expectRevert(
            abi.encodeWithSelector(
                IOptionsMarketErrors.OptionsSettlementNotFinal.selector,
                1,
                fixedAt + 1 hours,
                block.timestamp
            )
        );
        options.exercise(1, holder);
        options.correctSettlementPrice(1, 5.4e18); // payoff 2.6
        vm.warp(fixedAt + 1 hours);
        assertEq(options.exercise(1, holder), 26e6);
        assertEq(options.exercise(1, writer), 0);
        assertEq(chouse.collateralOf(writer), int256(1_000e6 - 80e6 + 54e6));
        _assertConservation(1);
    }

    // ------------------------------------------------------------------ paged settlement vs pull exercise

    /// Sequence: a keeper settles the first page, a holder further down is exercised by pull, the same holder is
    /// pulled again, an account listed twice (closed to empty, then wrote again) is met twice, a second keeper
    /// finishes, then both keepers and a pull retry. MKT-07 / ACC-01: every account is credited once, the bounty is
    /// paid only for credited accounts, the series completes with paid + released = posted and a zero reserve.
    function test_pagedSettlementInterleavedWithPull_eachAccountOnceBountyOnce_MKT07() public {
        address w2 = makeAddr("w2");
        address h3 = makeAddr("h3");
        address keeper2 = makeAddr("keeper2");
        _fundAccount(w2, 100e6);
        vm.startPrank(writer);
        options.write(1, 10e18); // #0
        options.transferLong(1, holder, 5e18); // #1
        options.transferLong(1, holder2, 5e18); // #2
        vm.stopPrank();
        vm.startPrank(w2);
        options.write(1, 2e18); // #3, 16 posted
        options.close(1, 2e18); // empty again
        options.write(1, 3e18); // listed again: #4, 24 posted
        options.transferLong(1, h3, 3e18); // #5
        vm.stopPrank();
        assertEq(options.series(1).accountCount, 6);
        _fix(1, 6e18); // payoff 2
        vm.warp(block.timestamp + 1 hours);
        int256 h2Before = chouse.collateralOf(holder2);

        vm.prank(keeper);
        (uint256 steps, bool done) = options.settleSeries(1, 2); // writer (release 60), holder (paid 10)
        assertEq(steps, 2);
        assertFalse(done);
        assertEq(chouse.collateralOf(keeper), 1e6, "two credited accounts");

        assertEq(options.exercise(1, holder2), 10e6);
        assertEq(options.exercise(1, holder2), 0, "pulled twice: nothing more");
        assertEq(options.exercise(1, holder), 0, "already settled by the page");

        vm.prank(keeper2);
        (, done) = options.settleSeries(1, 100); // holder2 empty, w2, w2 again (empty), h3
        assertTrue(done);
        assertEq(chouse.collateralOf(keeper2), 1e6, "w2 and h3 only: no bounty from empty entries");
        assertEq(chouse.collateralOf(holder2) - h2Before, 10e6);
        assertEq(chouse.collateralOf(h3), 6e6 - 0.5e6);
        assertEq(chouse.collateralOf(w2), int256(100e6 - 24e6 + 18e6 - 0.5e6));

        vm.prank(keeper);
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsAlreadyDone.selector, 1, IOptionsMarketTypes.Work.Settle)
        );
        options.settleSeries(1, 100);
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsAlreadyDone.selector, 1, IOptionsMarketTypes.Work.Settle)
        );
        options.exercise(1, h3);
        vm.prank(keeper2);
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsAlreadyDone.selector, 1, IOptionsMarketTypes.Work.Settle)
        );
        IKeeperCompatible(address(options)).performUpkeep(abi.encodeCall(IOptionsMarket.settleSeries, (1, 100)));
        assertEq(chouse.collateralOf(keeper), 1e6);
        assertEq(chouse.collateralOf(keeper2), 1e6);

        IOptionsMarketTypes.Series memory s = options.series(1);
        assertEq(s.paidUsdc, 26e6);
        assertEq(s.releasedUsdc, 16e6 + 60e6 + 18e6);
        assertEq(s.postedUsdc, 120e6);
        assertEq(s.openInterestCh, 0, "ACC-02");
        (, uint256 reserved) = options.poolClaims();
        assertEq(reserved, 0);
        _assertConservation(1);
    }

    /// Sequence (futures option, in the money): a keeper pairs the first holder page by page, the second holder is
    /// exercised by pull in between (pairing from the shared writer cursor), then the keeper finishes. MKT-07 /
    /// ACC-02: every writer's collateral is released exactly once, the futures opened equal the longs, open interest
    /// ends at zero and paid + released = posted.
    function test_futuresPagedPairingInterleavedWithPull_eachWriterReleasedOnce_MKT07() public {
        MockFuturesExercise fx = new MockFuturesExercise(address(0));
        fx.setSeries(7, expiry + 30 days, true);
        options.setFuturesMarket(address(fx));
        uint256 id = options.listSeries(
            IOptionsMarketTypes.SeriesParams(IOptionsMarketTypes.OptionKind.Put, true, 7, expiry, 8e18, 0)
        );
        address w2 = makeAddr("w2");
        address w3 = makeAddr("w3");
        _fundAccount(w2, 100e6);
        _fundAccount(w3, 100e6);
        vm.prank(writer);
        options.write(id, 4e18); // #0
        vm.prank(writer);
        options.transferLong(id, holder, 4e18); // #1
        vm.prank(w2);
        options.write(id, 4e18); // #2
        vm.prank(w2);
        options.transferLong(id, holder, 2e18);
        vm.prank(w2);
        options.transferLong(id, holder2, 2e18); // #3
        vm.prank(w3);
        options.write(id, 4e18); // #4
        vm.prank(w3);
        options.transferLong(id, holder2, 4e18);
        _fix(id, 6e18);
        vm.warp(block.timestamp + 1 hours);

        vm.prank(keeper);
        (, bool done) = options.settleSeries(id, 2); // writer (nothing to pair), holder <-> writer
        assertFalse(done);
        options.exercise(id, holder2); // pulls from the writer cursor on: w2 then w3
        options.exercise(id, holder2);
        vm.prank(keeper);
        (, done) = options.settleSeries(id, 100);
        assertTrue(done);

        assertEq(fx.netSize(7, holder), -6e18, "put holder short 6");
        assertEq(fx.netSize(7, holder2), -6e18, "put holder short 6");
        assertEq(fx.netSize(7, writer) + fx.netSize(7, w2) + fx.netSize(7, w3), 12e18);
        assertEq(fx.netSize(7, writer), 4e18);
        assertEq(fx.netSize(7, w2), 4e18);
        assertEq(fx.netSize(7, w3), 4e18);
        IOptionsMarketTypes.Series memory s = options.series(id);
        assertEq(s.openInterestCh, 0, "ACC-02");
        assertEq(s.releasedUsdc, 96e6, "each writer's 32 once");
        assertEq(s.paidUsdc, 0);
        (, uint256 reserved) = options.poolClaims();
        assertEq(reserved, 0);
        int256 released =
            chouse.collateralOf(writer) +
                chouse.collateralOf(w2) +
                chouse.collateralOf(w3) +
                chouse.collateralOf(keeper) -
                int256(1_200e6 - 96e6);
        assertEq(released, 96e6, "writers + bounties got exactly the collateral back");
        _assertConservation(id);
    }

    // ------------------------------------------------------------------ listing bond / delisting

    /// Sequence: a permissionless listing, a maker signs an offer on it, the listing is delisted (unused) before
    /// the fill, delisted again, re-listed at the same key by someone else, the old offer replayed, the new listing
    /// used and its price fixed, then delisted. SEC-03 / ACC-01: the old offer cannot fill the new series, no series
    /// is delisted twice or after use or after its fix, the live count drops exactly once per series.
    function test_delistRace_relistAtSameKey_oldOfferDead_liveCountOnce_ACC01() public {
        uint64 e = uint64(((block.timestamp + 3 days) / 1 days) * 1 days + 8 hours);
        address lister = makeAddr("lister");
        _fundAccount(lister, 100e6);
        uint256 live0 = options.liveSeries();
        vm.prank(lister);
        uint256 id = options.listStandardSeries(IOptionsMarketTypes.OptionKind.Put, 9e18, e);
        IOptionsMarketTypes.Offer memory o = _offer(id, false, 5e18, 1);
        o.expiry = e;
        bytes memory sig = _sign(options, MAKER_PK, o);
        vm.warp(block.timestamp + 1 days);
        vm.prank(keeper);
        options.delistSeries(id); // front-runs the fill
        vm.prank(holder);
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsUnknownSeries.selector, id));
        options.fillOffer(o, sig, 5e18);
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsUnknownSeries.selector, id));
        options.delistSeries(id);
        assertEq(options.liveSeries(), live0);

        vm.prank(holder2);
        uint256 id2 = options.listStandardSeries(IOptionsMarketTypes.OptionKind.Put, 9e18, e);
        assertGt(id2, id);
        vm.prank(holder);
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsUnknownSeries.selector, id));
        options.fillOffer(o, sig, 5e18);
        IOptionsMarketTypes.Offer memory o2 = o;
        o2.seriesId = id2;
        o2.nonce = 2;
        bytes memory sig2 = _sign(options, MAKER_PK, o2);
        vm.prank(holder);
        options.fillOffer(o2, sig2, 5e18);
        vm.warp(block.timestamp + 1 days);
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsNotDelistable.selector, id2, 2, block.timestamp)
        );
        options.delistSeries(id2);
        vm.warp(e);
        options.fixSettlementPrice(id2);
        assertEq(options.liveSeries(), live0);
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsNotDelistable.selector, id2, 2, 0));
        options.delistSeries(id2);
        assertEq(options.liveSeries(), live0);
        vm.warp(block.timestamp + 1 hours);
        options.settleSeries(id2, 100);
        (, uint256 reserved) = options.poolClaims();
        assertEq(reserved, 0, "bonds and collateral all released");
        _assertConservation(id2);
    }

    // ------------------------------------------------------------------ ClearingHouse liquidation in between

    /// Sequence: a collateralised writer sells its puts, then opens a perp with the rest of its ClearingHouse
    /// collateral, the index falls and the writer is liquidated with a deficit before expiry; the holder exercises
    /// after the fix. MKT-07 / ACC-01: the liquidation cannot seize the option collateral (it sits in the options
    /// pool), the holder is paid in full, the writer's release goes to its own account (towards its deficit).
    function test_writerLiquidatedBetweenWriteAndExpiry_optionCollateralUntouched_holderPaidInFull_MKT07() public {
        address alice = makeAddr("alice");
        _setupGuarantor(guarantor, false, 1_000e6);
        _fundMarket(1_000e6);
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        options.write(1, 5e18); // 40 posted
        vm.prank(alice);
        options.transferLong(1, holder, 5e18);
        vm.prank(alice);
        market.trade(55e18); // notional 550, IM 55 of the 60 left
        (uint256 fees0, uint256 reserved0) = options.poolClaims();
        (, int256 pool0) = chouse.marketInfo(address(options));

        oracle.setPrice(8.5e18); // perp -82.5: collateral -22.5
        vm.prank(keeper);
        liq.liquidate(alice);
        (uint256 fees1, uint256 reserved1) = options.poolClaims();
        (, int256 pool1) = chouse.marketInfo(address(options));
        assertEq(reserved1, reserved0, "option collateral still reserved");
        assertEq(fees1, fees0);
        assertEq(pool1, pool0, "the liquidation did not touch the options pool");
        assertEq(options.positionOf(1, alice).collateralUsdc, 40e6);

        _fix(1, 7e18); // payoff 1
        vm.warp(block.timestamp + 1 hours);
        int256 aliceBefore = chouse.collateralOf(alice);
        assertEq(options.exercise(1, holder), 5e6, "paid in full");
        options.exercise(1, alice);
        assertEq(chouse.collateralOf(alice) - aliceBefore, 35e6, "release to the writer's own account");
        options.settleSeries(1, 100);
        _assertConservation(1);
    }

    // ------------------------------------------------------------------ pauses between fix and settlement

    /// Sequence: price fixed, then every options pause and the ClearingHouse's withdraw, new-risk and per-market
    /// pauses are set; the series is settled half under the pauses, unpaused, then settled again by pull and page.
    /// MKT-07: settlement is never paused (risk-reducing), nothing is paid twice across the unpause, and the
    /// holder's payout waits in its account until withdrawals resume.
    function test_pausesBetweenFixAndSettlement_resumeWithoutDoublePay_MKT07() public {
        vm.prank(writer);
        options.write(2, 10e18); // call 12 capped at 6: 60 posted
        vm.prank(writer);
        options.transferLong(2, holder, 10e18);
        _fix(2, 14e18); // payoff 2
        bytes32[6] memory features = [
            keccak256("options.list"),
            keccak256("options.write"),
            keccak256("options.trade"),
            keccak256("clearing.withdraw"),
            keccak256("clearing.newRisk"),
            keccak256(abi.encode(keccak256("clearing.market"), address(options)))
        ];
        for (uint256 i; i < 3; ++i) IChxModule(address(options)).pauseFeature(features[i]);
        for (uint256 i = 3; i < 6; ++i) IChxModule(address(chouse)).pauseFeature(features[i]);
        vm.warp(block.timestamp + 1 hours);

        vm.prank(keeper);
        (, bool done) = options.settleSeries(2, 1); // the writer: 60 - 20
        assertFalse(done);
        assertEq(chouse.collateralOf(writer), int256(1_000e6 - 60e6 + 40e6 - 0.5e6));
        vm.prank(writer);
        vm.expectRevert();
        chouse.withdraw(1e6, writer);

        for (uint256 i; i < 3; ++i) IChxModule(address(options)).unpauseFeature(features[i]);
        for (uint256 i = 3; i < 6; ++i) IChxModule(address(chouse)).unpauseFeature(features[i]);
        assertEq(options.exercise(2, writer), 0, "no second release after the unpause");
        assertEq(options.exercise(2, holder), 20e6);
        vm.prank(keeper);
        (, done) = options.settleSeries(2, 100);
        assertTrue(done);
        assertEq(chouse.collateralOf(keeper), 0.5e6, "one bounty: the holder was pulled");
        vm.prank(holder);
        chouse.withdraw(120e6, holder);
        IOptionsMarketTypes.Series memory s = options.series(2);
        assertEq(uint256(s.paidUsdc) + s.releasedUsdc, s.postedUsdc);
        _assertConservation(2);
    }
}
