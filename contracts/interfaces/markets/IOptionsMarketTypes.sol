// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IOptionsMarketTypes
/// @notice The enums and structs of IOptionsMarket (shared by the market, its settlement module and lenses).
interface IOptionsMarketTypes {
    /// @notice Call (right to buy at the strike) or put (right to sell at the strike).
    enum OptionKind {
        Call,
        Put
    }

    /// @notice A series' life cycle.
    /// @dev None: unknown id. Trading: before expiry. Expired: expiry passed, price not fixed. Disputable: price fixed,
    ///      dispute window open. Final: price final, positions being settled. Settled: every account settled.
    enum SeriesStatus {
        None,
        Trading,
        Expired,
        Disputable,
        Final,
        Settled
    }

    /// @notice Keeper work items, carried by OptionsAlreadyDone.
    enum Work {
        FixPrice,
        Settle
    }

    /// @notice What governance lists (and what a permissionless listing derives).
    /// @param kind Call or put.
    /// @param onFutures True: exercise opens a futures position on `futuresSeriesId`; false: cash-settled on the index.
    /// @param futuresSeriesId The futures series (ignored when `onFutures` is false).
    /// @param expiry Unix seconds; for futures options ≤ the futures series' expiry.
    /// @param strikeWad Strike, USDC per CH (WAD, > 0).
    /// @param capWad Calls: maximum payoff per CH (the call-spread width, > 0). Puts: ignored (the cap is the strike).
    struct SeriesParams {
        OptionKind kind;
        bool onFutures;
        uint64 futuresSeriesId;
        uint64 expiry;
        uint128 strikeWad;
        uint128 capWad;
    }

    /// @notice A listed series and its running totals.
    /// @param expiry Unix seconds.
    /// @param kind Call or put.
    /// @param onFutures Exercise opens a futures position.
    /// @param futuresSeriesId The futures series.
    /// @param priceFixedAt When the settlement price was fixed (0 until then).
    /// @param disputeEndsAt When the guardian's correction window ends and the price is final, recorded with the price
    ///        (priceFixedAt + the disputeWindowSec in force then), so a later change of the parameter neither reopens
    ///        nor shortens it; 0 until the fix (and for a series fixed before the field existed: then
    ///        priceFixedAt + the current disputeWindowSec).
    /// @param strikeWad Strike, WAD.
    /// @param capWad Maximum payoff per CH (calls: the cap; puts: the strike) = collateral per CH.
    /// @param openInterestCh Σ shorts = Σ longs outstanding, CH wei.
    /// @param postedUsdc Σ collateral ever posted to the series (MKT-07: paid + released ≤ posted).
    /// @param accountCount Accounts listed for settlement (an account is listed when its position becomes non-zero).
    /// @param settlementPriceWad The settlement price (0 until fixed).
    /// @param paidUsdc Σ paid to holders (and to holders in a futures-exercise cash fallback).
    /// @param releasedUsdc Σ collateral returned to writers (close, settlement, futures exercise).
    /// @param cursor Next account to settle (cash and out-of-the-money series; holders of in-the-money futures options).
    /// @param writerCursor Next writer to pair with a holder (in-the-money futures options).
    /// @param pendingIndex Position + 1 in the pending-series list (0 once settled).
    /// @param settled True once every account is settled.
    /// @param oraclePriceWad The index the price was fixed at, recorded by the first correction (0 until then; without a
    ///        correction it is `settlementPriceWad`): corrections stay within maxCorrectionBps of it.
    /// @param lister Who listed it by the permissionless rule (zero for a governance listing).
    /// @param listingBondUsdc The lister's bond still held (refunded or forfeited when the price is fixed).
    /// @param listedAt When it was listed, unix seconds.
    /// @param feesUsdc Fee income its fills produced while its listing bond was held, up to the first fill that reached
    ///        the bond (the bond is refunded at the fix if this reached it; not counted for unbonded series).
    struct Series {
        uint64 expiry;
        OptionKind kind;
        bool onFutures;
        uint64 futuresSeriesId;
        uint64 priceFixedAt;
        uint48 disputeEndsAt;
        uint128 strikeWad;
        uint128 capWad;
        uint96 openInterestCh;
        uint128 postedUsdc;
        uint32 accountCount;
        uint128 settlementPriceWad;
        uint128 paidUsdc;
        uint128 releasedUsdc;
        uint32 cursor;
        uint32 writerCursor;
        uint32 pendingIndex;
        bool settled;
        uint128 oraclePriceWad;
        address lister;
        uint64 listingBondUsdc;
        uint32 listedAt;
        uint64 feesUsdc;
    }

