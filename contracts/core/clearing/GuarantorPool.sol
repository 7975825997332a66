// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {GuarantorPoolStorage, GuarantorStorage} from "../../libraries/clearing/GuarantorStorage.sol";
import {GuarantorAdmission} from "../../libraries/clearing/GuarantorAdmission.sol";
import {GuarantorBackstop} from "../../libraries/clearing/GuarantorBackstop.sol";
import {GuarantorCapital} from "../../libraries/clearing/GuarantorCapital.sol";
import {GuarantorIncome} from "../../libraries/clearing/GuarantorIncome.sol";
import {GuarantorRules} from "../../libraries/clearing/GuarantorRules.sol";

/// @title GuarantorPool
/// @notice Clearing members: share-based USDC capital, DPS bond, customers, limits, the pre-trade gate and first
///         loss. See IGuarantorPool. The entry keeps storage, access, guards and token transfers; the mechanisms live
///         in GuarantorAdmission (customers, limits, the gate), GuarantorCapital (shares, notices, the bond),
///         GuarantorIncome (fee income and its vesting) and the linked GuarantorBackstop (first loss, the insurance
///         requirement and rule slashes).
contract GuarantorPool is ChxUpgradeable, GuarantorPoolStorage, IGuarantorPool {
    using SafeERC20 for IERC20;

    /// @notice Virtual shares of every guarantor's share book (ACC-04): an attacker's donation is shared with 1e24
    ///         virtual shares, so it costs the attacker and a victim loses < 1e-6 of a deposit of at least
    ///         donation / 1e18.
    uint256 public constant VIRTUAL_SHARES = GuarantorStorage.VIRTUAL_SHARES;
    /// @notice The virtual assets (1 USDC unit) paired with VIRTUAL_SHARES in every share price.
    uint256 public constant VIRTUAL_ASSETS = GuarantorStorage.VIRTUAL_ASSETS;
    /// @dev Longest notice governance may set (a typo must not lock capital for years).
    uint64 private constant MAX_NOTICE_SEC = 90 days;

    bytes32 internal constant FEATURE_DEPOSIT = keccak256("guarantor.deposit");

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param usdc Capital token.
    /// @param dps DPS token (bond).
    /// @param clearingHouse The ClearingHouse (reads positions to allow a customer to leave).
    /// @param minDpsStake Minimum DPS bond to gate new trades.
    /// @param maxLeverageWad Max customers' exposure / capital, WAD (at most type(uint64).max).
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
        Layout storage $ = GuarantorStorage.layout();
        $.usdc = IERC20(usdc);
        $.dps = IERC20(dps);
        $.clearingHouse = IClearingHouse(clearingHouse);
        _setParams($, minDpsStake, maxLeverageWad);
    }

    // ───────────────────────────── guarantors and capital ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function registerGuarantor(bool open, uint256 defaultLimitUsdc) external {
        GuarantorState storage g = GuarantorStorage.layout().guarantors[msg.sender];
        if (g.registered) revert PoolAlreadyRegistered(msg.sender);
        g.registered = true;
        g.open = open;
        g.defaultLimitUsdc = defaultLimitUsdc;
        emit GuarantorConfigured(msg.sender, open, defaultLimitUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function configureGuarantor(bool open, uint256 defaultLimitUsdc) external {
        GuarantorState storage g = GuarantorStorage.guarantor(GuarantorStorage.layout(), msg.sender);
        g.open = open;
        g.defaultLimitUsdc = defaultLimitUsdc;
        emit GuarantorConfigured(msg.sender, open, defaultLimitUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function depositCapital(
        address guarantor,
        uint256 amountUsdc
    ) external nonReentrant whenActive(FEATURE_DEPOSIT) returns (uint256 shares) {
        Layout storage $ = GuarantorStorage.layout();
        shares = GuarantorCapital.deposit($, guarantor, amountUsdc);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function withdrawCapital(
        address guarantor,
        uint256 shares,
        address to
    ) external nonReentrant returns (uint256 amountUsdc) {
        if (to == address(0) && shares != 0) revert ChxZeroAddress();
        Layout storage $ = GuarantorStorage.layout();
        amountUsdc = GuarantorCapital.withdraw($, guarantor, shares);
        $.usdc.safeTransfer(to, amountUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function requestCapitalWithdrawal(
        address guarantor,
        uint256 shares
    ) external returns (uint64 readyAt, uint64 expiresAt) {
        return GuarantorCapital.requestWithdrawal(GuarantorStorage.layout(), guarantor, shares);
    }

    /// @inheritdoc IGuarantorPool
    function cancelCapitalWithdrawal(address guarantor) external {
        Layout storage $ = GuarantorStorage.layout();
        if ($.notices[guarantor][msg.sender].shares == 0) revert PoolNoticeRequired(guarantor, msg.sender);
        delete $.notices[guarantor][msg.sender];
        emit CapitalWithdrawalCancelled(guarantor, msg.sender);
    }

    /// @inheritdoc IGuarantorPool
    function stakeDps(uint256 amount) external nonReentrant {
        Layout storage $ = GuarantorStorage.layout();
        GuarantorCapital.stake($, amount);
        $.dps.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @inheritdoc IGuarantorPool
    function unstakeDps(uint256 amount) external nonReentrant {
        Layout storage $ = GuarantorStorage.layout();
        GuarantorCapital.unstake($, amount);
        $.dps.safeTransfer(msg.sender, amount);
    }

    /// @inheritdoc IGuarantorPool
    function slashDps(address guarantor, uint256 amount, address to) external restricted nonReentrant {
        if (to == address(0)) revert ChxZeroAddress();
        GuarantorBackstop.slash(guarantor, amount, to);
    }

    // ───────────────────────────── income ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function creditIncome(address guarantor, uint256 amountUsdc) external nonReentrant {
        if (amountUsdc == 0) revert PoolZeroAmount();
        Layout storage $ = GuarantorStorage.layout();
        GuarantorIncome.vest($, GuarantorStorage.guarantor($, guarantor), guarantor, amountUsdc);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function collectIncome(address guarantor) external nonReentrant returns (uint256 amountUsdc) {
        Layout storage $ = GuarantorStorage.layout();
        return GuarantorIncome.collect($, GuarantorStorage.guarantor($, guarantor), guarantor);
    }

    /// @inheritdoc IGuarantorPool
    function fundIncome(uint256 amountUsdc) external nonReentrant {
        Layout storage $ = GuarantorStorage.layout();
        _onlyClearingHouse($);
        GuarantorIncome.fund($, amountUsdc);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    // ───────────────────────────── customers ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function admitCustomer(address account, uint256 limitUsdc) external {
        if (account == address(0)) revert ChxZeroAddress();
        Layout storage $ = GuarantorStorage.layout();
        GuarantorStorage.guarantor($, msg.sender);
        GuarantorAdmission.admit($, account, msg.sender, limitUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function joinOpenGuarantor(address guarantor) external {
        Layout storage $ = GuarantorStorage.layout();
        GuarantorState storage g = GuarantorStorage.guarantor($, guarantor);
        if (!g.open) revert PoolNotOpen(guarantor);
        // Self-admission never hands an existing deficit to an open guarantor (a closed one admits knowingly).
        int256 collateral = $.clearingHouse.collateralOf(msg.sender);
        if (collateral < 0) revert PoolCustomerInDeficit(msg.sender, guarantor, collateral);
        GuarantorAdmission.admit($, msg.sender, guarantor, g.defaultLimitUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function removeCustomer(address account) external {
        GuarantorAdmission.remove(GuarantorStorage.layout(), account);
    }

    // ───────────────────────────── clearing hooks ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function onExposureChanged(address account, uint256 newExposureUsdc, bool increasing) external {
        Layout storage $ = GuarantorStorage.layout();
        _onlyClearingHouse($);
        GuarantorAdmission.onExposure($, account, newExposureUsdc, increasing);
    }

    /// @inheritdoc IGuarantorPool
    function onRiskIncrease(address account, uint256 newExposureUsdc, uint256 feeUsdc) external {
        Layout storage $ = GuarantorStorage.layout();
        _onlyClearingHouse($);
        address guarantor = GuarantorAdmission.onExposure($, account, newExposureUsdc, true);
        if (feeUsdc != 0) GuarantorIncome.accrue($, guarantor, account, feeUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function coverLoss(
        address account,
        uint256 amountUsdc,
        address recipient
    ) external nonReentrant returns (uint256 paidUsdc) {
        Layout storage $ = GuarantorStorage.layout();
        // The registered engine passes with one SLOAD; anyone else goes through AccessManager exactly as `restricted`.
        if (msg.sender != $.trustedEngine) _checkCanCall(msg.sender, msg.data);
        paidUsdc = GuarantorCapital.coverLoss($, account, amountUsdc);
        if (paidUsdc > 0) $.usdc.safeTransfer(recipient, paidUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function setTrustedEngine(address engine) external restricted {
        GuarantorStorage.layout().trustedEngine = engine;
        emit TrustedEngineSet(engine);
    }

    /// @inheritdoc IGuarantorPool
    function trustedEngine() external view returns (address) {
        return GuarantorStorage.layout().trustedEngine;
    }

    // ───────────────────────────── insurance requirement ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function flagShortfall(address guarantor) external returns (bool short) {
        return GuarantorBackstop.flagShortfall(guarantor);
    }

    /// @inheritdoc IGuarantorPool
    function slashShortfall(address guarantor) external nonReentrant returns (uint256 amount) {
        return GuarantorBackstop.slashShortfall(guarantor);
    }

    // ───────────────────────────── governance ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function setParams(uint256 minDpsStake, uint256 maxLeverageWad) external restricted {
        _setParams(GuarantorStorage.layout(), minDpsStake, maxLeverageWad);
    }

    function _setParams(Layout storage $, uint256 minDpsStake, uint256 maxLeverageWad) private {
        // Both stored narrowed (the bond beside the ClearingHouse, the leverage beside the income totals).
        if (maxLeverageWad == 0 || maxLeverageWad > type(uint64).max || minDpsStake > type(uint96).max) {
            revert PoolInvalidParams();
        }
        $.minDpsStake = uint96(minDpsStake);
        $.maxLeverageWad = uint64(maxLeverageWad);
        emit PoolParamsSet(minDpsStake, maxLeverageWad);
    }

    /// @inheritdoc IGuarantorPool
    function setCapitalNotice(uint64 noticeSec, uint64 windowSec) external restricted {
        if (noticeSec > MAX_NOTICE_SEC || windowSec > MAX_NOTICE_SEC || (noticeSec != 0 && windowSec == 0)) {
            revert PoolInvalidParams();
        }
        Layout storage $ = GuarantorStorage.layout();
        $.noticeSec = noticeSec;
        $.windowSec = windowSec;
        emit CapitalNoticeSet(noticeSec, windowSec);
    }

    /// @inheritdoc IGuarantorPool
    function setBackstopParams(BackstopParams calldata p) external restricted {
        GuarantorBackstop.setParams(p);
    }

    // ───────────────────────────── views ─────────────────────────────

    /// @inheritdoc IGuarantorPool
    function backstopParams() external view returns (BackstopParams memory) {
        Backstop storage b = GuarantorStorage.layout().backstop;
        return
            BackstopParams(b.insuranceFund, b.stressWad, b.dpsSink, b.graceSec, b.slashBps, b.feeShareBps, b.vestSec);
    }

    /// @inheritdoc IGuarantorPool
    function requiredInsuranceUsdc(address guarantor) external view returns (uint256) {
        Layout storage $ = GuarantorStorage.layout();
        if ($.backstop.insuranceFund == address(0)) return 0;
        return GuarantorRules.requirement($.guarantors[guarantor].exposureUsdc, $.backstop.stressWad);
    }

    /// @inheritdoc IGuarantorPool
    function incomeOf(address guarantor) external view returns (Income memory) {
        Layout storage $ = GuarantorStorage.layout();
        IncomeState storage inc = $.income[guarantor];
        // The pending income lives in the guarantor's slot 0 (beside capital and exposure); the ABI keeps Income.
        return
            Income(
                $.guarantors[guarantor].pendingIncomeUsdc,
                inc.unvestedUsdc,
                inc.vestStart,
                inc.vestEnd,
                inc.shortSince
            );
    }

    /// @inheritdoc IGuarantorPool
    function incomeOwed() external view returns (uint256) {
        return GuarantorStorage.layout().incomeOwed;
    }

    /// @inheritdoc IGuarantorPool
    function capitalNotice() external view returns (uint64 noticeSec, uint64 windowSec) {
        Layout storage $ = GuarantorStorage.layout();
        return ($.noticeSec, $.windowSec);
    }

    /// @inheritdoc IGuarantorPool
    function withdrawalNotice(address guarantor, address holder) external view returns (CapitalNotice memory n) {
        Layout storage $ = GuarantorStorage.layout();
        n = $.notices[guarantor][holder];
        if (n.epoch != $.guarantors[guarantor].shareEpoch) delete n;
    }

    /// @inheritdoc IGuarantorPool
    function shareEpoch(address guarantor) external view returns (uint64) {
        return GuarantorStorage.layout().guarantors[guarantor].shareEpoch;
    }

    /// @inheritdoc IGuarantorPool
    function guarantorInfo(address guarantor) external view returns (Guarantor memory) {
        Layout storage $ = GuarantorStorage.layout();
        GuarantorState storage g = $.guarantors[guarantor];
        return
            Guarantor({
                registered: g.registered,
                open: g.open,
                capitalUsdc: GuarantorIncome.capitalNow(g, $.income[guarantor]),
                totalShares: g.totalShares,
                exposureUsdc: g.exposureUsdc,
                dpsStaked: g.dpsStaked,
                defaultLimitUsdc: g.defaultLimitUsdc
            });
    }

    /// @inheritdoc IGuarantorPool
    function guarantorOf(address account) external view returns (address) {
        return GuarantorStorage.layout().customers[account].guarantor;
    }

    /// @inheritdoc IGuarantorPool
    function customerInfo(address account) external view returns (uint256 limitUsdc, uint256 exposureUsdc) {
        Layout storage $ = GuarantorStorage.layout();
        Customer storage c = $.customers[account];
        return (c.limitUsdc, c.exposureUsdc);
    }

    /// @inheritdoc IGuarantorPool
    function sharesOf(address guarantor, address holder) external view returns (uint256) {
        Layout storage $ = GuarantorStorage.layout();
        return GuarantorStorage.held($, $.guarantors[guarantor], guarantor, holder);
    }

    /// @inheritdoc IGuarantorPool
    function convertToAssets(address guarantor, uint256 shares) external view returns (uint256) {
        Layout storage $ = GuarantorStorage.layout();
        GuarantorState storage g = $.guarantors[guarantor];
        return
            Math.mulDiv(
                shares,
                GuarantorIncome.capitalNow(g, $.income[guarantor]) + VIRTUAL_ASSETS,
                g.totalShares + VIRTUAL_SHARES
            );
    }

    /// @inheritdoc IGuarantorPool
    function params() external view returns (uint256 minDpsStake, uint256 maxLeverageWad) {
        Layout storage $ = GuarantorStorage.layout();
        return ($.minDpsStake, $.maxLeverageWad);
    }

    /// @dev The clearing hooks' caller check (one copy of the revert in the bytecode).
    function _onlyClearingHouse(Layout storage $) private view {
        if (msg.sender != address($.clearingHouse)) revert PoolOnlyClearingHouse(msg.sender);
    }
}
