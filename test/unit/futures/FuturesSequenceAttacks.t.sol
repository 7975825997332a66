// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSecuritySetup} from "./FuturesSecuritySetup.sol";

/// @notice Sequence attacks on futures settlement (round 48).
contract FuturesSequenceAttacksTest is FuturesSecuritySetup {
    /// MKT-08 / ACC-01: after finalisation a keeper settles a batch naming alice twice, then alice alone again. Alice
    /// (long 100 CH, the index up 10 -> 12 at expiry) is paid exactly what one settlement pays her, measured on the
    /// same state without the duplicate; bob pays once; the series leaves both flat.
    function test_settleBatchWithDuplicateAccount_paysOnce() public {
        _trade(alice, id, 100e18);
        _trade(bob, id, -100e18);
        _setPrice(12e18);
        _finalise();
        address[] memory once = new address[](2);
        once[0] = alice;
        once[1] = bob;
        address[] memory twice = new address[](3);
        twice[0] = alice;
        twice[1] = alice;
        twice[2] = bob;

        uint256 snap = vm.snapshotState();
        vm.prank(keeper);
        futures.settlePositions(id, once);
        int256 aliceOnce = chouse.collateralOf(alice);
        int256 bobOnce = chouse.collateralOf(bob);
        vm.revertToState(snap);

        int256 aliceBefore = chouse.collateralOf(alice);
        vm.prank(keeper);
        futures.settlePositions(id, twice);
        vm.prank(keeper);
        try futures.settlePositions(id, once) {} catch {}
        assertGt(aliceOnce, aliceBefore, "the long is paid its gain");
        assertEq(chouse.collateralOf(alice), aliceOnce, "the duplicate pays alice nothing more");
        assertEq(chouse.collateralOf(bob), bobOnce, "bob pays once");
        assertEq(futures.positionOf(id, alice).sizeCh, 0, "alice flat");
        assertEq(futures.positionOf(id, bob).sizeCh, 0, "bob flat");
        assertEq(chouse.positionOf(alice, address(futures)).sizeCh, 0, "no ClearingHouse position left");
    }
}
