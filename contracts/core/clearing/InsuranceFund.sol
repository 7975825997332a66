// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IInsuranceFund} from "../../interfaces/clearing/IInsuranceFund.sol";
import {IInsuranceFundStaking} from "../../interfaces/clearing/IInsuranceFundStaking.sol";
import {IInsuranceFundViews} from "../../interfaces/clearing/IInsuranceFundViews.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";

/// @title InsuranceFund
/// @notice Share-based USDC fund behind the guarantors (SPEC section 7): stakes from guarantors, the treasury and
///         outside stakers; fee income raises the share price, covered bad debt lowers it (losses pro rata);
///         withdrawals go request → cooldown → window.
/// @dev Accounting is an internal ledger (`totalAssets`), never `balanceOf`: a direct transfer cannot move the share
///      price, and conversions carry an ERC-4626-style virtual offset (10^6 virtual shares, 1 virtual asset) so
///      even fee "donations" cannot inflate the price against a later staker (ACC-04). Shares are not tokens:
///      they cannot be transferred, so a pending withdrawal can never be dodged by moving shares (LIQ-06).
contract InsuranceFund is ChxUpgradeable, IInsuranceFund {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;

    /// @notice Feature id of new stakes (the guardian may pause it; withdrawals and cover never pause).
    bytes32 public constant STAKE_FEATURE = keccak256("insurance.stake");

    /// @dev Virtual shares: shares carry 6 more decimals than USDC (12 in all), as ERC-4626 `_decimalsOffset() = 6`.
    uint256 private constant VIRTUAL_SHARES = 1e6;
    /// @dev Virtual assets: 1 USDC unit.
    uint256 private constant VIRTUAL_ASSETS = 1;
    /// @dev A loss that leaves less than 1 unit per 1e12 shares (the share price under 1e-6 of its initial 1 unit
    ///      per 1e6 shares) wipes the fund's shares out: without this, stakes after a near-total loss would mint
    ///      ever more shares per unit and, after a few such losses, overflow. Keeps totalShares ≤ 1e12 × assets.
    uint256 private constant MIN_ASSETS_PER_SHARE_INV = 1e12;

    /// @dev A staker's shares and the share epoch they belong to, in one slot.
    struct StakerShares {
        uint192 shares;
        uint64 epoch;
    }

    /// @dev totalAssets and totalShares share one slot (uint128 each: 3.4e38 ≫ any USDC amount × the 1e6 offset).
    /// @custom:storage-location erc7201:chx.storage.InsuranceFund
    struct InsuranceFundStorage {
        IERC20 usdc;
        uint128 totalAssets;
        uint128 totalShares;
        uint64 cooldownSec;
        uint64 windowSec;
        mapping(address staker => StakerShares position) stakers;
        mapping(address staker => WithdrawRequest request) requests;
        mapping(address guarantor => uint256 requiredUsdc) requirement;
        uint64 shareEpoch;
        IGuarantorPool guarantorPool;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.InsuranceFund")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant INSURANCE_FUND_STORAGE_LOCATION =
        0x5cd561336037e996751fa0f3cf3683be1508f1d84e0861658b551353123ad400;

    function _getStorage() private pure returns (InsuranceFundStorage storage $) {
        assembly {
            $.slot := INSURANCE_FUND_STORAGE_LOCATION
        }
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param usdc The USDC token.
    /// @param cooldownSec Seconds from a withdrawal request to the first possible withdrawal.
    /// @param windowSec Seconds the withdrawal stays possible after the cooldown.
    function initialize(address authority, address usdc, uint64 cooldownSec, uint64 windowSec) external initializer {
        __ChxUpgradeable_init(authority);
        if (usdc == address(0)) revert ChxZeroAddress();
        _getStorage().usdc = IERC20(usdc);
        _setCooldown(cooldownSec, windowSec);
    }

    // ------------------------------------------------------------------ clearing

    /// @inheritdoc IInsuranceFund
    function coverBadDebt(
        uint256 amountUsdc,
        address recipient
    ) external restricted nonReentrant returns (uint256 coveredUsdc) {
        if (recipient == address(0)) revert ChxZeroAddress();
        InsuranceFundStorage storage $ = _getStorage();
        uint256 assets = $.totalAssets;
        coveredUsdc = amountUsdc < assets ? amountUsdc : assets;
        uint256 assetsAfter = assets - coveredUsdc;
        $.totalAssets = assetsAfter.toUint128();
        uint256 sharesOutstanding = $.totalShares;
        if (sharesOutstanding > 0 && assetsAfter * MIN_ASSETS_PER_SHARE_INV < sharesOutstanding) {
            // Every existing share is cancelled at once (O(1): balances of an older epoch read as zero).
            uint64 epoch = $.shareEpoch + 1;
            $.shareEpoch = epoch;
            $.totalShares = 0;
            emit InsuranceSharesReset(epoch, sharesOutstanding, assetsAfter);
        }
        emit InsuranceBadDebtCovered(
            recipient,
            amountUsdc,
            coveredUsdc,
            amountUsdc - coveredUsdc,
            assetsAfter,
            $.totalShares
        );
        if (coveredUsdc > 0) $.usdc.safeTransfer(recipient, coveredUsdc);
    }

    /// @inheritdoc IInsuranceFund
    function depositFees(uint256 amountUsdc) external restricted nonReentrant {
        if (amountUsdc == 0) revert InsuranceZeroAmount();
        InsuranceFundStorage storage $ = _getStorage();
        uint256 assetsAfter = $.totalAssets + amountUsdc;
        $.totalAssets = assetsAfter.toUint128();
        emit InsuranceFeesDeposited(msg.sender, amountUsdc, assetsAfter, $.totalShares);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @inheritdoc IInsuranceFund
    function setGuarantorRequirement(address guarantor, uint256 requiredUsdc) external restricted {
        InsuranceFundStorage storage $ = _getStorage();
        $.requirement[guarantor] = requiredUsdc;
        emit InsuranceGuarantorRequirementSet(guarantor, requiredUsdc, _toAssetsDown($, _held($, guarantor)));
    }

    /// @inheritdoc IInsuranceFund
    function setGuarantorPool(address pool) external restricted {
        _getStorage().guarantorPool = IGuarantorPool(pool);
        emit InsuranceGuarantorPoolSet(pool);
    }

    /// @inheritdoc IInsuranceFundViews
    function guarantorPool() external view returns (address) {
        return address(_getStorage().guarantorPool);
    }

    // ------------------------------------------------------------------ stakers

    /// @inheritdoc IInsuranceFundStaking
    function stake(uint256 amountUsdc) external returns (uint256 shares) {
        return _stake(msg.sender, amountUsdc);
    }

    /// @inheritdoc IInsuranceFundStaking
    function stakeFor(address staker, uint256 amountUsdc) external returns (uint256 shares) {
        if (staker == address(0)) revert ChxZeroAddress();
        return _stake(staker, amountUsdc);
    }

    /// @inheritdoc IInsuranceFundStaking
    function requestWithdraw(uint256 shares) external returns (uint64 readyAt, uint64 expiresAt) {
        if (shares == 0) revert InsuranceZeroAmount();
        InsuranceFundStorage storage $ = _getStorage();
        uint256 held = _held($, msg.sender);
        if (shares > held) revert InsuranceInsufficientShares(msg.sender, shares, held);
        _checkFloor($, msg.sender, _toAssetsDown($, held - shares));
        readyAt = uint64(block.timestamp) + $.cooldownSec;
        expiresAt = readyAt + $.windowSec;
        $.requests[msg.sender] = WithdrawRequest({shares: shares, readyAt: readyAt, expiresAt: expiresAt});
        emit InsuranceWithdrawRequested(msg.sender, shares, readyAt, expiresAt);
    }

    /// @inheritdoc IInsuranceFundStaking
    function cancelWithdraw() external {
        InsuranceFundStorage storage $ = _getStorage();
        if ($.requests[msg.sender].shares == 0) revert InsuranceNoWithdrawRequest(msg.sender);
        delete $.requests[msg.sender];
        emit InsuranceWithdrawCancelled(msg.sender);
    }

    /// @inheritdoc IInsuranceFundStaking
    function withdraw(uint256 shares, address receiver) external nonReentrant returns (uint256 amountUsdc) {
        if (shares == 0) revert InsuranceZeroAmount();
        if (receiver == address(0)) revert ChxZeroAddress();
        InsuranceFundStorage storage $ = _getStorage();
        WithdrawRequest memory req = $.requests[msg.sender];
        if (req.shares == 0) revert InsuranceNoWithdrawRequest(msg.sender);
        if (block.timestamp < req.readyAt) revert InsuranceCooldownActive(msg.sender, req.readyAt, block.timestamp);
        if (block.timestamp > req.expiresAt) {
            revert InsuranceWithdrawWindowExpired(msg.sender, req.expiresAt, block.timestamp);
        }
        if (shares > req.shares) revert InsuranceExceedsRequest(msg.sender, req.shares, shares);
        uint256 held = _held($, msg.sender);
        if (shares > held) revert InsuranceInsufficientShares(msg.sender, shares, held);

        // @dev Paid at the CURRENT share price, rounded down: losses covered during the cooldown are borne too.
        amountUsdc = _toAssetsDown($, shares);
        uint256 stakerShares = held - shares;
        uint256 requestLeft = req.shares - shares;
        uint256 totalSharesAfter = $.totalShares - shares;
        uint256 assetsAfter = $.totalAssets - amountUsdc;
        // Safe downcast: stakerShares ≤ the held balance, which was stored as a uint192.
        $.stakers[msg.sender].shares = uint192(stakerShares);
        $.totalShares = totalSharesAfter.toUint128();
        $.totalAssets = assetsAfter.toUint128();
        if (requestLeft == 0) delete $.requests[msg.sender];
        else $.requests[msg.sender].shares = requestLeft;
        // The floor is checked on the post-withdrawal share price (the requirement may have risen since the request).
        _checkFloor($, msg.sender, _toAssetsDown($, stakerShares));
        emit InsuranceWithdrawn(
            msg.sender,
            receiver,
            shares,
            amountUsdc,
            stakerShares,
            requestLeft,
            totalSharesAfter,
            assetsAfter
        );
        if (amountUsdc > 0) $.usdc.safeTransfer(receiver, amountUsdc);
    }

    // ------------------------------------------------------------------ governance

    /// @inheritdoc IInsuranceFund
    function setCooldown(uint64 cooldownSec, uint64 windowSec) external restricted {
        _setCooldown(cooldownSec, windowSec);
    }

    /// @inheritdoc IInsuranceFund
    function sweepSurplus(address to) external restricted nonReentrant returns (uint256 amountUsdc) {
        if (to == address(0)) revert ChxZeroAddress();
        InsuranceFundStorage storage $ = _getStorage();
        uint256 balance = $.usdc.balanceOf(address(this));
        if (balance <= $.totalAssets) revert InsuranceNoSurplus();
        amountUsdc = balance - $.totalAssets;
        emit InsuranceSurplusSwept(to, amountUsdc);
        $.usdc.safeTransfer(to, amountUsdc);
    }

    // ------------------------------------------------------------------ views

    /// @inheritdoc IInsuranceFund
    function guarantorStake(address guarantor) external view returns (uint256 amountUsdc) {
        InsuranceFundStorage storage $ = _getStorage();
        return _toAssetsDown($, _held($, guarantor));
    }

    /// @inheritdoc IInsuranceFund
    function totalAssets() external view returns (uint256 amountUsdc) {
        return _getStorage().totalAssets;
    }

    /// @inheritdoc IInsuranceFundViews
    function asset() external view returns (address) {
        return address(_getStorage().usdc);
    }

    /// @inheritdoc IInsuranceFundViews
    function totalShares() external view returns (uint256) {
        return _getStorage().totalShares;
    }

    /// @inheritdoc IInsuranceFundViews
    function sharesOf(address staker) external view returns (uint256) {
        return _held(_getStorage(), staker);
    }

    /// @inheritdoc IInsuranceFundViews
    function shareEpoch() external view returns (uint64) {
        return _getStorage().shareEpoch;
    }

    /// @inheritdoc IInsuranceFundViews
    function withdrawRequest(address staker) external view returns (WithdrawRequest memory request) {
        InsuranceFundStorage storage $ = _getStorage();
        if ($.stakers[staker].epoch == $.shareEpoch) request = $.requests[staker];
    }

    /// @inheritdoc IInsuranceFundViews
    function guarantorRequirement(address guarantor) external view returns (uint256 requiredUsdc) {
        return _requirement(_getStorage(), guarantor);
    }

    /// @inheritdoc IInsuranceFundViews
    function guarantorShortfall(address guarantor) external view returns (uint256 shortfallUsdc) {
        InsuranceFundStorage storage $ = _getStorage();
        uint256 required = _requirement($, guarantor);
        uint256 staked = _toAssetsDown($, _held($, guarantor));
        return required > staked ? required - staked : 0;
    }

    /// @inheritdoc IInsuranceFundViews
    function previewStake(uint256 amountUsdc) external view returns (uint256 shares) {
        return _toSharesDown(_getStorage(), amountUsdc);
    }

    /// @inheritdoc IInsuranceFundViews
    function previewWithdraw(uint256 shares) external view returns (uint256 amountUsdc) {
        return _toAssetsDown(_getStorage(), shares);
    }

    /// @inheritdoc IInsuranceFundViews
    function cooldown() external view returns (uint64 cooldownSec, uint64 windowSec) {
        InsuranceFundStorage storage $ = _getStorage();
        return ($.cooldownSec, $.windowSec);
    }

    // ------------------------------------------------------------------ internals

    function _stake(
        address staker,
        uint256 amountUsdc
    ) private whenActive(STAKE_FEATURE) nonReentrant returns (uint256 shares) {
        if (amountUsdc == 0) revert InsuranceZeroAmount();
        InsuranceFundStorage storage $ = _getStorage();
        shares = _toSharesDown($, amountUsdc);
        if (shares == 0) revert InsuranceZeroShares(amountUsdc);
        uint64 epoch = $.shareEpoch;
        StakerShares memory position = $.stakers[staker];
        uint256 prior = position.shares;
        if (position.epoch != epoch) {
            // Shares (and any request) from before a wipe-out are void: start clean in the current epoch.
            prior = 0;
            delete $.requests[staker];
        }
        uint256 stakerShares = prior + shares;
        $.stakers[staker] = StakerShares({shares: stakerShares.toUint192(), epoch: epoch});
        uint256 totalSharesAfter = $.totalShares + shares;
        uint256 assetsAfter = $.totalAssets + amountUsdc;
        $.totalShares = totalSharesAfter.toUint128();
        $.totalAssets = assetsAfter.toUint128();
        emit InsuranceStaked(staker, msg.sender, amountUsdc, shares, stakerShares, totalSharesAfter, assetsAfter);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    function _setCooldown(uint64 cooldownSec, uint64 windowSec) private {
        if (windowSec == 0 || cooldownSec > 365 days || windowSec > 365 days) {
            revert InsuranceInvalidCooldown(cooldownSec, windowSec);
        }
        InsuranceFundStorage storage $ = _getStorage();
        $.cooldownSec = cooldownSec;
        $.windowSec = windowSec;
        emit InsuranceCooldownSet(cooldownSec, windowSec);
    }

    /// @dev Shares of `staker` in the current epoch (older epochs were wiped out by a near-total loss).
    function _held(InsuranceFundStorage storage $, address staker) private view returns (uint256) {
        StakerShares memory position = $.stakers[staker];
        return position.epoch == $.shareEpoch ? position.shares : 0;
    }

    function _checkFloor(InsuranceFundStorage storage $, address staker, uint256 remainingUsdc) private view {
        uint256 required = _requirement($, staker);
        if (remainingUsdc < required) revert InsuranceGuarantorFloor(staker, required, remainingUsdc);
    }

    /// @dev The requirement in force: the governance floor or the pool's exposure-based requirement, the larger
    ///      (CLR-01: the stake backing cleared risk cannot be withdrawn).
    function _requirement(InsuranceFundStorage storage $, address guarantor) private view returns (uint256) {
        uint256 floor = $.requirement[guarantor];
        IGuarantorPool pool = $.guarantorPool;
        if (address(pool) == address(0)) return floor;
        uint256 computed = pool.requiredInsuranceUsdc(guarantor);
        return computed > floor ? computed : floor;
    }

    /// @dev Shares credited for a stake: rounded DOWN (the staker gets no more than paid for; ACC-05).
    function _toSharesDown(InsuranceFundStorage storage $, uint256 amountUsdc) private view returns (uint256) {
        return Math.mulDiv(amountUsdc, $.totalShares + VIRTUAL_SHARES, $.totalAssets + VIRTUAL_ASSETS);
    }

    /// @dev USDC paid for shares: rounded DOWN (the fund keeps the dust; ACC-03, ACC-05).
    function _toAssetsDown(InsuranceFundStorage storage $, uint256 shares) private view returns (uint256) {
        return Math.mulDiv(shares, $.totalAssets + VIRTUAL_ASSETS, $.totalShares + VIRTUAL_SHARES);
    }
}
