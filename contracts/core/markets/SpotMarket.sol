// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {EIP712Upgradeable} from "@openzeppelin/contracts-upgradeable/utils/cryptography/EIP712Upgradeable.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {ISpotMarket} from "../../interfaces/markets/ISpotMarket.sol";
import {ISpotMarketAdmin} from "../../interfaces/markets/ISpotMarketAdmin.sol";
import {ISpotMarketTrading} from "../../interfaces/markets/ISpotMarketTrading.sol";
import {ISpotMarketViews} from "../../interfaces/markets/ISpotMarketViews.sol";
import {ISpotPriceSource} from "../../interfaces/callback/ISpotPriceSource.sol";
import {SpotTwap} from "../../libraries/SpotTwap.sol";
import {SpotLayout, SpotStorage} from "../../libraries/spot/SpotStorage.sol";
import {SpotOrders} from "../../libraries/spot/SpotOrders.sol";
import {SpotQuotes} from "../../libraries/spot/SpotQuotes.sol";
import {SpotSettlement} from "../../libraries/spot/SpotSettlement.sol";
import {SpotSeats} from "../../libraries/spot/SpotSeats.sol";
import {SpotAdmin} from "../../libraries/spot/SpotAdmin.sol";
import {SpotDigests} from "../../libraries/spot/SpotDigests.sol";
import {SignedOrders} from "../../libraries/orders/SignedOrders.sol";