    /// @notice One account's position in one series (one storage word).
    /// @param longCh Options held, CH wei.
    /// @param shortCh Options written and outstanding, CH wei.
    /// @param collateralUsdc Collateral backing `shortCh`, USDC (≥ shortCh · capWad / 1e30 at all times).
    struct Position {
        uint96 longCh;
        uint96 shortCh;
        uint64 collateralUsdc;
    }

    /// @notice A signed offer to buy or sell options of one series (EIP-712 type `Offer`).
    /// @param maker The signer (EOA or ERC-1271 wallet) whose ClearingHouse account pays or receives the premium.
    /// @param seriesId The series.
    /// @param isBuy True: the maker buys options (pays the premium). False: the maker sells (its longs first, then
    ///        it writes the rest, posting collateral).
    /// @param sizeCh Total size the offer may trade, CH wei.
    /// @param premiumWad Premium per CH of option, USDC per CH (WAD).
    /// @param nonce Offer id; offers below the maker's minimum nonce are void.
    /// @param expiry Unix seconds after which the offer can no longer be filled.
    /// @param taker The only account allowed to fill it, or address(0) for anyone.
    struct Offer {
        address maker;
        uint256 seriesId;
        bool isBuy;
        uint256 sizeCh;
        uint256 premiumWad;
        uint256 nonce;
        uint64 expiry;
        address taker;
    }

    /// @notice Governance parameters.
    /// @param makerFeeBps Fee on the premium paid by an offer's maker (≤ MAX_FEE_BPS), rounded up.
    /// @param takerFeeBps Fee on the premium paid by an offer's taker (≤ MAX_FEE_BPS), rounded up.
    /// @param disputeWindowSec Time after the price is fixed during which the guardian may correct it.
    /// @param expiryGridSec Permissionless listing: expiries are `k · expiryGridSec + expiryOffsetSec`.
    /// @param expiryOffsetSec Offset of the expiry grid (e.g. 8 h: 08:00 UTC).
    /// @param minTimeToExpirySec Permissionless listing: expiry ≥ now + this.
    /// @param maxHorizonSec Permissionless listing: expiry ≤ now + this.
    /// @param maxStrikeDeviationBps Permissionless listing: |strike − index| ≤ index · this / 10,000.
    /// @param callCapBps Permissionless listing: a call's cap = strike · this / 10,000.
    /// @param maxLiveSeries Series listed and not yet expired-and-fixed, at most (permissionless listing only).
    /// @param bountyUsdc Keeper bounty: per settled account (from its credit) and per fixed price (from fees).
    /// @param strikeStepWad Permissionless listing: strikes are multiples of this.
    /// @param maxCorrectionBps Largest distance of a guardian's correction from the oracle's fixed price, bps (≤ 5,000).
    /// @param listingBondPerDayUsdc Permissionless listing: bond per started day to expiry, USDC (≤ 1,000 USDC).
    struct Params {
        uint16 makerFeeBps;
        uint16 takerFeeBps;
        uint32 disputeWindowSec;
        uint32 expiryGridSec;
        uint32 expiryOffsetSec;
        uint32 minTimeToExpirySec;
        uint32 maxHorizonSec;
        uint16 maxStrikeDeviationBps;
        uint16 callCapBps;
        uint16 maxLiveSeries;
        uint64 bountyUsdc;
        uint128 strikeStepWad;
        uint16 maxCorrectionBps;
        uint48 listingBondPerDayUsdc;
    }

    /// @notice An account's margined shorts in one series (issue 20 item 3): written without collateral, margined by
    ///         the ClearingHouse's portfolio margin. `shortCh` counts in the account's margin; `prepaidCh` were
    ///         liquidated — the account paid their value `prepaidUsdc` into the market's reserve and they no longer
    ///         count in its margin; both settle at expiry from the account's ClearingHouse collateral.
    struct MarginedShort {
        uint96 shortCh;
        uint96 prepaidCh;
        uint64 prepaidUsdc;
    }

    /// @notice A series' margined shorts: `openCh` (margined and prepaid shorts not yet settled) and, once the
    ///         settlement is final, the holders' claim on them booked into the reserve (`dueLeftUsdc`: what the
    ///         margined writers still owe the reserve; `booked`).
    struct MarginedSeries {
        uint96 openCh;
        uint128 dueLeftUsdc;
        bool booked;
    }
}
