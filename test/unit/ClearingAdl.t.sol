// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IClearingHouseEvents} from "../../contracts/interfaces/clearing/IClearingHouseEvents.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";

/// @notice Auto-deleveraging (issue 20 item 4, docs/clearing.md "Auto-deleveraging"): CLR-03 (ADL last, at the
///         bankruptcy price, opposite side only) and CLR-05 (no stray losses), the ranking and its attack.
/// @dev Scenario: bob (thin guarantor, 60 USDC) is long 50 CH at 10 with 100 USDC; the index falls to 5: collateral
///      100 − 250 = −150; the guarantor pays 60, the insurance fund 40, 50 USDC is left for ADL over 50 CH: the
///      bankruptcy distance is 1 USDC per CH (bankruptcy price 5 + 1 = 6 for the shorts buying back).
///      Shorts at 10 (profit 5 / CH at 5): dave 30 CH / 60 USDC (score 150 × 150 / 210 ≈ 107),
///      carol 20 CH / 100 USDC (score 100 × 100 / 200 = 50), erin 10 CH / 1,000 USDC (score 50 × 50 / 1,050 ≈ 2).
contract ClearingAdlTest is ClearingUnitBase {
    address internal carol = makeAddr("carol");
    address internal dave = makeAddr("dave");
    address internal erin = makeAddr("erin");
    address internal mallory = makeAddr("mallory");
    address internal thin = makeAddr("thin guarantor");

    function setUp() public override {
        super.setUp();
        _setupGuarantor(thin, false, 60e6);
        _setupTrader(bob, thin, 100e6);
        _short(dave, 30e18, 60e6);
        _short(carol, 20e18, 100e6);
        _short(erin, 10e18, 1_000e6);
        vm.prank(bob);
        market.trade(50e18);
    }

    function _short(address who, uint256 sizeCh, uint256 collateralUsdc) internal {
        _setupTrader(who, guarantor, collateralUsdc);
        vm.prank(who);
        market.trade(-int256(sizeCh));
    }

    /// The shock: bob is liquidated, the guarantor and the insurance fund pay 100, 50 is left for ADL.
    function _default() internal {
        _fundInsurance(40e6);
        oracle.setPrice(5e18);
        liq.liquidate(bob);
    }

    function _afterWindow() internal {
        vm.warp(block.timestamp + liq.adlWindow());
    }

    /// CLR-03: the waterfall's last layer is ADL, not socialisation: the deficit stays on the account, a claim opens on
    /// the opposite side of the market of its position, at its bankruptcy distance; no pool is charged (CLR-05).
    function test_default_opensAdlClaimInsteadOfSocialising_CLR03() public {
        (, int256 poolBefore) = chouse.marketInfo(address(market));
        _fundInsurance(40e6);
        oracle.setPrice(5e18);
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.DeficitUnabsorbed(bob, 50e6, -50e6);
        vm.expectEmit(address(liq));
        emit ILiquidationEngine.AdlRoundOpened(bob, address(market), true, 50e6, 50e18, 1e6, block.timestamp + 300);
        liq.liquidate(bob);
        assertEq(chouse.collateralOf(bob), -50e6);
        (, uint256 socialised) = chouse.totals();
        assertEq(socialised, 0);
        (, int256 poolAfter) = chouse.marketInfo(address(market));
        assertEq(poolAfter, poolBefore + 250e6, "the pool only took bob's loss at the index");
        ILiquidationEngine.AdlClaim memory c = liq.adlClaim(bob);
        assertEq(c.market, address(market));
        assertTrue(c.bankruptLong);
        assertEq(c.sizeCh, 50e18);
        assertEq(c.perChWad, 1e6);
    }

    /// The attack: a malicious keeper nominates a low-ranked victim (erin) to have her deleveraged. Anyone — an honest
    /// keeper or the victim — nominates the better-ranked accounts during the window; the engine orders the list by
    /// the score it computes itself, so the best-ranked are reduced first and the victim keeps her position.
    function test_adl_maliciousKeeperCannotPickLowRankedVictim() public {
        _default();
        vm.prank(mallory);
        liq.nominateAdl(bob, erin);
        vm.prank(erin); // the challenge: the victim nominates better-ranked candidates
        liq.nominateAdl(bob, carol);
        vm.prank(keeper);
        (uint256 score, uint256 rank) = liq.nominateAdl(bob, dave);
        assertEq(rank, 0, "dave outranks both");
        assertEq(score, uint256(150e6 * 150e6) / 210e6);
        ILiquidationEngine.AdlClaim memory c = liq.adlClaim(bob);
        assertEq(c.nominees[0], dave);
        assertEq(c.nominees[1], carol);
        assertEq(c.nominees[2], erin);
        _afterWindow();
        vm.prank(mallory);
        (uint256 steps, uint256 recovered) = liq.executeAdl(bob);
        assertEq(steps, 2);
        assertEq(recovered, 50e6);
        assertEq(chouse.positionOf(erin, address(market)).sizeCh, -10e18, "the victim is untouched");
        assertEq(chouse.positionOf(dave, address(market)).sizeCh, 0);
        assertEq(chouse.positionOf(carol, address(market)).sizeCh, 0);
        assertEq(chouse.collateralOf(bob), 0);
        assertEq(liq.adlClaim(bob).market, address(0), "claim closed");
    }

    /// CLR-03 at the bankruptcy price: dave buys back 30 CH at the index 5 (profit 150) and gives up 1 USDC per CH
    /// (effective price 6, bob's bankruptcy price); the keeper's bounty comes out of the rest of his profit only;
    /// every step is an event.
    function test_adl_reducesAtBankruptcyPrice_CLR03() public {
        liq.setParams(50, 10e6, 0); // 0.5 % of the reduced notional, capped at 10
        _default();
        liq.nominateAdl(bob, dave);
        _afterWindow();
        uint256 keeperBefore = usdc.balanceOf(keeper);
        vm.expectEmit(address(chouse));
        // notional 30 × 5 = 150 → bounty 0.75
        emit IClearingHouseEvents.PositionDeleveraged(
            bob,
            dave,
            address(market),
            30e18,
            5e18,
            150e6,
            30e6,
            0.75e6,
            0,
            60e6 + 150e6 - 30e6 - 0.75e6,
            -20e6
        );
        vm.expectEmit(address(chouse));
        emit IClearingHouse.DeficitAbsorbed(bob, IClearingHouse.Layer.Adl, 30e6, 20e6, address(market));
        vm.prank(keeper);
        liq.executeAdl(bob);
        assertEq(usdc.balanceOf(keeper) - keeperBefore, 0.75e6);
        // 20 CH still to match: the next round opened
        ILiquidationEngine.AdlClaim memory c = liq.adlClaim(bob);
        assertEq(c.sizeCh, 20e18);
        assertEq(c.nominees.length, 0);
        assertEq(c.roundStartSec, block.timestamp);
        liq.nominateAdl(bob, carol);
        _afterWindow();
        liq.executeAdl(bob);
        assertEq(chouse.collateralOf(bob), 0);
        // ACC-01 ledger holds through ADL: balance = Σ collateral + pool + fees
        (, int256 pool_) = chouse.marketInfo(address(market));
        uint256 sum = uint256(pool_) + uint256(chouse.collateralOf(dave)) + uint256(chouse.collateralOf(carol));
        sum += uint256(chouse.collateralOf(erin));
        (uint256 fees, ) = chouse.totals();
        assertEq(usdc.balanceOf(address(chouse)), sum + fees);
    }

    /// CLR-03 opposite side only: a long (same side as bob), bob himself and an unprofitable short are no candidates.
    function test_adl_rejectsSameSideUnprofitableAndBankrupt_CLR03() public {
        _setupTrader(alice, guarantor, 500e6);
        vm.prank(alice);
        market.trade(5e18); // long at 10: same side as bob
        _fundInsurance(40e6);
        oracle.setPrice(5e18);
        liq.liquidate(bob);
        vm.expectRevert(abi.encodeWithSelector(ILiquidationEngine.AdlNotCandidate.selector, alice, 5e18, -25e6, 475e6));
        liq.nominateAdl(bob, alice);
        vm.expectRevert(abi.encodeWithSelector(ILiquidationEngine.AdlNotCandidate.selector, bob, 0, 0, -50e6));
        liq.nominateAdl(bob, bob);
        // a short opened at 5 has no profit at 5
        _short(mallory, 1e18, 10e6);
        vm.expectRevert(abi.encodeWithSelector(ILiquidationEngine.AdlNotCandidate.selector, mallory, -1e18, 0, 10e6));
        liq.nominateAdl(bob, mallory);
        liq.nominateAdl(bob, dave);
        vm.expectRevert(abi.encodeWithSelector(ILiquidationEngine.AdlAlreadyNominated.selector, dave));
        liq.nominateAdl(bob, dave);
        vm.expectRevert(abi.encodeWithSelector(ILiquidationEngine.AdlNoClaim.selector, carol));
        liq.nominateAdl(carol, dave);
    }

    /// CLR-03 ADL last: with the insurance fund able to pay there is no claim; a fund refilled before the round is
    /// executed pays first and nobody is deleveraged.
    function test_adl_onlyAfterInsuranceExhausted_CLR03() public {
        _fundInsurance(1_000e6);
        oracle.setPrice(5e18);
        liq.liquidate(bob);
        assertEq(liq.adlClaim(bob).market, address(0));
        assertEq(chouse.collateralOf(bob), 0);
    }

    function test_adl_refilledFundPaysBeforeCandidates_CLR03() public {
        _default();
        liq.nominateAdl(bob, dave);
        _afterWindow();
        _fundInsurance(50e6);
        (uint256 steps, uint256 recovered) = liq.executeAdl(bob);
        assertEq(steps, 0);
        assertEq(recovered, 0);
        assertEq(chouse.positionOf(dave, address(market)).sizeCh, -30e18);
        assertEq(chouse.collateralOf(bob), 0);
        assertEq(liq.adlClaim(bob).market, address(0));
    }

    /// The window: nominations close when it ends, execution waits for it; the window is governance's.
    function test_adl_nominationWindow() public {
        _default();
        liq.nominateAdl(bob, dave);
        uint256 ends = block.timestamp + 300;
        vm.expectRevert(abi.encodeWithSelector(ILiquidationEngine.AdlNominationsOpen.selector, bob, ends));
        liq.executeAdl(bob);
        vm.warp(ends);
        vm.expectRevert(abi.encodeWithSelector(ILiquidationEngine.AdlNominationsClosed.selector, bob, ends));
        liq.nominateAdl(bob, carol);
        vm.expectRevert(abi.encodeWithSelector(ILiquidationEngine.AdlNoClaim.selector, carol));
        liq.executeAdl(carol);
        vm.expectRevert(abi.encodeWithSelector(ILiquidationEngine.AdlInvalidWindow.selector, 0));
        liq.setAdlWindow(0);
        vm.expectRevert(abi.encodeWithSelector(ILiquidationEngine.AdlInvalidWindow.selector, 1 days + 1));
        liq.setAdlWindow(1 days + 1);
        vm.expectEmit(address(liq));
        emit ILiquidationEngine.AdlWindowSet(60);
        liq.setAdlWindow(60);
        assertEq(liq.adlWindow(), 60);
        vm.prank(mallory);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, mallory));
        liq.setAdlWindow(60);
    }

    /// A full list keeps the best ADL_MAX_NOMINEES: a better nominee displaces the last, a worse one is refused.
    function test_adl_fullListDisplacesLowest() public {
        _default();
        address[8] memory small;
        // eight small, rich shorts opened at 10 (tradeAt): 2 CH each, the richer the lower the score
        for (uint256 i; i < 8; ++i) {
            small[i] = makeAddr(string(abi.encodePacked("small", i)));
            _setupTrader(small[i], guarantor, 1_000e6 + i * 1e6);
            market.tradeAt(small[i], -2e18, 10e18);
            liq.nominateAdl(bob, small[i]);
        }
        address poor = makeAddr("least leveraged");
        _setupTrader(poor, guarantor, 5_000e6);
        market.tradeAt(poor, -1e18, 10e18);
        ILiquidationEngine.AdlClaim memory c = liq.adlClaim(bob);
        uint256 lowest = c.scores[7];
        assertEq(c.nominees[7], small[7], "richest = least leveraged = last");
        vm.expectRevert(
            abi.encodeWithSelector(ILiquidationEngine.AdlNotRanked.selector, poor, liq.adlScore(bob, poor), lowest)
        );
        liq.nominateAdl(bob, poor);
        vm.expectEmit(address(liq));
        emit ILiquidationEngine.AdlNominated(bob, dave, address(this), liq.adlScore(bob, dave), 0, small[7]);
        liq.nominateAdl(bob, dave);
        c = liq.adlClaim(bob);
        assertEq(c.nominees.length, 8);
        assertEq(c.nominees[0], dave);
    }

    /// A nominee that closed its position after its nomination is skipped (an event), the next one is reduced.
    function test_adl_closedNomineeIsSkipped() public {
        _default();
        liq.nominateAdl(bob, dave);
        liq.nominateAdl(bob, carol);
        vm.prank(dave);
        market.trade(30e18); // dave closes
        _afterWindow();
        vm.expectEmit(address(liq));
        emit ILiquidationEngine.AdlNomineeSkipped(bob, dave);
        (uint256 steps, uint256 recovered) = liq.executeAdl(bob);
        assertEq(steps, 1);
        assertEq(recovered, 20e6);
        assertEq(chouse.collateralOf(bob), -30e6);
        assertEq(liq.adlClaim(bob).sizeCh, 30e18);
    }

    /// A deleveraged account never pays more than its profit on the reduced size: a short opened at 5.5 (0.5 profit
    /// per CH at 5) gives up 0.5 per CH, not the 1 of the bankruptcy distance; the rest waits for the next round.
    function test_adl_neverTakesPrincipal() public {
        oracle.setPrice(5.5e18);
        _setupTrader(mallory, guarantor, 100e6);
        market.tradeAt(mallory, -50e18, 5.5e18);
        _default();
        liq.nominateAdl(bob, mallory);
        _afterWindow();
        int256 before = chouse.collateralOf(mallory);
        (uint256 steps, uint256 recovered) = liq.executeAdl(bob);
        assertEq(steps, 1);
        assertEq(recovered, 25e6);
        assertEq(chouse.collateralOf(mallory), before, "profit 25 realised, 25 given up: principal intact");
        // the whole bankrupt size is matched: nothing more can be deleveraged, the rest stays visible on the account
        assertEq(liq.adlClaim(bob).market, address(0));
        assertEq(chouse.collateralOf(bob), -25e6);
    }

    /// The ClearingHouse entry point is the engine's only, and never grows or flips a position.
    function test_adlReduce_onlyEngineAndOnlyReduces() public {
        _default();
        IClearingHouse.AdlStep memory s = IClearingHouse.AdlStep(
            bob,
            dave,
            address(market),
            30e18,
            5e18,
            30e6,
            keeper,
            0
        );
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingOnlyLiquidationEngine.selector, address(this))
        );
        chouse.adlReduce(s);
        vm.startPrank(address(liq));
        s.deltaCh = -1e18;
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingAdlNotReducing.selector,
                dave,
                address(market),
                -30e18,
                -1e18
            )
        );
        chouse.adlReduce(s);
        s.deltaCh = 31e18;
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingAdlNotReducing.selector,
                dave,
                address(market),
                -30e18,
                31e18
            )
        );
        chouse.adlReduce(s);
        s.deltaCh = 0;
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingAdlNotReducing.selector,
                dave,
                address(market),
                -30e18,
                0
            )
        );
        chouse.adlReduce(s);
        vm.stopPrank();
        (address m, int256 closed) = chouse.adlSourceOf(bob);
        assertEq(m, address(market));
        assertEq(closed, -50e18);
    }
}
