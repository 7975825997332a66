// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IClearingHouseErrors} from "./IClearingHouseErrors.sol";
import {IClearingHouseEvents} from "./IClearingHouseEvents.sol";

/// @title IClearingHouse
/// @notice Cross-margined USDC accounts (SPEC section 7). One account per wallet across every market; each
///         account belongs to one guarantor (IGuarantorPool.guarantorOf). Customer collateral lives here and only
///         here; guarantor capital lives in the GuarantorPool and insurance in the InsuranceFund (LIQ-07).
///         Markets (Roles.MARKET) open, change and settle positions; the LiquidationEngine (Roles.CLEARING)
///         closes them and resolves deficits through the waterfall.
/// @dev Units: collateral, PnL, fees and notional in USDC (6 decimals); sizes in CH (WAD, signed: + long);
///      prices in USDC per CH (WAD). Cost-basis accounting: `openNotionalUsdc` is the signed USDC paid for
///      the open size (negative for a short); unrealised PnL = size × index − openNotional, rounded down.
///      Ledger identity (ACC-01): USDC balance = Σ collateral + Σ market PnL pools + accrued fees.
interface IClearingHouse is IClearingHouseErrors, IClearingHouseEvents {
    /// @notice One account's position in one market.
    /// @param sizeCh Signed size, CH WAD (+ long, − short).
    /// @param openNotionalUsdc Signed cost basis, USDC (same sign as size).
    struct Position {
        int128 sizeCh;
        int128 openNotionalUsdc;
    }

    /// @notice An account's margin state at one price.
    /// @param collateralUsdc Deposited collateral plus realised PnL, funding and fees (may be < 0 in a default).
    /// @param unrealisedPnlUsdc Σ over positions of size × price − openNotional, rounded down, plus the equity
    ///        adjustments of flagged markets (IMarketAccountRisk: owed funding, delivery payments, …).
    /// @param equityUsdc collateral + unrealised PnL + token collateral's haircut value.
    /// @param initialMarginUsdc Σ |size| × price × initial rate, rounded up, plus flagged markets' extra initial margin.
    /// @param maintenanceMarginUsdc Σ |size| × price × maintenance rate, rounded up, plus their extra maintenance.
    /// @param grossNotionalUsdc Σ |size| × price, rounded up.
    /// @param positionCount Markets in the account's set: a non-zero position, or held by the market at zero size.
    /// @param tokenCollateralUsdc Haircut value of the account's non-USDC collateral at the price (rounded down; part
    ///        of equity, never of collateralUsdc; IClearingHouseCollateral).
    /// @param tokenMask Bit (id − 1) set for each collateral token the account holds (0: USDC only).
    struct MarginState {
        int256 collateralUsdc;
        int256 unrealisedPnlUsdc;
        int256 equityUsdc;
        uint256 initialMarginUsdc;
        uint256 maintenanceMarginUsdc;
        uint256 grossNotionalUsdc;
        uint256 positionCount;
        uint256 tokenCollateralUsdc;
        uint256 tokenMask;
    }

    /// @notice The default-waterfall layers after the account itself (LIQ-03).
    enum Layer {
        Account,
        Guarantor,
        Insurance,
        Socialised,
        Adl
    }

    /// @notice One auto-deleveraging step (docs/clearing.md, "Auto-deleveraging"): the LiquidationEngine reduces
    ///         `candidate`'s position in `market` by `deltaCh` at the index and moves up to `maxHaircutUsdc` of the
    ///         realised profit to the bankrupt account (its bankruptcy-price distance on the reduced size), plus up to
    ///         `bountyUsdc` to the keeper; haircut + bounty never exceed the profit realised.
    /// @param bankrupt The account whose deficit is covered.
    /// @param candidate The profitable opposite account reduced.
    /// @param market The market of the bankrupt's closed position.
    /// @param deltaCh Signed size change (reduces the candidate's position, never flips it).
    /// @param priceWad Index price of the reduction.
    /// @param maxHaircutUsdc Haircut asked (capped by the profit and by the bankrupt's deficit).
    /// @param keeper Receives the bounty.
    /// @param bountyUsdc Bounty asked (capped by the profit left after the haircut).
    struct AdlStep {
        address bankrupt;
        address candidate;
        address market;
        int256 deltaCh;
        uint256 priceWad;
        uint256 maxHaircutUsdc;
        address keeper;
        uint256 bountyUsdc;
    }

