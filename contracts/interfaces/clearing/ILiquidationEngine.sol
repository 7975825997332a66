// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ILiquidationEngine
/// @notice Permissionless liquidation (SPEC section 7). An account whose equity is below maintenance margin
///         has the smallest fraction f of every position closed at the index that brings it back to initial
///         margin (f = 1 if the remaining notional would be below the dust floor or equity ≤ the bounty). The
///         liquidator earns min(bountyBps × closed notional, maxBounty, the account's positive collateral)
///         (LIQ-04). An account left with no positions and negative collateral goes down the waterfall:
///         guarantor capital → insurance fund → socialised loss, one event per step (LIQ-03). Never paused by
///         the new-risk pauses (LIQ-05).
interface ILiquidationEngine {
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

    /// @notice Liquidates `account` (permissionless).
    /// @param account The account below maintenance margin.
    /// @return fractionWad Fraction closed.
    /// @return bountyUsdc Bounty paid to the caller.
    function liquidate(address account) external returns (uint256 fractionWad, uint256 bountyUsdc);

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
}
