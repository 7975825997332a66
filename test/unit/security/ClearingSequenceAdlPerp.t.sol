// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../../helpers/PerpSolBase.sol";
import {PerpOrderSteps} from "../../helpers/PerpOrderSteps.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {ILiquidationEngine} from "../../../contracts/interfaces/clearing/ILiquidationEngine.sol";

/// @notice Round 48 sequence attacks on ADL against a position in a real PerpMarket (the step calls the same
///         `onPositionLiquidated` hook as the liquidation close): a bankrupt long, its liquidation, the waterfall
///         (thin guarantor, empty insurance fund), then nominations and ADL steps on the perp's shorts.
contract ClearingSequenceAdlPerpTest is PerpSolBase {
    address internal lp = makeAddr("lp");
    address internal thin = makeAddr("thin guarantor");
    address internal loser = makeAddr("loser");
    address internal winner = makeAddr("winner");
    address internal second = makeAddr("second short");
    address internal bystander = makeAddr("bystander long");
    address internal keeper = makeAddr("keeper");

    function setUp() public {
        _deployPerps();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupGuarantor(thin, false, 5_000e6);
        _fundPerpPool(lp, 100_000e6, 100_000e6);
        _setupTrader(loser, thin, 10_000e6);
        _setupTrader(winner, guarantor, 20_000e6);
        _setupTrader(second, guarantor, 50_000e6);
        _setupTrader(bystander, guarantor, 50_000e6);
        PerpOrderSteps.mustTrade(perp, winner, -2_000e18);
        PerpOrderSteps.mustTrade(perp, second, -4_000e18);
        PerpOrderSteps.mustTrade(perp, bystander, 1_000e18);
        PerpOrderSteps.mustTrade(perp, loser, 5_000e18);
    }

    /// @dev The shock: the index halves, the loser (long 5,000 CH on 10k) is liquidated; the thin guarantor pays
    ///      its 5,000, the empty fund nothing, and an ADL claim opens on the perp's short side.
    function _default() internal returns (uint256 deficit) {
        index.setPrice(5e18);
        liq.liquidate(loser);
        int256 c = chouse.collateralOf(loser);
        assertLt(c, 0, "bankrupt after the waterfall");
        deficit = uint256(-c);
        ILiquidationEngine.AdlClaim memory claim = liq.adlClaim(loser);
        assertEq(claim.market, address(perp), "the claim is on the perp");
        assertTrue(claim.bankruptLong);
        _assertOiIsPositions();
    }

    function _size(address a) internal view returns (int256) {
        return chouse.positionOf(a, address(perp)).sizeCh;
    }

    /// The perp's OI per side and its per-account size mirror equal the ClearingHouse sizes (MKT OI, LIQ).
    function _assertOiIsPositions() internal view {
        address[] memory holders = new address[](4);
        (holders[0], holders[1], holders[2], holders[3]) = (loser, winner, second, bystander);
        _assertPerpBookMirrorsClearing(holders);
    }

    /// Mandatory gap: ADL against a PERP position. Sequence: open both sides, index shock, liquidate into the ADL
    /// claim, nominate the winner, execute after the window. The perp's OI follows the reduction, the winner's PnL is
    /// realised at the ADL (index) price and the haircut at the bankruptcy distance moves to the bankrupt account,
    /// nobody else's collateral moves, the deficit closes exactly (CLR-03, CLR-05, ACC-02, LIQ-03).
    function test_adlOnPerp_followsOiPaysAtAdlPriceAndClosesTheDeficit() public {
        Snap memory s;
        s.deficit = _default();
        s.perChWad = liq.adlClaim(loser).perChWad;
        liq.nominateAdl(loser, winner);
        vm.warp(block.timestamp + liq.adlWindow());
        IClearingHouse.Position memory wp = chouse.positionOf(winner, address(perp));
        // the step closes the winner's whole 2,000 CH at the index 5: pnl = size x 7 - openNotional (6 dp)
        s.pnl = (int256(wp.sizeCh) * 5) / 1e12 - wp.openNotionalUsdc;
        assertGt(s.pnl, 0);
        s.winner = chouse.collateralOf(winner);
        s.second = chouse.collateralOf(second);
        s.bystander = chouse.collateralOf(bystander);
        (, s.pool) = chouse.marketInfo(address(perp));
        s.keeper = usdc.balanceOf(keeper);

        vm.prank(keeper);
        (uint256 steps, uint256 recovered) = liq.executeAdl(loser);
        assertEq(steps, 1);
        _checkFirstStep(s, recovered);

        // the next round: the second short covers the rest of the claim
        liq.nominateAdl(loser, second);
        vm.warp(block.timestamp + liq.adlWindow());
        liq.executeAdl(loser);
        assertEq(chouse.collateralOf(loser), 0, "the deficit is closed");
        assertEq(chouse.uncoveredCollateralUsdc(), 0);
        assertEq(liq.adlClaim(loser).market, address(0), "claim closed");
        assertEq(chouse.collateralOf(bystander), s.bystander, "a same-side long is still untouched");
        _assertOiIsPositions();
    }

    struct Snap {
        uint256 deficit;
        uint256 perChWad;
        int256 pnl;
        int256 winner;
        int256 second;
        int256 bystander;
        int256 pool;
        uint256 keeper;
    }

    function _checkFirstStep(Snap memory s, uint256 recovered) internal view {
        uint256 haircut = 2_000 * s.perChWad; // perChWad is USDC (6 dp) per CH
        if (haircut > s.deficit) haircut = s.deficit;
        uint256 bounty = usdc.balanceOf(keeper) - s.keeper;
        assertEq(recovered, haircut, "recovered = the haircut at the bankruptcy distance");
        assertEq(_size(winner), 0, "the winner is closed");
        assertEq(
            chouse.collateralOf(winner),
            s.winner + s.pnl - int256(haircut + bounty),
            "paid its PnL at the ADL price less the haircut and bounty"
        );
        (, int256 poolAfter) = chouse.marketInfo(address(perp));
        assertEq(poolAfter, s.pool - s.pnl, "the pool paid the PnL at the index, nothing else (CLR-05)");
        assertEq(chouse.collateralOf(second), s.second, "a non-nominated short is untouched");
        assertEq(chouse.collateralOf(bystander), s.bystander, "a same-side long is untouched");
        assertEq(chouse.collateralOf(loser), -int256(s.deficit - haircut));
        assertEq(chouse.uncoveredCollateralUsdc(), s.deficit - haircut, "ACC-02: the booking follows");
        _assertOiIsPositions();
    }

    /// Sequence: the ADL winner is partly closed; then it trades the rest away through the perp's own path and a new
    /// account opens. The perp's mirror must still net to zero for the winner (an ADL reduction it did not see would
    /// leave a phantom size and OI after its close).
    function test_adlPartialThenCloseOnPerp_leavesNoPhantomOi() public {
        _default();
        liq.nominateAdl(loser, second);
        liq.nominateAdl(loser, winner);
        vm.warp(block.timestamp + liq.adlWindow());
        liq.executeAdl(loser);
        _assertOiIsPositions();
        int256 ws = _size(winner);
        int256 ss = _size(second);
        assertTrue(ws != 0 || ss != 0, "someone keeps a short");
        if (ss != 0) {
            (bool ok, bytes memory why) = PerpOrderSteps.close(perp, second, 0);
            assertTrue(ok, string(why));
        }
        if (ws != 0) {
            (bool ok, bytes memory why) = PerpOrderSteps.close(perp, winner, 0);
            assertTrue(ok, string(why));
        }
        assertEq(_size(second), 0);
        assertEq(_size(winner), 0);
        _assertOiIsPositions();
    }
}