/// @title SpotMarket
/// @notice CH/USDC spot: signed limit orders filled or matched on chain, OTC deals, DPS seats, a TWAP of fills.
/// @dev The market never holds CH; it holds USDC only as pending fee income and DPS only as seat stakes (ACC-01).
///      Thin entry contract: access, pause flags, the EIP-712 domain and token pulls; the order mechanics live in
///      SpotOrders and SpotSeats (internal), governance setters and fee distribution in SpotAdmin (an external
///      library linked at deployment, run by delegatecall; docs/upgrades.md). Storage: SpotStorage (ERC-7201).
/// @custom:oz-upgrades-unsafe-allow external-library-linking
contract SpotMarket is ChxUpgradeable, EIP712Upgradeable, SpotLayout, ISpotMarket {
    using SafeERC20 for IERC20;
    using SpotTwap for SpotTwap.State;

    /// @notice Upper bound on maker and taker fees (1 %).
    uint256 public constant MAX_FEE_BPS = SpotAdmin.MAX_FEE_BPS;
    /// @notice Upper bound on a seat discount (90 % of the fee).
    uint256 public constant MAX_SEAT_DISCOUNT_BPS = SpotAdmin.MAX_SEAT_DISCOUNT_BPS;
    /// @notice Number of seat tiers (they pack into one storage word).
    uint256 public constant MAX_SEAT_TIERS = SpotAdmin.MAX_SEAT_TIERS;
    /// @notice Upper bound on the seat unstake delay.
    uint256 public constant MAX_UNSTAKE_DELAY = SpotAdmin.MAX_UNSTAKE_DELAY;
    /// @notice Bounds on the TWAP observation interval.
    uint256 public constant MIN_OBSERVATION_INTERVAL = SpotAdmin.MIN_OBSERVATION_INTERVAL;
    /// @notice Upper bound on the TWAP observation interval.
    uint256 public constant MAX_OBSERVATION_INTERVAL = SpotAdmin.MAX_OBSERVATION_INTERVAL;

    /// @notice Pause flag of order fills, matches and deals.
    bytes32 public constant FEATURE_TRADE = SpotStorage.FEATURE_TRADE;
    /// @notice Pause flag of seat staking.
    bytes32 public constant FEATURE_STAKE = keccak256("spot.stake");

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param ch CH token.
    /// @param usdc USDC (6 decimals).
    /// @param dps DPS token (seat stakes).
    /// @param treasury Receives fee income net of the insurance share.
    /// @param insuranceFund The insurance fund, or the treasury until the fund is deployed.
    function initialize(
        address authority,
        address ch,
        address usdc,
        address dps,
        address treasury,
        address insuranceFund
    ) external initializer {
        __ChxUpgradeable_init(authority);
        __EIP712_init(SpotDigests.EIP712_NAME, SpotDigests.EIP712_VERSION);
        if (ch == address(0) || usdc == address(0) || dps == address(0)) revert ChxZeroAddress();
        // @dev the market's USDC balance is its pending fee income (SpotSettlement.accrue), so no stake or CH in it
        if (usdc == ch || usdc == dps) revert SpotSameToken(usdc);
        if (ch == dps) revert SpotSameToken(ch);
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        $.ch = IERC20(ch);
        $.usdc = IERC20(usdc);
        $.dps = IERC20(dps);
        SpotAdmin.initDefaults(treasury, insuranceFund);
    }

    // ================================================================ trading

    /// @dev `spot.trade`: its copy in word 1, which every fill reads anyway; the flag itself only when the copy does
    ///      not say "not paused" (docs/spot.md "Pause flag in word 1").
    modifier whenTrading() {
        _tradeGate();
        _;
    }

    function _tradeGate() private view {
        if (SpotStorage.layout().activeGates == 0) _requireActive(FEATURE_TRADE);
    }

    /// @notice Brings word 1's copy of the `spot.trade` pause flag in line with the flag (ADMIN; the upgrade's
    ///         migration call). Until then a fill reads the flag itself.
    function syncPauseMirror() external restricted {
        SpotAdmin.syncPauseMirror();
    }

    /// @dev The pause hook (inside the restricted pauseFeature / unpauseFeature): the copy re-read from the flag.
    function _afterPauseChanged(bytes32, bool) internal override {
        SpotAdmin.syncPauseMirror();
    }

    /// @inheritdoc ISpotMarketTrading
    function fillOrder(
        Order calldata order,
        bytes calldata signature,
        uint256 amountCh
    ) external nonReentrant whenTrading returns (uint256 filledAfterCh) {
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        bytes32 hash = SpotDigests.orderDigest(SpotDigests.domain(), order);
        if (order.taker != address(0) && order.taker != msg.sender) {
            revert SpotTakerNotAllowed(hash, msg.sender, order.taker);
        }
        filledAfterCh = SpotOrders.consumeOrder($, order, hash, signature, amountCh);
        Settlement memory st = SpotQuotes.fillQuote($, order, amountCh);
        SpotSettlement.emitFill(hash, order, st, filledAfterCh, order.isBuy ? st.sellerFeeUsdc : st.buyerFeeUsdc);
        SpotSettlement.accrue($, st.protocolUsdc);
        SpotSettlement.recordPrice($, amountCh, order.priceWad);
        SpotSettlement.transfer($, st, address(0));
    }

    /// @inheritdoc ISpotMarketTrading
    function matchOrders(
        Order calldata buy,
        bytes calldata buySignature,
        Order calldata sell,
        bytes calldata sellSignature,
        uint256 amountCh
    ) external nonReentrant whenTrading {
        if (!buy.isBuy || sell.isBuy) revert SpotSideMismatch();
        if (buy.priceWad < sell.priceWad) revert SpotNotCrossing(buy.priceWad, sell.priceWad);
        // @dev one domain separator for both digests
        bytes32 domain = SpotDigests.domain();
        bytes32[2] memory hashes = [SpotDigests.orderDigest(domain, buy), SpotDigests.orderDigest(domain, sell)];
        // a private order may be matched only by its named taker
        if (buy.taker != address(0) && buy.taker != msg.sender) {
            revert SpotTakerNotAllowed(hashes[0], msg.sender, buy.taker);
        }
        if (sell.taker != address(0) && sell.taker != msg.sender) {
            revert SpotTakerNotAllowed(hashes[1], msg.sender, sell.taker);
        }
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        uint256[2] memory filled;
        filled[0] = SpotOrders.consumeOrder($, buy, hashes[0], buySignature, amountCh);
        filled[1] = SpotOrders.consumeOrder($, sell, hashes[1], sellSignature, amountCh);
        Settlement memory st = SpotQuotes.matchQuote($, buy, sell, amountCh);
        SpotSettlement.emitFill(hashes[0], buy, st, filled[0], 0);
        SpotSettlement.emitFill(hashes[1], sell, st, filled[1], 0);
        // @dev midpoint rounded down; it only feeds the TWAP, no payment depends on it
        uint256 midWad = (buy.priceWad + sell.priceWad) / 2;
        emit OrdersMatched(hashes[0], hashes[1], msg.sender, amountCh, st.spreadUsdc, midWad);
        SpotSettlement.accrue($, st.protocolUsdc);
        SpotSettlement.recordPrice($, amountCh, midWad);
        SpotSettlement.transfer($, st, msg.sender);
    }

    /// @inheritdoc ISpotMarketTrading
    function settleDeal(
        Deal calldata deal,
        bytes calldata sellerSignature,
        bytes calldata buyerSignature
    ) external nonReentrant whenTrading {
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        bytes32 hash = SpotDigests.dealDigest(SpotDigests.domain(), deal);
        SpotOrders.consumeDeal($, deal, hash, sellerSignature, buyerSignature);
        Settlement memory st = SpotQuotes.dealQuote($, deal);
        emit DealSettled(
            hash,
            deal.seller,
            deal.buyer,
            deal.amountCh,
            deal.priceWad,
            st.buyerPaidUsdc,
            st.sellerReceivedUsdc
        );
        SpotSettlement.accrue($, st.protocolUsdc);
        SpotSettlement.transfer($, st, address(0));
    }

    /// @inheritdoc ISpotMarketTrading
    function cancelOrder(Order calldata order) external {
        bytes32 hash = SpotDigests.orderDigest(SpotDigests.domain(), order);
        // @dev the maker only (SignedOrderNotMaker); the nonce stays claimed so no other order can reuse it
        uint256 filledCh = SpotOrders.cancelOrder(SpotStorage.layout(), order, hash);
        emit Cancelled(hash, msg.sender, order.nonce, filledCh);
    }

    /// @inheritdoc ISpotMarketTrading
    function cancelDeal(Deal calldata deal) external {
        if (msg.sender != deal.seller && msg.sender != deal.buyer) revert SpotNotOwner(msg.sender, deal.seller);
        bytes32 hash = SpotDigests.dealDigest(SpotDigests.domain(), deal);
        SignedOrders.State storage state = SpotStorage.layout().book.orders[hash];
        if (state.filled != 0) revert SpotDealSettled(hash);
        state.cancelled = true;
        emit Cancelled(hash, msg.sender, deal.nonce, 0);
    }

    /// @inheritdoc ISpotMarketTrading
    function raiseMinNonce(uint256 newMinNonce) external {
        SignedOrders.raiseMinNonce(SpotStorage.layout().book, newMinNonce);
        emit MinNonceRaised(msg.sender, newMinNonce);
    }

    // ================================================================ fees and seats

    /// @inheritdoc ISpotMarketTrading
    function distributeFees() external nonReentrant returns (uint256 insuranceUsdc, uint256 treasuryUsdc) {
        return SpotAdmin.distributeFees();
    }

    /// @inheritdoc ISpotMarketTrading
    function stakeSeat(uint256 amountDps) external nonReentrant whenActive(FEATURE_STAKE) {
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        SpotSeats.stake($, amountDps);
        $.dps.safeTransferFrom(msg.sender, address(this), amountDps);
    }

    /// @inheritdoc ISpotMarketTrading
    function requestUnstake(uint256 amountDps) external {
        SpotSeats.requestUnstake(SpotStorage.layout(), amountDps);
    }

    /// @inheritdoc ISpotMarketTrading
    function withdrawUnstaked() external nonReentrant returns (uint256 amountDps) {
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        amountDps = SpotSeats.withdraw($);
        $.dps.safeTransfer(msg.sender, amountDps);
    }

    // ================================================================ governance

    /// @inheritdoc ISpotMarketAdmin
    function setFees(uint16 makerFeeBps, uint16 takerFeeBps, uint16 insuranceShareBps) external restricted {
        SpotAdmin.setFees(makerFeeBps, takerFeeBps, insuranceShareBps);
    }

    /// @inheritdoc ISpotMarketAdmin
    function setFeeRecipients(address treasury, address insuranceFund) external restricted {
        SpotAdmin.setFeeRecipients(treasury, insuranceFund);
    }

    /// @inheritdoc ISpotMarketAdmin
    function setSeatTiers(uint256[] calldata minStakeDps, uint256[] calldata discountBps) external restricted {
        SpotAdmin.setSeatTiers(minStakeDps, discountBps);
    }

    /// @inheritdoc ISpotMarketAdmin
    function setUnstakeDelay(uint32 unstakeDelaySec) external restricted {
        SpotAdmin.setUnstakeDelay(unstakeDelaySec);
    }

    /// @inheritdoc ISpotMarketAdmin
    function setTwapParams(uint32 observationIntervalSec, uint128 minAmountCh) external restricted {
        SpotAdmin.setTwapParams(observationIntervalSec, minAmountCh);
    }

    // ================================================================ views

    /// @inheritdoc ISpotPriceSource
    function twapPrice(uint32 windowSec) external view returns (uint256 priceWad, uint256 observedSinceSec) {
        return SpotStorage.layout().twap.twap(windowSec);
    }

    /// @inheritdoc ISpotMarketViews
    function twapState() external view returns (uint256 lastPriceWad, uint256 priceCumulative, uint256 count) {
        SpotTwap.State storage t = SpotStorage.layout().twap;
        return (t.lastPriceWad, t.count == 0 ? 0 : t.cumulativeNow(), t.count);
    }

    /// @inheritdoc ISpotMarketViews
    function orderDigest(Order calldata order) external view returns (bytes32) {
        return SpotDigests.orderDigest(SpotDigests.domain(), order);
    }

    /// @inheritdoc ISpotMarketViews
    function dealDigest(Deal calldata deal) external view returns (bytes32) {
        return SpotDigests.dealDigest(SpotDigests.domain(), deal);
    }

    /// @inheritdoc ISpotMarketViews
    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @inheritdoc ISpotMarketViews
    function orderState(address maker, uint256 nonce, bytes32 hash) external view returns (OrderState memory) {
        return SpotOrders.orderState(SpotStorage.layout(), maker, nonce, hash);
    }

    /// @inheritdoc ISpotMarketViews
    function dealState(bytes32 hash) external view returns (OrderState memory) {
        SignedOrders.State memory st = SpotStorage.layout().book.orders[hash];
        return OrderState({filledCh: st.filled, cancelled: st.cancelled});
    }

    /// @inheritdoc ISpotMarketViews
    function nonceUsed(address maker, uint256 nonce) external view returns (bool) {
        return SpotStorage.layout().orderRecords[maker][nonce] != 0;
    }

    /// @inheritdoc ISpotMarketViews
    function minNonce(address account) external view returns (uint256) {
        return SpotStorage.layout().book.minNonce[account];
    }

    /// @inheritdoc ISpotMarketViews
    function seat(address account) external view returns (Seat memory) {
        return SpotStorage.layout().seats[account];
    }

    /// @inheritdoc ISpotMarketViews
    function seatDiscountBps(address account) external view returns (uint256) {
        return SpotSeats.discountBps(SpotStorage.layout(), account);
    }

    /// @inheritdoc ISpotMarketViews
    function fees() external view returns (uint256, uint256, uint256) {
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        return ($.makerFeeBps, $.takerFeeBps, $.insuranceShareBps);
    }

    /// @inheritdoc ISpotMarketViews
    function pendingFeesUsdc() external view returns (uint256) {
        // @dev the market holds USDC only as pending fee income (ACC-01), so its balance is the income
        return SpotStorage.layout().usdc.balanceOf(address(this));
    }

    /// @inheritdoc ISpotMarketViews
    function totalSeatDps() external view returns (uint256, uint256) {
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        return ($.totalStakedDps, $.totalPendingDps);
    }

    /// @inheritdoc ISpotMarketViews
    function addresses() external view returns (address, address, address, address, address) {
        SpotLayout.SpotMarketStorage storage $ = SpotStorage.layout();
        return (address($.ch), address($.usdc), address($.dps), $.treasury, $.insuranceFund);
    }

    // ================================================================ internals

    /// @dev The domain name as a constant: the digest of every fill then reads no storage for it (OpenZeppelin's
    ///      documented override; `__EIP712_init` stores the same strings).
    // solhint-disable-next-line func-name-mixedcase
    function _EIP712Name() internal pure override returns (string memory) {
        return SpotDigests.EIP712_NAME;
    }

    /// @dev The domain version as a constant (see `_EIP712Name`).
    // solhint-disable-next-line func-name-mixedcase
    function _EIP712Version() internal pure override returns (string memory) {
        return SpotDigests.EIP712_VERSION;
    }
}
