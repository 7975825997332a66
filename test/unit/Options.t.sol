// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OptionsSolBase} from "../helpers/OptionsSolBase.sol";
import {IOptionsMarketTypes} from "../../contracts/interfaces/markets/IOptionsMarket.sol";

/// @notice Fuzzed worked numbers of the options market against a reference computed here: collateral rounds up,
///         holder payouts round down, writer releases are collateral − obligation rounded up (ACC-05), and no
///         settlement pays more than was posted (MKT-07).
contract OptionsUnitTest is OptionsSolBase {
    address internal writer = makeAddr("writer");
    address internal holder = makeAddr("holder");

    function setUp() public {
        _deployOptions();
        _fundAccount(writer, 10_000_000e6);
    }

    function _payoff(uint256 id, uint256 priceWad) private view returns (uint256 x) {
        IOptionsMarketTypes.Series memory s = options.series(id);
        if (s.kind == IOptionsMarketTypes.OptionKind.Call) x = priceWad > s.strikeWad ? priceWad - s.strikeWad : 0;
        else x = s.strikeWad > priceWad ? s.strikeWad - priceWad : 0;
        if (x > s.capWad) x = s.capWad;
    }

    /// @notice MKT-07 / ACC-05: write `size`, give `given` of it to a holder, settle at `price`; every amount matches
    ///         the reference and payouts + releases never exceed the collateral.
    function testFuzz_settlementWithinCollateral(uint256 size, uint256 given, uint256 price, bool call) public {
        uint256 id = call ? 2 : 1;
        size = bound(size, 1, 100_000e18);
        given = bound(given, 0, size);
        price = bound(price, 1e15, 50e18);
        uint256 cap = options.series(id).capWad;
        uint256 posted = (size * cap + 1e30 - 1) / 1e30;
        vm.prank(writer);
        assertEq(options.write(id, size), posted, "collateral rounds up");
        if (given != 0) {
            vm.prank(writer);
            options.transferLong(id, holder, given);
        }
        vm.warp(expiry);
        oracle.setPrice(price);
        options.fixSettlementPrice(id);
        vm.warp(block.timestamp + 1 hours);
        uint256 p = _payoff(id, price);
        uint256 holderPay = (given * p) / 1e30;
        uint256 writerLongPay = ((size - given) * p) / 1e30;
        uint256 owed = (size * p + 1e30 - 1) / 1e30;
        int256 h0 = chouse.collateralOf(holder);
        int256 w0 = chouse.collateralOf(writer);
        options.exercise(id, holder);
        options.exercise(id, writer);
        assertEq(chouse.collateralOf(holder) - h0, int256(holderPay), "holder payout rounds down");
        assertEq(
            chouse.collateralOf(writer) - w0,
            int256(writerLongPay + posted - owed),
            "writer: its own longs' payout + collateral - obligation rounded up"
        );
        IOptionsMarketTypes.Series memory s = options.series(id);
        assertLe(uint256(s.paidUsdc) + s.releasedUsdc, s.postedUsdc, "MKT-07");
        assertLe(holderPay, posted, "MKT-07: payout <= collateral");
    }

    /// @notice The reserve in the pool is released exactly once: a second pull settles nothing.
    function test_exercise_secondPullPaysNothing() public {
        vm.prank(writer);
        options.write(1, 10e18);
        vm.prank(writer);
        options.transferLong(1, holder, 10e18);
        vm.warp(expiry);
        oracle.setPrice(5e18);
        options.fixSettlementPrice(1);
        vm.warp(block.timestamp + 1 hours);
        assertEq(options.exercise(1, holder), 30e6);
        assertEq(options.exercise(1, holder), 0);
    }
}
