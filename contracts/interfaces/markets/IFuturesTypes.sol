// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IFuturesTypes
/// @notice Enums and structs of the FuturesMarket, with its order-book events (see IFuturesMarket for the functions,
///         IFuturesErrors and IFuturesEvents for the other errors and events). A separate interface so the
///         FuturesMarket, its delegate-called FuturesDelivery module and the futures libraries share one declaration.
interface IFuturesTypes {
    /// @notice How a series was listed: a standard expiry of the permissionless listing rule, or governance's.
    enum Tenor {
        Daily,
        Weekly,
        Monthly,
        Quarterly,
        Custom
    }

    /// @notice Why a position was reduced outside a trade (see `PositionReduced`).
    enum ReduceReason {
        Liquidation,
        UnprovenShort,
        Flatten
    }

    /// @notice Market parameters (governance, `setParams`).
    /// @param feeBps Trading fee, bps of notional at the trade price (rounded up; to the insurance fund).
    /// @param penaltyBps Failed-delivery penalty, bps of settlement value (the short pays 1 + penalty).
    /// @param maxPremiumBps Cap on |premium| at full horizon, bps.
    /// @param maxCorrectionBps Largest change a dispute may make to the proposed settlement price, bps.
    /// @param vaultReserveBps Part of the vault's net notional kept in the pool (not returnable to the vault), bps.
    /// @param maxLiveSeries Most series listed and not yet price-fixed at once (bounds keeper scans).
    /// @param electionCutoffSec Delivery elections close this long before expiry.
    /// @param disputeWindowSec How long a proposed settlement price may be corrected.
    /// @param deliveryWindowSec How long after finalisation assigned shorts have to deliver.
    /// @param proofWindowSec How long a short has to escrow CH after its guarantor demands proof.
    /// @param minListingLeadSec A new series' expiry must be at least this far in the future.
    /// @param keeperBountyUsdc Bounty for a keeper action (fix, finalise, third-party settlement), USDC.
    /// @param skewScaleCh Trader skew that moves the premium by 100 % at full horizon, CH WAD.
    /// @param premiumHorizonSec Time to expiry at which the premium reaches its full skew value.
    /// @param defaultOiCapCh Open-interest cap per side of a newly listed series, CH WAD.
    /// @param minOrderDelaySec A trade order fills at the oracle round in force this long after it was committed
    ///        (≥ 1; IDelayedOrders).
    /// @param maxOrderDelaySec After this long a pending order can only be cancelled (> minOrderDelaySec).
    /// @param executionFeeUsdc Fee an order holds for whoever executes or cancels it, USDC (≤ 50 USDC).
    struct Params {
        uint16 feeBps;
        uint16 penaltyBps;
        uint16 maxPremiumBps;
        uint16 maxCorrectionBps;
        uint16 vaultReserveBps;
        uint8 maxLiveSeries;
        uint32 electionCutoffSec;
        uint32 disputeWindowSec;
        uint32 deliveryWindowSec;
        uint32 proofWindowSec;
        uint32 minListingLeadSec;
        uint64 keeperBountyUsdc;
        uint128 skewScaleCh;
        uint64 premiumHorizonSec;
        uint128 defaultOiCapCh;
        uint32 minOrderDelaySec;
        uint32 maxOrderDelaySec;
        uint64 executionFeeUsdc;
    }

