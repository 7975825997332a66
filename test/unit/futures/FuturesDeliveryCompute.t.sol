// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSecuritySetup} from "./FuturesSecuritySetup.sol";
import {IDeliveryOrders} from "../../../contracts/interfaces/compute/IDeliveryOrders.sol";
import {IFuturesEvents} from "../../../contracts/interfaces/markets/IFuturesEvents.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";

/// @notice Issue 19 item 1 at the futures market: an electing long ends expiry holding a delivery order (the CH
///         its shorts delivered, held by DeliveryOrders) instead of bare CH (MKT-05, MKT-08). The order's compute
///         path (assignment, tasks, slashing) is DeliveryOrders.t.sol; here the order contract's compute
///         neighbours are placeholders: creating an order does not call them.
contract FuturesDeliveryComputeTest is FuturesSecuritySetup {
    IDeliveryOrders internal orders;

    function _wireOrders() internal {
        address stub = makeAddr("computeStub");
        orders = IDeliveryOrders(
            _proxy(
                deployCode("DeliveryOrders.sol:DeliveryOrders"),
                abi.encodeWithSignature(
                    "initialize(address,address,address,address,address,address,address,address,(uint16,uint8,uint32))",
                    address(manager),
                    address(futures),
                    stub,
                    stub,
                    stub,
                    stub,
                    address(chToken),
                    stub,
                    IDeliveryOrders.Spec({workloadClass: 1, minGrade: 2, windowSec: 30 days})
                )
            )
        );
        vm.expectEmit(address(futures));
        emit IFuturesEvents.DeliveryOrdersSet(address(orders));
        futures.setDeliveryOrders(address(orders));
    }

    /// MKT-05: CH delivered = CH received — now received as a delivery order of the series' long.
    function test_electingLong_endsExpiryHoldingADeliveryOrder() public {
        _wireOrders();
        _deliveringPair();
        _finalise();
        futures.settlePosition(id, bob);
        vm.prank(alice);
        futures.settlePosition(id, alice);
        uint256 oid = orders.orderId(id, alice);
        IDeliveryOrders.Order memory o = orders.order(oid);
        assertEq(o.owner, alice);
        assertEq(o.availableCh, 100e18, "the shorts' CH");
        assertEq(uint8(o.status), uint8(IDeliveryOrders.Status.Open));
        assertEq(o.workloadClass, 1);
        assertEq(o.minGrade, 2);
        assertEq(o.windowEnd, block.timestamp + 30 days);
        assertEq(chToken.balanceOf(alice), 0, "no bare CH");
        assertEq(chToken.balanceOf(address(orders)), 100e18);
        assertEq(chToken.balanceOf(address(futures)), 0);
    }

    /// A long that elects and then closes before the cut-off has its election capped: the order carries only
    /// what it still elected, and the short's unassigned escrow returns to the short.
    function test_electThenClose_orderOnlyForTheRemainingElection() public {
        _wireOrders();
        _deliveringPair();
        _trade(alice, id, -60e18); // election capped at 40
        assertEq(futures.positionOf(id, alice).electedCh, 40e18);
        _trade(bob, id, 60e18); // bob reduces too (keeps OI symmetric with the vault out of it)
        _finalise();
        futures.settlePosition(id, bob);
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(orders.order(orders.orderId(id, alice)).availableCh, 40e18);
        assertEq(chToken.balanceOf(bob), 60e18, "unassigned escrow back to the short");
    }

    /// A long that closes all of it after electing ends with no order at all.
    function test_electThenCloseAll_noOrder() public {
        _wireOrders();
        _deliveringPair();
        _trade(alice, id, -100e18);
        _finalise();
        futures.settlePosition(id, bob);
        assertEq(uint8(orders.order(orders.orderId(id, alice)).status), uint8(IDeliveryOrders.Status.None));
    }

    function test_setDeliveryOrders_onlyAdmin() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        futures.setDeliveryOrders(alice);
    }
}
