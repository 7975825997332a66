// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ILiquidationEngine
/// @notice Permissionless liquidation (SPEC section 7). An account whose equity is below maintenance margin
///         has the smallest fraction f of every position closed at the index that brings it back to initial
///         margin (f = 1 if the remaining notional would be below the dust floor or equity ≤ the bounty). The
///         liquidator earns min(bountyBps × closed notional, maxBounty, the account's positive collateral)
///         (LIQ-04). An account left with no positions and negative collateral goes down the waterfall:
///         guarantor capital → insurance fund → auto-deleveraging (ADL), one event per step (LIQ-03, CLR-03). Never
///         paused by the new-risk pauses (LIQ-05).
///
///         ADL (docs/clearing.md, "Auto-deleveraging"): a deficit left after the insurance fund opens a claim on the
///         bankrupt account, matched against the opposite side of the market of its largest closed position at its
///         bankruptcy price (index ∓ deficit / closed size). Each round has a nomination window: anyone nominates
///         opposite, profitable, healthy accounts; the engine scores each on-chain (unrealised PnL × leverage) and
///         keeps the best ADL_MAX_NOMINEES in order, so a nominee is displaced by any better-ranked one and a
///         keeper cannot pick a victim while a better candidate exists. After the window anyone executes the round
///         (retrying the guarantor and insurance fund first) and earns the liquidation bounty per step.
interface ILiquidationEngine {
    /// @notice A bankrupt account's open ADL claim.
    /// @param market The market whose opposite side is deleveraged.
    /// @param bankruptLong Whether the bankrupt's closed position was long (the candidates are short).
    /// @param roundStartSec When the current nomination round started.
    /// @param sizeCh Bankrupt size still to be matched (CH WAD).
    /// @param perChWad Bankruptcy distance: USDC deficit per CH, WAD (deficit × 1e18 / closed size, rounded up).
    /// @param nominees Candidates of this round, best score first.
    /// @param scores Their scores (USDC: unrealised PnL × gross notional / equity).
    struct AdlClaim {
        address market;
        bool bankruptLong;
        uint40 roundStartSec;
        uint128 sizeCh;
        uint128 perChWad;
        address[] nominees;
        uint256[] scores;
    }

    /// @notice Thrown when `bankrupt` has no open ADL claim.
    /// @param bankrupt The account.
    error AdlNoClaim(address bankrupt);
    /// @notice Thrown when a nomination comes after the round's window closed.
    /// @param bankrupt The account.
    /// @param windowEndsSec When the window closed.
    error AdlNominationsClosed(address bankrupt, uint256 windowEndsSec);
    /// @notice Thrown when a round is executed before its nomination window closed.
    /// @param bankrupt The account.
    /// @param windowEndsSec When the window closes.
    error AdlNominationsOpen(address bankrupt, uint256 windowEndsSec);
    /// @notice Thrown when a nominee is not an ADL candidate: not on the opposite side of the claim's market, not
    ///         profitable at the index, below maintenance margin (liquidate it instead) or the bankrupt itself.
    /// @param candidate The nominee.
    /// @param sizeCh Its size in the claim's market.
    /// @param unrealisedPnlUsdc Its unrealised PnL there.
    /// @param equityUsdc Its equity.
    error AdlNotCandidate(address candidate, int256 sizeCh, int256 unrealisedPnlUsdc, int256 equityUsdc);
    /// @notice Thrown when a nominee is already nominated in this round.
    /// @param candidate The nominee.
    error AdlAlreadyNominated(address candidate);
    /// @notice Thrown when the round's list is full and the nominee does not outrank its last entry.
    /// @param candidate The nominee.
    /// @param scoreUsdc Its score.
    /// @param lowestScoreUsdc The lowest score kept.
    error AdlNotRanked(address candidate, uint256 scoreUsdc, uint256 lowestScoreUsdc);
    /// @notice Thrown when an ADL window is out of range.
    /// @param windowSec The window.
    error AdlInvalidWindow(uint256 windowSec);

