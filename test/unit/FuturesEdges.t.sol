// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSolBase, IFuturesMarketInit} from "../helpers/FuturesSolBase.sol";
import {FuturesOrderSteps} from "../helpers/FuturesOrderSteps.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IFuturesMarket} from "../../contracts/interfaces/markets/IFuturesMarket.sol";
import {IFuturesTypes} from "../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../contracts/interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../contracts/interfaces/markets/IFuturesEvents.sol";
import {IKeeperCompatible} from "../../contracts/interfaces/keepers/IKeeperCompatible.sol";

/// @notice Edge paths of FuturesMarket and its delivery module: escrow bounds and locks, the settlement steps
///         called out of order, keeper payloads, the series-account pages, delivery obligations before
///         finalisation, the short OI cap, the per-account series limit, and liquidations that trim an election
///         (before the cut-off) or freeze a short's delivery base (after expiry).
contract FuturesEdgesTest is FuturesSolBase {
    bytes4 internal constant ZERO = bytes4(keccak256("ChxZeroAddress()"));
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    uint64 internal expiry;
    uint256 internal id;

    function setUp() public {
        _deployFutures();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(alice, guarantor, 10_000e6);
        _setupTrader(bob, guarantor, 10_000e6);
        _grant(Roles.GUARDIAN, address(this));
        expiry = uint64(block.timestamp + 10 days);
        id = futures.listSeries(expiry, 1_000e18);
    }

    function _trade(address who, int256 size) internal {
        FuturesOrderSteps.mustTrade(futures, who, id, size);
    }

    /// Expiry → price fixed → dispute window over → finalised.
    function _finalise() internal {
        vm.warp(expiry);
        futures.fixSettlementPrice(id);
        vm.warp(block.timestamp + 1 hours);
        futures.finalizeSettlement(id);
    }

    function test_zeroAddressesAndAmounts() public {
        vm.expectRevert(ZERO);
        futures.setDeliveryModule(address(0));
        vm.expectRevert(ZERO);
        futures.claimBounties(address(0));
        vm.startPrank(address(vault));
        vm.expectRevert(IFuturesErrors.FuturesZeroAmount.selector);
        IVaultHooks(address(futures)).fundFromVault(0);
        vm.expectRevert(IFuturesErrors.FuturesZeroAmount.selector);
        IVaultHooks(address(futures)).returnToVault(0);
        vm.stopPrank();
        address impl = deployCode("FuturesMarket.sol:FuturesMarket");
        vm.expectRevert(ZERO);
        _proxy(
            impl,
            abi.encodeCall(
                IFuturesMarketInit.initialize,
                (
                    address(manager),
                    address(chouse),
                    address(fIndex),
                    address(chToken),
                    address(0),
                    address(0),
                    _params()
                )
            )
        );
    }

    function test_escrow_boundsAndWithdrawal() public {
        _trade(alice, 10e18);
        _trade(bob, -10e18);
        _mintCh(bob, 20e18);
        vm.startPrank(bob);
        chToken.approve(address(futures), 20e18);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesEscrowOutOfRange.selector, id, bob, 11e18, 10e18));
        futures.deliver(id, 11e18);
        futures.deliver(id, 4e18);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesEscrowOutOfRange.selector, id, bob, 5e18, 4e18));
        futures.withdrawEscrow(id, 5e18);
        vm.expectEmit(address(futures));
        emit IFuturesEvents.DeliveryEscrowChanged(id, bob, -3e18, 1e18);
        futures.withdrawEscrow(id, 3e18);
        vm.stopPrank();
        assertEq(futures.positionOf(id, bob).escrowCh, 1e18);
        assertEq(chToken.balanceOf(bob), 19e18);
        // Before finalisation the obligation is only the escrow.
        (uint256 assignedCh, uint256 escrowCh, uint64 deadline) = futures.deliveryObligation(id, bob);
        assertEq(assignedCh, 0);
        assertEq(escrowCh, 1e18);
        assertEq(deadline, 0);
        // From expiry the escrow is locked in; after the delivery deadline nothing more can be delivered.
        vm.warp(expiry);
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesEscrowLocked.selector, id, bob));
        futures.withdrawEscrow(id, 1e18);
        vm.warp(expiry + 1);
        futures.fixSettlementPrice(id);
        vm.warp(block.timestamp + 1 hours);
        futures.finalizeSettlement(id);
        vm.warp(block.timestamp + 1 days);
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesEscrowLocked.selector, id, bob));
        futures.deliver(id, 1e18);
    }

    function test_settlement_stepsOutOfOrder() public {
        _trade(alice, 10e18);
        _trade(bob, -10e18);
        address[] memory accounts = new address[](65);
        vm.expectRevert(IFuturesErrors.FuturesInvalidParams.selector);
        futures.settlePositions(id, accounts);
        accounts = new address[](1);
        accounts[0] = alice;
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesPriceNotFixed.selector, id));
        futures.settlePositions(id, accounts);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesPriceNotFixed.selector, id));
        futures.disputeSettlementPrice(id, PRICE0);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesPriceNotFixed.selector, id));
        futures.finalizeSettlement(id);
        vm.warp(expiry);
        futures.fixSettlementPrice(id);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesNotFinal.selector, id));
        futures.settlePositions(id, accounts);
        // Fixed but still in the dispute window: the checker moves on to the next series.
        (bool canExec, ) = IKeeperCompatible(address(futures)).checker();
        assertFalse(canExec);
        vm.warp(block.timestamp + 1 hours);
        futures.finalizeSettlement(id);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesAlreadyDone.selector, id, address(0)));
        futures.finalizeSettlement(id);
    }

    function test_upkeep_settlePositionPayload() public {
        _trade(alice, 10e18);
        _trade(bob, -10e18);
        _finalise();
        vm.expectRevert(IFuturesErrors.FuturesInvalidPerformData.selector);
        IKeeperCompatible(address(futures)).performUpkeep(
            abi.encodeWithSelector(IFuturesMarket.claimBounties.selector, alice)
        );
        IKeeperCompatible(address(futures)).performUpkeep(
            abi.encodeWithSelector(IFuturesMarket.settlePosition.selector, id, alice)
        );
        assertEq(futures.positionOf(id, alice).sizeCh, 0);
        assertFalse(futures.positionOf(id, alice).open);
        // bob still open; once settled too, the checker has nothing left for this series.
        futures.settlePosition(id, bob);
        (bool canExec, ) = IKeeperCompatible(address(futures)).checker();
        assertFalse(canExec);
    }

    function test_views_seriesAccountsPages() public {
        _trade(alice, 10e18);
        _trade(bob, -10e18);
        (address[] memory accounts, uint256 total) = futures.seriesAccounts(id, 0, 10);
        assertEq(total, 2);
        assertEq(accounts.length, 2);
        assertEq(accounts[0], alice);
        assertEq(accounts[1], bob);
        (accounts, total) = futures.seriesAccounts(id, 1, 1);
        assertEq(accounts.length, 1);
        assertEq(accounts[0], bob);
        (accounts, total) = futures.seriesAccounts(id, 5, 10);
        assertEq(accounts.length, 0);
        assertEq(total, 2);
    }

    /// A long's delivery share after finalisation: its election × deliverable / Σ elections.
    function test_views_longDeliveryObligation() public {
        _trade(alice, 10e18);
        _trade(bob, -10e18);
        vm.prank(alice);
        futures.electDelivery(id, 4e18);
        _finalise();
        (uint256 assignedCh, , uint64 deadline) = futures.deliveryObligation(id, alice);
        assertEq(assignedCh, 4e18);
        assertGt(deadline, 0);
    }

    function test_trade_shortOiCapAndSeriesLimit() public {
        futures.setSeriesOiCap(id, 5e18);
        // checked at execution: the order is cancelled with the cap's error
        (bool ok, bytes memory why) = FuturesOrderSteps.trade(futures, bob, id, -6e18, 0);
        assertFalse(ok);
        assertEq(why, abi.encodeWithSelector(IFuturesErrors.FuturesOiCapExceeded.selector, id, 6e18, 5e18));
        // at most eight series per account and 28-day expiry bucket (issue 19 item 3: any number of buckets)
        int256 dir = (uint256(expiry) + 8 hours) / 28 days == uint256(expiry) / 28 days ? int256(1) : -1;
        for (uint256 i = 1; i <= 7; ++i) {
            uint256 other = futures.listSeries(
                uint64(uint256(int256(uint256(expiry)) + dir * int256(i * 1 hours))),
                1_000e18
            );
            FuturesOrderSteps.mustTrade(futures, alice, other, 1e18);
        }
        _trade(alice, 1e18);
        uint256 ninth = futures.listSeries(uint64(uint256(int256(uint256(expiry)) + dir * 8 hours)), 1_000e18);
        (ok, why) = FuturesOrderSteps.trade(futures, alice, ninth, 1e18, 0);
        assertFalse(ok);
        assertEq(why, abi.encodeWithSelector(IFuturesErrors.FuturesTooManySeries.selector, alice, 8));
        assertEq(futures.accountSeries(alice).length, 8);
    }

    /// A long liquidated out of its position before the cut-off loses the election it can no longer back.
    function test_liquidation_trimsElection() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 610e6);
        _trade(bob, -100e18);
        _trade(carol, 100e18); // notional ≈ 1,000
        vm.prank(carol);
        futures.electDelivery(id, 50e18); // needs IM 100 + 50 × 10 = 600
        assertEq(futures.seriesInfo(id).electedCh, 50e18);
        _setPrice(4e18); // equity ≈ 10 < MM ≈ 20: most of the position is closed
        liq.liquidate(carol);
        IFuturesTypes.Position memory p = futures.positionOf(id, carol);
        assertLt(p.sizeCh, 50e18);
        assertEq(p.electedCh, uint256(int256(p.sizeCh)));
        assertEq(futures.seriesInfo(id).electedCh, p.electedCh);
    }

    /// A short liquidated after expiry keeps its size at expiry as its delivery base.
    function test_liquidation_afterExpiryFreezesDeliveryBase() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 150e6);
        _trade(alice, 100e18);
        _trade(carol, -100e18); // notional ≈ 1,000, IM ≈ 100
        vm.warp(expiry);
        _setPrice(11e18);
        liq.liquidate(carol);
        IFuturesTypes.Position memory p = futures.positionOf(id, carol);
        assertTrue(p.baseTaken);
        assertEq(p.deliveryBaseCh, 100e18);
        assertGt(p.sizeCh, -100e18);
        assertEq(futures.seriesInfo(id).postExpiryShortCh, uint256(int256(100e18) + p.sizeCh));
        // It may still escrow up to its size at expiry (the delivery base), beyond its reduced size.
        uint256 beyond = uint256(int256(-p.sizeCh)) + 1e18;
        _mintCh(carol, 101e18);
        vm.startPrank(carol);
        chToken.approve(address(futures), 101e18);
        futures.deliver(id, beyond);
        vm.expectRevert(
            abi.encodeWithSelector(IFuturesErrors.FuturesEscrowOutOfRange.selector, id, carol, 101e18, 100e18)
        );
        futures.deliver(id, 101e18 - beyond);
        vm.stopPrank();
        assertEq(futures.positionOf(id, carol).escrowCh, beyond);
    }
}

interface IVaultHooks {
    function fundFromVault(uint256 amountUsdc) external;
    function returnToVault(uint256 amountUsdc) external;
}
