// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";
import {ClearingUnitBase} from "../../helpers/ClearingUnitBase.sol";
import {OracleReconfig} from "../../helpers/OracleReconfig.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseCollateral} from "../../../contracts/interfaces/clearing/IClearingHouseCollateral.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {IComputePriceOracle} from "../../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {MockAggregatorV3} from "../../../contracts/mocks/MockAggregatorV3.sol";

/// @notice The ClearingHouse's copy of its `clearing.withdraw` / `clearing.newRisk` pause flags beside the oracle
///         address (ChxUpgradeable._afterPauseChanged; docs/clearing.md "Pause flags beside the oracle address"): the
///         flag stays the source of truth, a bit only says "known not paused", and an empty copy reads the flag.
contract ClearingPauseMirrorTest is ClearingUnitBase, OracleReconfig {
    bytes32 internal constant WITHDRAW = keccak256("clearing.withdraw");
    bytes32 internal constant NEW_RISK = keccak256("clearing.newRisk");
    // keccak256(abi.encode(uint256(keccak256("chx.storage.ClearingHouse")) - 1)) & ~bytes32(uint256(0xff))
    uint256 internal constant LOCATION = 0x55052fae2fc50d74c9cbac33e5ea35893b9adcb7f74bd0a66b4cdacc551a8700;
    /// @dev Layout slot 1: oracle (bits 0-159), riskGeneration (160-167), σ + 1 (168-239), activeGates (240-247).
    bytes32 internal constant ORACLE_WORD = bytes32(LOCATION + 1);
    uint256 internal constant GATES_SHIFT = 240;

    function _gates() internal view returns (uint256) {
        return (uint256(vm.load(address(chouse), ORACLE_WORD)) >> GATES_SHIFT) & 0xff;
    }

    /// @dev Sets the copy's bits as an implementation that did not keep them would have left them.
    function _forceGates(uint256 gates) internal {
        uint256 word = uint256(vm.load(address(chouse), ORACLE_WORD));
        word = (word & ~(uint256(0xff) << GATES_SHIFT)) | (gates << GATES_SHIFT);
        vm.store(address(chouse), ORACLE_WORD, bytes32(word));
    }

    function _pauseFeature(bytes32 f) internal {
        IChxModule(address(chouse)).pauseFeature(f);
    }

    function _unpauseFeature(bytes32 f) internal {
        IChxModule(address(chouse)).unpauseFeature(f);
    }

    /// @dev A fresh ClearingHouse implementation, installed by the test contract (it plays the timelock).
    function _upgrade(bytes memory call) internal {
        address impl = deployCode("ClearingHouse.sol:ClearingHouse", abi.encode(address(usdc)));
        UUPSUpgradeable(address(chouse)).upgradeToAndCall(impl, call);
    }

    function _expectPaused(bytes32 f) internal {
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, f));
    }

    function test_newProxy_startsKnownActive() public view {
        assertEq(_gates(), 3);
    }

    /// The GUARDIAN pauses withdrawals; a withdrawal in the same block (a position open, the cheap path) must not pass.
    function test_pauseThenWithdraw_sameBlock_reverts() public {
        _aliceLong50();
        _pauseFeature(WITHDRAW);
        assertEq(_gates(), 2);
        vm.startPrank(alice);
        _expectPaused(WITHDRAW);
        chouse.withdraw(1e6, alice);
        _expectPaused(WITHDRAW);
        IClearingHouseCollateral(address(chouse)).withdrawToken(address(dps), 1, alice);
        vm.stopPrank();
        // without positions too (SEC-05 holds only "when not paused")
        _depositFor(bob, 10e6);
        vm.prank(bob);
        _expectPaused(WITHDRAW);
        chouse.withdraw(10e6, bob);
        // new risk is a separate flag: still open
        market.tradeAt(alice, 1e18, 10e18);
    }

    function test_unpauseThenWithdraw_works() public {
        _aliceLong50();
        _pauseFeature(WITHDRAW);
        _unpauseFeature(WITHDRAW);
        assertEq(_gates(), 3);
        vm.prank(alice);
        chouse.withdraw(10e6, alice);
        assertEq(chouse.collateralOf(alice), 90e6);
    }

    /// Pausing any other feature (deposits, a market, an unknown id) leaves the copy and the withdraw path alone.
    function test_unrelatedPause_doesNotBlockWithdraw() public {
        _aliceLong50();
        _pauseFeature(keccak256("clearing.deposit"));
        _pauseFeature(keccak256(abi.encode(keccak256("clearing.market"), address(market))));
        _pauseFeature(keccak256("something.else"));
        _unpauseFeature(keccak256("something.other"));
        assertEq(_gates(), 3);
        vm.prank(alice);
        chouse.withdraw(10e6, alice);
    }

    /// `clearing.newRisk` blocks a risk-increasing trade through its copy; reductions and withdrawals stay open.
    function test_newRiskPause_blocksIncreaseOnly() public {
        _aliceLong50();
        _pauseFeature(NEW_RISK);
        assertEq(_gates(), 1);
        _expectPaused(NEW_RISK);
        market.tradeAt(alice, 1e18, 10e18);
        vm.prank(alice);
        _expectPaused(NEW_RISK);
        market.trade(1e18);
        market.tradeAt(alice, -10e18, 10e18);
        vm.prank(alice);
        chouse.withdraw(1e6, alice);
        _unpauseFeature(NEW_RISK);
        market.tradeAt(alice, 1e18, 10e18);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 41e18);
    }

    /// Only pauseFeature / unpauseFeature / syncPauseMirror (all restricted) write the copy (SEC-01).
    function test_nonAuthorised_cannotFlipCopy_SEC01() public {
        _pauseFeature(WITHDRAW);
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        IChxModule(address(chouse)).unpauseFeature(WITHDRAW);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        IChxModule(address(chouse)).pauseFeature(NEW_RISK);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        chouse.syncPauseMirror();
        vm.stopPrank();
        assertEq(_gates(), 2);
        assertTrue(IChxModule(address(chouse)).isFeaturePaused(WITHDRAW));
    }

    /// An implementation that kept no copy leaves its bits clear: upgraded while paused, the withdraw path reads the
    /// flag and still refuses; the migration call (syncPauseMirror) keeps the bit clear while the flag is set
    /// (SEC-02).
    function test_upgradeWhilePaused_emptyCopy_stillRefuses_SEC02() public {
        _aliceLong50();
        _pauseFeature(WITHDRAW);
        _forceGates(0);
        _upgrade("");
        vm.prank(alice);
        _expectPaused(WITHDRAW);
        chouse.withdraw(1e6, alice);
        _upgrade(abi.encodeCall(IClearingHouse.syncPauseMirror, ()));
        assertEq(_gates(), 2); // newRisk known active, withdraw not
        vm.prank(alice);
        _expectPaused(WITHDRAW);
        chouse.withdraw(1e6, alice);
        _unpauseFeature(WITHDRAW);
        vm.prank(alice);
        chouse.withdraw(1e6, alice);
    }

    /// An empty copy over unpaused flags costs only the flag read; the migration call restores the cheap path.
    function test_upgradeUnpaused_emptyCopy_readsFlags() public {
        _aliceLong50();
        _forceGates(0);
        _upgrade("");
        vm.prank(alice);
        chouse.withdraw(1e6, alice);
        market.tradeAt(alice, 1e18, 10e18);
        chouse.syncPauseMirror();
        assertEq(_gates(), 3);
    }

    /// A stale "active" bit (an older implementation paused the flag without the hook, e.g. after a downgrade) is
    /// corrected by the migration call in the same upgrade transaction: no withdrawal passes in between (SEC-02).
    function test_upgradeWithStaleActiveBit_syncRefuses_SEC02() public {
        _aliceLong50();
        _pauseFeature(WITHDRAW);
        _pauseFeature(NEW_RISK);
        _forceGates(3);
        _upgrade(abi.encodeCall(IClearingHouse.syncPauseMirror, ()));
        assertEq(_gates(), 0);
        vm.prank(alice);
        _expectPaused(WITHDRAW);
        chouse.withdraw(1e6, alice);
        _expectPaused(NEW_RISK);
        market.tradeAt(alice, 1e18, 10e18);
    }

    /// A paused neighbour: the real oracle's `oracle.risk` paused, the ClearingHouse not: a withdrawal against
    /// positions reads the gated price and is refused (ORC-01); one without positions passes (SEC-05).
    function test_pausedOracle_blocksWithdrawWithPositions_ORC01() public {
        MockAggregatorV3 feed = MockAggregatorV3(
            deployCode("MockAggregatorV3.sol:MockAggregatorV3", abi.encode(uint8(8), "CH", 10e8))
        );
        IComputePriceOracle.Config memory c;
        (c.feed, c.heartbeatSec, c.minPriceWad, c.maxPriceWad) = (address(feed), 1 days, 0.01e18, 1_000e18);
        address real = _proxy(_deployOracleImpl(c), abi.encodeWithSignature("initialize(address)", address(manager)));
        chouse.setModules(real, address(risk), address(pool), address(insurance), address(liq));
        _aliceLong50();
        bytes32 riskFeature = keccak256("oracle.risk");
        IChxModule(real).pauseFeature(riskFeature);
        assertEq(_gates(), 3);
        vm.prank(alice);
        _expectPaused(riskFeature);
        chouse.withdraw(1e6, alice);
        _depositFor(bob, 10e6);
        vm.prank(bob);
        chouse.withdraw(10e6, bob);
        IChxModule(real).unpauseFeature(riskFeature);
        vm.prank(alice);
        chouse.withdraw(1e6, alice);
    }
}
