// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
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
        g.capitalUsdc = (g.capitalUsdc + amountUsdc).toUint128();
        emit IncomeCredited(guarantor, msg.sender, amountUsdc, g.capitalUsdc);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
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
        Customer storage c = $.customers[account];
        address guarantor = c.guarantor;
        uint256 old = c.exposureUsdc;
        // @dev Saturating (never reverts, so a risk-reducing trade is never blocked): a saturated value only
        //      overstates the guarantor's aggregate later (conservative). Unreachable with real notionals.
        uint96 packed = newExposureUsdc > type(uint96).max ? type(uint96).max : uint96(newExposureUsdc);
        if (guarantor == address(0)) {
            if (increasing) revert PoolNoGuarantor(account);
            if (old != newExposureUsdc) c.exposureUsdc = packed;
            return;
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
        uint256 capital = g.capitalUsdc;
        paidUsdc = amountUsdc < capital ? amountUsdc : capital;
        uint256 capitalAfter = capital - paidUsdc;
        g.capitalUsdc = uint128(capitalAfter);
        emit LossCovered(guarantor, account, amountUsdc, paidUsdc, capitalAfter);
        uint256 sharesOutstanding = g.totalShares;
        if (sharesOutstanding != 0 && capitalAfter * MIN_ASSETS_PER_SHARE_INV < sharesOutstanding) {
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

    // ───────────────────────────── views ─────────────────────────────

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
        GuarantorState storage g = _getGuarantorPoolStorage().guarantors[guarantor];
        return
            Guarantor({
                registered: g.registered,
                open: g.open,
                capitalUsdc: g.capitalUsdc,
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
        GuarantorState storage g = _getGuarantorPoolStorage().guarantors[guarantor];
        return Math.mulDiv(shares, g.capitalUsdc + VIRTUAL_ASSETS, g.totalShares + VIRTUAL_SHARES);
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
