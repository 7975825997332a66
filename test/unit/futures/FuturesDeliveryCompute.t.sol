// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSecuritySetup} from "./FuturesSecuritySetup.sol";
import {IDeliveryOrders} from "../../../contracts/interfaces/compute/IDeliveryOrders.sol";
import {IFuturesEvents} from "../../../contracts/interfaces/markets/IFuturesEvents.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/markets/IFuturesErrors.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";
import {IProviderRegistry} from "../../../contracts/interfaces/compute/IProviderRegistry.sol";

/// @notice The three ProviderRegistry calls DeliveryOrders.slashFailedShort makes, recorded (a futures-only world).
contract SlashRecorder {
    mapping(address => bool) public isProvider;
    address public lastSlashed;
    uint256 public lastAmount;
    address public lastFinder;
    uint256 public failures;

    function setProvider(address p) external {
        isProvider[p] = true;
    }

    function providerInfo(address p) external view returns (IProviderRegistry.ProviderInfo memory info) {
        info.registered = isProvider[p];
    }

    function params() external pure returns (IProviderRegistry.Params memory p) {
        p.dpsPriceWad = 2e18;
    }

    function slash(address p, uint256 amount, address finder, bytes32) external returns (uint256) {
        (lastSlashed, lastAmount, lastFinder) = (p, amount, finder);
        return amount;
    }

    function recordTaskOutcome(address, bool completed) external {
        if (!completed) ++failures;
    }
}

/// @notice Issue 19 item 1 at the futures market: an electing long ends expiry holding a delivery order (the CH
///         its shorts delivered, held by DeliveryOrders) instead of bare CH (MKT-05, MKT-08). The order's compute
///         path (assignment, tasks, slashing) is DeliveryOrders.t.sol; here the order contract's compute
///         neighbours are placeholders: creating an order does not call them.
contract FuturesDeliveryComputeTest is FuturesSecuritySetup {
    IDeliveryOrders internal orders;

    function _wireOrders() internal {
        _wireOrders(makeAddr("computeStub"));
    }

    function _wireOrders(address registryStub) internal {
        address stub = makeAddr("computeStub");
        orders = IDeliveryOrders(
            _proxy(
                deployCode("DeliveryOrders.sol:DeliveryOrders"),
                abi.encodeWithSignature(
                    "initialize(address,address,address,address,address,address,address,address,(uint16,uint8,uint32))",
                    address(manager),
                    address(futures),
                    registryStub,
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

    /// bob is short 100 CH, escrows only 30 of the 100 assigned and fails the rest: as a provider he is slashed DPS
    /// worth the market's penalty (finder: the settling keeper) and his failed count rises; the long is still made
    /// whole in USDC from bob's margin (MKT-05).
    function _failingShort(address registryStub) internal {
        _wireOrders(registryStub);
        _trade(alice, id, 100e18);
        _trade(bob, id, -100e18);
        _mintCh(bob, 30e18);
        vm.startPrank(bob);
        chToken.approve(address(futures), 30e18);
        futures.deliver(id, 30e18);
        vm.stopPrank();
        vm.prank(alice);
        futures.electDelivery(id, 100e18);
        _finalise();
        vm.warp(block.timestamp + 1 days);
    }

    function test_failedShortProvider_slashedThroughTheRegistry() public {
        SlashRecorder rec = new SlashRecorder();
        rec.setProvider(bob);
        _failingShort(address(rec));
        uint256 price = futures.seriesInfo(id).settlementPriceWad;
        uint256 penalty = (70 * price * 1_000) / 10_000 / 1e12; // 70 CH × price × 10 %, USDC
        vm.expectEmit(address(orders));
        emit IDeliveryOrders.DeliveryShortSlashed(id, bob, 70e18, penalty, (penalty * 1e12 * 1e18) / 2e18, keeper);
        vm.prank(keeper);
        futures.settlePosition(id, bob);
        assertEq(rec.lastSlashed(), bob);
        assertEq(rec.lastFinder(), keeper);
        assertEq(rec.failures(), 1);
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(orders.order(orders.orderId(id, alice)).availableCh, 30e18, "what was delivered");
    }

    /// A short that is not a provider, or a broken compute side, never blocks settlement; the penalty path stands.
    function test_failedShortNotProvider_orComputeSideBroken_settlementNotStuck() public {
        _failingShort(makeAddr("notAContract"));
        int256 before = chouse.collateralOf(bob);
        vm.prank(keeper);
        futures.settlePosition(id, bob);
        uint256 price = futures.seriesInfo(id).settlementPriceWad;
        // paid for 30 delivered, charged the penalty on 70 undelivered and the keeper's 1 USDC bounty
        int256 expected = int256((30 * price) / 1e12) - int256((70 * price * 1_000) / 10_000 / 1e12) - 1e6;
        assertEq(chouse.collateralOf(bob) - before, expected, "penalty path unchanged");
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(orders.order(orders.orderId(id, alice)).availableCh, 30e18);
    }

    /// A guarantor that demands proof less than a proof window before expiry could not act on it before: the
    /// deadline fell after expiry, when `closeUnproven` no longer runs. The deadline now ends before expiry.
    function test_proofDemandedNearExpiry_guarantorCanStillAct() public {
        _trade(bob, id, -100e18);
        vm.warp(expiry - 1 hours);
        vm.prank(guarantor);
        futures.demandDeliveryProof(id, bob);
        assertEq(futures.positionOf(id, bob).proofDeadline, expiry - 1);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesDemandNotDue.selector, id, bob, expiry - 1));
        futures.closeUnproven(id, bob);
        vm.warp(expiry - 1);
        assertEq(futures.closeUnproven(id, bob), 100e18);
        assertEq(futures.positionOf(id, bob).sizeCh, 0);
    }
}
