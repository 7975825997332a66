// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SpotSolBase} from "../../helpers/SpotSolBase.sol";
import {SpotMarket} from "../../../contracts/core/markets/SpotMarket.sol";
import {ISpotMarket} from "../../../contracts/interfaces/markets/ISpotMarket.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";

/// @notice The SpotMarket's copy of its `spot.trade` pause flag in word 1 (ChxUpgradeable._afterPauseChanged;
///         docs/spot.md "Pause flag in word 1"): the flag stays the source of truth, the copy only says "known not
///         paused", an empty copy reads the flag. Access to the pause functions and syncPauseMirror (restricted) is
///         the AccessManager's (this fixture's authority allows all; ClearingPauseMirror.t.sol tests SEC-01).
contract SpotPauseMirrorTest is SpotSolBase {
    uint256 internal constant MAKER_KEY = 0xA11CE;
    address internal maker;
    address internal taker = makeAddr("taker");
    // keccak256(abi.encode(uint256(keccak256("chx.storage.SpotMarket")) - 1)) & ~bytes32(uint256(0xff))
    uint256 internal constant LOCATION = 0x6ad3fd994578ab3cbf4da710cda3692edd5298b482e7e3a6c9ae71d34f14ed00;
    /// @dev Word 1: ch (bits 0-159), twapMinAmountCh (160-239), hasSeatTiers (240-247), activeGates (248-255).
    bytes32 internal constant WORD1 = bytes32(LOCATION + 1);
    bytes32 internal feature;

    function setUp() public {
        _deploySpot();
        maker = vm.addr(MAKER_KEY);
        _fund(maker);
        _fund(taker);
        feature = spot.FEATURE_TRADE();
    }

    function _gates() internal view returns (uint256) {
        return uint256(vm.load(address(spot), WORD1)) >> 248;
    }

    function _forceGates(uint256 gates) internal {
        uint256 word = uint256(vm.load(address(spot), WORD1));
        vm.store(address(spot), WORD1, bytes32((word & ((uint256(1) << 248) - 1)) | (gates << 248)));
    }

    function _order(uint256 nonce) internal view returns (ISpotMarket.Order memory o, bytes memory sig) {
        o = ISpotMarket.Order({
            maker: maker,
            isBuy: false,
            amountCh: 10e18,
            priceWad: 2e18,
            nonce: nonce,
            expiry: uint64(block.timestamp + 1 days),
            taker: address(0)
        });
        sig = _sign(MAKER_KEY, o);
    }

    function _expectPaused() internal {
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, feature));
    }

    function _upgrade(bytes memory call) internal {
        spot.upgradeToAndCall(deployCode("SpotMarket.sol:SpotMarket"), call);
    }

    function test_newProxy_startsKnownActive() public view {
        assertEq(_gates(), 1);
    }

    /// Pause, then a fill in the same block: refused through the copy; unpause, the same order fills (MKT-06: no
    /// record was written by the refused fill).
    function test_pauseThenFill_sameBlock_reverts_unpauseWorks() public {
        (ISpotMarket.Order memory o, bytes memory sig) = _order(1);
        spot.pauseFeature(feature);
        assertEq(_gates(), 0);
        vm.prank(taker);
        _expectPaused();
        spot.fillOrder(o, sig, 4e18);
        assertFalse(spot.nonceUsed(maker, 1));
        spot.unpauseFeature(feature);
        assertEq(_gates(), 1);
        vm.prank(taker);
        spot.fillOrder(o, sig, 4e18);
        assertTrue(spot.nonceUsed(maker, 1));
    }

    /// Pausing seat staking (or any other id) leaves the copy and fills alone.
    function test_unrelatedPause_doesNotBlockFill() public {
        spot.pauseFeature(spot.FEATURE_STAKE());
        spot.pauseFeature(keccak256("clearing.withdraw"));
        assertEq(_gates(), 1);
        (ISpotMarket.Order memory o, bytes memory sig) = _order(1);
        vm.prank(taker);
        spot.fillOrder(o, sig, 4e18);
    }

    /// Upgraded from an implementation without the copy (word 1's top byte zero) while paused: fills still refused;
    /// the migration call keeps the copy clear while the flag is set (SEC-02).
    function test_upgradeWhilePaused_emptyCopy_stillRefuses_SEC02() public {
        (ISpotMarket.Order memory o, bytes memory sig) = _order(1);
        spot.pauseFeature(feature);
        _forceGates(0);
        _upgrade("");
        vm.prank(taker);
        _expectPaused();
        spot.fillOrder(o, sig, 4e18);
        _upgrade(abi.encodeCall(SpotMarket.syncPauseMirror, ()));
        assertEq(_gates(), 0);
        vm.prank(taker);
        _expectPaused();
        spot.fillOrder(o, sig, 4e18);
        spot.unpauseFeature(feature);
        vm.prank(taker);
        spot.fillOrder(o, sig, 4e18);
    }

    /// A stale "known active" bit under a set flag (an older implementation paused without the hook) is cleared by
    /// the migration call in the upgrade transaction itself (SEC-02); unpaused, an empty copy only reads the flag.
    function test_upgradeWithStaleBit_syncRefuses_SEC02() public {
        (ISpotMarket.Order memory o, bytes memory sig) = _order(1);
        spot.pauseFeature(feature);
        _forceGates(1);
        _upgrade(abi.encodeCall(SpotMarket.syncPauseMirror, ()));
        assertEq(_gates(), 0);
        vm.prank(taker);
        _expectPaused();
        spot.fillOrder(o, sig, 4e18);
        spot.unpauseFeature(feature);
        _forceGates(0);
        vm.prank(taker);
        spot.fillOrder(o, sig, 4e18);
        spot.syncPauseMirror();
        assertEq(_gates(), 1);
    }
}
