// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IOptionsMarketErrors} from "../../interfaces/markets/IOptionsMarketErrors.sol";
import {IOptionsMarketEvents} from "../../interfaces/markets/IOptionsMarketEvents.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {IFuturesExercise} from "../../interfaces/markets/IFuturesExercise.sol";
import {OptionsBook} from "../../libraries/options/OptionsBook.sol";
import {OptionsExercise} from "../../libraries/options/OptionsExercise.sol";

/// @title OptionsMarketBase
/// @notice Storage, constants and the position helpers shared by OptionsMarket and its settlement module
///         (OptionsSettlement runs by delegatecall in the market's storage; docs/options.md).
abstract contract OptionsMarketBase is ChxUpgradeable, IOptionsMarketErrors, IOptionsMarketEvents {
    using SafeCast for uint256;

    /// @notice Upper bound on maker and taker fees (3 % of the premium).
    uint256 public constant MAX_FEE_BPS = OptionsExercise.MAX_FEE_BPS;
    /// @notice Upper bound on the keeper bounty (5 USDC).
    uint256 public constant MAX_BOUNTY_USDC = OptionsExercise.MAX_BOUNTY_USDC;
    /// @notice Holder–writer pairs one pull `exercise` of a futures option handles.
    uint256 public constant MAX_PAIRS_PER_CALL = 8;
    /// @notice Page sizes the checker proposes: accounts (cash) and pairs (futures).
    uint256 public constant CASH_PAGE = 100;
    /// @notice Holder–writer pairs of a futures series the checker proposes per call.
    uint256 public constant FUTURES_PAGE = 20;
    /// @notice Pending series the checker scans at most.
    uint256 public constant CHECKER_SCAN = 128;
    /// @notice An unused permissionless listing can be delisted this long after it was listed.
    uint256 public constant LISTING_GRACE_SEC = 1 days;

    /// @notice The cap of an uncapped call (listed by governance; writable margined only).
    uint128 public constant UNCAPPED = type(uint128).max;
    /// @notice Series in which one account may hold margined shorts (bounds the scenario-risk hook's cost).
    uint256 public constant MAX_MARGINED_SERIES = 8;

    /// @notice Pause flag of series listing.
    bytes32 public constant FEATURE_LIST = keccak256("options.list");
    /// @notice Pause flag of writing (new short option risk).
    bytes32 public constant FEATURE_WRITE = keccak256("options.write");
    /// @notice Pause flag of offer fills and transfers.
    bytes32 public constant FEATURE_TRADE = keccak256("options.trade");

    bytes32 internal constant OFFER_TYPEHASH = keccak256(
        "Offer(address maker,uint256 seriesId,bool isBuy,uint256 sizeCh,uint256 premiumWad,uint256 nonce,uint64 expiry,address taker)"
    );

    struct OfferState {
        uint128 filledCh;
        bool cancelled;
    }

    /// @custom:storage-location erc7201:chx.storage.OptionsMarket
    struct OptionsMarketStorage {
        IClearingHouse clearingHouse;
        IComputePriceOracle oracle;
        IFuturesExercise futuresMarket;
        address feeRecipient;
        Params params;
        uint128 feesUsdc;
        uint128 reservedUsdc;
        uint64 seriesCount;
        uint32 liveSeries;
        mapping(uint256 seriesId => Series) series;
        mapping(uint256 seriesId => mapping(address account => Position)) positions;
        mapping(uint256 seriesId => mapping(uint256 index => address)) accounts;
        mapping(bytes32 key => uint256 seriesId) seriesByKey;
        mapping(bytes32 offerHash => OfferState) offers;
        mapping(address maker => uint256) minNonce;
        uint256[] pending;
        address settlement;
        // issue 20 item 3: margined writing (appended)
        mapping(uint256 seriesId => mapping(address account => MarginedShort)) margined;
        mapping(address account => uint256[] seriesIds) marginedSeries;
        mapping(uint256 seriesId => MarginedSeries) marginedState;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.OptionsMarket")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant OPTIONS_MARKET_STORAGE_LOCATION =
        0xf30a0c82f3974eb849a585daece6e127e8cb04cf79452d5a681b8e491a998a00;

    function _s() internal pure returns (OptionsMarketStorage storage $) {
        assembly {
            $.slot := OPTIONS_MARKET_STORAGE_LOCATION
        }
    }

    /// @dev Settlement context: the series, its final payoff per CH, the bounty cap per credited account (0 for a
    ///      pull), and running totals of bounties and cash payouts.
    struct Ctx {
        uint256 seriesId;
        uint256 payoffWad;
        uint256 bountyCap;
        uint256 bountyUsdc;
        uint256 payoutUsdc;
    }

    /// @dev One holder–writer pair of an in-the-money futures option.
    struct Pair {
        address holder;
        address writer;
        uint256 take;
        uint256 portion;
        uint256 payoutUsdc;
        bool opened;
    }

    /// @dev Stores a position, lists the account for settlement when it just became non-empty, emits the post-state.
    function _store(
        OptionsMarketStorage storage $,
        Series storage s,
        uint256 seriesId,
        address account,
        Position memory p,
        bool wasEmpty
    ) internal {
        OptionsBook.store($, s, seriesId, account, p, wasEmpty);
    }

    /// @dev The collateral backing `sizeCh` of `p`'s shorts: all of it for the last piece, else pro rata rounded
    ///      down, so what stays always covers the remaining shorts × cap (MKT-07).
    function _portion(Position memory p, uint256 sizeCh) internal pure returns (uint256) {
        return OptionsBook.portion(p, sizeCh);
    }

    function _isEmpty(Position memory p) internal pure returns (bool) {
        return OptionsBook.isEmpty(p);
    }

    function _checkSize(uint256 sizeCh) internal pure {
        OptionsBook.checkSize(sizeCh);
    }

    /// @dev Calls: min(max(S − K, 0), cap). Puts: min(max(K − S, 0), cap) with cap = K.
    function _payoff(Series storage s, uint256 priceWad) internal view returns (uint256) {
        return OptionsBook.payoff(s, priceWad);
    }

    function _series(OptionsMarketStorage storage $, uint256 seriesId) internal view returns (Series storage s) {
        return OptionsBook.series($, seriesId);
    }

    function _tradable(OptionsMarketStorage storage $, uint256 seriesId) internal view returns (Series storage s) {
        return OptionsBook.tradable($, seriesId);
    }

    /// @dev Drops a series from the keeper-enumerable pending list (swap with the last, pop).
    function _removePending(OptionsMarketStorage storage $, Series storage s) internal {
        uint256 idx = s.pendingIndex;
        if (idx == 0) return;
        uint256[] storage pend = $.pending;
        uint256 last = pend[pend.length - 1];
        pend[idx - 1] = last;
        $.series[last].pendingIndex = uint32(idx);
        pend.pop();
        s.pendingIndex = 0;
    }

    function _finalPayoff(
        OptionsMarketStorage storage $,
        Series storage s,
        uint256 seriesId
    ) internal view returns (uint256) {
        uint256 finalAt = OptionsBook.disputeEnd($, s);
        if (finalAt == 0 || block.timestamp < finalAt)
            revert OptionsSettlementNotFinal(seriesId, finalAt, block.timestamp);
        return _payoff(s, s.settlementPriceWad);
    }

    /// @dev Adds `amountUsdc` to the fee income (it already sits in the market's pool).
    function _accrueFees(OptionsMarketStorage storage $, uint256 amountUsdc) internal {
        if (amountUsdc == 0) return;
        uint256 after_ = $.feesUsdc + amountUsdc;
        $.feesUsdc = after_.toUint128();
        emit FeesAccrued(amountUsdc, after_);
    }
}
