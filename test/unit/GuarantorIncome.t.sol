// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {GuarantorPoolStorage} from "../../contracts/libraries/clearing/GuarantorStorage.sol";
import {GuarantorIncome} from "../../contracts/libraries/clearing/GuarantorIncome.sol";

/// @dev GuarantorIncome on plain storage (the library takes storage pointers; the pool passes its ERC-7201 ones).
contract GuarantorIncomeHarness {
    GuarantorPoolStorage.GuarantorState internal g;
    GuarantorPoolStorage.IncomeState internal inc;

    /// @dev At most 96 bits: the pool keeps capital + unvested ≤ type(uint96).max (deposit and vest check it), which is
    ///      what lets a release add to the uint96 capital unchecked.
    function setVesting(uint96 unvested, uint64 start, uint64 end) external {
        (inc.unvestedUsdc, inc.vestStart, inc.vestEnd) = (unvested, start, end);
    }

    function release() external {
        GuarantorIncome.release(g, inc);
    }

    function capitalNow() external view returns (uint256) {
        return GuarantorIncome.capitalNow(g, inc);
    }

    function state() external view returns (uint256 capital, uint256 unvested, uint64 start) {
        return (g.capitalUsdc, inc.unvestedUsdc, inc.vestStart);
    }
}

/// @notice The income vesting of GuarantorIncome, fuzzed against the linear reference amount × elapsed / vestSec
///         (issue 18 item 5: the library cut out of the GuarantorPool keeps the pool's vesting exactly).
contract GuarantorIncomeTest is Test {
    GuarantorIncomeHarness internal h;

    function setUp() public {
        h = new GuarantorIncomeHarness();
    }

    /// Releasing at arbitrary moments conserves the income (capital + unvested = amount), never pays ahead of the
    /// linear schedule by more than the rounding of the steps, never trails it by more, and has paid everything at the
    /// end; the view (`capitalNow`) always equals what a release at that moment books.
    function testFuzz_release_stepwiseFollowsTheLinearSchedule(
        uint96 amount,
        uint32 vestSec,
        uint32[4] calldata gaps
    ) public {
        vestSec = uint32(bound(vestSec, 1, 30 days));
        uint64 t0 = uint64(block.timestamp);
        h.setVesting(amount, t0, t0 + vestSec);
        uint256 t = t0;
        for (uint256 i; i < gaps.length; ++i) {
            t += bound(gaps[i], 0, vestSec);
            vm.warp(t);
            uint256 viewed = h.capitalNow();
            h.release();
            (uint256 capital, uint256 unvested, ) = h.state();
            assertEq(capital, viewed, "capitalNow = what a release books");
            assertEq(capital + unvested, amount, "conserved");
            uint256 elapsed = t - t0 > vestSec ? vestSec : t - t0;
            uint256 ref = (uint256(amount) * elapsed) / vestSec;
            assertLe(capital, ref + i + 1, "never ahead of the schedule beyond rounding");
            assertGe(capital + i + 1, ref, "never behind the schedule beyond rounding");
        }
        vm.warp(uint256(t0) + vestSec);
        h.release();
        (uint256 capitalEnd, uint256 unvestedEnd, ) = h.state();
        assertEq(capitalEnd, amount, "all vested at the end");
        assertEq(unvestedEnd, 0);
    }

    /// A release before any time passed books nothing and leaves the vesting start where it was.
    function test_release_atStart_booksNothing() public {
        uint64 t0 = uint64(block.timestamp);
        h.setVesting(1_000e6, t0, t0 + 1 days);
        h.release();
        (uint256 capital, uint256 unvested, uint64 start) = h.state();
        assertEq(capital, 0);
        assertEq(unvested, 1_000e6);
        assertEq(start, t0);
    }
}
