// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OptionsSolBase} from "../helpers/OptionsSolBase.sol";
import {IOptionsMarket, IOptionsMarketTypes} from "../../contracts/interfaces/markets/IOptionsMarket.sol";
import {IKeeperCompatible} from "../../contracts/interfaces/keepers/IKeeperCompatible.sol";
import {IOptionsMarketEvents} from "../../contracts/interfaces/markets/IOptionsMarketEvents.sol";
import {IOptionsMarketErrors} from "../../contracts/interfaces/markets/IOptionsMarketErrors.sol";

/// @notice Edge paths of OptionsMarket and its settlement module: every OptionsInvalidParam bound, malformed
///         upkeep data, an out-of-range price correction, the position guards of close / transferLong, the margin
///         check of a writer holding positions in another market, the checker over a failing oracle, and the
///         zero-address guards.
contract OptionsEdgesTest is OptionsSolBase {
    bytes4 internal constant ZERO = bytes4(keccak256("ChxZeroAddress()"));
    address internal writer = makeAddr("writer");
    address internal holder = makeAddr("holder");

    function setUp() public {
        _deployOptions();
        _fundAccount(writer, 1_000e6);
    }

    function _expectBad(IOptionsMarketTypes.Params memory p, string memory what, uint256 value) internal {
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsInvalidParam.selector, what, value));
        options.setParams(p);
    }

    function test_params_everyBound() public {
        IOptionsMarketTypes.Params memory base = options.params();
        IOptionsMarketTypes.Params memory p = base;
        p.makerFeeBps = 301;
        _expectBad(p, "makerFeeBps", 301);
        p = options.params();
        p.takerFeeBps = 301;
        _expectBad(p, "takerFeeBps", 301);
        p = options.params();
        p.disputeWindowSec = 3 days + 1;
        _expectBad(p, "disputeWindowSec", 3 days + 1);
        p = options.params();
        p.expiryGridSec = 30 days + 1;
        _expectBad(p, "expiryGridSec", 30 days + 1);
        p = options.params();
        p.expiryOffsetSec = p.expiryGridSec;
        _expectBad(p, "expiryOffsetSec", p.expiryGridSec);
        p = options.params();
        p.maxHorizonSec = p.minTimeToExpirySec;
        _expectBad(p, "maxHorizonSec", p.minTimeToExpirySec);
        p = options.params();
        p.maxStrikeDeviationBps = 10_001;
        _expectBad(p, "maxStrikeDeviationBps", 10_001);
        p = options.params();
        p.callCapBps = 99;
        _expectBad(p, "callCapBps", 99);
        p = options.params();
        p.maxLiveSeries = 1_001;
        _expectBad(p, "maxLiveSeries", 1_001);
        p = options.params();
        p.bountyUsdc = 5e6 + 1;
        _expectBad(p, "bountyUsdc", 5e6 + 1);
        p = options.params();
        p.strikeStepWad = 0;
        _expectBad(p, "strikeStepWad", 0);
        p = options.params();
        p.maxCorrectionBps = 5_001;
        _expectBad(p, "maxCorrectionBps", 5_001);
        p = options.params();
        p.listingBondPerDayUsdc = 1_000e6 + 1;
        _expectBad(p, "listingBondPerDayUsdc", 1_000e6 + 1);
        // The defaults themselves are within bounds (and the bounds are inclusive).
        p = options.params();
        p.makerFeeBps = 300;
        p.bountyUsdc = 5e6;
        vm.expectEmit(address(options));
        emit IOptionsMarketEvents.ParamsSet(p);
        options.setParams(p);
        assertEq(options.params().bountyUsdc, 5e6);
    }

    function test_upkeep_malformedDataRejected() public {
        vm.expectRevert(IOptionsMarketErrors.OptionsInvalidUpkeep.selector);
        IKeeperCompatible(address(options)).performUpkeep(hex"01020304");
        vm.expectRevert(IOptionsMarketErrors.OptionsInvalidUpkeep.selector);
        IKeeperCompatible(address(options)).performUpkeep(
            abi.encodeWithSelector(IOptionsMarket.withdrawFees.selector, 1)
        );
    }

    function test_correction_priceOutOfRange() public {
        vm.warp(expiry);
        options.fixSettlementPrice(1);
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsInvalidPrice.selector, 0));
        options.correctSettlementPrice(1, 0);
        uint256 tooBig = uint256(type(uint128).max) + 1;
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsInvalidPrice.selector, tooBig));
        options.correctSettlementPrice(1, tooBig);
        assertEq(options.series(1).settlementPriceWad, PRICE0);
    }

    /// Issue 17 item 13: the guardian could set any settlement price. A correction is now bounded by
    /// maxCorrectionBps (default 10 %, as futures) around the price the oracle fixed, so corrections cannot walk it.
    function test_guardianCorrection_cannotMoveThePriceBeyondTheBound() public {
        vm.warp(expiry);
        options.fixSettlementPrice(1); // the oracle's price: 10
        bytes memory tooLarge = abi.encodeWithSignature(
            "OptionsCorrectionTooLarge(uint256,uint256,uint256,uint256)",
            1,
            10e18,
            20e18,
            1_000
        );
        vm.expectRevert(tooLarge);
        options.correctSettlementPrice(1, 20e18);
        options.correctSettlementPrice(1, 11e18); // + 10 %: inside the bound
        options.correctSettlementPrice(1, 9e18); // − 10 % from the oracle's price, not from the correction
        vm.expectRevert(
            abi.encodeWithSignature(
                "OptionsCorrectionTooLarge(uint256,uint256,uint256,uint256)",
                1,
                10e18,
                8.99e18,
                1_000
            )
        );
        options.correctSettlementPrice(1, 8.99e18);
        assertEq(options.series(1).settlementPriceWad, 9e18);
    }

    /// @dev The next grid expiry (08:00) at least `minDays` away.
    function _gridExpiry(uint256 minDays) internal view returns (uint64) {
        return uint64(((block.timestamp + minDays * 1 days) / 1 days) * 1 days + 8 hours);
    }

    /// Issue 17 item 25: an attacker filled the permissionless listing slots with far-dated series nobody uses and
    /// kept them for the whole 90-day horizon. A listing nobody has used can be removed by anyone after a day.
    function test_unusedListings_cannotSquatSlotsFor90Days() public {
        IOptionsMarketTypes.Params memory p = options.params();
        p.maxLiveSeries = 4; // the base's two governance series + two free slots
        options.setParams(p);
        address attacker = makeAddr("attacker");
        _fundAccount(attacker, 1_000e6);
        _fundAccount(holder, 100e6);
        uint64 far = _gridExpiry(89);
        vm.startPrank(attacker);
        uint256 a = options.listStandardSeries(IOptionsMarketTypes.OptionKind.Call, 14e18, far);
        options.listStandardSeries(IOptionsMarketTypes.OptionKind.Put, 6e18, far);
        vm.stopPrank();
        vm.prank(holder);
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsTooManyLiveSeries.selector, 4, 4));
        options.listStandardSeries(IOptionsMarketTypes.OptionKind.Call, 11e18, _gridExpiry(7));
        vm.warp(block.timestamp + 1 days + 1);
        vm.prank(holder);
        (bool ok, ) = address(options).call(abi.encodeWithSignature("delistSeries(uint256)", a));
        assertTrue(ok, "an unused listing can be removed after a day");
        vm.prank(holder);
        options.listStandardSeries(IOptionsMarketTypes.OptionKind.Call, 11e18, _gridExpiry(7));
        assertEq(options.liveSeries(), 4);
    }

    /// The listing bond: 0.5 USDC per started day to expiry from the lister's collateral, held in the reserve;
    /// a delisting pays the caller the keeper bounty from it and the rest becomes fee income; the key is free again.
    function test_delist_forfeitsTheBondAndFreesTheKey() public {
        address lister = makeAddr("lister");
        _fundAccount(lister, 100e6);
        uint64 e = _gridExpiry(10); // 10 days + up to 8 h: 11 started days
        uint256 bond = 0.5e6 * ((e - block.timestamp + 1 days - 1) / 1 days);
        vm.prank(lister);
        uint256 id = options.listStandardSeries(IOptionsMarketTypes.OptionKind.Put, 9e18, e);
        assertEq(chouse.collateralOf(lister), int256(100e6 - bond));
        IOptionsMarketTypes.Series memory sr = options.series(id);
        assertEq(sr.lister, lister);
        assertEq(sr.listingBondUsdc, bond);
        (uint256 fees0, uint256 reserved0) = options.poolClaims();
        // not yet: inside the grace day
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsNotDelistable.selector, id, 0, block.timestamp + 1 days)
        );
        options.delistSeries(id);
        // governance listings are never delistable
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsNotDelistable.selector, 1, 0, 0));
        options.delistSeries(1);
        vm.warp(block.timestamp + 1 days);
        uint256 live = options.liveSeries();
        vm.expectEmit(address(options));
        emit IOptionsMarketEvents.SeriesDelisted(id, holder, bond, 0.5e6, live - 1);
        vm.prank(holder);
        options.delistSeries(id);
        assertEq(options.liveSeries(), live - 1);
        assertEq(chouse.collateralOf(holder), 0.5e6);
        (uint256 fees1, uint256 reserved1) = options.poolClaims();
        assertEq(reserved0 - reserved1, bond);
        assertEq(fees1 - fees0, bond - 0.5e6);
        assertEq(uint8(options.seriesStatus(id)), uint8(IOptionsMarketTypes.SeriesStatus.None));
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsUnknownSeries.selector, id));
        options.delistSeries(id);
        // the same strike and expiry can be listed again
        vm.prank(lister);
        assertGt(options.listStandardSeries(IOptionsMarketTypes.OptionKind.Put, 9e18, e), id);
    }

    /// A listing somebody used cannot be removed; its bond is forfeited at the fix unless its fills produced at least
    /// the bond in fees (a squatter who writes dust into its listings keeps the slot but pays the bond).
    function test_usedListing_bondRefundedOnlyAgainstFees() public {
        address lister = makeAddr("lister");
        _fundAccount(lister, 100e6);
        uint64 e = _gridExpiry(2);
        vm.prank(lister);
        uint256 id = options.listStandardSeries(IOptionsMarketTypes.OptionKind.Put, 9e18, e);
        uint256 bond = options.series(id).listingBondUsdc;
        vm.prank(lister);
        options.write(id, 1e12); // dust
        vm.warp(block.timestamp + 1 days);
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsNotDelistable.selector, id, 1, block.timestamp)
        );
        options.delistSeries(id);
        vm.warp(e);
        (uint256 fees0, ) = options.poolClaims();
        vm.expectEmit(address(options));
        emit IOptionsMarketEvents.ListingBondReleased(id, lister, bond, false, 0);
        options.fixSettlementPrice(id);
        (uint256 fees1, ) = options.poolClaims();
        // the forfeited bond became fee income and paid the fix bounty (0.5 USDC) out of it
        assertEq(fees1 + 0.5e6, fees0 + bond);
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsNotDelistable.selector, id, 1, 0));
        options.delistSeries(id);
    }

    function test_positions_closeAndTransferGuards() public {
        vm.prank(writer);
        options.write(1, 10e18);
        vm.startPrank(writer);
        vm.expectRevert(ZERO);
        options.transferLong(1, address(0), 1e18);
        vm.expectRevert(abi.encodeWithSelector(IOptionsMarketErrors.OptionsSelfTrade.selector, writer));
        options.transferLong(1, writer, 1e18);
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsInsufficientLong.selector, 1, writer, 11e18, 10e18)
        );
        options.transferLong(1, holder, 11e18);
        options.transferLong(1, holder, 4e18);
        vm.stopPrank();
        // The holder has longs but no short to net them against.
        vm.prank(holder);
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsInsufficientShort.selector, 1, holder, 1e18, 0)
        );
        options.close(1, 1e18);
        assertEq(options.positionOf(1, holder).longCh, 4e18);
        assertEq(options.positionOf(1, writer).longCh, 6e18);
        assertEq(options.positionOf(1, writer).shortCh, 10e18);
    }

    /// A writer with a position in another market may post option collateral only while its equity stays at or
    /// above its initial margin.
    function test_write_keepsInitialMarginOfOtherPositions() public {
        address alice = makeAddr("alice");
        _setupGuarantor(guarantor, false, 1_000e6);
        _fundMarket(1_000e6);
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        market.trade(50e18); // notional 500 at 10, IM 10 % = 50
        // a put struck at 8 (cap 8) posts 8 USDC per CH: 8 CH → 64 USDC, leaving equity 36 < IM 50
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IOptionsMarketErrors.OptionsInsufficientMargin.selector, alice, 50e6, int256(36e6))
        );
        options.write(1, 8e18);
        vm.prank(alice);
        assertEq(options.write(1, 6e18), 48e6); // equity 52 ≥ 50
        assertEq(chouse.collateralOf(alice), 52e6);
    }

    function test_views_payoffPerCh() public view {
        assertEq(options.payoffPerCh(1, 5e18), 3e18); // put 8 at 5
        assertEq(options.payoffPerCh(1, 9e18), 0);
        assertEq(options.payoffPerCh(2, 15e18), 3e18); // call 12 at 15
        assertEq(options.payoffPerCh(2, 30e18), 6e18); // capped at 6
    }

    /// The checker skips an expired series whose price cannot be fixed yet (oracle reverting) instead of failing.
    function test_checker_skipsWhileOracleFails() public {
        vm.warp(expiry);
        (bool canExec, ) = options.checker();
        assertTrue(canExec);
        oracle.setInvalid(true);
        bytes memory payload;
        (canExec, payload) = options.checker();
        assertFalse(canExec);
        assertEq(payload.length, 0);
    }

    function test_zeroAddressesRejected() public {
        vm.expectRevert(ZERO);
        options.setFuturesMarket(address(0));
        vm.expectRevert(ZERO);
        options.setFeeRecipient(address(0));
        vm.expectRevert(IOptionsMarketErrors.OptionsFuturesMarketNotSet.selector);
        options.listSeries(
            IOptionsMarketTypes.SeriesParams(IOptionsMarketTypes.OptionKind.Put, true, 1, expiry, 8e18, 0)
        );
        address impl = deployCode("OptionsMarket.sol:OptionsMarket");
        address settlement = options.settlementModule();
        vm.expectRevert(ZERO);
        _proxy(
            impl,
            abi.encodeWithSignature(
                "initialize(address,address,address,address,address)",
                address(manager),
                address(0),
                address(oracle),
                address(this),
                settlement
            )
        );
    }
}
