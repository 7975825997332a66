// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SpotSolBase} from "../helpers/SpotSolBase.sol";
import {ISpotMarket} from "../../contracts/interfaces/markets/ISpotMarket.sol";
import {SpotHandler} from "./handlers/SpotHandler.sol";

/// @notice MKT-06 (orders never filled beyond amount, after expiry, after cancellation, twice per nonce) and
///         ACC-01 (the market holds exactly the seat DPS and the pending fee USDC, never CH) under any sequence.
contract SpotInvariantTest is SpotSolBase {
    SpotHandler internal handler;

    function setUp() public {
        _deploySpot();
        address[3] memory takers = [makeAddr("t0"), makeAddr("t1"), makeAddr("t2")];
        handler = new SpotHandler(spot, takers);
        for (uint256 i = 0; i < 3; ++i) {
            _fund(handler.makerAddress(i));
            _fund(takers[i]);
        }
        uint256[] memory mins = new uint256[](2);
        uint256[] memory discounts = new uint256[](2);
        (mins[0], mins[1], discounts[0], discounts[1]) = (1_000e18, 10_000e18, 2_000, 5_000);
        spot.setSeatTiers(mins, discounts);
        spot.setTwapParams(60, 0);
        targetContract(address(handler));
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public {
        check_MKT06_ordersNeverOverfilled();
        check_ACC01_marketHoldsOnlyStakesAndPendingFees();
    }

    /// @notice MKT-06: filled ≤ amount, filled equals the sum of successful fills, nothing after cancellation, and
    ///         no forbidden fill (expired, below min nonce, reused nonce) ever succeeded.
    function check_MKT06_ordersNeverOverfilled() public view {
        assertFalse(handler.violation(), "forbidden fill succeeded");
        uint256 n = handler.orderCount();
        for (uint256 i = 0; i < n; ++i) {
            ISpotMarket.Order memory o = handler.orderAt(i);
            uint256 filled = spot.orderState(o.maker, o.nonce, spot.orderDigest(o)).filledCh;
            assertLe(filled, o.amountCh, "overfilled");
            // two orders with the same maker and nonce share no state: each hash's fill is its own ghost
            assertEq(filled, handler.ghostFilled(i), "ledger");
            if (handler.ghostCancelled(i)) assertEq(filled, handler.filledAtCancel(i), "filled after cancel");
        }
    }

    /// @notice ACC-01: the market never holds CH; its USDC is exactly the pending fees, and with what was distributed
    ///         it is exactly what the actors lost to fills (the handler's independent ledger: the pending income is
    ///         the market's balance, round 37); its DPS is exactly the seat stakes (staked + pending unstake); after
    ///         distribution it holds no USDC.
    function check_ACC01_marketHoldsOnlyStakesAndPendingFees() public {
        assertEq(ch.balanceOf(address(spot)), 0, "CH");
        assertEq(usdc.balanceOf(address(spot)), spot.pendingFeesUsdc(), "USDC");
        assertEq(
            usdc.balanceOf(address(spot)) + usdc.balanceOf(treasury) + usdc.balanceOf(address(fund)),
            handler.ghostFeeIncome(),
            "USDC fee income"
        );
        (uint256 staked, uint256 pending) = spot.totalSeatDps();
        assertEq(staked, handler.ghostStaked(), "staked");
        assertEq(pending, handler.ghostPending(), "pending");
        assertEq(dps.balanceOf(address(spot)), staked + pending, "DPS");
        spot.distributeFees();
        assertEq(usdc.balanceOf(address(spot)), 0, "USDC after settlement");
    }
}
