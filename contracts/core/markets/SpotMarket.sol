// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712Upgradeable} from "@openzeppelin/contracts-upgradeable/utils/cryptography/EIP712Upgradeable.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {ISpotMarket} from "../../interfaces/ISpotMarket.sol";
import {ISpotPriceSource} from "../../interfaces/ISpotPriceSource.sol";
import {IInsuranceFund} from "../../interfaces/IInsuranceFund.sol";
import {SpotMath} from "../../libraries/SpotMath.sol";
import {SpotTwap} from "../../libraries/SpotTwap.sol";

/// @title SpotMarket
/// @notice CH/USDC spot: signed limit orders filled or matched on chain, OTC deals, DPS seats, a TWAP of fills.
/// @dev The market never holds CH; it holds USDC only as pending fee income and DPS only as seat stakes (ACC-01).
contract SpotMarket is ChxUpgradeable, EIP712Upgradeable, ISpotMarket {
    using SafeERC20 for IERC20;
    using SpotTwap for SpotTwap.State;

    /// @notice Upper bound on maker and taker fees (1 %).
    uint256 public constant MAX_FEE_BPS = 100;
    /// @notice Upper bound on a seat discount (90 % of the fee).
    uint256 public constant MAX_SEAT_DISCOUNT_BPS = 9_000;
    /// @notice Number of seat tiers (they pack into one storage word).
    uint256 public constant MAX_SEAT_TIERS = 4;
    /// @notice Upper bound on the seat unstake delay.
    uint256 public constant MAX_UNSTAKE_DELAY = 30 days;
    /// @notice Bounds on the TWAP observation interval.
    uint256 public constant MIN_OBSERVATION_INTERVAL = 1 minutes;
    uint256 public constant MAX_OBSERVATION_INTERVAL = 1 days;

    bytes32 public constant FEATURE_TRADE = keccak256("spot.trade");
    bytes32 public constant FEATURE_STAKE = keccak256("spot.stake");

    bytes32 internal constant ORDER_TYPEHASH = keccak256(
        "Order(address maker,bool isBuy,uint256 amountCh,uint256 priceWad,uint256 nonce,uint64 expiry,address taker)"
    );
    bytes32 internal constant DEAL_TYPEHASH = keccak256(
        "Deal(address seller,address buyer,uint256 amountCh,uint256 priceWad,uint256 nonce,uint64 expiry)"
    );
    /// @dev The EIP-712 domain name and version (ERC-5267 `eip712Domain()`; the SDK reads them from there).
    string internal constant EIP712_NAME = "CHX Spot";
    string internal constant EIP712_VERSION = "1";

    /// @custom:storage-location erc7201:chx.storage.SpotMarket
    struct SpotMarketStorage {
        IERC20 ch;
        IERC20 usdc;
        IERC20 dps;
        address treasury;
        address insuranceFund;
        // seat tiers packed 4 × 64 bits: low 48 bits whole-DPS threshold, high 16 bits discount bps
        uint256 seatTiers;
        // one word (after full-word members, so it starts a slot): fees and parameters read on every fill, and the
        // pending fees every fill adds to
        uint16 makerFeeBps;
        uint16 takerFeeBps;
        uint16 insuranceShareBps;
        uint32 unstakeDelaySec;
        uint32 twapIntervalSec;
        uint80 twapMinAmountCh;
        uint64 pendingFeesUsdc;
        uint128 totalStakedDps;
        uint128 totalPendingDps;
        mapping(bytes32 hash => OrderState) orders;
        mapping(address maker => mapping(uint256 word => uint256 bits)) nonceBitmap;
        mapping(address account => uint256) minNonce;
        mapping(address account => Seat) seats;
        SpotTwap.State twap;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.SpotMarket")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant SPOT_MARKET_STORAGE_LOCATION =
        0x6ad3fd994578ab3cbf4da710cda3692edd5298b482e7e3a6c9ae71d34f14ed00;

    function _s() private pure returns (SpotMarketStorage storage $) {
        assembly {
            $.slot := SPOT_MARKET_STORAGE_LOCATION
        }
    }

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
        __EIP712_init(EIP712_NAME, EIP712_VERSION);
        if (ch == address(0) || usdc == address(0) || dps == address(0)) revert ChxZeroAddress();
        SpotMarketStorage storage $ = _s();
        $.ch = IERC20(ch);
        $.usdc = IERC20(usdc);
        $.dps = IERC20(dps);
        _setFeeRecipients($, treasury, insuranceFund);
        $.makerFeeBps = 5;
        $.takerFeeBps = 10;
        $.insuranceShareBps = 2_000;
        $.unstakeDelaySec = 7 days;
        $.twapIntervalSec = 10 minutes;
        emit FeesSet(5, 10, 2_000);
        emit UnstakeDelaySet(7 days);
        emit TwapParamsSet(10 minutes, 0);
    }

    // ================================================================ trading

    /// @inheritdoc ISpotMarket
    function fillOrder(
        Order calldata order,
        bytes calldata signature,
        uint256 amountCh
    ) external nonReentrant whenActive(FEATURE_TRADE) returns (uint256 filledAfterCh) {
        SpotMarketStorage storage $ = _s();
        if (order.taker != address(0) && order.taker != msg.sender) {
            revert SpotTakerNotAllowed(_orderDigest(order), msg.sender, order.taker);
        }
        bytes32 hash;
        (hash, filledAfterCh) = _consumeOrder($, order, signature, amountCh);
        Settlement memory st = _fillQuote($, order, amountCh);
        _emitFill(hash, order, st, filledAfterCh, order.isBuy ? st.sellerFeeUsdc : st.buyerFeeUsdc);
        _accrue($, st.protocolUsdc);
        if (amountCh >= $.twapMinAmountCh) _recordPrice($, order.priceWad);
        _transfer($, st, address(0));
    }

    /// @inheritdoc ISpotMarket
    function matchOrders(
        Order calldata buy,
        bytes calldata buySignature,
        Order calldata sell,
        bytes calldata sellSignature,
        uint256 amountCh
    ) external nonReentrant whenActive(FEATURE_TRADE) {
        if (!buy.isBuy || sell.isBuy) revert SpotSideMismatch();
        if (buy.priceWad < sell.priceWad) revert SpotNotCrossing(buy.priceWad, sell.priceWad);
        // a private order may be matched only by its named taker
        if (buy.taker != address(0) && buy.taker != msg.sender) {
            revert SpotTakerNotAllowed(_orderDigest(buy), msg.sender, buy.taker);
        }
        if (sell.taker != address(0) && sell.taker != msg.sender) {
            revert SpotTakerNotAllowed(_orderDigest(sell), msg.sender, sell.taker);
        }
        SpotMarketStorage storage $ = _s();
        bytes32[2] memory hashes;
        uint256[2] memory filledAfter;
        (hashes[0], filledAfter[0]) = _consumeOrder($, buy, buySignature, amountCh);
        (hashes[1], filledAfter[1]) = _consumeOrder($, sell, sellSignature, amountCh);
        Settlement memory st = _matchQuote($, buy, sell, amountCh);
        _emitFill(hashes[0], buy, st, filledAfter[0], 0);
        _emitFill(hashes[1], sell, st, filledAfter[1], 0);
        // @dev midpoint rounded down; it only feeds the TWAP, no payment depends on it
        uint256 midWad = (buy.priceWad + sell.priceWad) / 2;
        emit OrdersMatched(hashes[0], hashes[1], msg.sender, amountCh, st.spreadUsdc, midWad);
        _accrue($, st.protocolUsdc);
        if (amountCh >= $.twapMinAmountCh) _recordPrice($, midWad);
        _transfer($, st, msg.sender);
    }

    /// @inheritdoc ISpotMarket
    function settleDeal(
        Deal calldata deal,
        bytes calldata sellerSignature,
        bytes calldata buyerSignature
    ) external nonReentrant whenActive(FEATURE_TRADE) {
        SpotMarketStorage storage $ = _s();
        bytes32 hash = _consumeDeal($, deal, sellerSignature, buyerSignature);
        Settlement memory st = _dealQuote($, deal);
        emit DealSettled(
            hash,
            deal.seller,
            deal.buyer,
            deal.amountCh,
            deal.priceWad,
            st.buyerPaidUsdc,
            st.sellerReceivedUsdc
        );
        _accrue($, st.protocolUsdc);
        _transfer($, st, address(0));
    }

    /// @inheritdoc ISpotMarket
    function cancelOrder(Order calldata order) external {
        if (msg.sender != order.maker) revert SpotNotOwner(msg.sender, order.maker);
        SpotMarketStorage storage $ = _s();
        bytes32 hash = _orderDigest(order);
        OrderState storage state = $.orders[hash];
        state.cancelled = true;
        // @dev the nonce stays claimed, so no other order can reuse it (idempotent when already claimed)
        $.nonceBitmap[order.maker][order.nonce >> 8] |= 1 << (order.nonce & 0xff);
        emit Cancelled(hash, msg.sender, order.nonce, state.filledCh);
    }

    /// @inheritdoc ISpotMarket
    function cancelDeal(Deal calldata deal) external {
        if (msg.sender != deal.seller && msg.sender != deal.buyer) revert SpotNotOwner(msg.sender, deal.seller);
        bytes32 hash = _dealDigest(deal);
        OrderState storage state = _s().orders[hash];
        if (state.filledCh != 0) revert SpotDealSettled(hash);
        state.cancelled = true;
        emit Cancelled(hash, msg.sender, deal.nonce, 0);
    }

    /// @inheritdoc ISpotMarket
    function raiseMinNonce(uint256 newMinNonce) external {
        SpotMarketStorage storage $ = _s();
        uint256 current = $.minNonce[msg.sender];
        if (newMinNonce <= current) revert SpotNonceNotIncreasing(msg.sender, current, newMinNonce);
        $.minNonce[msg.sender] = newMinNonce;
        emit MinNonceRaised(msg.sender, newMinNonce);
    }

    // ================================================================ fees and seats

    /// @inheritdoc ISpotMarket
    function distributeFees() external nonReentrant returns (uint256 insuranceUsdc, uint256 treasuryUsdc) {
        SpotMarketStorage storage $ = _s();
        uint256 pending = $.pendingFeesUsdc;
        if (pending == 0) return (0, 0);
        $.pendingFeesUsdc = 0;
        address fund = $.insuranceFund;
        address treasury = $.treasury;
        // @dev the insurance share rounds down; the treasury takes the remainder, so the two sum to `pending`
        if (fund != treasury) insuranceUsdc = SpotMath.bpsDown(pending, $.insuranceShareBps);
        treasuryUsdc = pending - insuranceUsdc;
        emit FeesDistributed(insuranceUsdc, treasuryUsdc);
        IERC20 usdc = $.usdc;
        if (insuranceUsdc != 0) {
            usdc.forceApprove(fund, insuranceUsdc);
            IInsuranceFund(fund).depositFees(insuranceUsdc);
        }
        if (treasuryUsdc != 0) usdc.safeTransfer(treasury, treasuryUsdc);
    }

    /// @inheritdoc ISpotMarket
    function stakeSeat(uint256 amountDps) external nonReentrant whenActive(FEATURE_STAKE) {
        if (amountDps == 0 || amountDps > type(uint128).max) revert SpotInvalidAmount(amountDps);
        SpotMarketStorage storage $ = _s();
        Seat storage seat_ = $.seats[msg.sender];
        uint256 stakedAfter = seat_.stakedDps + amountDps;
        seat_.stakedDps = uint128(stakedAfter);
        $.totalStakedDps += uint128(amountDps);
        emit SeatStaked(msg.sender, amountDps, stakedAfter, _tierDiscount($.seatTiers, stakedAfter));
        $.dps.safeTransferFrom(msg.sender, address(this), amountDps);
    }

    /// @inheritdoc ISpotMarket
    function requestUnstake(uint256 amountDps) external {
        SpotMarketStorage storage $ = _s();
        Seat storage seat_ = $.seats[msg.sender];
        uint256 staked = seat_.stakedDps;
        if (amountDps == 0) revert SpotInvalidAmount(0);
        if (amountDps > staked) revert SpotInsufficientStake(msg.sender, amountDps, staked);
        uint256 stakedAfter = staked - amountDps;
        uint256 pendingAfter = seat_.pendingDps + amountDps;
        uint256 unlockAt = block.timestamp + $.unstakeDelaySec;
        seat_.stakedDps = uint128(stakedAfter);
        seat_.pendingDps = uint128(pendingAfter);
        seat_.unlockAt = uint64(unlockAt);
        $.totalStakedDps -= uint128(amountDps);
        $.totalPendingDps += uint128(amountDps);
        emit SeatUnstakeRequested(
            msg.sender,
            amountDps,
            stakedAfter,
            pendingAfter,
            unlockAt,
            _tierDiscount($.seatTiers, stakedAfter)
        );
    }

    /// @inheritdoc ISpotMarket
    function withdrawUnstaked() external nonReentrant returns (uint256 amountDps) {
        SpotMarketStorage storage $ = _s();
        Seat storage seat_ = $.seats[msg.sender];
        amountDps = seat_.pendingDps;
        uint256 unlockAt = seat_.unlockAt;
        if (amountDps == 0 || block.timestamp < unlockAt) {
            revert SpotUnstakeNotReady(msg.sender, amountDps == 0 ? 0 : unlockAt, block.timestamp);
        }
        seat_.pendingDps = 0;
        seat_.unlockAt = 0;
        $.totalPendingDps -= uint128(amountDps);
        emit SeatWithdrawn(msg.sender, amountDps);
        $.dps.safeTransfer(msg.sender, amountDps);
    }

    // ================================================================ governance

    /// @inheritdoc ISpotMarket
    function setFees(uint16 makerFeeBps, uint16 takerFeeBps, uint16 insuranceShareBps) external restricted {
        if (makerFeeBps > MAX_FEE_BPS) revert SpotBpsTooHigh(makerFeeBps, MAX_FEE_BPS);
        if (takerFeeBps > MAX_FEE_BPS) revert SpotBpsTooHigh(takerFeeBps, MAX_FEE_BPS);
        if (insuranceShareBps > SpotMath.BPS) revert SpotBpsTooHigh(insuranceShareBps, SpotMath.BPS);
        SpotMarketStorage storage $ = _s();
        $.makerFeeBps = makerFeeBps;
        $.takerFeeBps = takerFeeBps;
        $.insuranceShareBps = insuranceShareBps;
        emit FeesSet(makerFeeBps, takerFeeBps, insuranceShareBps);
    }

    /// @inheritdoc ISpotMarket
    function setFeeRecipients(address treasury, address insuranceFund) external restricted {
        _setFeeRecipients(_s(), treasury, insuranceFund);
    }

    /// @inheritdoc ISpotMarket
    function setSeatTiers(uint256[] calldata minStakeDps, uint256[] calldata discountBps) external restricted {
        uint256 n = minStakeDps.length;
        if (n > MAX_SEAT_TIERS || n != discountBps.length) revert SpotInvalidSeatTiers();
        uint256 packed;
        for (uint256 i = 0; i < n; ++i) {
            uint256 whole = minStakeDps[i] / 1e18;
            if (whole * 1e18 != minStakeDps[i] || whole == 0 || whole > type(uint48).max) {
                revert SpotInvalidSeatTiers();
            }
            if (discountBps[i] > MAX_SEAT_DISCOUNT_BPS) revert SpotBpsTooHigh(discountBps[i], MAX_SEAT_DISCOUNT_BPS);
            if (i > 0 && (minStakeDps[i] <= minStakeDps[i - 1] || discountBps[i] < discountBps[i - 1])) {
                revert SpotInvalidSeatTiers();
            }
            packed |= (whole | (discountBps[i] << 48)) << (64 * i);
        }
        _s().seatTiers = packed;
        emit SeatTiersSet(minStakeDps, discountBps);
    }

    /// @inheritdoc ISpotMarket
    function setUnstakeDelay(uint32 unstakeDelaySec) external restricted {
        if (unstakeDelaySec > MAX_UNSTAKE_DELAY) revert SpotDurationOutOfBounds(unstakeDelaySec, 0, MAX_UNSTAKE_DELAY);
        _s().unstakeDelaySec = unstakeDelaySec;
        emit UnstakeDelaySet(unstakeDelaySec);
    }

    /// @inheritdoc ISpotMarket
    function setTwapParams(uint32 observationIntervalSec, uint128 minAmountCh) external restricted {
        if (observationIntervalSec < MIN_OBSERVATION_INTERVAL || observationIntervalSec > MAX_OBSERVATION_INTERVAL) {
            revert SpotDurationOutOfBounds(observationIntervalSec, MIN_OBSERVATION_INTERVAL, MAX_OBSERVATION_INTERVAL);
        }
        if (minAmountCh > type(uint80).max) revert SpotInvalidAmount(minAmountCh);
        SpotMarketStorage storage $ = _s();
        $.twapIntervalSec = observationIntervalSec;
        $.twapMinAmountCh = uint80(minAmountCh);
        emit TwapParamsSet(observationIntervalSec, minAmountCh);
    }

    // ================================================================ views

    /// @inheritdoc ISpotPriceSource
    function twapPrice(uint32 windowSec) external view returns (uint256 priceWad, uint256 observedSinceSec) {
        return _s().twap.twap(windowSec);
    }

    /// @inheritdoc ISpotMarket
    function twapState() external view returns (uint256 lastPriceWad, uint256 priceCumulative, uint256 count) {
        SpotTwap.State storage t = _s().twap;
        return (t.lastPriceWad, t.count == 0 ? 0 : t.cumulativeNow(), t.count);
    }

    /// @inheritdoc ISpotMarket
    function orderDigest(Order calldata order) external view returns (bytes32) {
        return _orderDigest(order);
    }

    /// @inheritdoc ISpotMarket
    function dealDigest(Deal calldata deal) external view returns (bytes32) {
        return _dealDigest(deal);
    }

    /// @inheritdoc ISpotMarket
    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @inheritdoc ISpotMarket
    function orderState(bytes32 hash) external view returns (OrderState memory) {
        return _s().orders[hash];
    }

    /// @inheritdoc ISpotMarket
    function nonceUsed(address maker, uint256 nonce) external view returns (bool) {
        return (_s().nonceBitmap[maker][nonce >> 8] >> (nonce & 0xff)) & 1 == 1;
    }

    /// @inheritdoc ISpotMarket
    function minNonce(address account) external view returns (uint256) {
        return _s().minNonce[account];
    }

    /// @inheritdoc ISpotMarket
    function seat(address account) external view returns (Seat memory) {
        return _s().seats[account];
    }

    /// @inheritdoc ISpotMarket
    function seatDiscountBps(address account) external view returns (uint256) {
        return _discountBps(_s(), account);
    }

    /// @inheritdoc ISpotMarket
    function fees() external view returns (uint256, uint256, uint256) {
        SpotMarketStorage storage $ = _s();
        return ($.makerFeeBps, $.takerFeeBps, $.insuranceShareBps);
    }

    /// @inheritdoc ISpotMarket
    function pendingFeesUsdc() external view returns (uint256) {
        return _s().pendingFeesUsdc;
    }

    /// @inheritdoc ISpotMarket
    function totalSeatDps() external view returns (uint256, uint256) {
        SpotMarketStorage storage $ = _s();
        return ($.totalStakedDps, $.totalPendingDps);
    }

    /// @inheritdoc ISpotMarket
    function addresses() external view returns (address, address, address, address, address) {
        SpotMarketStorage storage $ = _s();
        return (address($.ch), address($.usdc), address($.dps), $.treasury, $.insuranceFund);
    }

    // ================================================================ internals

    /// @dev Checks an order and books `amountCh` against it: amount bounds, expiry, cancellation, minimum nonce,
    ///      nonce uniqueness (the first fill claims the nonce), signature (only on the first fill: the stored
    ///      fill proves it was checked), and overfill (MKT-06, SEC-03).
    function _consumeOrder(
        SpotMarketStorage storage $,
        Order calldata order,
        bytes calldata signature,
        uint256 amountCh
    ) private returns (bytes32 hash, uint256 filledAfter) {
        if (amountCh == 0) revert SpotInvalidAmount(0);
        if (order.amountCh > type(uint128).max) revert SpotInvalidAmount(order.amountCh);
        hash = _orderDigest(order);
        OrderState storage state = $.orders[hash];
        uint256 filled = state.filledCh;
        if (state.cancelled) revert SpotCancelled(hash);
        if (block.timestamp > order.expiry) revert SpotExpired(hash, order.expiry, block.timestamp);
        _checkMinNonce($, order.maker, order.nonce);
        if (filled == 0) {
            _useNonce($, order.maker, order.nonce);
            _checkSignature(order.maker, hash, signature);
        }
        filledAfter = filled + amountCh;
        if (filledAfter > order.amountCh) revert SpotOverfill(hash, amountCh, order.amountCh - filled);
        state.filledCh = uint128(filledAfter);
    }

    /// @dev Emits OrderFilled with the order's post-state. The counterparty is the other side of `st`; the maker's
    ///      fee is its own side's fee in `st`.
    function _emitFill(
        bytes32 hash,
        Order calldata order,
        Settlement memory st,
        uint256 filledAfter,
        uint256 counterpartyFeeUsdc
    ) private {
        bool isBuy = order.isBuy;
        emit OrderFilled(
            hash,
            order.maker,
            isBuy ? st.seller : st.buyer,
            st.amountCh,
            order.priceWad,
            filledAfter,
            order.amountCh - filledAfter,
            isBuy ? st.buyerFeeUsdc : st.sellerFeeUsdc,
            counterpartyFeeUsdc
        );
    }

    /// @dev A taker fill: the maker pays the maker fee, the caller the taker fee, at the order's price.
    function _fillQuote(
        SpotMarketStorage storage $,
        Order calldata order,
        uint256 amountCh
    ) private view returns (Settlement memory st) {
        st.amountCh = amountCh;
        uint256 makerDiscount = _discountBps($, order.maker);
        uint256 takerDiscount = _discountBps($, msg.sender);
        uint256 p = order.priceWad;
        if (order.isBuy) {
            st.buyer = order.maker;
            st.seller = msg.sender;
            _quote(st, p, p, $.makerFeeBps, makerDiscount, $.takerFeeBps, takerDiscount);
        } else {
            st.buyer = msg.sender;
            st.seller = order.maker;
            _quote(st, p, p, $.takerFeeBps, takerDiscount, $.makerFeeBps, makerDiscount);
        }
    }

    /// @dev A match: both sides pay the maker fee, each at its own limit price.
    function _matchQuote(
        SpotMarketStorage storage $,
        Order calldata buy,
        Order calldata sell,
        uint256 amountCh
    ) private view returns (Settlement memory st) {
        st.buyer = buy.maker;
        st.seller = sell.maker;
        st.amountCh = amountCh;
        uint256 makerFeeBps = $.makerFeeBps;
        _quote(
            st,
            buy.priceWad,
            sell.priceWad,
            makerFeeBps,
            _discountBps($, buy.maker),
            makerFeeBps,
            _discountBps($, sell.maker)
        );
    }

    /// @dev Checks a deal (amount, cancellation, single settlement, expiry, both minimum nonces, the signature of
    ///      every party that is not the caller) and marks it settled.
    function _consumeDeal(
        SpotMarketStorage storage $,
        Deal calldata deal,
        bytes calldata sellerSignature,
        bytes calldata buyerSignature
    ) private returns (bytes32 hash) {
        uint256 amountCh = deal.amountCh;
        if (amountCh == 0 || amountCh > type(uint128).max) revert SpotInvalidAmount(amountCh);
        hash = _dealDigest(deal);
        OrderState storage state = $.orders[hash];
        if (state.cancelled) revert SpotCancelled(hash);
        if (state.filledCh != 0) revert SpotDealSettled(hash);
        if (block.timestamp > deal.expiry) revert SpotExpired(hash, deal.expiry, block.timestamp);
        _checkMinNonce($, deal.seller, deal.nonce);
        _checkMinNonce($, deal.buyer, deal.nonce);
        if (msg.sender != deal.seller) _checkSignature(deal.seller, hash, sellerSignature);
        if (msg.sender != deal.buyer) _checkSignature(deal.buyer, hash, buyerSignature);
        state.filledCh = uint128(amountCh);
    }

    /// @dev An OTC deal: both parties pay the maker fee at the agreed price.
    function _dealQuote(SpotMarketStorage storage $, Deal calldata deal) private view returns (Settlement memory st) {
        st.buyer = deal.buyer;
        st.seller = deal.seller;
        st.amountCh = deal.amountCh;
        uint256 makerFeeBps = $.makerFeeBps;
        uint256 buyerDiscount = _discountBps($, deal.buyer);
        uint256 sellerDiscount = _discountBps($, deal.seller);
        _quote(st, deal.priceWad, deal.priceWad, makerFeeBps, buyerDiscount, makerFeeBps, sellerDiscount);
    }

    /// @dev Marks `nonce` used for `maker`; reverts when it already was (another order claimed it).
    function _useNonce(SpotMarketStorage storage $, address maker, uint256 nonce) private {
        uint256 bit = 1 << (nonce & 0xff);
        mapping(uint256 => uint256) storage words = $.nonceBitmap[maker];
        uint256 word = words[nonce >> 8];
        if (word & bit != 0) revert SpotNonceUsed(maker, nonce);
        words[nonce >> 8] = word | bit;
    }

    function _checkMinNonce(SpotMarketStorage storage $, address account, uint256 nonce) private view {
        uint256 minimum = $.minNonce[account];
        if (nonce < minimum) revert SpotNonceBelowMinimum(account, nonce, minimum);
    }

    /// @dev ECDSA first (OpenZeppelin: rejects high-s malleable forms and invalid v), which spares EOAs the
    ///      code-size lookup; otherwise ERC-1271 when the signer has code.
    function _checkSignature(address signer, bytes32 digest, bytes calldata signature) private view {
        (address recovered, ECDSA.RecoverError err, ) = ECDSA.tryRecoverCalldata(digest, signature);
        if (err == ECDSA.RecoverError.NoError && recovered == signer) return;
        if (
            signer.code.length == 0 || !SignatureChecker.isValidERC1271SignatureNowCalldata(signer, digest, signature)
        ) {
            revert SpotInvalidSignature(signer, digest);
        }
    }

    /// @dev Fills in the USDC legs of `st` (buyer, seller, amount set). The buyer pays its quote rounded up plus its
    ///      fee; the seller receives its quote rounded down minus its fee; the matcher (if the two prices differ)
    ///      gets the spread rounded down; the protocol keeps the rest, so buyerPaid = sellerReceived + spread +
    ///      protocol exactly.
    function _quote(
        Settlement memory st,
        uint256 buyPriceWad,
        uint256 sellPriceWad,
        uint256 buyerFeeBps,
        uint256 buyerDiscountBps,
        uint256 sellerFeeBps,
        uint256 sellerDiscountBps
    ) private pure {
        uint256 buyQuote = SpotMath.quoteUsdcUp(st.amountCh, buyPriceWad);
        uint256 sellQuote = SpotMath.quoteUsdcDown(st.amountCh, sellPriceWad);
        st.buyerFeeUsdc = SpotMath.feeUsdcUp(buyQuote, buyerFeeBps, buyerDiscountBps);
        st.sellerFeeUsdc = SpotMath.feeUsdcUp(sellQuote, sellerFeeBps, sellerDiscountBps);
        if (sellQuote <= st.sellerFeeUsdc) revert SpotFillTooSmall(st.amountCh, sellPriceWad);
        st.buyerPaidUsdc = buyQuote + st.buyerFeeUsdc;
        st.sellerReceivedUsdc = sellQuote - st.sellerFeeUsdc;
        if (buyPriceWad != sellPriceWad) {
            st.spreadUsdc = SpotMath.quoteUsdcDown(st.amountCh, buyPriceWad - sellPriceWad);
        }
        // @dev ≥ 0: buyQuote ≥ sellQuote + spread because ceil(a·b) ≥ floor(a·s) + floor(a·(b−s))
        st.protocolUsdc = st.buyerPaidUsdc - st.sellerReceivedUsdc - st.spreadUsdc;
    }

    /// @dev Moves the tokens of a settlement: CH seller → buyer; USDC buyer → seller, → matcher, → this market.
    function _transfer(SpotMarketStorage storage $, Settlement memory st, address matcher) private {
        $.ch.safeTransferFrom(st.seller, st.buyer, st.amountCh);
        IERC20 usdc = $.usdc;
        usdc.safeTransferFrom(st.buyer, st.seller, st.sellerReceivedUsdc);
        if (st.spreadUsdc != 0) usdc.safeTransferFrom(st.buyer, matcher, st.spreadUsdc);
        if (st.protocolUsdc != 0) usdc.safeTransferFrom(st.buyer, address(this), st.protocolUsdc);
    }

    function _accrue(SpotMarketStorage storage $, uint256 amountUsdc) private {
        if (amountUsdc == 0) return;
        uint256 pendingAfter = $.pendingFeesUsdc + amountUsdc;
        // @dev 2^64 USDC units = 1.8e13 USDC pending between two distributions; beyond it the fill reverts (SafeCast)
        $.pendingFeesUsdc = SafeCast.toUint64(pendingAfter);
        emit FeesAccrued(amountUsdc, pendingAfter);
    }

    function _recordPrice(SpotMarketStorage storage $, uint256 priceWad) private {
        // @dev a price above SpotTwap.MAX_PRICE_WAD (≈ 7.9e10 USDC per CH) is clamped for the TWAP only
        uint256 p = priceWad > SpotTwap.MAX_PRICE_WAD ? SpotTwap.MAX_PRICE_WAD : priceWad;
        (uint256 cumulative, uint256 index, uint256 count) = $.twap.record(p, $.twapIntervalSec);
        emit TwapUpdated(p, cumulative, block.timestamp, index, count);
    }

    function _discountBps(SpotMarketStorage storage $, address account) private view returns (uint256) {
        uint256 tiers = $.seatTiers;
        if (tiers == 0) return 0;
        return _tierDiscount(tiers, $.seats[account].stakedDps);
    }

    /// @dev The discount of the highest tier whose whole-DPS threshold `stakedDps` reaches.
    function _tierDiscount(uint256 tiers, uint256 stakedDps) private pure returns (uint256 discount) {
        uint256 whole = stakedDps / 1e18;
        for (uint256 i = 0; i < MAX_SEAT_TIERS; ++i) {
            uint256 t = (tiers >> (64 * i)) & type(uint64).max;
            uint256 threshold = t & type(uint48).max;
            if (threshold == 0 || whole < threshold) break;
            discount = t >> 48;
        }
    }

    function _setFeeRecipients(SpotMarketStorage storage $, address treasury, address insuranceFund) private {
        if (treasury == address(0) || insuranceFund == address(0)) revert ChxZeroAddress();
        $.treasury = treasury;
        $.insuranceFund = insuranceFund;
        emit FeeRecipientsSet(treasury, insuranceFund);
    }

    /// @dev The domain name as a constant: the digest of every fill then reads no storage for it (OpenZeppelin's
    ///      documented override; `__EIP712_init` stores the same strings).
    // solhint-disable-next-line func-name-mixedcase
    function _EIP712Name() internal pure override returns (string memory) {
        return EIP712_NAME;
    }

    /// @dev The domain version as a constant (see `_EIP712Name`).
    // solhint-disable-next-line func-name-mixedcase
    function _EIP712Version() internal pure override returns (string memory) {
        return EIP712_VERSION;
    }

    function _orderDigest(Order calldata o) private view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(ORDER_TYPEHASH, o.maker, o.isBuy, o.amountCh, o.priceWad, o.nonce, o.expiry, o.taker)
        );
        return _hashTypedDataV4(structHash);
    }

    function _dealDigest(Deal calldata d) private view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(DEAL_TYPEHASH, d.seller, d.buyer, d.amountCh, d.priceWad, d.nonce, d.expiry)
        );
        return _hashTypedDataV4(structHash);
    }
}
