// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../../helpers/PerpSolBase.sol";
import {PerpOrderSteps} from "../../helpers/PerpOrderSteps.sol";
import {ILiquidationEngine} from "../../../contracts/interfaces/clearing/ILiquidationEngine.sol";

/// @notice Auto-deleveraging against positions that live in a real PerpMarket (docs/clearing.md "Auto-deleveraging",
///         CLR-03, CLR-05, ACC-01, ACC-02). ADL moves ClearingHouse positions without a market trade, through the
///         same `onPositionLiquidated` hook as a liquidation close; until round 48 only a mock market had been
///         deleveraged. The attacks: the perp's own book (open interest per side, each account's size, the open
///         notional the vault values, the funding an ADL'd short is owed) drifting from the ClearingHouse's positions;
///         funding owed to a deleveraged short lost with the size it gives up; cash leaving the ClearingHouse that
///         no claim backs.
/// @dev Scenario: `loser` (thin guarantor, 5,000 USDC of capital: capacity 50,000) is long 5,000 CH at 10 on 10,000 USDC; `follower`
///      (well-guaranteed) long 3,000 CH; `bigShort` short 2,500 and `smallShort` short 3,500 CH. Longs are the skew
///      (8,000 against 6,000), so for a day the longs pay funding and the shorts are owed it; the index falls 10 -> 6: `loser` loses 20,000 on 10,000; the guarantor and a 1,000 USDC insurance fund
///      leave a deficit for ADL on the shorts.
contract PerpAdlTest is PerpSolBase {
    address internal lp = makeAddr("lp");
    address internal loser = makeAddr("loser");
    address internal follower = makeAddr("follower");
    address internal bigShort = makeAddr("bigShort");
    address internal smallShort = makeAddr("smallShort");
    address internal thin = makeAddr("thin guarantor");

    function setUp() public {
        _deployPerps();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupGuarantor(thin, false, 5_000e6);
        _fundPerpPool(lp, 200_000e6, 200_000e6);
        _setupTrader(loser, thin, 10_000e6);
        _setupTrader(follower, guarantor, 20_000e6);
        _setupTrader(bigShort, guarantor, 40_000e6);
        _setupTrader(smallShort, guarantor, 40_000e6);
        PerpOrderSteps.mustTrade(perp, bigShort, -2_500e18);
        PerpOrderSteps.mustTrade(perp, smallShort, -3_500e18);
        PerpOrderSteps.mustTrade(perp, loser, 5_000e18);
        PerpOrderSteps.mustTrade(perp, follower, 3_000e18);
        _fundInsurance(1_000e6);
    }

    /// ACC-02 in the perp after each step (PerpSolBase): the four accounts hold every perp position.
    function _assertPerpMirrorsClearing() internal view {
        address[] memory holders = new address[](4);
        (holders[0], holders[1], holders[2], holders[3]) = (loser, follower, bigShort, smallShort);
        _assertPerpBookMirrorsClearing(holders);
    }

    function _position(address who) internal view returns (int128 size, int128 open) {
        size = chouse.positionOf(who, address(perp)).sizeCh;
        open = chouse.positionOf(who, address(perp)).openNotionalUsdc;
    }

    /// The shock and the liquidation: the deficit beyond the guarantor and the fund opens an ADL claim on the shorts.
    function _default() internal returns (ILiquidationEngine.AdlClaim memory c) {
        vm.warp(block.timestamp + 1 days);
        index.setPrice(6e18);
        liq.liquidate(loser);
        c = liq.adlClaim(loser);
        assertEq(c.market, address(perp), "the claim is on the perp");
        assertTrue(c.bankruptLong, "against the shorts");
        assertLt(chouse.collateralOf(loser), 0, "the deficit stays on the account until ADL");
    }

    /// CLR-03 / ACC-02: ADL of two perp shorts keeps the perp's book equal to the ClearingHouse's, closes the claim
    /// and the account's deficit, and moves no one else's collateral.
    function test_adlOfPerpShorts_keepsThePerpBookAndClosesTheDeficit() public {
        ILiquidationEngine.AdlClaim memory c = _default();
        _assertPerpMirrorsClearing();
        liq.nominateAdl(loser, bigShort);
        liq.nominateAdl(loser, smallShort);
        vm.warp(block.timestamp + liq.adlWindow());
        int256 followerBefore = chouse.collateralOf(follower);
        (int128 bigBefore, ) = _position(bigShort);
        (int128 smallBefore, ) = _position(smallShort);
        (uint256 steps, uint256 recovered) = liq.executeAdl(loser);
        assertGt(steps, 0, "deleveraged");
        assertEq(recovered, uint256(c.sizeCh * c.perChWad) / 1e18, "the whole claim recovered");
        assertEq(liq.adlClaim(loser).market, address(0), "claim closed");
        assertEq(chouse.collateralOf(loser), 0, "the deficit is closed");
        assertEq(chouse.uncoveredCollateralUsdc(), 0, "nothing left uncovered");
        (int128 bigAfter, ) = _position(bigShort);
        (int128 smallAfter, ) = _position(smallShort);
        assertEq(
            uint256(int256(bigAfter - bigBefore + smallAfter - smallBefore)),
            c.sizeCh,
            "the shorts bought back exactly the claim's size"
        );
        assertEq(chouse.collateralOf(follower), followerBefore, "CLR-05: a same-side bystander pays nothing");
        _assertPerpMirrorsClearing();
    }

    /// The attack on funding: a short that is owed funding (longs were the skew for a day) is deleveraged. The funding
    /// it is owed at that moment must survive the size it gives up (carried as pending, paid on its next
    /// settlement), not vanish with it.
    function test_adlOfAShortOwedFunding_keepsWhatItIsOwed() public {
        _default();
        liq.nominateAdl(loser, bigShort);
        liq.nominateAdl(loser, smallShort);
        vm.warp(block.timestamp + liq.adlWindow());
        int256 owedBig = perp.fundingOwedUsdc(bigShort);
        int256 owedSmall = perp.fundingOwedUsdc(smallShort);
        assertLt(owedBig, 0, "the short is owed funding (longs were the skew)");
        assertLt(owedSmall, 0, "the short is owed funding (longs were the skew)");
        liq.executeAdl(loser);
        assertEq(perp.fundingOwedUsdc(bigShort), owedBig, "the deleveraged short's funding is carried");
        assertEq(perp.fundingOwedUsdc(smallShort), owedSmall, "the other short's funding is carried");
        // and it is paid: a settlement after ADL moves exactly that amount
        int256 before = chouse.collateralOf(bigShort);
        perp.settleFunding(bigShort);
        assertEq(chouse.collateralOf(bigShort) - before, -owedBig, "the carried funding is settled");
    }

    /// The reorder: a nominated short closes its whole position during the window (its close is a trade, at the index,
    /// with its own funding settled). Execution must neither revert on it nor charge it, deleverage the others, and
    /// leave the claim open for exactly the size still unmatched, with the perp's book still the ClearingHouse's.
    function test_nomineeClosesDuringTheWindow_adlSkipsItAndTheClaimKeepsTheRest() public {
        ILiquidationEngine.AdlClaim memory c = _default();
        liq.nominateAdl(loser, smallShort);
        liq.nominateAdl(loser, bigShort);
        (bool ok, bytes memory reason) = PerpOrderSteps.close(perp, smallShort, 0);
        assertTrue(ok, string(reason));
        assertEq(chouse.positionOf(smallShort, address(perp)).sizeCh, 0, "flat before the execution");
        vm.warp(block.timestamp + liq.adlWindow());
        int256 smallAfterClose = chouse.collateralOf(smallShort);
        (int128 bigBefore, ) = _position(bigShort);
        liq.executeAdl(loser);
        assertEq(chouse.collateralOf(smallShort), smallAfterClose, "the flat nominee is not charged");
        (int128 bigAfter, ) = _position(bigShort);
        uint256 matched = uint256(int256(bigAfter - bigBefore));
        ILiquidationEngine.AdlClaim memory rest = liq.adlClaim(loser);
        assertEq(matched, 2_500e18, "the other nominee bought back its whole short");
        assertEq(rest.market, address(perp), "the claim stays open for the rest");
        assertEq(rest.sizeCh, c.sizeCh - matched, "for exactly the unmatched size");
        assertLt(chouse.collateralOf(loser), 0, "the rest of the deficit waits for the next round");
        _assertPerpMirrorsClearing();
    }
}
