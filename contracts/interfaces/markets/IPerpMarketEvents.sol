// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IPerpMarketEvents
/// @notice The events of IPerpMarket (the perpetual) except `PerpParamsSet` (which carries IPerpMarket.PerpParams),
///         declared apart; IPerpMarket inherits them, so its ABI and topics are unchanged.
interface IPerpMarketEvents {
    /// @notice Emitted after every trade, with the post-state an indexer needs.
    /// @param account The trader.
    /// @param sizeDeltaCh Signed size change.
    /// @param fillPriceWad Execution price (index plus impact).
    /// @param indexPriceWad Index price read once for the trade.
    /// @param sizeCh The account's size after.
    /// @param openNotionalUsdc The account's cost basis after (entry price = openNotional / size).
    /// @param fundingUsdc Funding settled to the account with this trade (+ credited, − debited).
    /// @param lpFeeUsdc Fee share to LPs.
    /// @param insuranceFeeUsdc Fee share to the insurance fund.
    /// @param burnFeeUsdc Fee share to the DPS burn reserve.
    /// @param fundingIndexWad Funding index after.
    /// @param fundingRateWad Funding rate after, WAD per day.
    /// @param longOiCh Long open interest after.
    /// @param shortOiCh Short open interest after.
    event PerpTraded(
        address indexed account,
        int256 sizeDeltaCh,
        uint256 fillPriceWad,
        uint256 indexPriceWad,
        int256 sizeCh,
        int256 openNotionalUsdc,
        int256 fundingUsdc,
        uint256 lpFeeUsdc,
        uint256 insuranceFeeUsdc,
        uint256 burnFeeUsdc,
        int256 fundingIndexWad,
        int256 fundingRateWad,
        uint256 longOiCh,
        uint256 shortOiCh
    );
    /// @notice Emitted when an account's funding is settled outside a trade (`settleFunding`).
    /// @param account The account.
    /// @param fundingUsdc Amount credited (+) or debited (−).
    /// @param fundingIndexWad The index it was settled to (the account's new snapshot).
    event FundingSettled(address indexed account, int256 fundingUsdc, int256 fundingIndexWad);
    /// @notice Emitted by `pokeFunding` (and `performUpkeep`).
    /// @param keeper The caller credited with the bounty.
    /// @param fundingIndexWad Funding index after.
    /// @param fundingRateWad Funding rate after, WAD per day.
    /// @param indexPriceWad Index price used.
    /// @param bountyUsdc Bounty credited.
    event FundingPoked(
        address indexed keeper,
        int256 fundingIndexWad,
        int256 fundingRateWad,
        uint256 indexPriceWad,
        uint256 bountyUsdc
    );
    /// @notice Emitted by the liquidation hook: the vault took over the closed size.
    /// @param account The liquidated account.
    /// @param sizeDeltaCh Size closed (opposite sign to the position).
    /// @param priceWad Index price of the liquidation.
    /// @param sizeCh The account's size after.
    /// @param pendingFundingUsdc The account's unsettled funding carried after (+ = owed by it).
    /// @param fundingIndexWad Funding index after.
    /// @param fundingRateWad Funding rate after.
    /// @param longOiCh Long open interest after.
    /// @param shortOiCh Short open interest after.
    event PerpLiquidated(
        address indexed account,
        int256 sizeDeltaCh,
        uint256 priceWad,
        int256 sizeCh,
        int256 pendingFundingUsdc,
        int256 fundingIndexWad,
        int256 fundingRateWad,
        uint256 longOiCh,
        uint256 shortOiCh
    );
    /// @notice Emitted when the burn sink changes.
    /// @param burnSink Receives the USDC burn reserve (buys back and burns DPS).
    event BurnSinkSet(address indexed burnSink);
    /// @notice Emitted when the burn reserve is sent to the burn sink.
    /// @param burnSink Recipient.
    /// @param amountUsdc USDC sent.
    event BurnReserveFlushed(address indexed burnSink, uint256 amountUsdc);
    /// @notice Emitted when a keeper claims its poke bounties.
    /// @param keeper The keeper.
    /// @param amountUsdc USDC paid from the PnL pool.
    event KeeperBountyClaimed(address indexed keeper, uint256 amountUsdc);
    /// @notice Emitted when the vault moves capital into or out of this market's PnL pool.
    /// @param amountUsdc Signed: + funded from the vault, − returned to it.
    /// @param poolUsdc The PnL pool after.
    /// @param vaultEquityUsdc The vault's claim on this market after.
    event VaultCapitalMoved(int256 amountUsdc, int256 poolUsdc, int256 vaultEquityUsdc);
}