    /// @notice Emitted for each waterfall layer that absorbs part of an account's deficit (LIQ-03).
    /// @param account The defaulted account.
    /// @param layer Guarantor, Insurance, Adl (Socialised is no longer used: auto-deleveraging replaced it).
    /// @param amountUsdc USDC absorbed by this layer.
    /// @param remainingDeficitUsdc Deficit left after this layer.
    /// @param market For Adl: the market of the reduced position.
    event DeficitAbsorbed(
        address indexed account,
        Layer indexed layer,
        uint256 amountUsdc,
        uint256 remainingDeficitUsdc,
        address market
    );

    /// @notice Deposits `amountUsdc` of the caller's USDC as collateral. Pausable ("clearing.deposit").
    /// @param amountUsdc USDC to deposit.
    function deposit(uint256 amountUsdc) external;

    /// @notice Withdraws collateral to `to`. Needs collateral ≥ amount and, with open positions, equity − amount ≥
    ///         initial margin. Without positions the oracle is not read (SEC-05). Pausable only by
    ///         "clearing.withdraw", never by the new-risk pause.
    /// @param amountUsdc USDC to withdraw.
    /// @param to Recipient.
    function withdraw(uint256 amountUsdc, address to) external;

    /// @notice Registers a market (ADMIN). Its risk parameters are set in the RiskEngine.
    /// @param market The market contract (also granted Roles.MARKET by governance).
    function registerMarket(address market) external;

    /// @notice Lets socialised loss be charged to `market`'s PnL pool, or not (ADMIN). Only markets whose pool is LP
    ///         capital that can absorb a loss (perps, futures); never an options market (its pool is the writers'
    ///         collateral). Emits MarketFlagsSet.
    /// @param market A registered market.
    /// @param enabled The flag after.
    function setMarketLossAbsorber(address market, bool enabled) external;

    /// @notice Makes every margin computation of `market`'s accounts — trades, withdrawals, marginState /
    ///         liquidationState, liquidation — ask the market what the account holds there beyond its position
    ///         (IMarketAccountRisk.accountRisk: owed funding, delivery payments, spreads, bonds) (ADMIN). Emits
    ///         MarketFlagsSet.
    /// @param market A registered market implementing IMarketAccountRisk.
    /// @param enabled The flag after.
    function setMarketAccountRisk(address market, bool enabled) external;

    /// @notice Lets `market` keep its accounts in their market set at zero size until it releases them (ADMIN): a
    ///         market whose accounts can hold obligations with no net position (futures calendar spreads, delivery)
    ///         so their margin keeps being computed, the guarantor cannot let them go and the waterfall waits.
    ///         Turning it off releases no account already held. Emits MarketFlagsSet.
    /// @param market A registered market that calls `releaseAccount`.
    /// @param enabled The flag after.
    function setMarketHoldsAccounts(address market, bool enabled) external;

    /// @notice Portfolio-margins the accounts of `market` (ADMIN): every margin computation of an account holding it
    ///         asks IMarketScenarioRisk.scenarioPnl and replaces the rate-based requirement of the account's positions
    ///         by the worst loss over the scenario grid (ClearingPortfolio, CLR-04). The market should also hold its
    ///         accounts (setMarketHoldsAccounts) and value them (setMarketAccountRisk). Emits MarketFlagsSet (whose
    ///         three booleans do not include this flag).
    /// @param market A registered market implementing IMarketScenarioRisk.
    /// @param enabled The flag after.
    function setMarketScenarioRisk(address market, bool enabled) external;

    /// @notice Brings the copy of the `clearing.withdraw` / `clearing.newRisk` pause flags that withdrawals and trades
    ///         read (beside the oracle address) in line with the flags (ADMIN; the upgrade's migration call). Until
    ///         then such a gate reads the flag itself: an empty copy never reads "not paused" (docs/clearing.md).
    function syncPauseMirror() external;

    /// @notice Sets the oracle, risk engine, guarantor pool, insurance fund and liquidation engine (ADMIN).
    /// @param oracle IComputePriceOracle.
    /// @param riskEngine IRiskEngine.
    /// @param guarantorPool IGuarantorPool.
    /// @param insuranceFund IInsuranceFund.
    /// @param liquidationEngine ILiquidationEngine: the only caller of liquidationClose and absorbDeficit.
    function setModules(
        address oracle,
        address riskEngine,
        address guarantorPool,
        address insuranceFund,
        address liquidationEngine
    ) external;

