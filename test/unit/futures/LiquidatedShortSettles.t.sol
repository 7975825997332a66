// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesHandlerSetup} from "../../invariant/handlers/FuturesHandlerSetup.sol";
import {IFuturesTypes} from "../../../contracts/interfaces/markets/IFuturesTypes.sol";

/// @notice Round 36 regression for the clean-clone CI failure of the merged g35-fut change (MKT-05's per-account
///         delivery rule, `violationsMKT05` 1 ≠ 0): the invariant handler's sequence trade → withdrawMax → deliver →
///         movePrice → liquidate → expireAndSettle, replayed deterministically through the same handler (so MKT-05
///         is asserted exactly as FuturesHandler computes it: per short assigned delivered or slashed, CH delivered =
///         CH received, slashes = compensation), with a long counterparty, partial and full liquidations.
contract LiquidatedShortSettlesTest is FuturesHandlerSetup {
    function setUp() public {
        _setUpHandler();
    }

    function _clean() internal view {
        assertEq(handler.violationsMKT05(), 0, "MKT-05 per-account delivery rule");
        assertEq(handler.violationsMKT08(), 0, "MKT-08");
        uint256 n = handler.finishedCount();
        for (uint256 k; k < n; ++k) {
            IFuturesTypes.Series memory s = futures.seriesInfo(handler.finished(k));
            assertEq(s.deliveredCh, s.receivedCh, "MKT-05 CH delivered = received");
            assertEq(s.openPositions, 0, "MKT-04 open positions");
        }
        uint256 escrow;
        uint256 id = handler.series();
        for (uint256 i; i < 4; ++i) escrow += futures.positionOf(id, traders[i]).escrowCh;
        assertEq(chToken.balanceOf(address(futures)), escrow, "MKT-05 CH held = live escrow");
    }

    /// The CI counterexample's shape: a short (trader 1) against a long (trader 0), the short withdraws to its max,
    /// escrows part of its delivery, the price jumps, it is liquidated, the series expires and settles.
    function _run(int256 shortSize, uint256 deliverAmt, uint256 price, bool electLong, bool warpFirst) internal {
        handler.trade(0, -shortSize); // long
        handler.trade(1, shortSize); // short
        if (electLong) handler.elect(0, uint256(-shortSize));
        handler.withdrawMax(1);
        handler.deliver(1, deliverAmt);
        handler.movePrice(price);
        if (warpFirst) {
            (uint64 expiry, ) = futures.seriesExpiry(handler.series());
            if (block.timestamp < expiry) vm.warp(expiry);
        }
        handler.liquidate(1);
        handler.liquidate(1);
        handler.expireAndSettle();
        _clean();
    }

    /// @notice MKT-05: a short liquidated in part (small jump) before expiry, with CH escrowed, settles clean.
    function test_MKT05_partlyLiquidatedEscrowedShortSettles() public {
        _run(-300e18, 50e18, 14e18, false, false);
    }

    /// @notice MKT-05: a short liquidated in full (large jump) before expiry, with CH escrowed, settles clean.
    function test_MKT05_fullyLiquidatedEscrowedShortSettles() public {
        _run(-300e18, 50e18, 20e18, false, false);
    }

    /// @notice MKT-05: the same with the long electing delivery (assignment, slash, compensation).
    function test_MKT05_liquidatedShortWithElectingLongSettles() public {
        _run(-300e18, 50e18, 20e18, true, false);
        _run(-200e18, 10e18, 14e18, true, false);
    }

    /// @notice MKT-05: the short liquidated after expiry (price-fixed leg: liquidation corrections in the book).
    function test_MKT05_shortLiquidatedAtExpirySettles() public {
        _run(-300e18, 50e18, 20e18, false, true);
        _run(-300e18, 50e18, 20e18, true, true);
    }

    /// @notice MKT-05 over the handler's sequence with free sizes, escrow, price and timing.
    function testFuzz_MKT05_liquidatedShortSettles(
        uint256 seedS,
        int256 size,
        uint256 deliverAmt,
        uint256 price,
        uint256 dt,
        bool elect
    ) public {
        size = bound(size, -300e18, 300e18);
        seedS %= 4;
        handler.trade(seedS + 1, size); // any side
        handler.trade(seedS, -size / 2);
        if (elect) handler.elect(seedS, uint256(size < 0 ? -size : size));
        handler.withdrawMax(seedS + 1);
        handler.deliver(seedS + 1, deliverAmt);
        handler.movePrice(price);
        if (dt % 3 == 1) handler.warp(dt);
        if (dt % 3 == 2) {
            (uint64 expiry, ) = futures.seriesExpiry(handler.series());
            if (block.timestamp < expiry) vm.warp(expiry + (dt % 2 hours));
        }
        handler.liquidate(seedS + 1);
        handler.expireAndSettle();
        _clean();
    }
}
