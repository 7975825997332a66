// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../helpers/PerpSolBase.sol";
import {PerpOrderSteps} from "../helpers/PerpOrderSteps.sol";
import {DeployDefaults} from "../utils/DeployDefaults.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IPerpMarket, IPerpMarketErrors, IPerpMarketEvents} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {ILiquidityVault} from "../../contracts/interfaces/markets/ILiquidityVault.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";

/// @notice Edge paths of PerpMarket and LiquidityVault: parameter validation codes, zero-address guards, the short
///         open-interest cap, a fill price pushed to zero by the skew, fee-free trades, the saturating keeper
///         bounty and the pending funding a liquidated short carries into its next trade.
contract PerpEdgesTest is PerpSolBase {
    bytes4 internal constant ZERO = bytes4(keccak256("ChxZeroAddress()"));
    address internal alice = makeAddr("alice");
    address internal keeper = makeAddr("keeper");

    function setUp() public {
        _deployPerps();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(alice, guarantor, 20_000e6);
        _setRole(address(vault), ILiquidityVault.allocate.selector, Roles.KEEPER);
        _grant(Roles.KEEPER, address(this));
        _mintUsdc(address(this), 500_000e6);
        usdcApprove(address(vault), 500_000e6);
        vault.deposit(500_000e6, address(this));
        vault.allocate(address(perp), 400_000e6);
    }

    function _params() internal view returns (IPerpMarket.PerpParams memory) {
        return perp.params();
    }

    function _expectBad(IPerpMarket.PerpParams memory p, uint256 code) internal {
        vm.expectRevert(abi.encodeWithSelector(IPerpMarketErrors.PerpInvalidParams.selector, code));
        perp.setParams(p);
    }

    function test_params_everyInvalidCode() public {
        IPerpMarket.PerpParams memory p = _params();
        p.skewScaleCh = 0;
        _expectBad(p, 1);
        p = _params();
        p.maxFundingRateWad = 1e18 + 1;
        _expectBad(p, 2);
        p = _params();
        p.makerFeeBps = 101;
        _expectBad(p, 3);
        p = _params();
        p.takerFeeBps = 101;
        _expectBad(p, 3);
        p = _params();
        p.insuranceShareBps = 9_001;
        _expectBad(p, 4);
        p = _params();
        p.lpReserveBps = 10_001;
        _expectBad(p, 5);
        p = _params();
        p.maxPositionCh = 0;
        _expectBad(p, 6);
        p = _params();
        p.maxOpenInterestCh = 0;
        _expectBad(p, 6);
        p = _params();
        p.pokeIntervalSec = 0;
        _expectBad(p, 7);
        p = _params();
        p.minOrderDelaySec = 0;
        _expectBad(p, 8);
        p = _params();
        p.maxOrderDelaySec = p.minOrderDelaySec;
        _expectBad(p, 8);
        p = _params();
        p.executionFeeUsdc = 50e6 + 1;
        _expectBad(p, 9);
        // The boundaries themselves are accepted.
        p = _params();
        p.maxFundingRateWad = 1e18;
        p.makerFeeBps = 100;
        p.takerFeeBps = 100;
        p.lpReserveBps = 10_000;
        vm.expectEmit(address(perp));
        emit IPerpMarket.PerpParamsSet(p);
        perp.setParams(p);
        assertEq(_params().takerFeeBps, 100);
    }

    function test_zeroAddressesRejected() public {
        vm.expectRevert(ZERO);
        perp.setBurnSink(address(0));
        address sink = makeAddr("sink2");
        vm.expectEmit(address(perp));
        emit IPerpMarketEvents.BurnSinkSet(sink);
        perp.setBurnSink(sink);
        vm.expectRevert(ZERO);
        vault.addMarket(address(0));

        address perpImpl = deployCode("PerpMarket.sol:PerpMarket", abi.encode(address(chouse), address(index)));
        IPerpMarket.PerpParams memory p = _params();
        vm.expectRevert(ZERO);
        _proxy(
            perpImpl,
            abi.encodeWithSignature(
                DeployDefaults.PERP_INITIALIZE_SIG,
                address(manager),
                address(chouse),
                address(index),
                address(vault),
                address(0),
                p
            )
        );
        address vaultImpl = deployCode("LiquidityVault.sol:LiquidityVault");
        vm.expectRevert(ZERO);
        _proxy(
            vaultImpl,
            abi.encodeWithSignature(
                "initialize(address,address,string,string,uint256,uint32)",
                address(manager),
                address(0),
                "LP",
                "LP",
                1e15,
                uint32(0)
            )
        );
    }

    function test_trade_shortOpenInterestCap() public {
        IPerpMarket.PerpParams memory p = _params();
        p.maxOpenInterestCh = 100e18;
        perp.setParams(p);
        (bool ok, bytes memory reason) = PerpOrderSteps.trade(perp, alice, -101e18, 0);
        assertFalse(ok);
        assertEq(
            reason,
            abi.encodeWithSelector(IPerpMarketErrors.PerpOpenInterestCapExceeded.selector, false, 101e18, 100e18)
        );
        PerpOrderSteps.mustTrade(perp, alice, -100e18);
        assertEq(perp.marketState().shortOiCh, 100e18);
    }

    /// A sell that would move the premium to −100 % has no positive fill price: rejected with the premium.
    function test_trade_fillPriceZeroRejected() public {
        IPerpMarket.PerpParams memory p = _params();
        p.skewScaleCh = 100e18;
        perp.setParams(p);
        // premium = (2·0 − 200) / (2·100) = −1 WAD
        (bool ok, bytes memory reason) = PerpOrderSteps.trade(perp, alice, -200e18, 0);
        assertFalse(ok);
        assertEq(reason, abi.encodeWithSelector(IPerpMarketErrors.PerpInvalidFillPrice.selector, -1e18));
        assertEq(chouse.positionOf(alice, address(perp)).sizeCh, 0);
    }

    function test_trade_withoutFeesChargesNothing() public {
        IPerpMarket.PerpParams memory p = _params();
        p.makerFeeBps = 0;
        p.takerFeeBps = 0;
        p.executionFeeUsdc = 0;
        perp.setParams(p);
        (uint256 feesBefore, ) = chouse.totals();
        PerpOrderSteps.mustTrade(perp, alice, 10e18);
        (uint256 feesAfter, ) = chouse.totals();
        assertEq(feesAfter, feesBefore);
        assertEq(chouse.collateralOf(alice), 20_000e6);
        assertEq(perp.marketState().burnReserveUsdc, 0);
    }

    /// The keeper bounty stops (never reverts) once unclaimed bounties would leave the packed 40-bit field.
    ///      Execution fees share the packed range (issue 18 item 4): once it is full an executor's fee is paid into its
    ///      ClearingHouse collateral instead (never lost, never a revert).
    function test_poke_bountySaturates() public {
        PerpOrderSteps.mustTrade(perp, alice, 10e18); // this contract executes it: its fee is a keeper credit
        uint256 fee = _params().executionFeeUsdc;
        assertEq(perp.marketState().keeperOwedUsdc, fee);
        IPerpMarket.PerpParams memory p = _params();
        p.pokeBountyUsdc = uint64(type(uint40).max - fee);
        perp.setParams(p);
        vm.warp(block.timestamp + 1 hours);
        vm.prank(keeper);
        assertEq(perp.pokeFunding(), type(uint40).max - fee);
        vm.warp(block.timestamp + 1 hours);
        vm.prank(keeper);
        assertEq(perp.pokeFunding(), 0);
        assertEq(perp.marketState().keeperOwedUsdc, type(uint40).max);
        assertEq(perp.keeperBountyOf(keeper), type(uint40).max - fee);
        int256 collateralBefore = chouse.collateralOf(address(this));
        PerpOrderSteps.mustTrade(perp, alice, 10e18);
        assertEq(chouse.collateralOf(address(this)) - collateralBefore, int256(fee), "paid, not credited");
        assertEq(perp.keeperBountyOf(address(this)), fee);
        assertEq(perp.marketState().keeperOwedUsdc, type(uint40).max);
    }

    /// A liquidated short's funding is parked as pending funding; its next trade settles it and clears it. The
    /// liquidation also reduces the short open interest.
    function test_liquidatedShort_pendingFundingSettledOnNextTrade() public {
        address bob = makeAddr("bob");
        _setupTrader(bob, guarantor, 1_100e6);
        PerpOrderSteps.mustTrade(perp, bob, -1_000e18); // notional ≈ 10,000 at 10, IM 1,000
        assertEq(perp.marketState().shortOiCh, 1_000e18);
        vm.warp(block.timestamp + 1 days); // a short skew accrues funding
        index.setPrice(10.8e18);
        (uint256 fractionWad, ) = liq.liquidate(bob);
        assertGt(fractionWad, 0);
        int256 sizeAfter = chouse.positionOf(bob, address(perp)).sizeCh;
        assertGt(sizeAfter, -1_000e18);
        assertEq(perp.marketState().shortOiCh, uint256(-sizeAfter));
        IPerpMarket.AccountState memory s = perp.accountState(bob);
        assertTrue(s.pendingFundingUsdc != 0);
        assertEq(perp.fundingOwedUsdc(bob), s.pendingFundingUsdc);
        // Reduce further: the pending funding is folded into this trade and cleared.
        index.setPrice(10e18);
        PerpOrderSteps.mustTrade(perp, bob, -sizeAfter / 2);
        assertEq(perp.accountState(bob).pendingFundingUsdc, 0);
    }

    function test_vault_maxViewsZeroWhilePaused() public {
        assertGt(vault.maxDeposit(alice), 0);
        _pause(address(vault), "vault.deposit");
        assertEq(vault.maxMint(alice), 0);
        assertEq(vault.maxDeposit(alice), 0);
        _pause(address(vault), "vault.withdraw");
        assertEq(vault.maxRedeem(address(this)), 0);
        assertEq(vault.maxWithdraw(address(this)), 0);
    }

    /// ERC-4626 limits: minting beyond the deposit cap and redeeming more shares than held revert with the
    /// standard errors and the exact limit.
    function test_vault_mintCapAndRedeemBalance() public {
        vault.setLimits(600_000e6, 0); // 500k in: 100k of room
        uint256 maxShares = vault.maxMint(alice);
        assertGt(maxShares, 0);
        uint256 tooMany = maxShares * 2;
        _mintUsdc(alice, 300_000e6);
        vm.startPrank(alice);
        usdcApprove(address(vault), 300_000e6);
        vm.expectRevert(
            abi.encodeWithSignature("ERC4626ExceededMaxMint(address,uint256,uint256)", alice, tooMany, maxShares)
        );
        vault.mint(tooMany, alice);
        vm.stopPrank();
        uint256 held = vault.balanceOf(address(this));
        vm.expectRevert(
            abi.encodeWithSignature("ERC4626ExceededMaxRedeem(address,uint256,uint256)", address(this), held + 1, held)
        );
        vault.redeem(held + 1, address(this), address(this));
        assertEq(vault.balanceOf(alice), 0);
    }
}
