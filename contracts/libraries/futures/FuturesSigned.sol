// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {FuturesBase} from "../../core/markets/futures/FuturesBase.sol";
import {IFuturesTypes} from "../../interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../interfaces/markets/IFuturesEvents.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {FuturesMath} from "../FuturesMath.sol";
import {FuturesLedger} from "./FuturesLedger.sol";
import {FuturesTrading} from "./FuturesTrading.sol";
import {SignedOrders} from "../orders/SignedOrders.sol";
import {FuturesOrderFills} from "./FuturesOrderFills.sol";

/// @title FuturesSigned
/// @notice FuturesMarket's signed EIP-712 orders between traders (docs/futures.md "Signed orders", issue 19 item 2):
///         the digest in the market's domain, cancels and nonces, `fillOrder` and `matchOrders`, each leg booked
///         through FuturesTrading's ledger path plus its own ClearingHouse call. An external library linked into the
///         FuturesMarket (and the FuturesDelivery module for cancels) and run by delegatecall on its storage.
library FuturesSigned {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;
    using SafeCast for int256;

    /// @dev EIP-712 type of IFuturesTypes.Order (named FuturesOrder: the spot market's `Order` is another type).
    bytes32 internal constant ORDER_TYPEHASH = keccak256(
        "FuturesOrder(address maker,uint256 seriesId,bool isBuy,uint256 sizeCh,uint256 priceWad,uint256 nonce,uint64 expiry,address taker)"
    );

    /// @dev The market's EIP-712 domain (FuturesMarket's EIP712Upgradeable overrides return these, so
    ///      `eip712Domain()` and the separator below describe the same domain).
    string internal constant EIP712_NAME = "CHX Futures";
    string internal constant EIP712_VERSION = "1";
    /// @dev The domain's hashed name and version (compile-time constants: the digest hashes neither per fill).
    bytes32 private constant EIP712_NAME_HASH = keccak256(bytes(EIP712_NAME));
    bytes32 private constant EIP712_VERSION_HASH = keccak256(bytes(EIP712_VERSION));
    bytes32 private constant DOMAIN_TYPEHASH = keccak256(
        "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
    );

    /// @notice The EIP-712 digest of `o` in the market's domain (`address(this)` is the market: delegatecall),
    ///         what OpenZeppelin's `_hashTypedDataV4` gives for the same struct hash.
    function orderDigest(IFuturesTypes.Order calldata o) public view returns (bytes32) {
        bytes32 domain = keccak256(
            abi.encode(DOMAIN_TYPEHASH, EIP712_NAME_HASH, EIP712_VERSION_HASH, block.chainid, address(this))
        );
        bytes32 structHash = keccak256(
            abi.encode(ORDER_TYPEHASH, o.maker, o.seriesId, o.isBuy, o.sizeCh, o.priceWad, o.nonce, o.expiry, o.taker)
        );
        return MessageHashUtils.toTypedDataHash(domain, structHash);
    }

    /// @notice IFuturesMarket.cancelSignedOrder: the maker cancels `o` (its nonce stays claimed).
    function cancelSigned(FuturesBase.FuturesMarketStorage storage $, IFuturesTypes.Order calldata o) external {
        bytes32 digest = orderDigest(o);
        uint256 filled = FuturesOrderFills.cancel($.signedFills, digest, o.maker, o.nonce);
        emit IFuturesEvents.FuturesSignedOrderCancelled(digest, o.maker, o.nonce, filled);
    }

    /// @notice IFuturesMarket.signedOrderState: `o`'s filled amount and cancelled flag.
    function orderState(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.Order calldata o
    ) public view returns (uint256, bool) {
        return FuturesOrderFills.state($.signedFills, orderDigest(o), o.maker, o.nonce);
    }

    /// @notice IFuturesMarket.raiseMinNonce.
    function raiseMinNonce(FuturesBase.FuturesMarketStorage storage $, uint256 newMinNonce) external {
        SignedOrders.raiseMinNonce($.signedOrders, newMinNonce);
        emit IFuturesEvents.FuturesMinNonceRaised(msg.sender, newMinNonce);
    }

    struct SignedFill {
        int256 makerDelta;
        uint256 index;
        uint256 fee;
        uint256 filledAfter;
    }

    /// @notice IFuturesMarket.fillOrder (the market checked its pause flag for risk-increasing legs and computed the
    ///         digest): the order checks (FuturesOrderFills.consume), then both legs at the order's price, each through
    ///         the same ledger path as a fill against the vault (`book` + one ClearingHouse call + the mirror), then
    ///         the margin of each party whose series leg grows, and the series' curve point.
    function fillSigned(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.Order calldata o,
        bytes calldata signature,
        uint256 sizeCh
    ) external returns (uint256) {
        bytes32 digest = orderDigest(o);
        if (o.maker == msg.sender) revert IFuturesErrors.FuturesSelfTrade(msg.sender);
        if (o.taker != address(0) && o.taker != msg.sender) {
            revert IFuturesErrors.FuturesOrderTakerOnly(o.taker, msg.sender);
        }
        if (o.priceWad == 0) revert IFuturesErrors.FuturesZeroAmount();
        IFuturesTypes.SeriesState storage s = FuturesLedger.trading($, o.seriesId);
        SignedFill memory f;
        f.filledAfter = _consume($, o, digest, sizeCh, signature);
        f.makerDelta = o.isBuy ? sizeCh.toInt256() : -sizeCh.toInt256();
        // @dev The risk price: the oracle's new-risk gates (ORC-01) bind every signed fill, as for an exercise.
        f.index = $.oracle.riskPrice();
        f.fee = FuturesTrading.feeOf($, sizeCh, o.priceWad);
        _signedLeg($, s, o.seriesId, o.maker, f.makerDelta, o.priceWad, f.index, f.fee);
        _signedLeg($, s, o.seriesId, msg.sender, -f.makerDelta, o.priceWad, f.index, f.fee);
        $.curve[o.seriesId] = IFuturesTypes.CurvePoint(
            o.priceWad.toUint96(),
            f.index.toUint96(),
            uint64(block.timestamp)
        );
        _emitSigned(o, digest, f);
        return f.filledAfter;
    }

    /// @notice IFuturesMarket.matchOrders (the market checked its pause flag for risk-increasing legs): both
    ///         orders' checks (FuturesOrderFills.consume), the buy's maker long at the buy price and the sell's maker
    ///         short at the sell price (`_signedLeg` each), the spread to the caller as a pull credit and the
    ///         midpoint as the curve point.
    function matchSigned(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.Order calldata buy,
        bytes calldata buySignature,
        IFuturesTypes.Order calldata sell,
        bytes calldata sellSignature,
        uint256 sizeCh
    ) external returns (uint256, uint256) {
        if (!buy.isBuy || sell.isBuy) revert IFuturesErrors.FuturesMatchSides();
        if (buy.seriesId != sell.seriesId) revert IFuturesErrors.FuturesMatchSeries(buy.seriesId, sell.seriesId);
        if (buy.priceWad < sell.priceWad) revert IFuturesErrors.FuturesOrdersNotCrossed(buy.priceWad, sell.priceWad);
        if (sell.priceWad == 0) revert IFuturesErrors.FuturesZeroAmount();
        if (buy.maker == sell.maker) revert IFuturesErrors.FuturesSelfTrade(buy.maker);
        _takerCheck(buy.taker);
        _takerCheck(sell.taker);
        MatchVars memory m;
        m.buyDigest = orderDigest(buy);
        m.sellDigest = orderDigest(sell);
        m.buyFilled = _consume($, buy, m.buyDigest, sizeCh, buySignature);
        m.sellFilled = _consume($, sell, m.sellDigest, sizeCh, sellSignature);
        m.index = _matchLegs($, buy, sell, sizeCh);
        _emitMatched($, buy, sell, sizeCh, m);
        return (m.buyFilled, m.sellFilled);
    }

    struct MatchVars {
        bytes32 buyDigest;
        bytes32 sellDigest;
        uint256 buyFilled;
        uint256 sellFilled;
        uint256 index;
    }

    function _takerCheck(address taker) private view {
        if (taker != address(0) && taker != msg.sender) revert IFuturesErrors.FuturesOrderTakerOnly(taker, msg.sender);
    }

    function _consume(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.Order calldata o,
        bytes32 digest,
        uint256 sizeCh,
        bytes calldata signature
    ) private returns (uint256) {
        return
            FuturesOrderFills.consume(
                $.signedFills,
                $.signedOrders,
                digest,
                o.maker,
                o.nonce,
                o.expiry,
                o.sizeCh,
                sizeCh,
                signature
            );
    }

    /// @dev The two legs of a match at the risk price (ORC-01), each at its own order's price and fee, and the curve
    ///      point at the midpoint; returns the risk price.
    function _matchLegs(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.Order calldata buy,
        IFuturesTypes.Order calldata sell,
        uint256 sizeCh
    ) private returns (uint256 index) {
        uint256 id = buy.seriesId;
        IFuturesTypes.SeriesState storage s = FuturesLedger.trading($, id);
        index = $.oracle.riskPrice();
        int256 size = sizeCh.toInt256();
        uint256 price = buy.priceWad;
        uint256 fee = FuturesTrading.feeOf($, sizeCh, price);
        _signedLeg($, s, id, buy.maker, size, price, index, fee);
        price = sell.priceWad;
        fee = FuturesTrading.feeOf($, sizeCh, price);
        _signedLeg($, s, id, sell.maker, -size, price, index, fee);
        price = (buy.priceWad + price) / 2;
        $.curve[id] = IFuturesTypes.CurvePoint(price.toUint96(), index.toUint96(), uint64(block.timestamp));
    }

    /// @dev The two FuturesOrderFilled (each maker's taker: the other maker), FuturesOrdersMatched, and the spread
    ///      credit: the two legs' basis cash paid the pool sizeCh × (buy − sell) (each rounded against its trader), the
    ///      matcher is owed that rounded down.
    function _emitMatched(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.Order calldata buy,
        IFuturesTypes.Order calldata sell,
        uint256 sizeCh,
        MatchVars memory m
    ) private {
        int256 size = int256(sizeCh);
        emit IFuturesEvents.FuturesOrderFilled(
            m.buyDigest,
            buy.seriesId,
            buy.maker,
            sell.maker,
            size,
            buy.priceWad,
            m.index,
            m.buyFilled,
            buy.sizeCh - m.buyFilled
        );
        emit IFuturesEvents.FuturesOrderFilled(
            m.sellDigest,
            sell.seriesId,
            sell.maker,
            buy.maker,
            -size,
            sell.priceWad,
            m.index,
            m.sellFilled,
            sell.sizeCh - m.sellFilled
        );
        uint256 spread = FuturesMath.usdcDown(sizeCh, buy.priceWad - sell.priceWad);
        uint256 mid = (buy.priceWad + sell.priceWad) / 2;
        emit IFuturesEvents.FuturesOrdersMatched(
            m.buyDigest,
            m.sellDigest,
            buy.seriesId,
            msg.sender,
            sizeCh,
            spread,
            mid
        );
        FuturesLedger.creditBounty($, msg.sender, spread);
    }

    function _emitSigned(IFuturesTypes.Order calldata o, bytes32 digest, SignedFill memory f) private {
        emit IFuturesEvents.FuturesOrderFilled(
            digest,
            o.seriesId,
            o.maker,
            msg.sender,
            f.makerDelta,
            o.priceWad,
            f.index,
            f.filledAfter,
            o.sizeCh - f.filledAfter
        );
    }

    /// @dev One leg of a signed fill: the per-series book, the ClearingHouse call (which checks margin when the net
    ///      position grows) and, when the series leg grows but the net does not (a calendar spread's leg), the margin
    ///      check here: equity ≥ initial margin at the risk price, the account-risk hook included.
    function _signedLeg(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId,
        address account,
        int256 delta,
        uint256 priceWad,
        uint256 index,
        uint256 fee
    ) private {
        FuturesTrading.TradeVars memory v = FuturesTrading.book(
            $,
            s,
            seriesId,
            account,
            delta,
            priceWad,
            index,
            fee,
            true
        );
        IClearingHouse.Position memory pos;
        (v.realised, pos) = $.clearingHouse.modifyPositionAndSettle(account, delta, index, fee, v.cash);
        FuturesLedger.mirror($, delta, index, v.realised);
        if (
            FuturesLedger.isIncrease(v.oldSize, v.newSize) && !FuturesLedger.isIncrease(pos.sizeCh - delta, pos.sizeCh)
        ) {
            IClearingHouse.MarginState memory m = $.clearingHouse.marginStateAt(account, index);
            if (m.equityUsdc < m.initialMarginUsdc.toInt256()) {
                revert IFuturesErrors.FuturesInsufficientMargin(account, m.initialMarginUsdc, m.equityUsdc);
            }
        }
        if (v.refundCh != 0) $.ch.safeTransfer(account, v.refundCh);
    }
}