    /// @notice Emitted when an ADL round opens (the first after a default, or the next when a round left a deficit).
    /// @param bankrupt The account.
    /// @param market The market deleveraged.
    /// @param bankruptLong Whether the bankrupt was long.
    /// @param deficitUsdc Deficit to cover.
    /// @param sizeCh Bankrupt size still to match.
    /// @param perChWad Bankruptcy distance per CH.
    /// @param windowEndsSec End of the nomination window.
    event AdlRoundOpened(
        address indexed bankrupt,
        address indexed market,
        bool bankruptLong,
        uint256 deficitUsdc,
        uint256 sizeCh,
        uint256 perChWad,
        uint256 windowEndsSec
    );
    /// @notice Emitted for each accepted nomination.
    /// @param bankrupt The account.
    /// @param candidate The nominee.
    /// @param nominator Who nominated it.
    /// @param scoreUsdc Its score.
    /// @param rank Its place in the list (0 = reduced first).
    /// @param displaced A nominee pushed out of a full list (0 if none).
    event AdlNominated(
        address indexed bankrupt,
        address indexed candidate,
        address indexed nominator,
        uint256 scoreUsdc,
        uint256 rank,
        address displaced
    );
    /// @notice Emitted when a nominee is skipped at execution (no longer opposite or profitable).
    /// @param bankrupt The account.
    /// @param candidate The nominee.
    event AdlNomineeSkipped(address indexed bankrupt, address indexed candidate);
    /// @notice Emitted when a round is executed (each step also emits ClearingHouse.PositionDeleveraged).
    /// @param bankrupt The account.
    /// @param keeper The executor (bounties).
    /// @param steps Positions reduced.
    /// @param recoveredUsdc Deficit covered by this round.
    /// @param deficitLeftUsdc Deficit left.
    /// @param sizeLeftCh Bankrupt size still to match (0 with a deficit left: nothing more can be deleveraged).
    /// @param closed Whether the claim is closed (otherwise the next round opened).
    event AdlRoundExecuted(
        address indexed bankrupt,
        address indexed keeper,
        uint256 steps,
        uint256 recoveredUsdc,
        uint256 deficitLeftUsdc,
        uint256 sizeLeftCh,
        bool closed
    );
    /// @notice Emitted when the ADL nomination window changes.
    /// @param windowSec The window.
    event AdlWindowSet(uint256 windowSec);

    /// @notice Thrown when the account is at or above maintenance margin (LIQ-01).
    /// @param account The account.
    /// @param equityUsdc Its equity.
    /// @param maintenanceMarginUsdc Its maintenance margin.
    error LiquidationAccountHealthy(address account, int256 equityUsdc, uint256 maintenanceMarginUsdc);
    /// @notice Thrown when a solvent account (equity ≥ 0) would be liquidated inside the sequencer grace period: after
    ///         an L2 sequencer outage its owner gets the oracle's grace period to top up at the fresh price (Aave's
    ///         PriceOracleSentinel rule). Insolvent accounts are liquidated at once.
    /// @param account The account.
    /// @param upSinceSec When the sequencer came back up.
    /// @param graceEndsSec Liquidations of solvent accounts resume after this second.
    /// @param equityUsdc The account's equity.
    error LiquidationSequencerGracePeriod(address account, uint256 upSinceSec, uint256 graceEndsSec, int256 equityUsdc);
    /// @notice Thrown when a parameter is out of range.
    error LiquidationInvalidParams();

    /// @notice Emitted on every liquidation.
    /// @param account The account.
    /// @param keeper The liquidator.
    /// @param fractionWad Fraction of every position closed (0 when only a deficit was resolved).
    /// @param priceWad Index price.
    /// @param bountyUsdc Bounty paid.
    /// @param collateralUsdc Collateral after (after the waterfall: ≥ 0).
    /// @param positionsLeft Positions still open.
    event AccountLiquidated(
        address indexed account,
        address indexed keeper,
        uint256 fractionWad,
        uint256 priceWad,
        uint256 bountyUsdc,
        int256 collateralUsdc,
        uint256 positionsLeft
    );
    /// @notice Emitted when parameters change.
    /// @param bountyBps Bounty as bps of closed notional.
    /// @param maxBountyUsdc Cap per liquidation.
    /// @param dustNotionalUsdc Remaining notional below which the account is fully closed.
    event LiquidationParamsSet(uint256 bountyBps, uint256 maxBountyUsdc, uint256 dustNotionalUsdc);
    /// @notice Emitted when the engine copies the ClearingHouse's waterfall modules (`syncModules`).
    /// @param guarantorPool The guarantor pool the waterfall pays from now.
    /// @param insuranceFund The insurance fund the waterfall pays from now (address(0): none).
    event LiquidationModulesSynced(address indexed guarantorPool, address indexed insuranceFund);