    /// @notice One series' state.
    /// @param expiry Expiry (unix seconds); trading stops at expiry.
    /// @param finalAt When the proposed settlement price becomes final (0 until fixed).
    /// @param deliveryDeadline Assigned shorts must deliver before it (0 until finalised).
    /// @param openPositions Positions not yet settled (MKT-04: 0 after settlement).
    /// @param shortPositions Trader short positions not yet settled (longs' delivery waits for 0).
    /// @param longOiCh Σ trader long sizes, CH WAD.
    /// @param shortOiCh Σ |trader short sizes|, CH WAD (the vault holds longOi − shortOi).
    /// @param oiCapCh Cap per side, CH WAD.
    /// @param electedCh Σ elected long delivery, CH WAD.
    /// @param settlementPriceWad Proposed / final settlement price (0 until fixed).
    /// @param assignableShortCh Σ trader short size at expiry (fixed with the price), CH WAD.
    /// @param deliveredCh Σ CH delivered by assigned shorts, CH WAD.
    /// @param receivedCh Σ CH paid out to electing longs, CH WAD (MKT-05: = deliveredCh once all settled).
    /// @param slashedUsdc Σ slashes of failing shorts, USDC.
    /// @param compensatedUsdc Σ compensation paid to electing longs, USDC.
    /// @param unclaimedElectedCh Σ elected size of longs not yet settled, CH WAD: set to `electedCh` at finalisation
    ///        (elections are fixed from then), so a long's settlement updates a written slot (issue 19 item 6).
    /// @param postExpiryShortCh Short size liquidated after expiry (still bound to deliver), CH WAD.
    /// @param tenor How it was listed.
    struct Series {
        uint64 expiry;
        uint64 finalAt;
        uint64 deliveryDeadline;
        uint32 openPositions;
        uint32 shortPositions;
        uint128 longOiCh;
        uint128 shortOiCh;
        uint128 oiCapCh;
        uint128 electedCh;
        uint128 settlementPriceWad;
        uint128 assignableShortCh;
        uint128 deliveredCh;
        uint128 receivedCh;
        uint128 slashedUsdc;
        uint128 compensatedUsdc;
        uint128 unclaimedElectedCh;
        uint128 postExpiryShortCh;
        Tenor tenor;
    }

    /// @notice How a series is stored (the external views return it as `Series`): seven slots, the two a series'
    ///         first trade updates written by its listing (docs/futures.md "Series layout", round 42). Slot 0:
    ///         expiry, finalAt, deliveryDeadline (40 bits each: unix seconds to the year 36812), openPositions,
    ///         shortPositions and the account list's length and settle cursor (32 bits each); slot 1: both open
    ///         interests (120 bits each), the tenor and `listed`, set by the listing so the word is never zero.
    ///         Every write of a narrowed field goes through SafeCast or a bound check
    ///         (`FuturesSeriesAccountsFull`), so a value beyond it reverts before anything is stored.
    /// @param accounts Length of the series' account list (`seriesAccountAt`), ≤ 2^32 − 1.
    /// @param settleCursor Accounts before it in the list are settled or closed (≤ accounts).
    /// @param listed Set by the listing and never cleared: the open-interest word is non-zero from then on.
    struct SeriesState {
        uint40 expiry;
        uint40 finalAt;
        uint40 deliveryDeadline;
        uint32 openPositions;
        uint32 shortPositions;
        uint32 accounts;
        uint32 settleCursor;
        uint120 longOiCh;
        uint120 shortOiCh;
        Tenor tenor;
        bool listed;
        uint128 oiCapCh;
        uint128 electedCh;
        uint128 settlementPriceWad;
        uint128 assignableShortCh;
        uint128 deliveredCh;
        uint128 receivedCh;
        uint128 slashedUsdc;
        uint128 compensatedUsdc;
        uint128 unclaimedElectedCh;
        uint128 postExpiryShortCh;
    }

    /// @notice One account's position in one series. Three slots; what a new leg writes (size, entry and both flags)
    ///         is the first one, so opening a leg creates one slot (docs/futures.md "Position layout"); the other two
    ///         are empty while the leg is not open and the series trades.
    /// @param sizeCh Signed size, CH WAD (|size| < 2^119 wei ≈ 6.6e17 CH: a larger fill reverts).
    /// @param entryPriceWad Average series price of the open size, WAD (< 2^120 ≈ 1.3e18 USD per CH: a larger fill
    ///        reverts).
    /// @param listed Whether the account is in the series' account list (set once; cleared by the settlement, after
    ///        which the series never trades again).
    /// @param open Whether the position counts in `openPositions` (until settled or closed before expiry).
    /// @param electedCh Delivery elected (longs), CH WAD.
    /// @param escrowCh CH escrowed for delivery (shorts), CH WAD.
    /// @param deliveryBaseCh |short size| at expiry when a post-expiry liquidation reduced it (else 0).
    /// @param proofDeadline Deadline of the guarantor's pending delivery-proof demand (0 = none).
    /// @param baseTaken Whether `deliveryBaseCh` was recorded.
    struct Position {
        int120 sizeCh;
        uint120 entryPriceWad;
        bool listed;
        bool open;
        uint128 electedCh;
        uint128 escrowCh;
        uint128 deliveryBaseCh;
        uint64 proofDeadline;
        bool baseTaken;
    }

