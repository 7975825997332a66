// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {PerpSolBase} from "../helpers/PerpSolBase.sol";
import {PerpOrderSteps} from "../helpers/PerpOrderSteps.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IChxModule} from "../../contracts/interfaces/IChxModule.sol";
import {IPerpMarket} from "../../contracts/interfaces/IPerpMarket.sol";
import {ILiquidityVault} from "../../contracts/interfaces/ILiquidityVault.sol";
import {MockRiskPriceIndex} from "../../contracts/mocks/MockRiskPriceIndex.sol";
import {MockERC20} from "../../contracts/mocks/MockERC20.sol";

/// @notice Drives the LiquidityVault through the states where its ERC-4626 limits are hard to get right: LPs
///         depositing for themselves and each other, transferring, withdrawing everything (dust), traders winning
///         more than LP equity (insolvency), a stale oracle, paused deposits and withdrawals, a binding cap, locks.
contract VaultLimitsHandler is CommonBase, StdCheats, StdUtils {
    IPerpMarket internal perp;
    ILiquidityVault internal vault;
    MockRiskPriceIndex internal index;
    MockERC20 internal usdc;
    address[3] public lps = [address(0x1A01), address(0x1A02), address(0x1A03)];
    address[2] public traders;

    // how often each condition was seen after a call (the suite reports them; the unit test forces each one)
    uint256 public seenInsolvent;
    uint256 public seenStale;
    uint256 public seenPaused;
    uint256 public seenLocked;
    uint256 public seenCapBinding;
    uint256 public seenDust;

    constructor(address perp_, address vault_, address index_, address usdc_, address[2] memory traders_) {
        perp = IPerpMarket(perp_);
        vault = ILiquidityVault(vault_);
        index = MockRiskPriceIndex(index_);
        usdc = MockERC20(usdc_);
        traders = traders_;
        for (uint256 i; i < 3; ++i) {
            usdc.mint(lps[i], 100_000_000e6);
            vm.prank(lps[i]);
            usdc.approve(vault_, type(uint256).max);
        }
    }

    function _lp(uint256 seed) internal view returns (address) {
        return lps[seed % 3];
    }

    // ───────── LPs ─────────

    function deposit(uint256 seed, uint256 to, uint256 amount) external {
        amount = _bound(amount, 1, 200_000e6);
        vm.prank(_lp(seed));
        try vault.deposit(amount, _lp(to)) {} catch {}
        _observe();
    }

    function mint(uint256 seed, uint256 shares) external {
        shares = _bound(shares, 1, 200_000e12);
        vm.prank(_lp(seed));
        try vault.mint(shares, _lp(seed)) {} catch {}
        _observe();
    }

    /// @dev Withdraws a fraction of maxWithdraw; 100 % is the ordinary full exit that leaves dust.
    function withdraw(uint256 seed, uint256 fractionBps) external {
        address lp = _lp(seed);
        uint256 amount = (vault.maxWithdraw(lp) * _bound(fractionBps, 1, 10_000)) / 10_000;
        if (amount == 0) return;
        vm.prank(lp);
        try vault.withdraw(amount, lp, lp) {} catch {}
        _observe();
    }

    function redeem(uint256 seed, uint256 fractionBps) external {
        address lp = _lp(seed);
        uint256 shares = (vault.balanceOf(lp) * _bound(fractionBps, 1, 10_000)) / 10_000;
        if (shares == 0) return;
        vm.prank(lp);
        try vault.redeem(shares, lp, lp) {} catch {}
        _observe();
    }

    function transfer(uint256 from, uint256 to, uint256 fractionBps) external {
        uint256 shares = (vault.balanceOf(_lp(from)) * _bound(fractionBps, 1, 10_000)) / 10_000;
        vm.prank(_lp(from));
        try vault.transfer(_lp(to), shares) {} catch {}
        _observe();
    }

    // ───────── keeper and governance ─────────

    function allocate(uint256 amount) external {
        amount = _bound(amount, 1, 1_000_000e6);
        try vault.allocate(address(perp), amount) {} catch {}
        _observe();
    }

    function deallocate(uint256 amount) external {
        amount = _bound(amount, 1, 1_000_000e6);
        try vault.deallocate(address(perp), amount) {} catch {}
        _observe();
    }

    function togglePause(bool deposits) external {
        IChxModule m = IChxModule(address(vault));
        bytes32 f = deposits ? keccak256("vault.deposit") : keccak256("vault.withdraw");
        if (m.isFeaturePaused(f)) m.unpauseFeature(f);
        else m.pauseFeature(f);
        _observe();
    }

    function setLimits(uint256 cap, uint256 lock) external {
        cap = _bound(cap, 0, 2_000_000e6);
        vault.setLimits(cap, uint32(_bound(lock, 0, 2 days)));
        _observe();
    }

    // ───────── market ─────────

    function trade(uint256 seed, int256 size) external {
        size = _bound(size, -10_000e18, 10_000e18);
        if (size > -0.01e18 && size < 0.01e18) size = 0.01e18;
        PerpOrderSteps.trade(perp, traders[seed % 2], size, 0);
        _observe();
    }

    function movePrice(uint256 moveBps, bool up) external {
        moveBps = _bound(moveBps, 1, 3_000);
        uint256 p = index.priceWad();
        p = up ? (p * (10_000 + moveBps)) / 10_000 : (p * (10_000 - moveBps)) / 10_000;
        if (p < 2e18) p = 2e18;
        if (p > 50e18) p = 50e18;
        index.setPrice(p);
        _observe();
    }

    function toggleStale() external {
        index.setStale(!index.stale());
        _observe();
    }

    function warp(uint256 dt) external {
        vm.warp(block.timestamp + _bound(dt, 1, 3 days));
        _observe();
    }

    function _observe() internal {
        if (index.stale()) {
            ++seenStale;
            return;
        }
        if (
            IChxModule(address(vault)).isFeaturePaused(keccak256("vault.deposit")) ||
            IChxModule(address(vault)).isFeaturePaused(keccak256("vault.withdraw"))
        ) ++seenPaused;
        int256 equity = int256(vault.idleUsdc()) + perp.vaultEquityUsdc();
        if (equity < 0 || (equity == 0 && vault.totalSupply() > 0)) ++seenInsolvent;
        (uint256 cap, ) = vault.limits();
        if (cap <= vault.totalAssets()) ++seenCapBinding;
        for (uint256 i; i < 3; ++i) {
            (uint256 locked, ) = vault.lockOf(lps[i]);
            if (locked != 0) ++seenLocked;
            uint256 b = vault.balanceOf(lps[i]);
            if (b != 0 && vault.convertToAssets(b) == 0) ++seenDust;
        }
    }
}

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

    /// ERC-4626 (issue 17 items 27–29): max* never overstates what its action accepts.
    function invariant_everyMaxAmountIsAccepted() public {
        for (uint256 i; i < 3; ++i) _checkLimits(handler.lps(i));
        _checkLimits(address(0xBEEF)); // an account that holds nothing
    }

    /// ERC-4626: totalAssets and the conversions never revert (they are called, so a revert fails the run).
    function invariant_viewsNeverRevert() public view {
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
        invariant_everyMaxAmountIsAccepted();
        handler.warp(1 days);
        handler.allocate(120_000e6);
        // dust: fees lift the share price, then a full exit
        handler.trade(0, 5_000e18);
        handler.withdraw(0, 10_000);
        assertGt(handler.seenDust() + vault.balanceOf(_lp(0)), 0);
        invariant_everyMaxAmountIsAccepted();
        // cap binding
        handler.setLimits(vault.totalAssets(), 1 days);
        assertEq(vault.maxDeposit(_lp(1)), 0);
        invariant_everyMaxAmountIsAccepted();
        handler.setLimits(1_000_000e6, 0);
        // pause
        handler.togglePause(true);
        handler.togglePause(false);
        invariant_everyMaxAmountIsAccepted();
        handler.togglePause(true);
        handler.togglePause(false);
        // insolvency: the traders win more than LP equity
        handler.trade(1, 10_000e18);
        for (uint256 i; i < 4; ++i) handler.movePrice(3_000, true);
        assertGt(handler.seenInsolvent(), 0);
        invariant_everyMaxAmountIsAccepted();
        // stale oracle
        handler.toggleStale();
        assertEq(vault.maxWithdraw(_lp(1)), 0);
        invariant_everyMaxAmountIsAccepted();
        invariant_viewsNeverRevert();
        handler.toggleStale();
        assertGt(handler.seenStale() * handler.seenPaused() * handler.seenLocked() * handler.seenCapBinding(), 0);
    }
}
