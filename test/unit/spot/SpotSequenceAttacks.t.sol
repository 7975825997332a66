// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SpotSolBase} from "../../helpers/SpotSolBase.sol";
import {ISpotMarketErrors} from "../../../contracts/interfaces/markets/ISpotMarketErrors.sol";

/// @notice Round 48: sequence attacks on the spot market's DPS seats (stake, request, re-stake, withdraw).
contract SpotSequenceAttacksTest is SpotSolBase {
    address internal lp = makeAddr("seatHolder");
    address internal other = makeAddr("otherSeat");

    function setUp() public {
        _deploySpot();
        _fund(lp);
        _fund(other);
        uint256[] memory mins = new uint256[](2);
        uint256[] memory discounts = new uint256[](2);
        mins[0] = 100e18;
        mins[1] = 1_000e18;
        discounts[0] = 2_000;
        discounts[1] = 5_000;
        spot.setSeatTiers(mins, discounts);
        spot.setUnstakeDelay(7 days);
    }

    /// ACC-01 / ACC-03: stake, request the whole stake, re-stake a little, request again and withdraw: the holder
    /// gets back exactly what it staked and requested, never the re-staked part; the tier follows only the stake
    /// not requested; the market's DPS balance always equals staked + pending, across two holders.
    function test_stakeRequestRestakeWithdraw_paysOnlyPending_balanceConserved() public {
        vm.prank(other);
        spot.stakeSeat(500e18);
        vm.startPrank(lp);
        spot.stakeSeat(1_000e18);
        assertEq(spot.seatDiscountBps(lp), 5_000);
        spot.requestUnstake(1_000e18);
        assertEq(spot.seatDiscountBps(lp), 0, "the tier drops at the request");
        spot.stakeSeat(100e18);
        assertEq(spot.seatDiscountBps(lp), 2_000, "only the new stake counts");
        vm.expectRevert(abi.encodeWithSelector(ISpotMarketErrors.SpotInsufficientStake.selector, lp, 101e18, 100e18));
        spot.requestUnstake(101e18);
        vm.stopPrank();
        _assertSeatsBacked();

        vm.warp(block.timestamp + 7 days);
        uint256 before = dps.balanceOf(lp);
        vm.prank(lp);
        assertEq(spot.withdrawUnstaked(), 1_000e18);
        assertEq(dps.balanceOf(lp) - before, 1_000e18);
        vm.prank(lp);
        vm.expectRevert();
        spot.withdrawUnstaked(); // nothing pending: no second payout
        assertEq(spot.seat(lp).stakedDps, 100e18);
        _assertSeatsBacked();
    }

    /// ACC-03: a second request restarts the delay for the whole pending amount, so staking and requesting in
    /// steps cannot withdraw any part earlier than the delay after the last request.
    function test_secondRequest_cannotWithdrawEarlierPart() public {
        vm.startPrank(lp);
        spot.stakeSeat(1_000e18);
        spot.requestUnstake(400e18);
        vm.warp(block.timestamp + 6 days);
        spot.requestUnstake(100e18);
        vm.warp(block.timestamp + 2 days); // 8 days after the first request, 2 after the second
        vm.expectRevert();
        spot.withdrawUnstaked();
        vm.warp(block.timestamp + 5 days);
        assertEq(spot.withdrawUnstaked(), 500e18);
        vm.stopPrank();
        _assertSeatsBacked();
    }

    function _assertSeatsBacked() internal view {
        (uint256 staked, uint256 pending) = spot.totalSeatDps();
        assertEq(dps.balanceOf(address(spot)), staked + pending, "DPS held = staked + pending");
    }
}