    // ───────────────────────────── order-book events ─────────────────────────────

    /// @notice Emitted when a trade order against the vault is committed (IDelayedOrders, per series).
    /// @param seriesId The series.
    /// @param account The trader.
    /// @param sizeDeltaCh Signed size change (a close order: minus the size when committed).
    /// @param limitPriceWad Worst series price accepted; 0 = none.
    /// @param closeAll True for a close order (the position at execution is closed).
    /// @param priceTime It fills at the oracle round in force at this time; executable from priceTime + 1.
    /// @param expiresAt After this anyone may cancel it.
    /// @param feeUsdc Execution fee held.
    /// @param marginUsdc Initial margin held for it (in the account's `accountRisk`).
    /// @param pendingOrders Pending orders in the market after.
    event OrderCommitted(
        uint256 indexed seriesId,
        address indexed account,
        int256 sizeDeltaCh,
        uint256 limitPriceWad,
        bool closeAll,
        uint256 priceTime,
        uint256 expiresAt,
        uint256 feeUsdc,
        uint256 marginUsdc,
        uint256 pendingOrders
    );
    /// @notice Emitted when an order is filled (FuturesTraded carries the fill).
    /// @param seriesId The series.
    /// @param account The trader.
    /// @param executor Who executed it (paid the fee).
    /// @param roundId The oracle round used.
    /// @param indexPriceWad Its index price.
    /// @param feeUsdc Fee paid to the executor.
    /// @param pendingOrders Pending orders after.
    event OrderExecuted(
        uint256 indexed seriesId,
        address indexed account,
        address indexed executor,
        uint80 roundId,
        uint256 indexPriceWad,
        uint256 feeUsdc,
        uint256 pendingOrders
    );
    /// @notice Emitted when an order is cancelled: at execution for a user-caused failure (the reason is the fill's
    ///         revert data: price limit, margin, pause, caps, expiry of the series), or after its expiry
    ///         (DelayedOrderExpired).
    /// @param seriesId The series.
    /// @param account The trader.
    /// @param by Who executed or cancelled it (paid the fee).
    /// @param feeUsdc Fee paid to `by`.
    /// @param reason ABI-encoded error.
    /// @param pendingOrders Pending orders after.
    event OrderCancelled(
        uint256 indexed seriesId,
        address indexed account,
        address indexed by,
        uint256 feeUsdc,
        bytes reason,
        uint256 pendingOrders
    );

    /// @notice A signed (EIP-712 type `FuturesOrder`, the market's EIP712 domain) limit order on one series, filled by a
    ///         taker trader-against-trader at `priceWad` (issue 19 item 2: the listed curve).
    /// @param maker Signer; its position moves by +fill (isBuy) or −fill.
    /// @param seriesId The series (in the signed struct: an order cannot be replayed on another month).
    /// @param isBuy The maker buys (goes long).
    /// @param sizeCh Most CH the order fills in total, WAD.
    /// @param priceWad The price both legs trade at, USDC per CH, WAD.
    /// @param nonce Order id; the first fill claims it; void when below the maker's minimum nonce.
    /// @param expiry Unix time (seconds) after which the order can no longer be filled.
    /// @param taker The only account that may fill it (0: anyone).
    struct Order {
        address maker;
        uint256 seriesId;
        bool isBuy;
        uint256 sizeCh;
        uint256 priceWad;
        uint256 nonce;
        uint64 expiry;
        address taker;
    }

    /// @notice A series' last trader-against-trader trade (the listed curve).
    /// @param priceWad The traded price, WAD (0: never traded).
    /// @param indexWad The risk price (index) the trade was booked at, WAD.
    /// @param time Block time of the trade.
    struct CurvePoint {
        uint96 priceWad;
        uint96 indexWad;
        uint64 time;
    }
}
