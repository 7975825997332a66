// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IPerpMarketErrors
/// @notice The errors of IPerpMarket (the perpetual), declared apart so the market's interface stays short; IPerpMarket
///         inherits them, so its ABI and selectors are unchanged.
interface IPerpMarketErrors {
    /// @notice Thrown when a trade has size 0.
    error PerpZeroSize();
    /// @notice Thrown when |size change| is below the minimum (and the trade is not a full close).
    /// @param sizeCh |size change|.
    /// @param minTradeCh The minimum.
    error PerpTradeTooSmall(uint256 sizeCh, uint256 minTradeCh);
    /// @notice Thrown when a risk-increasing trade would leave |size| above the per-account cap.
    /// @param sizeCh |size| after.
    /// @param maxPositionCh The cap.
    error PerpPositionTooLarge(uint256 sizeCh, uint256 maxPositionCh);
    /// @notice Thrown when a trade would raise a side's open interest above its cap.
    /// @param isLong The side.
    /// @param openInterestCh That side's open interest after.
    /// @param maxOpenInterestCh The cap.
    error PerpOpenInterestCapExceeded(bool isLong, uint256 openInterestCh, uint256 maxOpenInterestCh);
    /// @notice Thrown when the fill price is worse than the caller's limit.
    /// @param fillPriceWad The fill price.
    /// @param acceptablePriceWad The limit (a buy needs fill ≤ limit, a sell fill ≥ limit).
    error PerpPriceLimitExceeded(uint256 fillPriceWad, uint256 acceptablePriceWad);
    /// @notice Thrown when the price impact would push a fill price to zero or below (skew far beyond skewScale).
    /// @param premiumWad The signed premium.
    error PerpInvalidFillPrice(int256 premiumWad);
    /// @notice Thrown when closing without a position.
    /// @param account The account.
    error PerpNoPosition(address account);
    /// @notice Thrown when there is nothing to settle, claim or flush.
    /// @param account The account (or the market for a flush).
    error PerpNothingToSettle(address account);
    /// @notice Thrown by `pokeFunding` / `performUpkeep` when the index is not stale yet: another keeper did the
    ///         work (OPS-01, the checker convention's `<Component>AlreadyDone`).
    /// @param lastFundingTime Last accrual, unix seconds.
    /// @param nextDueAt When a poke is due again.
    error PerpAlreadyDone(uint256 lastFundingTime, uint256 nextDueAt);
    /// @notice Thrown when the vault asks for more than `withdrawableToVaultUsdc()`.
    /// @param requestedUsdc Amount asked.
    /// @param withdrawableUsdc Amount available.
    error PerpWithdrawableTooLow(uint256 requestedUsdc, uint256 withdrawableUsdc);
    /// @notice Thrown when committing an order the account's margin cannot carry: equity − execution fee below its
    ///         initial margin plus the order's.
    /// @param account The account.
    /// @param requiredUsdc Initial margin with the order, USDC.
    /// @param availableUsdc Equity less the execution fee, USDC.
    error PerpInsufficientMargin(address account, uint256 requiredUsdc, int256 availableUsdc);
    /// @notice Thrown when the account's collateral cannot pay an order's execution fee.
    /// @param account The account.
    /// @param feeUsdc The fee.
    /// @param collateralUsdc Its collateral.
    error PerpInsufficientCollateral(address account, uint256 feeUsdc, int256 collateralUsdc);
    /// @notice Thrown when the fill step of an execution is called by anyone but the market itself.
    /// @param caller The caller.
    error PerpOnlySelf(address caller);
    /// @notice Thrown when the liquidation hook is called by anyone but the ClearingHouse.
    /// @param caller The caller.
    error PerpOnlyClearingHouse(address caller);
    /// @notice Thrown by `initialize` when the ClearingHouse or oracle given is not the one the implementation is
    ///         bound to (its constructor's immutables).
    /// @param given The address given.
    /// @param bound The implementation's.
    error PerpModuleMismatch(address given, address bound);
    /// @notice Thrown when parameters are inconsistent.
    /// @param code 1 skewScaleCh = 0, 2 maxFundingRateWad > 1e18, 3 a fee above MAX_FEE_BPS, 4 insurance + burn
    ///        shares > 100 %, 5 lpReserveBps > 100 %, 6 a zero position or open-interest cap, 7 pokeIntervalSec = 0,
    ///        8 minOrderDelaySec = 0 or maxOrderDelaySec ≤ minOrderDelaySec, 9 executionFeeUsdc above the maximum.
    error PerpInvalidParams(uint256 code);
    /// @notice Thrown (by OpenZeppelin SafeCast, inside the linked libraries) when a value would not fit its packed
    ///         field, e.g. a funding index beyond int112: declared here so the market's ABI can decode it.
    /// @param bits The field's width.
    /// @param value The value.
    error SafeCastOverflowedIntDowncast(uint8 bits, int256 value);
}
