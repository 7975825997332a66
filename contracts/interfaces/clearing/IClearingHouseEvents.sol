// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IClearingHouseEvents
/// @notice The events of IClearingHouse, declared once and inherited by it (same selectors).
interface IClearingHouseEvents {
    /// @notice Emitted when collateral is deposited.
    /// @param account The account credited.
    /// @param amountUsdc USDC deposited.
    /// @param collateralUsdc The account's collateral after.
    event MarginDeposited(address indexed account, uint256 amountUsdc, int256 collateralUsdc);

    /// @notice Emitted when collateral is withdrawn.
    /// @param account The account debited.
    /// @param to Recipient.
    /// @param amountUsdc USDC withdrawn.
    /// @param collateralUsdc The account's collateral after.
    event MarginWithdrawn(address indexed account, address indexed to, uint256 amountUsdc, int256 collateralUsdc);

    /// @notice Emitted when a market is registered.
    /// @param market The market.
    event MarketRegistered(address indexed market);

    /// @notice Emitted when the oracle, risk engine, guarantor pool, insurance fund or liquidation engine is set.
    /// @param oracle Price oracle.
    /// @param riskEngine Risk engine.
    /// @param guarantorPool Guarantor pool.
    /// @param insuranceFund Insurance fund.
    /// @param liquidationEngine Liquidation engine.
    event ModulesSet(
        address oracle,
        address riskEngine,
        address guarantorPool,
        address insuranceFund,
        address liquidationEngine
    );

    /// @notice Emitted when a market changes a position.
    /// @param account The account.
    /// @param market The market.
    /// @param sizeDeltaCh Signed size change, CH WAD.
    /// @param tradePriceWad Trade price, WAD.
    /// @param sizeCh Size after.
    /// @param openNotionalUsdc Cost basis after.
    /// @param realisedPnlUsdc PnL realised by this change (rounded down).
    /// @param feeUsdc Fee charged.
    /// @param collateralUsdc Collateral after.
    event PositionModified(
        address indexed account,
        address indexed market,
        int256 sizeDeltaCh,
        uint256 tradePriceWad,
        int256 sizeCh,
        int256 openNotionalUsdc,
        int256 realisedPnlUsdc,
        uint256 feeUsdc,
        int256 collateralUsdc
    );

    /// @notice Emitted when a market settles a cash flow (funding, premium) with an account.
    /// @param account The account.
    /// @param market The market.
    /// @param amountUsdc Signed amount credited to the account.
    /// @param collateralUsdc Collateral after.
    /// @param marketPoolUsdc The market's PnL pool after.
    event AccountSettled(
        address indexed account,
        address indexed market,
        int256 amountUsdc,
        int256 collateralUsdc,
        int256 marketPoolUsdc
    );

    /// @notice Emitted when a market adds USDC to or removes it from its PnL pool.
    /// @param market The market.
    /// @param amountUsdc Signed change.
    /// @param marketPoolUsdc Pool after.
    event MarketPoolChanged(address indexed market, int256 amountUsdc, int256 marketPoolUsdc);

    /// @notice Emitted for every position reduced by a liquidation (waterfall step 0: the account).
    /// @param account The account.
    /// @param market The market.
    /// @param sizeDeltaCh Signed size closed.
    /// @param priceWad Index price.
    /// @param realisedPnlUsdc PnL realised.
    /// @param sizeCh Size after.
    /// @param collateralUsdc Collateral after.
    event PositionLiquidated(
        address indexed account,
        address indexed market,
        int256 sizeDeltaCh,
        uint256 priceWad,
        int256 realisedPnlUsdc,
        int256 sizeCh,
        int256 collateralUsdc
    );

    /// @notice Emitted when a liquidator is paid from the account's collateral.
    /// @param account The account.
    /// @param keeper The liquidator.
    /// @param bountyUsdc USDC paid.
    /// @param collateralUsdc Collateral after.
    event LiquidationBountyPaid(
        address indexed account,
        address indexed keeper,
        uint256 bountyUsdc,
        int256 collateralUsdc
    );

    /// @notice Emitted when part of a deficit has no layer left to absorb it: the account keeps it as negative
    ///         collateral (it never traded a market that absorbs losses). A later liquidation call retries the guarantor
    ///         and the insurance fund; a deposit by the account repays it.
    /// @param account The defaulted account.
    /// @param amountUsdc Deficit left unabsorbed.
    /// @param collateralUsdc The account's collateral after (−amountUsdc).
    event DeficitUnabsorbed(address indexed account, uint256 amountUsdc, int256 collateralUsdc);

    /// @notice Emitted when Σ max(0, −collateral) over all accounts changes: an account's USDC collateral went below
    ///         zero, moved while below, or came back (deposit, settle, trade, liquidation close, bounty, waterfall,
    ///         auto-deleveraging). The account's own post-state event follows in the same transaction.
    /// @param uncoveredCollateralUsdc The total after (`uncoveredCollateralUsdc()`): what the market pools were
    ///        credited with that the ClearingHouse does not hold yet.
    event UncoveredCollateralChanged(uint256 uncoveredCollateralUsdc);

    /// @notice Emitted when governance changes a market's flags (post-state of all of them).
    /// @param market The market.
    /// @param accountRisk Whether every margin computation asks the market for the account's extra risk
    ///        (IMarketAccountRisk).
    /// @param lossAbsorber Whether socialised loss may be charged to the market's PnL pool.
    /// @param holdsAccounts Whether the market keeps its accounts in their market set until it releases them.
    event MarketFlagsSet(address indexed market, bool accountRisk, bool lossAbsorber, bool holdsAccounts);

    /// @notice Emitted when a market that holds its accounts releases one (`releaseAccount`).
    /// @param account The account.
    /// @param market The market.
    /// @param marketCount Markets in the account's set after (the market left it when its position is zero).
    event AccountReleased(address indexed account, address indexed market, uint256 marketCount);

    /// @notice Emitted when accrued fees are sent to the insurance fund.
    /// @param amountUsdc USDC sent.
    /// @param insuranceFund Recipient.
    event FeesFlushed(uint256 amountUsdc, address insuranceFund);

    /// @notice Emitted for every auto-deleveraging step (docs/clearing.md): `candidate`'s position in `market` was
    ///         reduced by `deltaCh` at `priceWad` and `haircutUsdc` of its realised profit went to `bankrupt`.
    /// @param bankrupt The account whose deficit is covered.
    /// @param candidate The reduced account.
    /// @param market The market.
    /// @param deltaCh Signed size change of the candidate.
    /// @param priceWad Index price of the reduction.
    /// @param realisedPnlUsdc PnL realised at the index (before the haircut).
    /// @param haircutUsdc Paid to the bankrupt account (effective price = index ∓ haircut / size).
    /// @param bountyUsdc Paid to the keeper.
    /// @param candidateSizeCh The candidate's size after.
    /// @param candidateCollateralUsdc The candidate's collateral after.
    /// @param bankruptCollateralUsdc The bankrupt account's collateral after (≤ 0).
    event PositionDeleveraged(
        address indexed bankrupt,
        address indexed candidate,
        address indexed market,
        int256 deltaCh,
        uint256 priceWad,
        int256 realisedPnlUsdc,
        uint256 haircutUsdc,
        uint256 bountyUsdc,
        int256 candidateSizeCh,
        int256 candidateCollateralUsdc,
        int256 bankruptCollateralUsdc
    );
}