    /// @notice A market opens, increases, reduces or flips `account`'s position (Roles.MARKET, registered).
    ///         Realises PnL on the reduced part at `tradePriceWad`, charges `feeUsdc`. When the trade adds risk
    ///         (|size| grows or flips) it is pausable ("clearing.newRisk"), goes through the account's guarantor
    ///         (IGuarantorPool.onExposureChanged: admission and limits) and needs equity ≥ initial margin at the
    ///         index price afterwards (LIQ-01, ORC-01). A risk-reducing trade calls no other contract: the
    ///         guarantor's recorded exposure stays (conservatively) high until the account's next risk-increasing
    ///         trade or a permissionless `syncExposure` (SEC-05: a close never depends on the guarantor).
    /// @param account The trader.
    /// @param sizeDeltaCh Signed size change, CH WAD.
    /// @param tradePriceWad Execution price, USDC per CH, WAD.
    /// @param feeUsdc Fee charged to the account (accrued for the insurance fund).
    /// @return realisedPnlUsdc PnL realised, rounded down.
    function modifyPosition(
        address account,
        int256 sizeDeltaCh,
        uint256 tradePriceWad,
        uint256 feeUsdc
    ) external returns (int256 realisedPnlUsdc);

    /// @notice `settle(account, settleUsdc)` followed by `modifyPosition(account, sizeDeltaCh, tradePriceWad, feeUsdc)`
    ///         in one call (Roles.MARKET, registered): the same checks, state changes and events (AccountSettled, when
    ///         `settleUsdc` ≠ 0, then PositionModified), so the margin check sees the cash flow. Saves a market's
    ///         second call, caller check and account/pool write per trade.
    /// @param account The trader.
    /// @param sizeDeltaCh Signed size change, CH WAD.
    /// @param tradePriceWad Execution price, USDC per CH, WAD.
    /// @param feeUsdc Fee charged to the account (accrued for the insurance fund).
    /// @param settleUsdc Signed cash flow credited to the account from the market's pool first (negative: debited).
    /// @return realisedPnlUsdc PnL realised, rounded down.
    /// @return position The account's position in the calling market after the trade.
    function modifyPositionAndSettle(
        address account,
        int256 sizeDeltaCh,
        uint256 tradePriceWad,
        uint256 feeUsdc,
        int256 settleUsdc
    ) external returns (int256 realisedPnlUsdc, Position memory position);

    /// @notice A market moves a cash flow (funding, option premium) between `account` and its PnL pool.
    /// @param account The account.
    /// @param amountUsdc Signed amount credited to the account (negative: debited).
    function settle(address account, int256 amountUsdc) external;

    /// @notice The calling market (registered) added risk to `account` outside its ClearingHouse position (a margined
    ///         option write changes its scenario risk): the market joins the account's market set (held, until
    ///         `releaseAccount`) if it is not in it, then the account passes the gates of a risk-increasing trade — the
    ///         new-risk pauses (global and the market's), the guarantor's pre-trade gate and equity ≥ initial margin
    ///         at the index (portfolio margin with the market's new scenario risk). Reverts otherwise; no event (the
    ///         market emits its own).
    /// @param account The account.
    function checkRiskIncrease(address account) external;

    /// @notice The calling market (registered) no longer holds `account`: it leaves the account's market set now if
    ///         its position there is zero, else when the position closes. Idempotent; never reverts for a registered
    ///         market, so it may be called from the liquidation hook (the one ClearingHouse call allowed there).
    /// @param account The account.
    function releaseAccount(address account) external;

    /// @notice A market adds USDC (pulled from the caller) to its PnL pool: house/LP capital backing payouts.
    /// @param amountUsdc USDC to pull.
    function fundMarketPool(uint256 amountUsdc) external;

    /// @notice A market takes USDC out of its PnL pool: never below zero, and never more than pool − uncovered
    ///         collateral (ClearingPoolCashShort): a pool credited with a loss the account has not paid in cannot pay
    ///         that credit out of other accounts' margin.
    /// @param amountUsdc USDC to send.
    /// @param to Recipient.
    function withdrawMarketPool(uint256 amountUsdc, address to) external;

