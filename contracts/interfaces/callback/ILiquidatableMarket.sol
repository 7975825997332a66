// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ILiquidatableMarket
/// @notice What every market (perp, futures, options) implements so the clearing layer can reduce its
///         positions during a liquidation. The ClearingHouse has already updated the account's position,
///         realised its PnL at `priceWad` and moved it against the market's PnL pool when it calls this hook.
/// @dev The hook must not revert for a registered market (a revert would block a due liquidation, LIQ-05) and
///      must not call back into the ClearingHouse (its reentrancy guard is held) except `releaseAccount`. A market
///      that holds its accounts (ClearingHouse.setMarketHoldsAccounts) is also called with `sizeDeltaCh` = 0 for an
///      account it holds at zero net size: it then reduces what it holds (e.g. a futures calendar spread). The market takes the closed
///      size onto its own book (house/LP) or queues it for auto-deleveraging, and updates its open interest.
interface ILiquidatableMarket {
    /// @notice Called by the ClearingHouse after it closed `sizeDeltaCh` of `account`'s position at `priceWad`.
    /// @param account The liquidated account.
    /// @param sizeDeltaCh Signed size change applied to the account (opposite sign to the position), CH WAD.
    /// @param priceWad Index price used, USDC per CH, WAD.
    /// @param realisedPnlUsdc PnL realised to the account (negative: a loss credited to the market's pool).
    function onPositionLiquidated(
        address account,
        int256 sizeDeltaCh,
        uint256 priceWad,
        int256 realisedPnlUsdc
    ) external;
}
