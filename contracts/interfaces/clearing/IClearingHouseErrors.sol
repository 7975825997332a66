// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IClearingHouseErrors
/// @notice The errors of IClearingHouse, declared once and inherited by it (same selectors).
interface IClearingHouseErrors {
    /// @notice Thrown when an amount of zero is passed.
    error ClearingZeroAmount();

    /// @notice Thrown when `market` is not registered.
    /// @param market The caller or argument.
    error ClearingMarketNotRegistered(address market);

    /// @notice Thrown when a governance setter names an address that is not a registered market (the caller-side
    ///         check of the market entry points is ClearingMarketNotRegistered).
    /// @param market The address.
    error ClearingUnknownMarket(address market);

    /// @notice Thrown when registering a market twice.
    /// @param market The market.
    error ClearingMarketAlreadyRegistered(address market);

    /// @notice Thrown when an account would hold positions in more than `max` markets.
    /// @param account The account.
    /// @param max MAX_MARKETS_PER_ACCOUNT.
    error ClearingTooManyMarkets(address account, uint256 max);

    /// @notice Thrown when a risk-increasing action would leave equity below initial margin (LIQ-01).
    /// @param account The account.
    /// @param requiredUsdc Initial margin (plus the amount withdrawn, for a withdrawal).
    /// @param equityUsdc Equity after the action.
    error ClearingInsufficientMargin(address account, uint256 requiredUsdc, int256 equityUsdc);

    /// @notice Thrown when a withdrawal exceeds the account's collateral.
    /// @param account The account.
    /// @param requestedUsdc Amount requested.
    /// @param collateralUsdc Collateral available.
    error ClearingInsufficientCollateral(address account, uint256 requestedUsdc, int256 collateralUsdc);

    /// @notice Thrown when a liquidation fraction is 0 or above 1e18.
    /// @param fractionWad The fraction.
    error ClearingInvalidFraction(uint256 fractionWad);

    /// @notice Thrown when a deficit is absorbed for an account that still has positions or no deficit.
    /// @param account The account.
    /// @param collateralUsdc Its collateral.
    /// @param positionCount Its open positions.
    error ClearingNoDeficit(address account, int256 collateralUsdc, uint256 positionCount);

    /// @notice Thrown when an auto-deleveraging step would not reduce the candidate's position (no position, the same
    ///         side as the step, or a step larger than the position).
    /// @param candidate The candidate.
    /// @param market The market.
    /// @param sizeCh Its size.
    /// @param deltaCh The step's size change.
    error ClearingAdlNotReducing(address candidate, address market, int256 sizeCh, int256 deltaCh);

    /// @notice Thrown when a market withdraws more than its PnL pool holds.
    /// @param market The market.
    /// @param requestedUsdc Amount requested.
    /// @param poolUsdc Pool balance.
    error ClearingMarketPoolTooLow(address market, uint256 requestedUsdc, int256 poolUsdc);

    /// @notice Thrown when a market withdraws more of its pool than is cash: the pool less the accounts' uncovered
    ///         negative collateral (credited to the pools, not yet paid in; IClearingHouse.uncoveredCollateralUsdc).
    /// @param market The market.
    /// @param requestedUsdc Amount requested.
    /// @param poolUsdc Pool balance.
    /// @param uncoveredUsdc Σ max(0, −collateral) over all accounts.
    error ClearingPoolCashShort(address market, uint256 requestedUsdc, int256 poolUsdc, uint256 uncoveredUsdc);

    /// @notice Thrown when a liquidation entry point is called by anyone but the LiquidationEngine.
    /// @param caller The caller.
    error ClearingOnlyLiquidationEngine(address caller);

    /// @notice Thrown when a value does not fit its storage type.
    /// @param value The value.
    error ClearingOverflow(int256 value);
    /// @notice Thrown when a scenario market answers a scenario vector of the wrong length.
    /// @param market The market.
    /// @param length The length it answered.
    error ClearingBadScenarioAnswer(address market, uint256 length);

    /// @notice Thrown when initialize names a collateral token other than the implementation's.
    /// @param usdc The token initialize named.
    /// @param implementationUsdc The implementation's token (its constructor argument).
    error ClearingUsdcMismatch(address usdc, address implementationUsdc);
}