    /// @notice Closes `fractionWad` of every position of `account` at `priceWad` and pays the liquidator up to
    ///         `bountyUsdc` from the account's positive collateral. Only the LiquidationEngine set in setModules
    ///         (checked by address, not through the AccessManager: it is on the liquidation hot path). The
    ///         guarantor's recorded exposure is not reduced here (it stays conservatively high until the
    ///         account's next trade or a permissionless syncExposure).
    /// @param account The account.
    /// @param fractionWad Fraction to close, (0, 1e18].
    /// @param priceWad Index price read once by the caller (ORC-02).
    /// @param keeper Receives the bounty.
    /// @param bountyUsdc Bounty asked; the paid bounty is capped by the positive collateral (LIQ-04).
    /// @return collateralUsdc Collateral after.
    /// @return positionsLeft Positions still open.
    /// @return paidBountyUsdc Bounty actually paid.
    function liquidationClose(
        address account,
        uint256 fractionWad,
        uint256 priceWad,
        address keeper,
        uint256 bountyUsdc
    ) external returns (int256 collateralUsdc, uint256 positionsLeft, uint256 paidBountyUsdc);

    /// @notice The largest position (by size) the last `liquidationClose` of `account` closed in a loss-absorbing
    ///         market (perps, futures; never options): the market and side auto-deleveraging matches a deficit
    ///         against. Written only by a close that leaves the account with no positions.
    /// @param account The account.
    /// @return market The market (0 if none).
    /// @return closedCh The signed size closed (+ the account was short, − it was long).
    function adlSourceOf(address account) external view returns (address market, int256 closedCh);

    /// @notice Records the waterfall for an account with no positions and negative collateral (Roles.CLEARING).
    ///         `fromGuarantorUsdc` and `fromInsuranceUsdc` must already have been transferred here. Nothing is
    ///         socialised: what no layer paid stays on the account as negative collateral (`DeficitUnabsorbed`) for
    ///         auto-deleveraging (`adlReduce`) to cover. Emits one event per layer. Only the LiquidationEngine.
    /// @param account The defaulted account.
    /// @param fromGuarantorUsdc Paid in by the guarantor's capital.
    /// @param fromInsuranceUsdc Paid in by the insurance fund.
    /// @return collateralUsdc The account's collateral after (< 0: the deficit left for auto-deleveraging).
    function absorbDeficit(
        address account,
        uint256 fromGuarantorUsdc,
        uint256 fromInsuranceUsdc
    ) external returns (int256 collateralUsdc);

    /// @notice One auto-deleveraging step (Roles.CLEARING: only the LiquidationEngine, which checked the ranking,
    ///         the side and that the insurance fund is exhausted). Never paused (a close, SEC-05).
    /// @param step The step.
    /// @return realisedPnlUsdc PnL the candidate realised at the index.
    /// @return haircutUsdc Moved from the candidate to the bankrupt account.
    /// @return paidBountyUsdc Paid to the keeper.
    function adlReduce(
        AdlStep calldata step
    ) external returns (int256 realisedPnlUsdc, uint256 haircutUsdc, uint256 paidBountyUsdc);

    /// @notice Re-records `account`'s gross open notional with its guarantor (permissionless; never adds risk).
    /// @param account The account.
    function syncExposure(address account) external;

    /// @notice Sends accrued fees to the insurance fund (permissionless).
    function flushFees() external;

    /// @notice Where a per-tenor market's account-risk hook reads its tenor rates: the RiskEngine when the market's
    ///         current σ copy carries the per-tenor bit (the ClearingHouse then charges its net position at the lowest tenor
    ///         σ and the hook must add each tenor's margin above it: IRiskEngine.tenorMarginRates), else zero.
    /// @param market The market.
    /// @return riskEngine The RiskEngine, or zero when the market is not per-tenor margined.
    function tenorMarginSource(address market) external view returns (address riskEngine);

    /// @notice A registered market's flags.
    /// @param market The market.
    /// @return accountRisk Margin computations ask it for the account's extra risk (IMarketAccountRisk).
    /// @return lossAbsorber Socialised loss may be charged to its PnL pool.
    /// @return holdsAccounts It keeps its accounts in their market set until it releases them.
    function marketFlags(
        address market
    ) external view returns (bool accountRisk, bool lossAbsorber, bool holdsAccounts);

