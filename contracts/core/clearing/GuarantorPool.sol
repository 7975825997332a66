// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IInsuranceFund} from "../../interfaces/clearing/IInsuranceFund.sol";
import {GuarantorRules} from "../../libraries/clearing/GuarantorRules.sol";

/// @title GuarantorPool
/// @notice Clearing members: share-based USDC capital, DPS bond, customers, limits, the pre-trade gate and first
///         loss. See IGuarantorPool.
contract GuarantorPool is ChxUpgradeable, IGuarantorPool {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;

    /// @notice Virtual shares and assets of every guarantor's share book (ACC-04): an attacker's donation is
    ///         shared with 1e24 virtual shares, so it costs the attacker and a victim loses < 1e-6 of a deposit of
    ///         at least donation / 1e18.
    uint256 public constant VIRTUAL_SHARES = 1e24;
    /// @notice The virtual assets (1 USDC unit) paired with VIRTUAL_SHARES in every share price.
    uint256 public constant VIRTUAL_ASSETS = 1;
    /// @dev A loss that leaves less than 1 unit of capital per 1e30 shares (the share price under 1e-6 of its initial
    ///      1 unit per 1e24 shares) cancels every share (GuarantorSharesReset), as the insurance fund does: without it,
    ///      each near-total loss multiplies what later deposits mint until they overflow. Keeps
    ///      totalShares ≤ 1e30 × capital + a deposit's own shares.
    uint256 private constant MIN_ASSETS_PER_SHARE_INV = 1e30;
    /// @dev Longest notice governance may set (a typo must not lock capital for years).
    uint64 private constant MAX_NOTICE_SEC = 90 days;
    /// @dev Longest grace period / income vesting governance may set.
    uint32 private constant MAX_BACKSTOP_SEC = 30 days;
    /// @dev DpsSlashedByRule reasons.
    uint8 private constant SLASH_UNCOVERED_LOSS = 1;
    uint8 private constant SLASH_SHORTFALL = 2;

    bytes32 internal constant FEATURE_DEPOSIT = keccak256("guarantor.deposit");

    /// @dev Slot 0 is all a risk-reducing trade touches (guarantor and exposure); the limit is read on new risk
    ///      only. The exposure shares its slot with the guarantor address, so a customer's first trade rewrites a
    ///      non-zero slot instead of creating one.
    struct Customer {
        address guarantor;
        uint96 exposureUsdc;
        uint256 limitUsdc;
    }

    /// @dev The storage form of IGuarantorPool.Guarantor: capital and exposure (read on every gate and written
    ///      on every exposure change) share slot 0; the DPS bond, flags and share epoch slot 1 (read on new risk).
    struct GuarantorState {
        uint128 capitalUsdc;
        uint128 exposureUsdc;
        uint128 dpsStaked;
        bool registered;
        bool open;
        uint64 shareEpoch;
        uint256 totalShares;
        uint256 defaultLimitUsdc;
    }

    /// @dev A holder's shares of one guarantor and the share epoch they belong to (older epochs read as zero).
    struct Holding {
        uint192 shares;
        uint64 epoch;
    }

    /// @custom:storage-location erc7201:chx.storage.GuarantorPool
    struct GuarantorPoolStorage {
        IERC20 usdc;
        IERC20 dps;
        IClearingHouse clearingHouse;
        uint96 minDpsStake;
        uint256 maxLeverageWad;
        mapping(address guarantor => GuarantorState) guarantors;
        mapping(address guarantor => mapping(address holder => Holding)) shares;
        mapping(address account => Customer) customers;
        uint64 noticeSec;
        uint64 windowSec;
        mapping(address guarantor => mapping(address holder => CapitalNotice)) notices;
        BackstopParams backstop;
        mapping(address guarantor => Income) income;
        /// @dev Σ pending income not yet paid in by the ClearingHouse / paid in and not yet collected:
        ///      Σ pendingUsdc = incomeOwed + incomeFunded at all times.
        uint128 incomeOwed;
        uint128 incomeFunded;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.GuarantorPool")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant GUARANTOR_POOL_STORAGE_LOCATION =
        0x4ca377fbe4b391b2d39fe6c95f5af099b0cc9be45c1421a7dc0d31ccc6b69000;

    function _getGuarantorPoolStorage() private pure returns (GuarantorPoolStorage storage $) {
        assembly {
            $.slot := GUARANTOR_POOL_STORAGE_LOCATION
        }
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param usdc Capital token.
    /// @param dps DPS token (bond).
    /// @param clearingHouse The ClearingHouse (reads positions to allow a customer to leave).
    /// @param minDpsStake Minimum DPS bond to gate new trades.
    /// @param maxLeverageWad Max customers' exposure / capital, WAD.
    function initialize(
        address authority,
        address usdc,
        address dps,
        address clearingHouse,
        uint256 minDpsStake,
        uint256 maxLeverageWad
    ) external initializer {
        __ChxUpgradeable_init(authority);
        if (usdc == address(0) || dps == address(0) || clearingHouse == address(0)) revert ChxZeroAddress();
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        $.usdc = IERC20(usdc);
        $.dps = IERC20(dps);
        $.clearingHouse = IClearingHouse(clearingHouse);
        _setParams($, minDpsStake, maxLeverageWad);
    }

    // ───────────────────────────── guarantors ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function registerGuarantor(bool open, uint256 defaultLimitUsdc) external {
        GuarantorState storage g = _getGuarantorPoolStorage().guarantors[msg.sender];
        if (g.registered) revert PoolAlreadyRegistered(msg.sender);
        g.registered = true;
        g.open = open;
        g.defaultLimitUsdc = defaultLimitUsdc;
        emit GuarantorConfigured(msg.sender, open, defaultLimitUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function configureGuarantor(bool open, uint256 defaultLimitUsdc) external {
        GuarantorState storage g = _guarantor(_getGuarantorPoolStorage(), msg.sender);
        g.open = open;
        g.defaultLimitUsdc = defaultLimitUsdc;
        emit GuarantorConfigured(msg.sender, open, defaultLimitUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function depositCapital(
        address guarantor,
        uint256 amountUsdc
    ) external nonReentrant whenActive(FEATURE_DEPOSIT) returns (uint256 shares) {
        if (amountUsdc == 0) revert PoolZeroAmount();
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        GuarantorState storage g = _guarantor($, guarantor);
        if (msg.sender != guarantor && !g.open) revert PoolNotOpen(guarantor);
        _release(g, $.income[guarantor]);
        // @dev Shares credited round down (ACC-05).
        shares = Math.mulDiv(amountUsdc, g.totalShares + VIRTUAL_SHARES, g.capitalUsdc + VIRTUAL_ASSETS);
        if (shares == 0) revert PoolZeroAmount();
        g.capitalUsdc = (g.capitalUsdc + amountUsdc).toUint128();
        g.totalShares += shares;
        Holding storage h = $.shares[guarantor][msg.sender];
        uint64 epoch = g.shareEpoch;
        uint256 held = h.epoch == epoch ? h.shares : 0;
        h.shares = (held + shares).toUint192();
        h.epoch = epoch;
        emit CapitalDeposited(guarantor, msg.sender, amountUsdc, shares, g.capitalUsdc, g.totalShares);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function withdrawCapital(
        address guarantor,
        uint256 shares,
        address to
    ) external nonReentrant returns (uint256 amountUsdc) {
        if (shares == 0) revert PoolZeroAmount();
        if (to == address(0)) revert ChxZeroAddress();
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        GuarantorState storage g = _guarantor($, guarantor);
        uint256 held = _held($, g, guarantor, msg.sender);
        if (shares > held) revert PoolInsufficientShares(msg.sender, shares, held);
        if ($.windowSec != 0) _spendNotice($, g.shareEpoch, guarantor, shares);
        _release(g, $.income[guarantor]);
        // @dev USDC paid rounds down (ACC-05), at the share price of now: losses during the notice are borne.
        amountUsdc = Math.mulDiv(shares, g.capitalUsdc + VIRTUAL_ASSETS, g.totalShares + VIRTUAL_SHARES);
        if (amountUsdc > g.capitalUsdc) amountUsdc = g.capitalUsdc;
        // Safe downcast: held − shares ≤ the stored uint192.
        $.shares[guarantor][msg.sender].shares = uint192(held - shares);
        g.totalShares -= shares;
        g.capitalUsdc -= uint128(amountUsdc);
        GuarantorRules.checkCapacity(guarantor, g.exposureUsdc, g.capitalUsdc, $.maxLeverageWad);
        emit CapitalWithdrawn(guarantor, msg.sender, amountUsdc, shares, g.capitalUsdc, g.totalShares);
        $.usdc.safeTransfer(to, amountUsdc);
    }

    /// @dev Consumes `shares` of the caller's notice (GuarantorRules.spendNotice, CLR-02).
    function _spendNotice(GuarantorPoolStorage storage $, uint64 epoch, address guarantor, uint256 shares) private {
        CapitalNotice storage n = $.notices[guarantor][msg.sender];
        uint256 left = GuarantorRules.spendNotice(n, epoch, guarantor, msg.sender, shares);
        if (left == 0) delete $.notices[guarantor][msg.sender];
        else n.shares = left;
    }

    /// @inheritdoc IGuarantorPool
    function requestCapitalWithdrawal(
        address guarantor,
        uint256 shares
    ) external returns (uint64 readyAt, uint64 expiresAt) {
        if (shares == 0) revert PoolZeroAmount();
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        GuarantorState storage g = _guarantor($, guarantor);
        uint256 held = _held($, g, guarantor, msg.sender);
        if (shares > held) revert PoolInsufficientShares(msg.sender, shares, held);
        // Refused up front when the exposure needs that capital (checked again at the withdrawal).
        _release(g, $.income[guarantor]);
        uint256 capital = g.capitalUsdc;
        uint256 value = Math.mulDiv(shares, capital + VIRTUAL_ASSETS, g.totalShares + VIRTUAL_SHARES);
        // The lock while the exposure needs the capital: customers' exposure ≤ capital after × max leverage.
        GuarantorRules.checkCapacity(
            guarantor,
            g.exposureUsdc,
            value < capital ? capital - value : 0,
            $.maxLeverageWad
        );
        readyAt = uint64(block.timestamp) + $.noticeSec;
        expiresAt = readyAt + $.windowSec;
        $.notices[guarantor][msg.sender] = CapitalNotice(shares, readyAt, expiresAt, g.shareEpoch);
        emit CapitalWithdrawalRequested(guarantor, msg.sender, shares, readyAt, expiresAt);
    }

    /// @inheritdoc IGuarantorPool
    function cancelCapitalWithdrawal(address guarantor) external {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        if ($.notices[guarantor][msg.sender].shares == 0) revert PoolNoticeRequired(guarantor, msg.sender);
        delete $.notices[guarantor][msg.sender];
        emit CapitalWithdrawalCancelled(guarantor, msg.sender);
    }

    /// @inheritdoc IGuarantorPool
    function creditIncome(address guarantor, uint256 amountUsdc) external nonReentrant {
        if (amountUsdc == 0) revert PoolZeroAmount();
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        GuarantorState storage g = _guarantor($, guarantor);
        _vest($, g, guarantor, amountUsdc);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function collectIncome(address guarantor) external nonReentrant returns (uint256 amountUsdc) {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        GuarantorState storage g = _guarantor($, guarantor);
        Income storage inc = $.income[guarantor];
        amountUsdc = inc.pendingUsdc;
        if (amountUsdc == 0) revert PoolZeroAmount();
        uint256 funded = $.incomeFunded;
        if (amountUsdc > funded) revert PoolIncomeUnfunded(amountUsdc, funded);
        // Safe downcasts: both fit the uint128 they were read from.
        $.incomeFunded = uint128(funded - amountUsdc);
        inc.pendingUsdc = 0;
        _vest($, g, guarantor, amountUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function fundIncome(uint256 amountUsdc) external nonReentrant {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        if (msg.sender != address($.clearingHouse)) revert PoolOnlyClearingHouse(msg.sender);
        uint256 owed = $.incomeOwed;
        if (amountUsdc == 0 || amountUsdc > owed) revert PoolInvalidParams();
        uint256 funded = $.incomeFunded + amountUsdc;
        // Safe downcasts: funded + owed is the unchanged Σ pending, which fits a uint128.
        $.incomeOwed = uint128(owed - amountUsdc);
        $.incomeFunded = uint128(funded);
        emit IncomeFunded(amountUsdc, funded, owed - amountUsdc);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @dev Adds `amountUsdc` to the guarantor's income: vesting linearly over vestSec from now (what was still
    ///      unvested restarts with it, never faster), or straight into capital when vestSec is 0.
    function _vest(
        GuarantorPoolStorage storage $,
        GuarantorState storage g,
        address guarantor,
        uint256 amountUsdc
    ) private {
        Income storage inc = $.income[guarantor];
        _release(g, inc);
        uint256 vestSec = $.backstop.vestSec;
        if (vestSec == 0) {
            g.capitalUsdc = (g.capitalUsdc + amountUsdc).toUint128();
        } else {
            uint256 unvested = inc.unvestedUsdc + amountUsdc;
            uint64 end = uint64(block.timestamp + vestSec);
            inc.unvestedUsdc = unvested.toUint128();
            inc.vestStart = uint64(block.timestamp);
            inc.vestEnd = end;
            emit IncomeVesting(guarantor, unvested, end);
        }
        emit IncomeCredited(guarantor, msg.sender, amountUsdc, g.capitalUsdc);
    }

    /// @dev Moves the income vested since the last release into capital (the share price).
    function _release(GuarantorState storage g, Income storage inc) private {
        uint256 unvested = inc.unvestedUsdc;
        if (unvested == 0) return;
        uint256 out = GuarantorRules.vestedPart(unvested, inc.vestStart, inc.vestEnd, block.timestamp);
        if (out == 0) return;
        // Safe downcast: out ≤ unvested, a uint128.
        inc.unvestedUsdc = uint128(unvested - out);
        inc.vestStart = uint64(block.timestamp);
        g.capitalUsdc = (g.capitalUsdc + out).toUint128();
    }

    /// @inheritdoc IGuarantorPool
    function stakeDps(uint256 amount) external nonReentrant {
        if (amount == 0) revert PoolZeroAmount();
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        GuarantorState storage g = _guarantor($, msg.sender);
        g.dpsStaked = (g.dpsStaked + amount).toUint128();
        emit DpsStakeChanged(msg.sender, int256(amount), g.dpsStaked);
        $.dps.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @inheritdoc IGuarantorPool
    function unstakeDps(uint256 amount) external nonReentrant {
        if (amount == 0) revert PoolZeroAmount();
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        GuarantorState storage g = _guarantor($, msg.sender);
        uint256 staked = g.dpsStaked;
        if (amount > staked || (staked - amount < $.minDpsStake && g.exposureUsdc > 0)) {
            revert PoolUnstakeNotAllowed(msg.sender, amount, staked);
        }
        g.dpsStaked = uint128(staked - amount);
        emit DpsStakeChanged(msg.sender, -int256(amount), g.dpsStaked);
        $.dps.safeTransfer(msg.sender, amount);
    }

    /// @inheritdoc IGuarantorPool
    function slashDps(address guarantor, uint256 amount, address to) external restricted nonReentrant {
        if (to == address(0)) revert ChxZeroAddress();
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        GuarantorState storage g = _guarantor($, guarantor);
        if (amount > g.dpsStaked) amount = g.dpsStaked;
        g.dpsStaked -= uint128(amount);
        emit DpsSlashed(guarantor, amount, to, g.dpsStaked);
        $.dps.safeTransfer(to, amount);
    }

    // ───────────────────────────── customers ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function admitCustomer(address account, uint256 limitUsdc) external {
        if (account == address(0)) revert ChxZeroAddress();
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        _guarantor($, msg.sender);
        _admit($, account, msg.sender, limitUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function joinOpenGuarantor(address guarantor) external {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        GuarantorState storage g = _guarantor($, guarantor);
        if (!g.open) revert PoolNotOpen(guarantor);
        // Self-admission never hands an existing deficit to an open guarantor (a closed one admits knowingly).
        int256 collateral = $.clearingHouse.collateralOf(msg.sender);
        if (collateral < 0) revert PoolCustomerInDeficit(msg.sender, guarantor, collateral);
        _admit($, msg.sender, guarantor, g.defaultLimitUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function removeCustomer(address account) external {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        Customer storage c = $.customers[account];
        address guarantor = c.guarantor;
        if (guarantor == address(0)) revert PoolNoGuarantor(account);
        if (msg.sender != account && msg.sender != guarantor) revert PoolNotGuarantor(msg.sender);
        IClearingHouse house = $.clearingHouse;
        if (house.marketsOf(account).length != 0) revert PoolCustomerHasPositions(account, guarantor);
        // LIQ-03: the guarantor of the account when a deficit arose (self-close, funding, futures settlement) pays it
        // first; it cannot walk away and leave it to the insurance fund.
        int256 collateral = house.collateralOf(account);
        if (collateral < 0) revert PoolCustomerInDeficit(account, guarantor, collateral);
        // The exposure still recorded (a reduction or a liquidation does not refresh it) leaves with the customer:
        // off the old guarantor's aggregate, and zeroed (the account is flat), so it neither locks the old guarantor's
        // capital nor is later subtracted from the next guarantor's aggregate.
        uint256 exposure = c.exposureUsdc;
        if (exposure != 0) {
            GuarantorState storage g = $.guarantors[guarantor];
            uint256 gExposure = g.exposureUsdc;
            gExposure = gExposure > exposure ? gExposure - exposure : 0;
            g.exposureUsdc = uint128(gExposure);
            c.exposureUsdc = 0;
            emit ExposureChanged(account, guarantor, 0, gExposure);
        }
        c.guarantor = address(0);
        c.limitUsdc = 0;
        emit CustomerLeft(account, guarantor);
    }

    function _admit(GuarantorPoolStorage storage $, address account, address guarantor, uint256 limitUsdc) private {
        Customer storage c = $.customers[account];
        address current = c.guarantor;
        if (current != address(0) && current != guarantor) revert PoolCustomerHasPositions(account, current);
        if (limitUsdc > type(uint96).max) revert PoolInvalidParams();
        c.guarantor = guarantor;
        c.limitUsdc = limitUsdc;
        emit CustomerAdmitted(account, guarantor, limitUsdc);
    }

    // ───────────────────────────── clearing hooks ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function onExposureChanged(address account, uint256 newExposureUsdc, bool increasing) external {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        if (msg.sender != address($.clearingHouse)) revert PoolOnlyClearingHouse(msg.sender);
        _onExposure($, account, newExposureUsdc, increasing);
    }

    /// @inheritdoc IGuarantorPool
    function onRiskIncrease(address account, uint256 newExposureUsdc, uint256 feeUsdc) external {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        if (msg.sender != address($.clearingHouse)) revert PoolOnlyClearingHouse(msg.sender);
        address guarantor = _onExposure($, account, newExposureUsdc, true);
        if (feeUsdc == 0) return;
        uint256 share = Math.mulDiv(feeUsdc, $.backstop.feeShareBps, 10_000);
        if (share == 0) return;
        Income storage inc = $.income[guarantor];
        uint256 pending = inc.pendingUsdc + share;
        inc.pendingUsdc = pending.toUint128();
        $.incomeOwed = ($.incomeOwed + share).toUint128();
        emit IncomeAccrued(guarantor, account, share, pending);
    }

    /// @dev The exposure update and, on new risk, the guarantor's gate (bond, customer limit, capacity, insurance
    ///      requirement). Returns the account's guarantor.
    function _onExposure(
        GuarantorPoolStorage storage $,
        address account,
        uint256 newExposureUsdc,
        bool increasing
    ) private returns (address guarantor) {
        Customer storage c = $.customers[account];
        guarantor = c.guarantor;
        uint256 old = c.exposureUsdc;
        // @dev Saturating (never reverts, so a risk-reducing trade is never blocked): a saturated value only
        //      overstates the guarantor's aggregate later (conservative). Unreachable with real notionals.
        uint96 packed = newExposureUsdc > type(uint96).max ? type(uint96).max : uint96(newExposureUsdc);
        if (guarantor == address(0)) {
            if (increasing) revert PoolNoGuarantor(account);
            if (old != newExposureUsdc) c.exposureUsdc = packed;
            return guarantor;
        }
        GuarantorState storage g = $.guarantors[guarantor];
        uint256 gExposure = g.exposureUsdc;
        // @dev Saturating: exposure recorded before an account changed guarantor is never subtracted twice.
        gExposure = gExposure > old ? gExposure - old : 0;
        gExposure += newExposureUsdc;
        if (increasing) {
            uint256 minDps = $.minDpsStake;
            if (g.dpsStaked < minDps) revert PoolStakeTooLow(guarantor, minDps, g.dpsStaked);
            uint256 limit = c.limitUsdc;
            if (newExposureUsdc > limit) revert PoolCustomerLimitExceeded(account, limit, newExposureUsdc);
            uint256 capacity = GuarantorRules.capacity(g.capitalUsdc, $.maxLeverageWad);
            if (gExposure > capacity) revert PoolCapacityExceeded(guarantor, capacity, gExposure);
            _checkRequirement($.backstop, guarantor, gExposure);
        }
        c.exposureUsdc = packed;
        g.exposureUsdc = gExposure > type(uint128).max ? type(uint128).max : uint128(gExposure);
        emit ExposureChanged(account, guarantor, newExposureUsdc, gExposure);
    }

    /// @inheritdoc IGuarantorPool
    function coverLoss(
        address account,
        uint256 amountUsdc,
        address recipient
    ) external restricted nonReentrant returns (uint256 paidUsdc) {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        address guarantor = $.customers[account].guarantor;
        if (guarantor == address(0) || amountUsdc == 0) return 0;
        GuarantorState storage g = $.guarantors[guarantor];
        Income storage inc = $.income[guarantor];
        _release(g, inc);
        uint256 capital = g.capitalUsdc;
        // Capital first, then income still vesting (it belongs to the same holders).
        uint256 unvested = inc.unvestedUsdc;
        paidUsdc = Math.min(amountUsdc, capital + unvested);
        uint256 capitalAfter = paidUsdc <= capital ? capital - paidUsdc : 0;
        g.capitalUsdc = uint128(capitalAfter);
        if (paidUsdc > capital) {
            unvested -= paidUsdc - capital;
            inc.unvestedUsdc = uint128(unvested);
        }
        emit LossCovered(guarantor, account, amountUsdc, paidUsdc, capitalAfter);
        // A guarantor that fails to cover its customer's loss loses part of its DPS bond (bounded, by rule).
        if (paidUsdc < amountUsdc) _slashByRule($, g, guarantor, SLASH_UNCOVERED_LOSS, amountUsdc - paidUsdc);
        uint256 sharesOutstanding = g.totalShares;
        if (sharesOutstanding != 0 && (capitalAfter + unvested) * MIN_ASSETS_PER_SHARE_INV < sharesOutstanding) {
            // Every share is cancelled at once (O(1): holdings of an older epoch read as zero).
            uint64 epoch = g.shareEpoch + 1;
            g.shareEpoch = epoch;
            g.totalShares = 0;
            emit GuarantorSharesReset(guarantor, epoch, sharesOutstanding, capitalAfter);
        }
        if (paidUsdc > 0) $.usdc.safeTransfer(recipient, paidUsdc);
    }

    // ───────────────────────────── governance ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function setParams(uint256 minDpsStake, uint256 maxLeverageWad) external restricted {
        _setParams(_getGuarantorPoolStorage(), minDpsStake, maxLeverageWad);
    }

    function _setParams(GuarantorPoolStorage storage $, uint256 minDpsStake, uint256 maxLeverageWad) private {
        if (maxLeverageWad == 0 || minDpsStake > type(uint96).max) revert PoolInvalidParams();
        $.minDpsStake = uint96(minDpsStake);
        $.maxLeverageWad = maxLeverageWad;
        emit PoolParamsSet(minDpsStake, maxLeverageWad);
    }

    /// @inheritdoc IGuarantorPool
    function setCapitalNotice(uint64 noticeSec, uint64 windowSec) external restricted {
        if (noticeSec > MAX_NOTICE_SEC || windowSec > MAX_NOTICE_SEC || (noticeSec != 0 && windowSec == 0)) {
            revert PoolInvalidParams();
        }
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        $.noticeSec = noticeSec;
        $.windowSec = windowSec;
        emit CapitalNoticeSet(noticeSec, windowSec);
    }

    /// @inheritdoc IGuarantorPool
    function setBackstopParams(BackstopParams calldata p) external restricted {
        if (
            p.slashBps > 10_000 ||
            p.feeShareBps > 10_000 ||
            p.graceSec > MAX_BACKSTOP_SEC ||
            p.vestSec > MAX_BACKSTOP_SEC ||
            p.stressWad > 1e18
        ) revert PoolInvalidParams();
        _getGuarantorPoolStorage().backstop = p;
        emit BackstopParamsSet(
            p.insuranceFund,
            p.stressWad,
            p.graceSec,
            p.slashBps,
            p.dpsSink,
            p.feeShareBps,
            p.vestSec
        );
    }

    // ───────────────────────────── insurance requirement ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function flagShortfall(address guarantor) external returns (bool short) {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        _guarantor($, guarantor);
        (uint256 required, uint256 staked) = _insurance($, guarantor);
        Income storage inc = $.income[guarantor];
        short = staked < required;
        if (short) {
            if (inc.shortSince == 0) {
                inc.shortSince = uint64(block.timestamp);
                emit GuarantorShortfallFlagged(
                    guarantor,
                    required,
                    staked,
                    uint64(block.timestamp) + $.backstop.graceSec
                );
            }
        } else if (inc.shortSince != 0) {
            inc.shortSince = 0;
            emit GuarantorShortfallCleared(guarantor, required, staked);
        }
    }

    /// @inheritdoc IGuarantorPool
    function slashShortfall(address guarantor) external nonReentrant returns (uint256 amount) {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        GuarantorState storage g = _guarantor($, guarantor);
        (uint256 required, uint256 staked) = _insurance($, guarantor);
        Income storage inc = $.income[guarantor];
        uint64 since = inc.shortSince;
        if (since == 0 || staked >= required) revert PoolNoShortfall(guarantor, required, staked);
        uint64 graceEndsAt = since + $.backstop.graceSec;
        if (block.timestamp < graceEndsAt) revert PoolGraceNotOver(guarantor, graceEndsAt, block.timestamp);
        inc.shortSince = uint64(block.timestamp);
        amount = _slashByRule($, g, guarantor, SLASH_SHORTFALL, required - staked);
    }

    /// @dev CLR-01: reverts unless the guarantor's insurance stake covers the requirement of `exposureUsdc`.
    function _checkRequirement(BackstopParams storage b, address guarantor, uint256 exposureUsdc) private view {
        address fund = b.insuranceFund;
        uint256 stress = b.stressWad;
        if (fund == address(0) || stress == 0) return;
        uint256 required = GuarantorRules.requirement(exposureUsdc, stress);
        uint256 staked = IInsuranceFund(fund).guarantorStake(guarantor);
        if (staked < required) revert PoolInsuranceBelowRequirement(guarantor, required, staked);
    }

    /// @dev The guarantor's requirement now and the stake it holds (0 / 0 while the requirement is off).
    function _insurance(
        GuarantorPoolStorage storage $,
        address guarantor
    ) private view returns (uint256 required, uint256 staked) {
        address fund = $.backstop.insuranceFund;
        if (fund == address(0)) return (0, 0);
        required = GuarantorRules.requirement($.guarantors[guarantor].exposureUsdc, $.backstop.stressWad);
        staked = IInsuranceFund(fund).guarantorStake(guarantor);
    }

    /// @dev One bounded rule slash of the guarantor's DPS bond to the sink (nothing while the rule is off).
    function _slashByRule(
        GuarantorPoolStorage storage $,
        GuarantorState storage g,
        address guarantor,
        uint8 reason,
        uint256 basisUsdc
    ) private returns (uint256 amount) {
        address sink = $.backstop.dpsSink;
        uint256 staked = g.dpsStaked;
        amount = GuarantorRules.ruleSlash(staked, $.backstop.slashBps, sink);
        if (amount == 0) return 0;
        g.dpsStaked = uint128(staked - amount);
        emit DpsSlashedByRule(guarantor, reason, basisUsdc, amount, sink, staked - amount);
        $.dps.safeTransfer(sink, amount);
    }

    // ───────────────────────────── views ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function backstopParams() external view returns (BackstopParams memory) {
        return _getGuarantorPoolStorage().backstop;
    }

    /// @inheritdoc IGuarantorPool
    function requiredInsuranceUsdc(address guarantor) external view returns (uint256) {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        if ($.backstop.insuranceFund == address(0)) return 0;
        return GuarantorRules.requirement($.guarantors[guarantor].exposureUsdc, $.backstop.stressWad);
    }

    /// @inheritdoc IGuarantorPool
    function incomeOf(address guarantor) external view returns (Income memory) {
        return _getGuarantorPoolStorage().income[guarantor];
    }

    /// @inheritdoc IGuarantorPool
    function incomeOwed() external view returns (uint256) {
        return _getGuarantorPoolStorage().incomeOwed;
    }

    /// @inheritdoc IGuarantorPool
    function capitalNotice() external view returns (uint64 noticeSec, uint64 windowSec) {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        return ($.noticeSec, $.windowSec);
    }

    /// @inheritdoc IGuarantorPool
    function withdrawalNotice(address guarantor, address holder) external view returns (CapitalNotice memory n) {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        n = $.notices[guarantor][holder];
        if (n.epoch != $.guarantors[guarantor].shareEpoch) delete n;
    }

    /// @inheritdoc IGuarantorPool
    function shareEpoch(address guarantor) external view returns (uint64) {
        return _getGuarantorPoolStorage().guarantors[guarantor].shareEpoch;
    }

    /// @inheritdoc IGuarantorPool
    function guarantorInfo(address guarantor) external view returns (Guarantor memory) {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        GuarantorState storage g = $.guarantors[guarantor];
        return
            Guarantor({
                registered: g.registered,
                open: g.open,
                capitalUsdc: _capitalNow(g, $.income[guarantor]),
                totalShares: g.totalShares,
                exposureUsdc: g.exposureUsdc,
                dpsStaked: g.dpsStaked,
                defaultLimitUsdc: g.defaultLimitUsdc
            });
    }

    /// @inheritdoc IGuarantorPool
    function guarantorOf(address account) external view returns (address) {
        return _getGuarantorPoolStorage().customers[account].guarantor;
    }

    /// @inheritdoc IGuarantorPool
    function customerInfo(address account) external view returns (uint256 limitUsdc, uint256 exposureUsdc) {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        Customer storage c = $.customers[account];
        return (c.limitUsdc, c.exposureUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function sharesOf(address guarantor, address holder) external view returns (uint256) {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        return _held($, $.guarantors[guarantor], guarantor, holder);
    }

    /// @dev A holder's shares in the guarantor's current epoch.
    function _held(
        GuarantorPoolStorage storage $,
        GuarantorState storage g,
        address guarantor,
        address holder
    ) private view returns (uint256) {
        Holding storage h = $.shares[guarantor][holder];
        return h.epoch == g.shareEpoch ? h.shares : 0;
    }

    /// @inheritdoc IGuarantorPool
    function convertToAssets(address guarantor, uint256 shares) external view returns (uint256) {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        GuarantorState storage g = $.guarantors[guarantor];
        return
            Math.mulDiv(shares, _capitalNow(g, $.income[guarantor]) + VIRTUAL_ASSETS, g.totalShares + VIRTUAL_SHARES);
    }

    /// @dev Capital including the income vested since the last release (what a deposit or withdrawal now prices).
    function _capitalNow(GuarantorState storage g, Income storage inc) private view returns (uint256) {
        return g.capitalUsdc + GuarantorRules.vestedPart(inc.unvestedUsdc, inc.vestStart, inc.vestEnd, block.timestamp);
    }

    /// @inheritdoc IGuarantorPool
    function params() external view returns (uint256 minDpsStake, uint256 maxLeverageWad) {
        GuarantorPoolStorage storage $ = _getGuarantorPoolStorage();
        return ($.minDpsStake, $.maxLeverageWad);
    }

    function _guarantor(
        GuarantorPoolStorage storage $,
        address guarantor
    ) private view returns (GuarantorState storage g) {
        g = $.guarantors[guarantor];
        if (!g.registered) revert PoolNotGuarantor(guarantor);
    }
}
