// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {PerpOrderSteps} from "../../helpers/PerpOrderSteps.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {IPerpMarket} from "../../../contracts/interfaces/markets/IPerpMarket.sol";
import {ILiquidityVault} from "../../../contracts/interfaces/markets/ILiquidityVault.sol";
import {MockRiskPriceIndex} from "../../../contracts/mocks/MockRiskPriceIndex.sol";
import {MockERC20} from "../../../contracts/mocks/MockERC20.sol";

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
