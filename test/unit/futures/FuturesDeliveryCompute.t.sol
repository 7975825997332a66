// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSecuritySetup} from "./FuturesSecuritySetup.sol";
import {IDeliveryOrders} from "../../../contracts/interfaces/compute/IDeliveryOrders.sol";
import {IFuturesEvents} from "../../../contracts/interfaces/markets/IFuturesEvents.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/markets/IFuturesErrors.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";
import {IProviderRegistry} from "../../../contracts/interfaces/compute/IProviderRegistry.sol";
import {MockERC20} from "../../../contracts/mocks/MockERC20.sol";

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

    MockERC20 public immutable dps = new MockERC20("DPS", "DPS", 18);
    uint256 public stake = type(uint256).max;
    bool public refuse;

    function setStake(uint256 s) external {
        stake = s;
    }

    function setRefuse(bool r) external {
        refuse = r;
    }

    /// Bounded by the stake; 10 % finder fee; the rest to the recipient (as ProviderRegistry.slashTo).
    function slashTo(
        address p,
        uint256 amount,
        address finder,
        address recipient,
        bytes32
    ) external returns (uint256 taken, uint256 paid) {
        require(!refuse, "refused");
        (lastSlashed, lastAmount, lastFinder) = (p, amount, finder);
        taken = amount < stake ? amount : stake;
        stake -= taken;
        uint256 fee = finder == address(0) ? 0 : taken / 10;
        paid = taken - fee;
        if (fee != 0) dps.mint(finder, fee);
        if (paid != 0) dps.mint(recipient, paid);
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
        _wireOrders(registryStub, makeAddr("computeStub"));
    }

    function _wireOrders(address registryStub, address dpsToken) internal {
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
                    dpsToken,
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
        _settledWithClaim();
        uint256 oid = orders.orderId(id, alice);
        IDeliveryOrders.Order memory o = orders.order(oid);
        assertEq(o.owner, alice);
        assertEq(o.availableCh, 100e18, "the shorts' CH");
        assertEq(uint8(o.status), uint8(IDeliveryOrders.Status.Open));
        assertEq(o.workloadClass, 1);
        assertEq(o.minGrade, 2);
        assertEq(o.windowEnd, block.timestamp + 30 days, "the window the order gets when it opens now");
        assertEq(chToken.balanceOf(alice), 0, "no bare CH");
        // issue 19 item 6, the lazy hand-over: the CH stays in the market as alice's claim until the order is used
        assertEq(chToken.balanceOf(address(orders)), 0);
        assertEq(chToken.balanceOf(address(futures)), 100e18);
        assertEq(futures.positionOf(id, alice).escrowCh, 100e18, "the claim");
    }

    // ───────────────────────── issue 19 item 6: the lazy hand-over, attacked ─────────────────────────

    /// DeliveryOrders wired, a delivering pair traded and fixed, the short (bob) then the electing long (alice)
    /// settled: alice's 100 CH wait in the market as her claim.
    function _settledWithClaim() internal {
        _wireOrders();
        _deliveringPair();
        _finalise();
        futures.settlePosition(id, bob);
        vm.prank(alice);
        futures.settlePosition(id, alice);
    }

    /// The order opens on first use: DeliveryOrders pulls the claim once (DeliveryClaimTaken, then
    /// DeliveryOrderCreated with the settlement price), and the long closing it gets exactly its CH.
    function test_lazyHandOver_orderOpensOnFirstUse_longGetsItsCh() public {
        _settledWithClaim();
        uint256 oid = orders.orderId(id, alice);
        uint256 price = futures.seriesInfo(id).settlementPriceWad;
        vm.warp(block.timestamp + 3 days);
        vm.expectEmit(address(futures));
        emit IFuturesEvents.DeliveryClaimTaken(id, alice, address(orders), 100e18);
        vm.expectEmit(address(orders));
        emit IDeliveryOrders.DeliveryOrderCreated(
            oid,
            alice,
            id,
            100e18,
            price,
            1,
            2,
            uint40(block.timestamp + 30 days)
        );
        vm.prank(alice);
        assertEq(orders.close(oid), 100e18);
        assertEq(chToken.balanceOf(alice), 100e18);
        assertEq(chToken.balanceOf(address(futures)), 0);
        assertEq(futures.positionOf(id, alice).escrowCh, 0, "claim taken");
    }

    /// MKT-05: a long settles twice: the second settlement reverts and the claim is not doubled.
    function test_lazyHandOver_longSettlesTwice_claimNotDoubled() public {
        _settledWithClaim();
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesAlreadyDone.selector, id, alice));
        futures.settlePosition(id, alice);
        vm.prank(keeper);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesAlreadyDone.selector, id, alice));
        futures.settlePosition(id, alice);
        assertEq(futures.positionOf(id, alice).escrowCh, 100e18);
        assertEq(chToken.balanceOf(address(futures)), 100e18);
    }

    /// A delivery order consumed twice: the claim moves once (a second take returns 0), only DeliveryOrders may
    /// take it, and a closed order cannot be reopened from the (now empty) claim.
    function test_lazyHandOver_orderConsumedTwice_claimMovesOnce() public {
        _settledWithClaim();
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IFuturesErrors.FuturesNotDeliveryOrders.selector, alice, address(orders))
        );
        futures.takeDelivery(id, alice, alice);
        uint256 oid = orders.orderId(id, alice);
        vm.prank(alice);
        orders.close(oid);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryOrderNotOpen.selector, oid));
        orders.close(oid);
        vm.prank(address(orders));
        (uint256 again, ) = futures.takeDelivery(id, alice, address(orders));
        assertEq(again, 0, "nothing left to take");
        // a series nobody elected in: no claim, no order
        uint256 none = orders.orderId(id, bob);
        assertEq(uint8(orders.order(none).status), uint8(IDeliveryOrders.Status.None));
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryOrderNotOpen.selector, none));
        orders.close(none);
        assertEq(chToken.balanceOf(alice), 100e18, "paid out once");
    }

    /// A short's escrow withdrawn between expiry and the long's settlement: refused (the escrow is locked from
    /// expiry), and the short settling first takes back only its unassigned escrow: the long's claim stays backed.
    function test_lazyHandOver_shortWithdrawsBetweenExpiryAndLongSettlement_claimBacked() public {
        _wireOrders();
        _trade(alice, id, 100e18);
        _trade(bob, id, -100e18);
        _mintCh(bob, 100e18);
        vm.startPrank(bob);
        chToken.approve(address(futures), 100e18);
        futures.deliver(id, 100e18);
        vm.stopPrank();
        vm.prank(alice);
        futures.electDelivery(id, 60e18);
        _finalise();
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesEscrowLocked.selector, id, bob));
        futures.withdrawEscrow(id, 50e18);
        futures.settlePosition(id, bob);
        assertEq(chToken.balanceOf(bob), 40e18, "only the unassigned escrow");
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesEscrowLocked.selector, id, bob));
        futures.withdrawEscrow(id, 1);
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(chToken.balanceOf(address(futures)), 60e18, "the claim, fully backed");
        uint256 oid = orders.orderId(id, alice);
        vm.prank(alice);
        assertEq(orders.close(oid), 60e18);
    }

    /// A failed provider assignment after the lazy hand-over (the compute side refuses): the assignment reverts as
    /// a whole, the claim stays in the market, and the long still gets its CH.
    function test_lazyHandOver_failedAssignment_claimIntact() public {
        _settledWithClaim();
        uint256 oid = orders.orderId(id, alice);
        address[] memory candidates = new address[](1);
        candidates[0] = makeAddr("provider");
        vm.expectRevert();
        orders.assign(oid, candidates);
        assertEq(futures.positionOf(id, alice).escrowCh, 100e18, "claim intact");
        assertEq(chToken.balanceOf(address(orders)), 0);
        vm.prank(alice);
        assertEq(orders.close(oid), 100e18);
    }

    /// The failing short's make-whole order (slash → short margin → the rest uncovered) is unchanged by the lazy
    /// hand-over: each leg an event at settlement, and the long's claim is exactly the CH delivered.
    function test_lazyHandOver_failedShort_longMadeWholeThenClaimsDelivered() public {
        SlashRecorder rec = new SlashRecorder();
        rec.setProvider(bob);
        _failingShort(address(rec));
        uint256 penalty = _penalty();
        (uint256 toLongs, uint256 credit) = _slashLegs(penalty, true);
        vm.expectEmit(address(futures));
        emit IFuturesEvents.DeliveryShortMadeWhole(id, bob, penalty, toLongs, credit, penalty - credit, 0, toLongs);
        vm.prank(keeper);
        futures.settlePosition(id, bob);
        vm.expectEmit(address(futures));
        emit IFuturesEvents.DeliverySlashReceived(id, alice, toLongs, 0);
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(futures.positionOf(id, alice).escrowCh, 30e18, "claim = CH delivered");
        assertEq(chToken.balanceOf(address(futures)), 30e18);
        uint256 oid = orders.orderId(id, alice);
        vm.prank(alice);
        assertEq(orders.close(oid), 30e18);
    }

    /// MKT-05, MKT-08: CH conservation through the lazy hand-over: short escrow + claims + orders + balances is
    /// constant, and the market holds exactly the escrow and claims it owes at every step.
    function test_lazyHandOver_chConserved() public {
        _wireOrders();
        _deliveringPair();
        uint256 total = _chTotal();
        assertEq(chToken.balanceOf(address(futures)), futures.positionOf(id, bob).escrowCh);
        _finalise();
        futures.settlePosition(id, bob);
        assertEq(_chTotal(), total);
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(_chTotal(), total);
        assertEq(chToken.balanceOf(address(futures)), futures.positionOf(id, alice).escrowCh, "market = claims");
        uint256 oid = orders.orderId(id, alice);
        vm.prank(alice);
        orders.close(oid);
        assertEq(_chTotal(), total);
        assertEq(chToken.balanceOf(address(futures)), 0);
    }

    function _chTotal() internal view returns (uint256) {
        return
            chToken.balanceOf(alice) +
            chToken.balanceOf(bob) +
            chToken.balanceOf(address(futures)) +
            chToken.balanceOf(address(orders));
    }

    /// With no DeliveryOrders contract any more (governance unset it after settlement), the long takes its claim
    /// itself; nobody else can.
    function test_lazyHandOver_noDeliveryOrders_longTakesItsClaim() public {
        _settledWithClaim();
        futures.setDeliveryOrders(address(0));
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesNotDeliveryOrders.selector, bob, address(0)));
        futures.takeDelivery(id, alice, bob);
        vm.prank(alice);
        (uint256 taken, uint256 price) = futures.takeDelivery(id, alice, alice);
        assertEq(taken, 100e18);
        assertEq(price, futures.seriesInfo(id).settlementPriceWad);
        assertEq(chToken.balanceOf(alice), 100e18);
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

    /// bob is short 100 CH, escrows only 30 of the 100 assigned and fails the rest (MKT-05).
    function _failingShort(address registryStub) internal {
        _wireOrders(
            registryStub,
            registryStub.code.length != 0 ? address(SlashRecorder(registryStub).dps()) : registryStub
        );
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

    function _penalty() internal view returns (uint256) {
        uint256 price = futures.seriesInfo(id).settlementPriceWad;
        return (70 * price * 1_000 + 10_000 * 1e12 - 1) / 10_000 / 1e12; // 70 CH × price × 10 %, USDC, up
    }

    /// The DPS slash sized for `penalty` at 2 USD per DPS (rounded up), the keeper's 10 % fee, the rest to the
    /// longs and its value back in USDC (rounded down).
    function _slashLegs(uint256 penalty, bool withFinder) internal pure returns (uint256 toLongs, uint256 credit) {
        uint256 owed = (penalty * 1e12 * 1e18 + 2e18 - 1) / 2e18;
        toLongs = owed - (withFinder ? owed / 10 : 0);
        credit = (toLongs * 2e18) / 1e18 / 1e12;
    }

    /// Issue 19 item 1, the make-whole order: the failing short provider's slash reaches the long first (DPS, the
    /// keeper's finder fee off it), its margin pays only the penalty minus the slash's value, and the long is made
    /// whole exactly once: slash value + USDC compensation = penalty (no double compensation).
    function test_failedShortProvider_longMadeWholeFromSlashFirst_thenMargin() public {
        SlashRecorder rec = new SlashRecorder();
        rec.setProvider(bob);
        _failingShort(address(rec));
        uint256 price = futures.seriesInfo(id).settlementPriceWad;
        uint256 penalty = _penalty();
        (uint256 toLongs, uint256 credit) = _slashLegs(penalty, true);
        assertGt(credit, 0);
        assertLe(credit, penalty);
        int256 bobBefore = chouse.collateralOf(bob);
        vm.expectEmit(address(futures));
        emit IFuturesEvents.DeliveryShortMadeWhole(id, bob, penalty, toLongs, credit, penalty - credit, 0, toLongs);
        vm.prank(keeper);
        futures.settlePosition(id, bob);
        assertEq(rec.lastSlashed(), bob);
        assertEq(rec.lastFinder(), keeper);
        assertEq(rec.failures(), 1, "reputation and risk score");
        assertEq(rec.dps().balanceOf(address(futures)), toLongs, "held for the longs");
        // bob: paid for 30 delivered, charged only penalty − slash value, and the keeper's 1 USDC bounty
        int256 expected = int256((30 * price) / 1e12) - int256(penalty - credit) - 1e6;
        assertEq(chouse.collateralOf(bob) - bobBefore, expected, "margin pays only the remainder");
        assertEq(futures.seriesInfo(id).slashedUsdc, penalty - credit);
        int256 aliceBefore = chouse.collateralOf(alice);
        vm.expectEmit(address(futures));
        emit IFuturesEvents.DeliverySlashReceived(id, alice, toLongs, 0);
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(rec.dps().balanceOf(alice), toLongs, "the slash reached the long");
        assertEq(rec.dps().balanceOf(address(futures)), 0);
        uint256 chPaid = (30e18 * price + 1e30 - 1) / 1e30;
        int256 usdcComp = chouse.collateralOf(alice) - aliceBefore + int256(chPaid);
        assertEq(uint256(usdcComp) + credit, penalty, "made whole once: slash value + USDC = penalty");
        assertEq(orders.order(orders.orderId(id, alice)).availableCh, 30e18, "what was delivered");
    }

    /// Two electing longs share the slashed DPS pro rata (the last one the remainder): all of it reaches them, none
    /// stays in the market, and each one's slash value + USDC compensation is its share of the penalty.
    function test_twoLongs_shareTheSlashProRata_lastTakesTheRemainder() public {
        SlashRecorder rec = new SlashRecorder();
        rec.setProvider(bob);
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 10_000e6);
        _wireOrders(address(rec), address(rec.dps()));
        _trade(alice, id, 60e18);
        _trade(carol, id, 40e18);
        _trade(bob, id, -100e18);
        vm.prank(alice);
        futures.electDelivery(id, 60e18);
        vm.prank(carol);
        futures.electDelivery(id, 40e18);
        _finalise();
        vm.warp(block.timestamp + 1 days);
        uint256 price = futures.seriesInfo(id).settlementPriceWad;
        uint256 penalty = (100 * price * 1_000 + 10_000 * 1e12 - 1) / 10_000 / 1e12;
        (uint256 toLongs, ) = _slashLegs(penalty, true);
        vm.prank(keeper);
        futures.settlePosition(id, bob);
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(rec.dps().balanceOf(alice), (60 * toLongs) / 100, "pro rata");
        vm.prank(carol);
        futures.settlePosition(id, carol);
        assertEq(rec.dps().balanceOf(carol), toLongs - (60 * toLongs) / 100, "the remainder");
        assertEq(rec.dps().balanceOf(address(futures)), 0, "nothing left behind");
    }

    /// A short that settles itself takes no finder fee off its own slash: all of it reaches the long.
    function test_failedShortSettlesItself_noFinderFeeOnItsOwnSlash() public {
        SlashRecorder rec = new SlashRecorder();
        rec.setProvider(bob);
        _failingShort(address(rec));
        uint256 penalty = _penalty();
        (uint256 toLongs, uint256 credit) = _slashLegs(penalty, false);
        assertEq(credit, penalty, "the slash covers it all");
        vm.expectEmit(address(futures));
        emit IFuturesEvents.DeliveryShortMadeWhole(id, bob, penalty, toLongs, penalty, 0, 0, toLongs);
        vm.prank(bob);
        futures.settlePosition(id, bob);
        assertEq(rec.lastFinder(), address(0));
        assertEq(futures.seriesInfo(id).slashedUsdc, 0, "nothing charged to the margin");
    }

    /// The slash is bounded by the provider's stake (a short that unstaked most of it): the long gets what there
    /// is, and the short's margin pays the rest of the penalty.
    function test_failedShortProvider_slashBoundedByStake_marginPaysTheRest() public {
        SlashRecorder rec = new SlashRecorder();
        rec.setProvider(bob);
        rec.setStake(3e18); // 3 DPS = 6 USD
        _failingShort(address(rec));
        uint256 penalty = _penalty();
        uint256 toLongs = 3e18 - 3e17; // keeper fee 10 %
        uint256 credit = (toLongs * 2) / 1e12;
        vm.expectEmit(address(futures));
        emit IFuturesEvents.DeliveryShortMadeWhole(id, bob, penalty, toLongs, credit, penalty - credit, 0, toLongs);
        vm.prank(keeper);
        futures.settlePosition(id, bob);
        assertEq(futures.seriesInfo(id).slashedUsdc, penalty - credit);
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(rec.dps().balanceOf(alice), toLongs);
    }

    /// A registry that refuses the slash never blocks settlement: nothing is credited and the margin pays it all.
    function test_failedShortProvider_slashRefused_marginPaysAll() public {
        SlashRecorder rec = new SlashRecorder();
        rec.setProvider(bob);
        rec.setRefuse(true);
        _failingShort(address(rec));
        uint256 penalty = _penalty();
        vm.expectEmit(address(futures));
        emit IFuturesEvents.DeliveryShortMadeWhole(id, bob, penalty, 0, 0, penalty, 0, 0);
        vm.prank(keeper);
        futures.settlePosition(id, bob);
        assertEq(futures.seriesInfo(id).slashedUsdc, penalty);
        assertEq(rec.failures(), 1, "the failure still counts");
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(rec.dps().balanceOf(alice), 0);
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
