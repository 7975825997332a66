// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IInsuranceFund} from "../../interfaces/clearing/IInsuranceFund.sol";
import {IInsuranceFundStaking} from "../../interfaces/clearing/IInsuranceFundStaking.sol";
import {IInsuranceFundViews} from "../../interfaces/clearing/IInsuranceFundViews.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {InsuranceFundStore} from "../../libraries/insurance/InsuranceStorage.sol";
import {InsuranceShares} from "../../libraries/insurance/InsuranceShares.sol";

/// @title InsuranceFund
/// @notice Share-based USDC fund behind the guarantors (SPEC section 7): stakes from guarantors, the treasury and
///         outside stakers; fee income raises the share price, covered bad debt lowers it (losses pro rata);
///         withdrawals go request → cooldown → window.
/// @dev Accounting is an internal ledger (`totalAssets`), never `balanceOf`: a direct transfer cannot move the share
///      price, and conversions carry an ERC-4626-style virtual offset (10^6 virtual shares, 1 virtual asset) so
///      even fee "donations" cannot inflate the price against a later staker (ACC-04). Shares are not tokens:
///      they cannot be transferred, so a pending withdrawal can never be dodged by moving shares (LIQ-06).
///      Storage in InsuranceFundStore; share conversions, holdings and the guarantor floor in InsuranceShares.
contract InsuranceFund is ChxUpgradeable, InsuranceFundStore, IInsuranceFund {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;

    /// @notice Feature id of new stakes (the guardian may pause it; withdrawals and cover never pause).
    bytes32 public constant STAKE_FEATURE = keccak256("insurance.stake");

    /// @dev A loss that leaves less than 1 unit per 1e12 shares (the share price under 1e-6 of its initial 1 unit
    ///      per 1e6 shares) wipes the fund's shares out: without this, stakes after a near-total loss would mint
    ///      ever more shares per unit and, after a few such losses, overflow. Keeps totalShares ≤ 1e12 × assets.
    uint256 private constant MIN_ASSETS_PER_SHARE_INV = 1e12;

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
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
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
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
        uint256 assetsAfter = $.totalAssets + amountUsdc;
        $.totalAssets = assetsAfter.toUint128();
        emit InsuranceFeesDeposited(msg.sender, amountUsdc, assetsAfter, $.totalShares);
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @inheritdoc IInsuranceFund
    function setGuarantorRequirement(address guarantor, uint256 requiredUsdc) external restricted {
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
        $.requirement[guarantor] = requiredUsdc;
        emit InsuranceGuarantorRequirementSet(
            guarantor,
            requiredUsdc,
            InsuranceShares.toAssetsDown($, InsuranceShares.held($, guarantor))
        );
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
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
        uint256 held = InsuranceShares.held($, msg.sender);
        if (shares > held) revert InsuranceInsufficientShares(msg.sender, shares, held);
        InsuranceShares.checkFloor($, msg.sender, InsuranceShares.toAssetsDown($, held - shares));
        readyAt = uint64(block.timestamp) + $.cooldownSec;
        expiresAt = readyAt + $.windowSec;
        $.requests[msg.sender] = WithdrawRequest({shares: shares, readyAt: readyAt, expiresAt: expiresAt});
        emit InsuranceWithdrawRequested(msg.sender, shares, readyAt, expiresAt);
    }

    /// @inheritdoc IInsuranceFundStaking
    function cancelWithdraw() external {
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
        if ($.requests[msg.sender].shares == 0) revert InsuranceNoWithdrawRequest(msg.sender);
        delete $.requests[msg.sender];
        emit InsuranceWithdrawCancelled(msg.sender);
    }

    /// @inheritdoc IInsuranceFundStaking
    function withdraw(uint256 shares, address receiver) external nonReentrant returns (uint256 amountUsdc) {
        if (shares == 0) revert InsuranceZeroAmount();
        if (receiver == address(0)) revert ChxZeroAddress();
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
        WithdrawRequest memory req = $.requests[msg.sender];
        if (req.shares == 0) revert InsuranceNoWithdrawRequest(msg.sender);
        if (block.timestamp < req.readyAt) revert InsuranceCooldownActive(msg.sender, req.readyAt, block.timestamp);
        if (block.timestamp > req.expiresAt) {
            revert InsuranceWithdrawWindowExpired(msg.sender, req.expiresAt, block.timestamp);
        }
        if (shares > req.shares) revert InsuranceExceedsRequest(msg.sender, req.shares, shares);
        uint256 held = InsuranceShares.held($, msg.sender);
        if (shares > held) revert InsuranceInsufficientShares(msg.sender, shares, held);

        // @dev Paid at the CURRENT share price, rounded down: losses covered during the cooldown are borne too.
        amountUsdc = InsuranceShares.toAssetsDown($, shares);
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
        InsuranceShares.checkFloor($, msg.sender, InsuranceShares.toAssetsDown($, stakerShares));
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
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
        uint256 balance = $.usdc.balanceOf(address(this));
        if (balance <= $.totalAssets) revert InsuranceNoSurplus();
        amountUsdc = balance - $.totalAssets;
        emit InsuranceSurplusSwept(to, amountUsdc);
        $.usdc.safeTransfer(to, amountUsdc);
    }

    // ------------------------------------------------------------------ views

    /// @inheritdoc IInsuranceFund
    function guarantorStake(address guarantor) external view returns (uint256 amountUsdc) {
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
        return InsuranceShares.toAssetsDown($, InsuranceShares.held($, guarantor));
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
        return InsuranceShares.held(_getStorage(), staker);
    }

    /// @inheritdoc IInsuranceFundViews
    function shareEpoch() external view returns (uint64) {
        return _getStorage().shareEpoch;
    }

    /// @inheritdoc IInsuranceFundViews
    function withdrawRequest(address staker) external view returns (WithdrawRequest memory request) {
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
        if ($.stakers[staker].epoch == $.shareEpoch) request = $.requests[staker];
    }

    /// @inheritdoc IInsuranceFundViews
    function guarantorRequirement(address guarantor) external view returns (uint256 requiredUsdc) {
        return InsuranceShares.requirement(_getStorage(), guarantor);
    }

    /// @inheritdoc IInsuranceFundViews
    function guarantorShortfall(address guarantor) external view returns (uint256 shortfallUsdc) {
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
        uint256 required = InsuranceShares.requirement($, guarantor);
        uint256 staked = InsuranceShares.toAssetsDown($, InsuranceShares.held($, guarantor));
        return required > staked ? required - staked : 0;
    }

    /// @inheritdoc IInsuranceFundViews
    function previewStake(uint256 amountUsdc) external view returns (uint256 shares) {
        return InsuranceShares.toSharesDown(_getStorage(), amountUsdc);
    }

    /// @inheritdoc IInsuranceFundViews
    function previewWithdraw(uint256 shares) external view returns (uint256 amountUsdc) {
        return InsuranceShares.toAssetsDown(_getStorage(), shares);
    }

    /// @inheritdoc IInsuranceFundViews
    function cooldown() external view returns (uint64 cooldownSec, uint64 windowSec) {
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
        return ($.cooldownSec, $.windowSec);
    }

    // ------------------------------------------------------------------ internals

    function _stake(
        address staker,
        uint256 amountUsdc
    ) private whenActive(STAKE_FEATURE) nonReentrant returns (uint256 shares) {
        if (amountUsdc == 0) revert InsuranceZeroAmount();
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
        shares = InsuranceShares.toSharesDown($, amountUsdc);
        if (shares == 0) revert InsuranceZeroShares(amountUsdc);
        uint64 epoch = $.shareEpoch;
        InsuranceFundStore.StakerShares memory position = $.stakers[staker];
        uint256 prior = position.shares;
        if (position.epoch != epoch) {
            // Shares (and any request) from before a wipe-out are void: start clean in the current epoch.
            prior = 0;
            delete $.requests[staker];
        }
        uint256 stakerShares = prior + shares;
        $.stakers[staker] = InsuranceFundStore.StakerShares({shares: stakerShares.toUint192(), epoch: epoch});
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
        InsuranceFundStore.InsuranceFundStorage storage $ = _getStorage();
        $.cooldownSec = cooldownSec;
        $.windowSec = windowSec;
        emit InsuranceCooldownSet(cooldownSec, windowSec);
    }
}
