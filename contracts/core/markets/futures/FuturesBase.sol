// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ChxUpgradeable} from "../../base/ChxUpgradeable.sol";
import {IFuturesTypes} from "../../../interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../../interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../../interfaces/markets/IFuturesEvents.sol";
import {IClearingHouse} from "../../../interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../../../interfaces/oracle/IComputePriceOracle.sol";
import {DelayedOrders} from "../../../libraries/DelayedOrders.sol";
import {FuturesLedger} from "../../../libraries/futures/FuturesLedger.sol";
import {SeriesSet} from "../../../types/SeriesId.sol";
import {SignedOrders} from "../../../libraries/orders/SignedOrders.sol";

/// @title FuturesBase
/// @notice Storage of the FuturesMarket proxy and its delegate-called FuturesDelivery module (one ERC-7201
///         namespace, so both run on the proxy's storage); the shared internals are in FuturesLedger.
abstract contract FuturesBase is ChxUpgradeable, IFuturesTypes, IFuturesErrors, IFuturesEvents {
    /// @notice Most series one account may hold unsettled positions in per 28-day expiry bucket (FuturesLedger).
    uint256 public constant MAX_SERIES_PER_ACCOUNT = FuturesLedger.MAX_SERIES_PER_ACCOUNT;
    uint256 internal constant BPS = FuturesLedger.BPS;
    uint256 internal constant SERIES_SCAN = 16;
    /// @dev Most accounts one `settlePositions` call settles (keeps a batch far below the 16,777,216 gas cap).
    uint256 internal constant MAX_SETTLE_BATCH = FuturesLedger.MAX_SETTLE_BATCH;
    uint256 internal constant ACCOUNT_SCAN = 64;
    /// @dev Most accounts one checker payload settles.
    uint256 internal constant KEEPER_BATCH = 16;

    bytes32 internal constant FEATURE_TRADE = keccak256("futures.trade");
    bytes32 internal constant FEATURE_LIST = keccak256("futures.list");

    /// @custom:storage-location erc7201:chx.storage.FuturesMarket
    struct FuturesMarketStorage {
        IClearingHouse clearingHouse;
        IComputePriceOracle oracle;
        IERC20 ch;
        IERC20 usdc;
        address vault;
        Params params;
        uint64 seriesCount;
        uint64 liveSeries;
        uint64 firstOpenSeries;
        // Mirror of Σ ClearingHouse size and cost basis of this market's traders (vault equity without a loop).
        int128 traderNetSizeCh;
        int128 traderOpenNotionalUsdc;
        uint256 totalBountiesOwedUsdc;
        mapping(uint256 seriesId => SeriesState) series;
        mapping(uint64 expiry => uint256 seriesId) seriesByExpiry;
        mapping(uint256 seriesId => mapping(address account => Position)) positions;
        // retired by round 42: the list's entries are `seriesAccountAt`, its length and settle cursor in the series'
        // first word (SeriesState.accounts, .settleCursor), which the listing writes
        mapping(uint256 seriesId => address[]) __deprecated_seriesAccounts;
        mapping(uint256 seriesId => uint256) __deprecated_settleCursor;
        // retired by issue 18 (replaced by accountSeriesSet, one packed slot per account)
        mapping(address account => uint256[]) __deprecated_accountSeries;
        mapping(address keeper => uint256) bountiesOwedUsdc;
        address deliveryModule;
        // retired by round 35 (now AccountBook.liquidationCashUsdc, in the slot the risk hook reads anyway): a
        // liquidation closes a price-fixed expired leg at the index; the difference to its settlement price is owed
        // to (+) or by (−) the account, in its equity at once (FuturesRisk) and paid at its next settlement.
        mapping(address account => int256) __deprecated_liquidationCashUsdc;
        // Σ AccountBook.liquidationCashUsdc.
        int256 totalLiquidationCashUsdc;
        // Two-step trade orders against the vault, keyed DelayedOrders.key(account, seriesId) (issue 17 item 15).
        DelayedOrders.Book orders;
        // retired by round 35 (now AccountBook.orderMarginUsdc, in the slot the risk hook reads anyway): the initial
        // margin the account's pending orders hold, escrowed from its collateral into the pool until the order is
        // executed or cancelled (and shown in its accountRisk as equity and as initial margin).
        mapping(address account => uint256) __deprecated_orderMarginUsdc;
        // Σ AccountBook.orderMarginUsdc: pool money that is not LP capital.
        uint256 totalOrderMarginUsdc;
        // retired by issue 19 item 3 (replaced by accountBooks / accountBucketBits / accountBuckets)
        mapping(address account => SeriesSet) __deprecated_accountSeriesSet;
        // Monthly expiries ahead the keeper checker keeps listed (0 = none; ≤ FuturesLedger.MAX_KEEPER_LISTING_MONTHS).
        uint8 keeperListingMonths;
        // Issue 19: where an electing long's delivered CH goes at settlement, as a delivery order (0: to the long).
        address deliveryOrders;
        // Issue 19: DPS slashed from failing shorts, held for the series' electing longs (pro rata, like slashedUsdc).
        mapping(uint256 seriesId => SlashCompensation) slashCompensation;
        // Issue 19 item 3: per-account aggregates over all its open legs (Σ long, Σ |short|, Σ elected, legs), so a
        // margin check reads O(1) for the far legs and walks only the near expiry buckets (FuturesLedger).
        mapping(address account => FuturesLedger.AccountBook) accountBooks;
        // Bit `bucket & 255` of word `bucket >> 8`: the account holds a leg expiring in that 28-day bucket.
        mapping(address account => mapping(uint256 word => uint256 bits)) accountBucketBits;
        // The account's series per expiry bucket (≤ MAX_SERIES_PER_ACCOUNT each).
        mapping(address account => mapping(uint256 bucket => SeriesSet)) accountBuckets;
        // Issue 19 item 2: signed trader-against-trader orders and each series' last trade. Round 41: only the
        // book's `minNonce` is used; its per-digest `orders` and `nonceBitmap` are retired (now `signedFills`).
        SignedOrders.Book signedOrders;
        mapping(uint256 seriesId => CurvePoint) curve;
        // Round 41: one word per (maker, nonce): filled, cancelled and the digest's tag (FuturesOrderFills), so a
        // signed order's fill state also claims its nonce.
        mapping(address maker => mapping(uint256 nonce => uint256 word)) signedFills;
        // Round 42: the accounts that ever held each series, in order (length: SeriesState.accounts).
        mapping(uint256 seriesId => mapping(uint256 index => address account)) seriesAccountAt;
    }

    /// @dev DPS slashed from a series' failing shorts (net of finder fees), paid to its electing longs pro rata.
    struct SlashCompensation {
        uint128 dps;
        uint128 paidDps;
        address token;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.FuturesMarket")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant FUTURES_MARKET_STORAGE_LOCATION =
        0xaedf0e92e643f6546d7bf0c18856bdec666471a589991542784308c09d9dbd00;

    function _getFuturesMarketStorage() internal pure returns (FuturesMarketStorage storage $) {
        assembly {
            $.slot := FUTURES_MARKET_STORAGE_LOCATION
        }
    }
}