    /// @notice Liquidates `account` (permissionless).
    /// @param account The account below maintenance margin.
    /// @return fractionWad Fraction closed.
    /// @return bountyUsdc Bounty paid to the caller.
    function liquidate(address account) external returns (uint256 fractionWad, uint256 bountyUsdc);

    /// @notice Copies the ClearingHouse's guarantor pool and insurance fund into the engine (permissionless: it only
    ///         copies the ClearingHouse's own `liquidationModules`). The waterfall then pays from the copy with one
    ///         SLOAD instead of a call; call it after every `ClearingHouse.setModules` that swaps either (governance
    ///         batches both in one operation; the deploy module syncs). Before the first sync the waterfall reads the
    ///         ClearingHouse on every default.
    /// @return guarantorPool The pool copied.
    /// @return insuranceFund The fund copied.
    function syncModules() external returns (address guarantorPool, address insuranceFund);

    /// @notice The waterfall modules as of the last `syncModules` (address(0) pool: never synced).
    /// @return guarantorPool The pool.
    /// @return insuranceFund The fund.
    function waterfallModules() external view returns (address guarantorPool, address insuranceFund);

    /// @notice Sets parameters (ADMIN).
    /// @param bountyBps Bounty bps of closed notional (≤ 1000).
    /// @param maxBountyUsdc Cap per liquidation.
    /// @param dustNotionalUsdc Dust floor.
    function setParams(uint256 bountyBps, uint256 maxBountyUsdc, uint256 dustNotionalUsdc) external;

    /// @notice Whether `account` is liquidatable at the current index, with its equity and maintenance margin.
    /// @param account The account.
    /// @return liquidatable True when equity < maintenance margin.
    /// @return equityUsdc Equity.
    /// @return maintenanceMarginUsdc Maintenance margin.
    function isLiquidatable(
        address account
    ) external view returns (bool liquidatable, int256 equityUsdc, uint256 maintenanceMarginUsdc);

    /// @notice Parameters.
    /// @return bountyBps Bounty bps.
    /// @return maxBountyUsdc Cap.
    /// @return dustNotionalUsdc Dust floor.
    function params() external view returns (uint256 bountyBps, uint256 maxBountyUsdc, uint256 dustNotionalUsdc);

    /// @notice Nominates `candidate` for `bankrupt`'s open ADL round (permissionless, during the window). The engine
    ///         checks it is on the opposite side of the claim's market, profitable at the index and at or above
    ///         maintenance margin, scores it and keeps it if it ranks among the best ADL_MAX_NOMINEES.
    /// @param bankrupt The bankrupt account.
    /// @param candidate The nominee.
    /// @return scoreUsdc Its score.
    /// @return rank Its place (0 = reduced first).
    function nominateAdl(address bankrupt, address candidate) external returns (uint256 scoreUsdc, uint256 rank);

    /// @notice Executes `bankrupt`'s ADL round after its window (permissionless; a bounty per step): retries the
    ///         guarantor and the insurance fund, then reduces the nominees best first at the bankruptcy price until
    ///         the deficit or the bankrupt's size is covered; opens the next round if a deficit is left.
    /// @param bankrupt The bankrupt account.
    /// @return steps Positions reduced.
    /// @return recoveredUsdc Deficit covered by ADL.
    function executeAdl(address bankrupt) external returns (uint256 steps, uint256 recoveredUsdc);

    /// @notice Sets the ADL nomination window (ADMIN): 1 s to 1 day.
    /// @param windowSec The window.
    function setAdlWindow(uint256 windowSec) external;

    /// @notice The ADL nomination window (default 300 s).
    /// @return windowSec The window.
    function adlWindow() external view returns (uint256 windowSec);

    /// @notice `bankrupt`'s open ADL claim (market 0: none).
    /// @param bankrupt The account.
    /// @return claim The claim.
    function adlClaim(address bankrupt) external view returns (AdlClaim memory claim);

    /// @notice The score `candidate` would get for `bankrupt`'s claim at the current index (reverts like nominateAdl
    ///         when it is no candidate).
    /// @param bankrupt The account.
    /// @param candidate The candidate.
    /// @return scoreUsdc unrealised PnL × gross notional / equity, USDC.
    function adlScore(address bankrupt, address candidate) external view returns (uint256 scoreUsdc);
}