    /// @notice An account's margin state at the current index price (reads the oracle once).
    /// @param account The account.
    /// @return state The margin state.
    function marginState(address account) external view returns (MarginState memory state);

    /// @notice The index price (read once) and an account's margin state at it: what a liquidator needs in one call.
    /// @param account The account.
    /// @return state The margin state.
    /// @return priceWad The index price used.
    function liquidationState(address account) external view returns (MarginState memory state, uint256 priceWad);

    /// @notice An account's margin state at `priceWad`.
    /// @param account The account.
    /// @param priceWad Price, WAD.
    /// @return state The margin state.
    function marginStateAt(address account, uint256 priceWad) external view returns (MarginState memory state);

    /// @notice Collateral of `account`, USDC (signed: negative only between a default and its waterfall).
    /// @param account The account.
    /// @return USDC.
    function collateralOf(address account) external view returns (int256);

    /// @notice Collateral of `account` and the number of markets it has a position in (one slot read; the cheap
    ///         "is the account flat?" question for markets that move its cash).
    /// @param account The account.
    /// @return collateralUsdc As `collateralOf`.
    /// @return marketCount `marketsOf(account).length`.
    function accountOf(address account) external view returns (int256 collateralUsdc, uint256 marketCount);

    /// @notice Position of `account` in `market`.
    /// @param account The account.
    /// @param market The market.
    /// @return The position.
    function positionOf(address account, address market) external view returns (Position memory);

    /// @notice Markets in which `account` has a position (≤ MAX_MARKETS_PER_ACCOUNT).
    /// @param account The account.
    /// @return Market addresses.
    function marketsOf(address account) external view returns (address[] memory);

    /// @notice Σ |openNotional| over `account`'s positions: the exposure a guarantor's limits apply to.
    /// @param account The account.
    /// @return USDC.
    function grossOpenNotionalOf(address account) external view returns (uint256);

    /// @notice Market registration and PnL pool. Open interest is the market's own record (one source: PerpMarket
    ///         `marketState`, FuturesMarket `seriesInfo`, OptionsMarket `seriesInfo`), not kept here.
    /// @param market The market.
    /// @return registered Whether registered.
    /// @return poolUsdc PnL pool, USDC (signed).
    function marketInfo(address market) external view returns (bool registered, int256 poolUsdc);

    /// @notice Ledger totals kept on chain (Σ collateral and Σ pools are sums an indexer or test rebuilds from
    ///         events, not stored, to keep deposits and trades cheap).
    /// @return feesUsdc Accrued fees not yet flushed.
    /// @return socialisedLossUsdc Cumulative socialised loss.
    function totals() external view returns (uint256 feesUsdc, uint256 socialisedLossUsdc);

    /// @notice Σ max(0, −collateral) over all accounts: what the pools were credited with that the ClearingHouse does
    ///         not hold yet. Every market's pool withdrawals stop at pool − this; markets subtract it from what they
    ///         let the vault take back (IVaultMarket.withdrawableToVaultUsdc). Vault equity keeps it (a receivable the
    ///         waterfall collects: CLR-05 never charges a pool).
    /// @return USDC.
    function uncoveredCollateralUsdc() external view returns (uint256);

    /// @notice The modules a liquidation needs besides this contract (a cheaper read than `modules`).
    /// @return oracle Price oracle (its sequencer configuration gates liquidations of solvent accounts).
    /// @return guarantorPool Guarantor pool (waterfall layer 1).
    /// @return insuranceFund Insurance fund (waterfall layer 2; zero when none is set).
    function liquidationModules() external view returns (address oracle, address guarantorPool, address insuranceFund);

    /// @notice Module addresses.
    /// @return usdc The collateral token.
    /// @return oracle Price oracle.
    /// @return riskEngine Risk engine.
    /// @return guarantorPool Guarantor pool.
    /// @return insuranceFund Insurance fund.
    /// @return liquidationEngine Liquidation engine.
    function modules()
        external
        view
        returns (
            address usdc,
            address oracle,
            address riskEngine,
            address guarantorPool,
            address insuranceFund,
            address liquidationEngine
        );
}
