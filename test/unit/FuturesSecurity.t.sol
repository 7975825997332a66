// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSolBase} from "../helpers/FuturesSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IFuturesTypes} from "../../contracts/interfaces/IFuturesTypes.sol";
import {IClearingHouse} from "../../contracts/interfaces/IClearingHouse.sol";
import {MockFuturesIndex} from "../../contracts/mocks/MockFuturesIndex.sol";

/// @notice Regression tests of the futures items of the security review (issue 17 items 1, 3, 23, 24), each named
///         after the attack it replays. Index 10 USDC/CH, IM 10 %, MM 5 %, penalty 10 %, one guarantor.
contract FuturesSecurityTest is FuturesSolBase {
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    address internal keeper = makeAddr("keeper");
    uint64 internal expiry;
    uint256 internal id;

    function setUp() public {
        _deployFutures();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(alice, guarantor, 10_000e6);
        _setupTrader(bob, guarantor, 10_000e6);
        _grant(Roles.GUARDIAN, address(this));
        expiry = uint64(block.timestamp + 10 days);
        id = futures.listSeries(expiry, 1_000_000e18);
    }

    function _trade(address who, uint256 seriesId, int256 size) internal {
        vm.prank(who);
        futures.openPosition(seriesId, size, 0);
    }

    // ───────────── item 24: elections read the gated price (ORC-01) ─────────────

    /// Raising a delivery election commits the account to a payment: a risk-increasing action, refused while the
    /// oracle gates new risk (sequencer grace period, spot deviation, risk pause), as trades are.
    function test_electDelivery_whileNewRiskGated_reverts_ORC01() public {
        _trade(alice, id, 10e18);
        fIndex.setRiskBlocked(true);
        vm.prank(alice);
        vm.expectRevert(MockFuturesIndex.MockRiskBlocked.selector);
        futures.electDelivery(id, 5e18);
        // lowering an election takes risk off and stays open
        fIndex.setRiskBlocked(false);
        vm.prank(alice);
        futures.electDelivery(id, 5e18);
        fIndex.setRiskBlocked(true);
        vm.prank(alice);
        futures.electDelivery(id, 2e18);
        assertEq(futures.positionOf(id, alice).electedCh, 2e18);
    }
}
