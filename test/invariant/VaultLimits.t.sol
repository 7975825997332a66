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

    /// @dev Round 44's deep-profile finding (500 × 200): the campaign's 51 calls, as persisted (calldata to the handler;
    ///      a handler call that reverts is ignored, as in the campaign), with the suite checked after each. Before the
    ///      fix it failed after the last call: `maxWithdraw` of an LP (812,876 USDC) was not accepted — the vault's pull
    ///      from the market (`returnToVault` → `ClearingHouse.withdrawMarketPool`, 400,469 USDC) hit
    ///      `ERC20InsufficientBalance(ClearingHouse, 400,000e6, 400,469e6)`. No allocation happened in the sequence: the
    ///      market's pool (464,476 USDC) was the traders' realised losses, beyond their 400,000 USDC of collateral
    ///      (trader 1 at −125,797, trader 0 at +61,273; this handler never liquidates), and `PerpLpClaims.withdrawable`
    ///      counted the uncollected part as cash. The ClearingHouse now books Σ max(0, −collateral)
    ///      (`uncoveredCollateralUsdc`), the market's withdrawable leaves it out and `withdrawMarketPool` stops at
    ///      pool − it (docs/clearing.md "Uncovered collateral and pool cash"; test/unit/PoolCashUncovered.t.sol).
    function test_regression_deep44_maxAmountAccepted() public {
        _replay(hex"57d159c60000000000000000000000000000000000000000000000000000000000000000");
        _replay(
            hex"0e88e61500000000000000000000000002ee9ffb30290a487982e7906b7df61bc119bf270000000000000000000000000000000000000000000000000000000000000001"
        );
        _replay(
            hex"00aeef8a0000000000000000000000000000000000000000000000000000000000003a0b000000000000000000000000000000000000000000000000000000000000278500000000000000000000000000000000000000000000000000000000943afd5c"
        );
        _replay(
            hex"0e88e6150000000000000000000000000013960f85b1f740ba4fd8919f27a595928d22480000000000000000000000000000000000000000000000000000000000000001"
        );
        _replay(hex"54cc6e18");
        _replay(
            hex"0e88e61500000000000000000000000000000000000000000000000000000000000004ef0000000000000000000000000000000000000000000000000000000000000001"
        );
        _replay(
            hex"0e88e615000006ad2b9c01a05107503141cca1310b738bf14875e78cfa6217088a95146f0000000000000000000000000000000000000000000000000000000000000001"
        );
        _replay(hex"57d159c60000000000000000000000000000000000000000000000000000000000000000");
        _replay(hex"57d159c60000000000000000000000000000000000000000000000000000000000000001");
        _replay(hex"54cc6e18");
        _replay(hex"54cc6e18");
        _replay(
            hex"0e88e615000000000000000000000000001e6236dd9e137ed586dd70279a61e88afe95940000000000000000000000000000000000000000000000000000000000000001"
        );
        _replay(hex"54cc6e18");
        _replay(
            hex"f3f6073c00000000000000000000000000000000000000000000000000000000000002b900000000000000000000000000004a2bd5cd3d86c2473c5c35f08cd8234982f5"
        );
        _replay(hex"e5d6bf0200000000000000000000000000000000000000000006efdbba108615055b920c");
        _replay(hex"57d159c60000000000000000000000000000000000000000000000000000000000000000");
        _replay(hex"e5d6bf020000000000087d96ea73904f6f2142d15de870eb339d8f56d12356e9194e0045");
        _replay(hex"e5d6bf02000000000000000000593cef670e2ea942c539b5edcd3862b03ca409a1027c29");
        _replay(hex"e5d6bf02000000000000000000000000000000000000b26656ea6ef24e7edafa4e6651eb");
        _replay(
            hex"f3f6073c00000000000000000000000000000000000000000000000000007e616390fb4efffffffffffffffffffffffffffffff5fa28a24b589af0ef6592a1b2d5a770ee"
        );
        _replay(hex"57d159c60000000000000000000000000000000000000000000000000000000000000001");
        _replay(
            hex"f3f6073c0000000000000000000008615bfc456607bd577cf02f3d9d97a1359a0a6ca5fc000000000000000000000000000000000000001ff18a249e613543280171a454"
        );
        _replay(
            hex"0e88e6150000000000000000000000000037869093a88bb683259390c3fbb7377031638f0000000000000000000000000000000000000000000000000000000000000001"
        );
        _replay(
            hex"1b2ef1ca0000000000000007a1c43ce3eb5a646c9a69cbcc3f200404eb5d2d97fee5698b0000000000000000000000061f8df9b40c1f1961bbf6439fd86eeb76554a6bd5"
        );
        _replay(hex"e5d6bf020000000000000000000000000078030d66d0ff90dec8c2f3f387de641ab90021");
        _replay(hex"54cc6e18");
        _replay(hex"e5d6bf020000000000000000000000000000000000000000a4b10e3721d296c243f631f7");
        _replay(hex"e5d6bf020000000000000000000000000000000000000000000000000000000000002b8b");
        _replay(hex"e5d6bf020000000000000000000000000000000000000000000000000000000000004d5d");
        _replay(hex"e5d6bf0200000000000000000000000000000000000000000000000000000000000028b9");
        _replay(
            hex"0e88e61500000000000000000000000000000000000155f63d00a06f2480875275ba257d0000000000000000000000000000000000000000000000000000000000000000"
        );
        _replay(hex"54cc6e18");
        _replay(hex"54cc6e18");
        _replay(
            hex"90dd26270000000000000000000000000000000000000000000000000000000072eb5f82000000000000000000000000000000000000000000000000000000000000183000030000470de4df8200010113aa49bac059d709dd0a18d6bb63290076a702d6"
        );
        _replay(hex"57d159c60000000000000000000000000000000000000000000000000000000000000000");
        _replay(
            hex"0e88e61500000000000000000000000000000000000000000000000000000000641d88ba0000000000000000000000000000000000000000000000000000000000000001"
        );
        _replay(
            hex"0e88e615000000000000000000000000000000000000000adf2ce7405adc36b6bd5655fb0000000000000000000000000000000000000000000000000000000000000001"
        );
        _replay(hex"54cc6e18");
        _replay(
            hex"c4590d3f0000000000000000000000000000000000000000000000000000001a2de82d4c0000000000000000000cba48b3785d04ded219d645f96355fa295dd8d5935af6"
        );
        _replay(
            hex"f3f6073c0000000000000000000000000000000006ab5ca5161548c9ce417a75d64b5a6100000000000000000000000000000000000000000000000000000000033d633e"
        );
        _replay(hex"54cc6e18");
        _replay(hex"57d159c60000000000000000000000000000000000000000000000000000000000000000");
        _replay(hex"57d159c60000000000000000000000000000000000000000000000000000000000000000");
        _replay(
            hex"90dd26270000000000000000000000000000000000000000000000000000000000001f630000000000000000000000000000000000000000000000000000000000002feb0000000000000000000000000000000000000000000000000000000000001e0f"
        );
        _replay(hex"e5d6bf0255052fae2fc50d74c9cbac33e5ea35893b9adcb7f74bd0a66b4cdacc551a8703");
        _replay(hex"54cc6e18");
        _replay(hex"e5d6bf020000000000000000000000000000000000000000000000000000000000003586");
        _replay(
            hex"0e88e6150000000000000000000000000000000000000000000000000000008242de2e030000000000000000000000000000000000000000000000000000000000000000"
        );
        _replay(hex"e5d6bf020000000000000000000568a2aeadbdb8afc776293ef13ecce85fb21d0439478e");
        _replay(
            hex"f3f6073c000000000000000000000000000000009e5affcbcf25ad92961eeabb063b15cdffffffffc73ef388ea50d148fd93934b0b3bdd70676ef66bcbc2304298db190d"
        );
        _replay(
            hex"f3f6073c00000000000000000000000000000000000000000000000000000000000005a800000000000000000000000000000000000000000000000000000000000007c0"
        );
    }

    function _replay(bytes memory call) internal {
        (bool ok, ) = address(handler).call(call);
        ok;
        invariant_suite();
    }
}
