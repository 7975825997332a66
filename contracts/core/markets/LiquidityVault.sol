// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC4626} from "@openzeppelin/contracts/interfaces/IERC4626.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ERC4626Upgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/extensions/ERC4626Upgradeable.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {ILiquidityVault} from "../../interfaces/markets/ILiquidityVault.sol";
import {LiquidityVaultStore} from "../../libraries/vault/VaultStorage.sol";
import {VaultLocks} from "../../libraries/vault/VaultLocks.sol";
import {VaultCapital} from "../../libraries/vault/VaultCapital.sol";
import {VaultValuation} from "../../libraries/vault/VaultValuation.sol";

/// @title LiquidityVault
/// @notice The LPs' ERC-4626 USDC vault behind the perpetual and futures markets. See ILiquidityVault.
/// @dev deposit / mint / withdraw / redeem value the markets once each (every market's equity, which reads the
///      index): the OpenZeppelin flow would read it up to three times. The ERC-4626 views never revert: a market
///      that cannot be valued (stale oracle) counts 0 in totalAssets and closes the max* views (issue 17 item 29).
///      Storage in LiquidityVaultStore; share locks in VaultLocks, markets and capital moves in VaultCapital, the
///      valuation across markets in VaultValuation.
contract LiquidityVault is ChxUpgradeable, ERC4626Upgradeable, LiquidityVaultStore, ILiquidityVault {
    using Math for uint256;

    /// @notice Most markets the vault backs: bounds every loop over markets.
    uint256 public constant MAX_MARKETS = 8;
    /// @notice Pause flag of deposits and mints.
    bytes32 public constant FEATURE_DEPOSIT = keccak256("vault.deposit");
    /// @notice Pause flag of withdrawals and redemptions (never paused by a new-risk pause).
    bytes32 public constant FEATURE_WITHDRAW = keccak256("vault.withdraw");
    /// @dev Shares have 6 more decimals than USDC; 10^6 virtual shares back 1 virtual wei (ACC-04).
    uint8 internal constant DECIMALS_OFFSET = 6;
    uint256 internal constant VIRTUAL_SHARES = 10 ** DECIMALS_OFFSET;

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param usdc The asset.
    /// @param name_ Share token name.
    /// @param symbol_ Share token symbol.
    /// @param depositCapUsdc totalAssets above which deposits stop.
    /// @param lockPeriodSec Seconds a deposit's shares stay locked.
    function initialize(
        address authority,
        address usdc,
        string calldata name_,
        string calldata symbol_,
        uint256 depositCapUsdc,
        uint32 lockPeriodSec
    ) external initializer {
        __ChxUpgradeable_init(authority);
        if (usdc == address(0)) revert ChxZeroAddress();
        __ERC20_init(name_, symbol_);
        __ERC4626_init(IERC20(usdc));
        _setLimits(depositCapUsdc, lockPeriodSec);
    }

    // ───────────────────────────── ERC-4626 ─────────────────────────────

    /// @inheritdoc IERC4626
    /// @dev max(0, idle + Σ market equity): markets net against each other (one pool of LP capital), and a
    ///      negative total reads as 0 (shares are then worth nothing until traders' profits reverse). Never reverts
    ///      (ERC-4626): a market that cannot be valued now (stale oracle) counts 0 here; deposits and withdrawals
    ///      value every market strictly and revert instead (issue 17 item 29).
    function totalAssets() public view override(ERC4626Upgradeable, IERC4626) returns (uint256) {
        (int256 total, ) = VaultValuation.equityView(_getLiquidityVaultStorage());
        return total > 0 ? uint256(total) : 0;
    }

    /// @dev totalAssets for a deposit: reverts while existing shares are worth nothing (the depositor would pay for
    ///      the existing LPs' losses); an empty vault (no shares) accepts deposits at any equity ≥ 0.
    function _depositAssets() private view returns (uint256) {
        int256 equity = VaultValuation.equity(_getLiquidityVaultStorage());
        if (_insolvent(equity)) revert VaultInsolvent(equity);
        return uint256(equity);
    }

    /// @inheritdoc IERC4626
    function deposit(
        uint256 assets,
        address receiver
    ) public override(ERC4626Upgradeable, IERC4626) nonReentrant whenActive(FEATURE_DEPOSIT) returns (uint256 shares) {
        if (assets == 0) revert VaultZeroAmount();
        uint256 ta = _depositAssets();
        uint256 maxAssets = _maxDepositAt(ta);
        if (assets > maxAssets) revert ERC4626ExceededMaxDeposit(receiver, assets, maxAssets);
        // @dev shares minted round down (ACC-05)
        shares = assets.mulDiv(totalSupply() + VIRTUAL_SHARES, ta + 1, Math.Rounding.Floor);
        if (shares == 0) revert VaultZeroAmount();
        _deposit(_msgSender(), receiver, assets, shares);
        _emitState(ta + assets);
    }

    /// @inheritdoc IERC4626
    function mint(
        uint256 shares,
        address receiver
    ) public override(ERC4626Upgradeable, IERC4626) nonReentrant whenActive(FEATURE_DEPOSIT) returns (uint256 assets) {
        if (shares == 0) revert VaultZeroAmount();
        uint256 ta = _depositAssets();
        // @dev assets paid for minted shares round up (ACC-05)
        assets = shares.mulDiv(ta + 1, totalSupply() + VIRTUAL_SHARES, Math.Rounding.Ceil);
        uint256 maxAssets = _maxDepositAt(ta);
        if (assets > maxAssets) revert ERC4626ExceededMaxMint(receiver, shares, _sharesDown(maxAssets, ta));
        _deposit(_msgSender(), receiver, assets, shares);
        _emitState(ta + assets);
    }

    /// @inheritdoc IERC4626
    function withdraw(
        uint256 assets,
        address receiver,
        address owner
    ) public override(ERC4626Upgradeable, IERC4626) nonReentrant whenActive(FEATURE_WITHDRAW) returns (uint256 shares) {
        if (assets == 0) revert VaultZeroAmount();
        uint256 ta = VaultValuation.strictAssets(_getLiquidityVaultStorage());
        // @dev shares burned for an exact amount round up (ACC-05)
        shares = assets.mulDiv(totalSupply() + VIRTUAL_SHARES, ta + 1, Math.Rounding.Ceil);
        if (shares > balanceOf(owner)) {
            revert ERC4626ExceededMaxWithdraw(owner, assets, _assetsDown(balanceOf(owner), ta));
        }
        _requireUnlocked(owner, shares);
        _pay(owner, receiver, assets, shares, ta);
    }

    /// @inheritdoc IERC4626
    function redeem(
        uint256 shares,
        address receiver,
        address owner
    ) public override(ERC4626Upgradeable, IERC4626) nonReentrant whenActive(FEATURE_WITHDRAW) returns (uint256 assets) {
        if (shares == 0) revert VaultZeroAmount();
        uint256 balance = balanceOf(owner);
        if (shares > balance) revert ERC4626ExceededMaxRedeem(owner, shares, balance);
        _requireUnlocked(owner, shares);
        uint256 ta = VaultValuation.strictAssets(_getLiquidityVaultStorage());
        // @dev assets paid for burned shares round down (ACC-05)
        assets = _assetsDown(shares, ta);
        if (assets == 0) revert VaultZeroAmount();
        _pay(owner, receiver, assets, shares, ta);
    }

    /// @inheritdoc IERC4626
    /// @dev 0 while deposits would revert: paused, or insolvent (see _depositAssets).
    function maxDeposit(address) public view override(ERC4626Upgradeable, IERC4626) returns (uint256) {
        (bool open, uint256 ta) = _depositOpen();
        return open ? _maxDepositAt(ta) : 0;
    }

    /// @inheritdoc IERC4626
    function maxMint(address) public view override(ERC4626Upgradeable, IERC4626) returns (uint256) {
        (bool open, uint256 ta) = _depositOpen();
        return open ? _sharesDown(_maxDepositAt(ta), ta) : 0;
    }

    /// @dev Whether a deposit would be accepted at all now, and the totalAssets it would use.
    function _depositOpen() private view returns (bool open, uint256 ta) {
        if (_isPaused(FEATURE_DEPOSIT)) return (false, 0);
        (int256 equity, bool valued) = VaultValuation.equityView(_getLiquidityVaultStorage());
        if (!valued || _insolvent(equity)) return (false, 0);
        return (true, uint256(equity));
    }

    /// @dev Existing shares are worth nothing or less: a depositor would pay for the existing LPs' losses.
    function _insolvent(int256 equity) private view returns (bool) {
        return equity < 0 || (equity == 0 && totalSupply() > 0);
    }

    /// @inheritdoc IERC4626
    /// @dev Limited by the owner's unlocked shares and by the liquidity the vault can raise now; 0 while a market
    ///      cannot be valued (withdrawals revert then).
    function maxWithdraw(address owner) public view override(ERC4626Upgradeable, IERC4626) returns (uint256) {
        (bool open, uint256 ta, uint256 liquid) = VaultValuation.withdrawOpen(
            _getLiquidityVaultStorage(),
            _isPaused(FEATURE_WITHDRAW)
        );
        if (!open) return 0;
        uint256 own = _assetsDown(_unlockedShares(owner), ta);
        return own < liquid ? own : liquid;
    }

    /// @inheritdoc IERC4626
    function maxRedeem(address owner) public view override(ERC4626Upgradeable, IERC4626) returns (uint256) {
        (bool open, uint256 ta, uint256 liquid) = VaultValuation.withdrawOpen(
            _getLiquidityVaultStorage(),
            _isPaused(FEATURE_WITHDRAW)
        );
        if (!open) return 0;
        uint256 shares = _unlockedShares(owner);
        uint256 liquidShares = _sharesDown(liquid, ta);
        if (liquidShares < shares) shares = liquidShares;
        // @dev shares worth 0 assets (dust left by a withdrawal) cannot be redeemed (VaultZeroAmount): not offered
        return _assetsDown(shares, ta) == 0 ? 0 : shares;
    }

    /// @dev Idle ledger and lock: the shares a deposit mints are locked for the lock period (the receiver's other
    ///      shares are not touched, whoever deposits: issue 17 item 10).
    function _deposit(address caller, address receiver, uint256 assets, uint256 shares) internal override {
        LiquidityVaultStorage storage $ = _getLiquidityVaultStorage();
        $.idleUsdc += assets;
        super._deposit(caller, receiver, assets, shares);
        uint32 period = $.lockPeriodSec;
        if (period != 0) VaultLocks.lock($, receiver, shares, block.timestamp + period);
    }

    /// @dev Pays a withdrawal from idle USDC, first pulling any shortfall from the markets (bounded loop).
    function _pay(address owner, address receiver, uint256 assets, uint256 shares, uint256 ta) private {
        LiquidityVaultStorage storage $ = _getLiquidityVaultStorage();
        uint256 idle = $.idleUsdc;
        if (idle < assets) {
            idle = VaultCapital.pullFromMarkets($, IERC20(asset()), assets - idle);
            if (idle < assets) revert ERC4626ExceededMaxWithdraw(owner, assets, idle);
        }
        $.idleUsdc = idle - assets;
        _withdraw(_msgSender(), receiver, owner, assets, shares);
        _emitState(ta - assets);
    }

    /// @dev A transfer moves the sender's unlocked shares first; locked shares it moves stay locked at the receiver
    ///      until the sender's unlock time (VaultLocks.lock), so a lock cannot be shed by moving shares. Burns only ever
    ///      take unlocked shares (withdraw and redeem check first).
    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0)) {
            VaultLocks.onTransfer(_getLiquidityVaultStorage(), from, to, value, balanceOf(from));
        }
        super._update(from, to, value);
    }

    /// @dev The virtual offset of ACC-04.
    function _decimalsOffset() internal pure override returns (uint8) {
        return DECIMALS_OFFSET;
    }

    // ───────────────────────────── markets ─────────────────────────────

    /// @inheritdoc ILiquidityVault
    function addMarket(address market) external restricted {
        if (market == address(0)) revert ChxZeroAddress();
        VaultCapital.addMarket(_getLiquidityVaultStorage(), market, MAX_MARKETS);
    }

    /// @inheritdoc ILiquidityVault
    function removeMarket(address market) external restricted {
        VaultCapital.removeMarket(_getLiquidityVaultStorage(), market);
    }

    /// @inheritdoc ILiquidityVault
    function allocate(address market, uint256 amountUsdc) external restricted nonReentrant {
        if (amountUsdc == 0) revert VaultZeroAmount();
        VaultCapital.allocate(_getLiquidityVaultStorage(), IERC20(asset()), market, amountUsdc);
    }

    /// @inheritdoc ILiquidityVault
    function deallocate(address market, uint256 amountUsdc) external restricted nonReentrant {
        if (amountUsdc == 0) revert VaultZeroAmount();
        LiquidityVaultStorage storage $ = _getLiquidityVaultStorage();
        VaultCapital.requireMarket($, market);
        VaultCapital.returnFrom($, IERC20(asset()), market, amountUsdc);
    }

    /// @inheritdoc ILiquidityVault
    function setLimits(uint256 depositCapUsdc, uint32 lockPeriodSec) external restricted {
        _setLimits(depositCapUsdc, lockPeriodSec);
    }

    // ───────────────────────────── views ─────────────────────────────

    /// @inheritdoc ILiquidityVault
    function idleUsdc() external view returns (uint256) {
        return _getLiquidityVaultStorage().idleUsdc;
    }

    /// @inheritdoc ILiquidityVault
    function markets() external view returns (address[] memory) {
        return _getLiquidityVaultStorage().markets;
    }

    /// @inheritdoc ILiquidityVault
    /// @dev A market that cannot say what it can return now (stale oracle) counts 0.
    function liquidUsdc() external view returns (uint256 total) {
        (total, ) = VaultValuation.liquid(_getLiquidityVaultStorage());
    }

    /// @inheritdoc ILiquidityVault
    function sharePriceWad() external view returns (uint256) {
        return _sharePrice(totalAssets());
    }

    /// @inheritdoc ILiquidityVault
    function lockOf(address owner) external view returns (uint256 lockedShares, uint256 unlocksAt) {
        return VaultLocks.lockOf(_getLiquidityVaultStorage(), owner);
    }

    /// @inheritdoc ILiquidityVault
    function limits() external view returns (uint256 depositCapUsdc, uint32 lockPeriodSec) {
        LiquidityVaultStorage storage $ = _getLiquidityVaultStorage();
        return ($.depositCapUsdc, $.lockPeriodSec);
    }

    // ───────────────────────────── internals ─────────────────────────────

    function _setLimits(uint256 depositCapUsdc, uint32 lockPeriodSec) private {
        LiquidityVaultStorage storage $ = _getLiquidityVaultStorage();
        $.depositCapUsdc = depositCapUsdc;
        $.lockPeriodSec = lockPeriodSec;
        emit VaultLimitsSet(depositCapUsdc, lockPeriodSec);
    }

    function _requireUnlocked(address owner, uint256 shares) private view {
        VaultLocks.requireUnlocked(_getLiquidityVaultStorage(), owner, shares, balanceOf(owner));
    }

    /// @dev The owner's shares outside its lock (a lock that has ended holds nothing).
    function _unlockedShares(address owner) private view returns (uint256) {
        return VaultLocks.unlocked(_getLiquidityVaultStorage(), owner, balanceOf(owner));
    }

    function _isPaused(bytes32 feature) private view returns (bool) {
        return this.isFeaturePaused(feature);
    }

    function _maxDepositAt(uint256 ta) private view returns (uint256) {
        uint256 cap = _getLiquidityVaultStorage().depositCapUsdc;
        return cap > ta ? cap - ta : 0;
    }

    function _assetsDown(uint256 shares, uint256 ta) private view returns (uint256) {
        return shares.mulDiv(ta + 1, totalSupply() + VIRTUAL_SHARES, Math.Rounding.Floor);
    }

    function _sharesDown(uint256 assets, uint256 ta) private view returns (uint256) {
        return assets.mulDiv(totalSupply() + VIRTUAL_SHARES, ta + 1, Math.Rounding.Floor);
    }

    /// @dev USDC per whole share (10^12 units), WAD: (ta + 1) · 1e18 · 1e12 / (supply + 1e6) / 1e6.
    function _sharePrice(uint256 ta) private view returns (uint256) {
        return (ta + 1).mulDiv(1e24, totalSupply() + VIRTUAL_SHARES);
    }

    function _emitState(uint256 ta) private {
        emit VaultStateUpdated(ta, totalSupply(), _getLiquidityVaultStorage().idleUsdc, _sharePrice(ta));
    }
}
