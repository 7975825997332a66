// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../helpers/PerpSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {ILiquidityVault} from "../../contracts/interfaces/markets/ILiquidityVault.sol";
import {VaultLimitsHandler} from "./handlers/VaultLimitsHandler.sol";

/// @notice ERC-4626 conformance of the LP vault, extended (issue 17): every `max*` amount is accepted by its action,
///         and the views never revert — over any sequence of LP, keeper, governance and market actions (insolvency,
///         dust, locks, pause, cap, stale oracle). Each probe runs the action and rolls it back (ProbeAccepted).
contract VaultLimitsInvariantTest is PerpSolBase {
    /// @notice Thrown by a probe after its action succeeded, to roll the action back.
    error ProbeAccepted();

    VaultLimitsHandler internal handler;
    address[2] internal traders = [address(0x7001), address(0x7002)];

    function setUp() public {
        _deployPerps();
        _setupGuarantor(guarantor, false, 10_000_000e6);
        for (uint256 i; i < 2; ++i) _setupTrader(traders[i], guarantor, 200_000e6);
        handler = new VaultLimitsHandler(address(perp), address(vault), address(index), address(usdc), traders);
        _setRole(address(vault), ILiquidityVault.allocate.selector, Roles.KEEPER);
        _setRole(address(vault), ILiquidityVault.deallocate.selector, Roles.KEEPER);
        _grant(Roles.KEEPER, address(handler));
        _grant(Roles.ADMIN, address(handler)); // setLimits, pause and unpause
        vault.setLimits(1_000_000e6, 1 days);
        targetContract(address(handler));
    }

    // ───────── probes: run one action as `owner`, then roll it back ─────────

    function probeDeposit(address owner, uint256 assets) external {
        _mintUsdc(owner, assets);
        vm.prank(owner);
        usdcApprove(address(vault), assets);
        vm.prank(owner);
        vault.deposit(assets, owner);
        revert ProbeAccepted();
    }

    function probeMint(address owner, uint256 shares) external {
        uint256 assets = vault.previewMint(shares);
        _mintUsdc(owner, assets);
        vm.prank(owner);
        usdcApprove(address(vault), assets);
        vm.prank(owner);
        vault.mint(shares, owner);
        revert ProbeAccepted();
    }

    function probeWithdraw(address owner, uint256 assets) external {
        vm.prank(owner);
        vault.withdraw(assets, owner, owner);
        revert ProbeAccepted();
    }

    function probeRedeem(address owner, uint256 shares) external {
        vm.prank(owner);
        vault.redeem(shares, owner, owner);
        revert ProbeAccepted();
    }

    /// @dev Fails the test with the action's own revert data unless the probe reports ProbeAccepted.
    function _expectAccepted(bytes memory call) internal {
        (bool ok, bytes memory err) = address(this).call(call);
        assertFalse(ok);
        if (bytes4(err) != ProbeAccepted.selector) {
            assembly {
                revert(add(err, 32), mload(err))
            }
        }
    }

    /// @dev Every max* amount of `owner` is accepted by its action (0 means none is offered).
    function _checkLimits(address owner) internal {
        uint256 m = vault.maxDeposit(owner);
        if (m != 0) _expectAccepted(abi.encodeCall(this.probeDeposit, (owner, m)));
        m = vault.maxMint(owner);
        if (m != 0) _expectAccepted(abi.encodeCall(this.probeMint, (owner, m)));
        m = vault.maxWithdraw(owner);
        if (m != 0) _expectAccepted(abi.encodeCall(this.probeWithdraw, (owner, m)));
        m = vault.maxRedeem(owner);
        if (m != 0) _expectAccepted(abi.encodeCall(this.probeRedeem, (owner, m)));
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public {
        check_everyMaxAmountIsAccepted();
        check_viewsNeverRevert();
    }

    /// ERC-4626 (issue 17 items 27–29): max* never overstates what its action accepts.
    function check_everyMaxAmountIsAccepted() public {
        for (uint256 i; i < 3; ++i) _checkLimits(handler.lps(i));
        _checkLimits(address(0xBEEF)); // an account that holds nothing
    }

    /// ERC-4626: totalAssets and the conversions never revert (they are called, so a revert fails the run).
    function check_viewsNeverRevert() public view {
        uint256 ta = vault.totalAssets();
        vault.convertToShares(ta + 1);
        vault.convertToAssets(vault.totalSupply());
        vault.sharePriceWad();
        vault.liquidUsdc();
    }

    // ───────── each condition forced once (the invariant run explores their combinations) ─────────

    function _lp(uint256 i) internal view returns (address) {
        return handler.lps(i);
    }

    function test_maxAmountsAccepted_acrossEveryCondition() public {
        // locks: two LPs, one depositing for the other
        handler.setLimits(1_000_000e6, 1 days);
        handler.deposit(0, 0, 100_000e6);
        handler.deposit(1, 2, 50_000e6);
        check_everyMaxAmountIsAccepted();
        handler.warp(1 days);
        handler.allocate(120_000e6);
        // dust: fees lift the share price, then a full exit
        handler.trade(0, 5_000e18);
        handler.withdraw(0, 10_000);
        assertGt(handler.seenDust() + vault.balanceOf(_lp(0)), 0);
        check_everyMaxAmountIsAccepted();
        // cap binding
        handler.setLimits(vault.totalAssets(), 1 days);
        assertEq(vault.maxDeposit(_lp(1)), 0);
        check_everyMaxAmountIsAccepted();
        handler.setLimits(1_000_000e6, 0);
        // pause
        handler.togglePause(true);
        handler.togglePause(false);
        check_everyMaxAmountIsAccepted();
        handler.togglePause(true);
        handler.togglePause(false);
        // insolvency: the traders win more than LP equity
        handler.trade(1, 10_000e18);
        for (uint256 i; i < 4; ++i) handler.movePrice(3_000, true);
        assertGt(handler.seenInsolvent(), 0);
        check_everyMaxAmountIsAccepted();
        // stale oracle
        handler.toggleStale();
        assertEq(vault.maxWithdraw(_lp(1)), 0);
        check_everyMaxAmountIsAccepted();
        check_viewsNeverRevert();
        handler.toggleStale();
        assertGt(handler.seenStale() * handler.seenPaused() * handler.seenLocked() * handler.seenCapBinding(), 0);
    }
}
