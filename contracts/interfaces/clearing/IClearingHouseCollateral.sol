// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IClearingHouseCollateral
/// @notice Collateral beyond USDC (issue 20 item 5, docs/clearing.md "Non-USDC collateral"): CH valued at the compute
///         index, DPS (or another listed 18-decimal token) valued by a configured Chainlink-style feed (off until one
///         is set). Each counts toward equity at balance × price × (1 − h), h = min(maxHaircut, base + k·σ) with σ
///         the index σ the RiskEngine pushes; a stale or failed price counts the token 0. The liquidation engine
///         sells it to the liquidator at that haircut value before the default waterfall.
/// @dev Ledger identity per token: Σ recorded account balances = totalDeposited ≤ token.balanceOf(ClearingHouse)
///      (a donation is counted for nobody). USDC keeps ACC-01: liquidation proceeds are USDC the liquidator pays in.
interface IClearingHouseCollateral {
    /// @notice A collateral token's configuration.
    /// @param feed Chainlink-style feed (USD per token) for a feed-priced token; address(0) turns it off (deposits
    ///        rejected, balances count 0). Ignored for an index-priced token.
    /// @param heartbeatSec Oldest feed answer accepted, seconds.
    /// @param indexPriced Valued at the compute index (CH: 1 token = 1 CH).
    /// @param baseHaircutWad Haircut at σ = 0, WAD.
    /// @param sigmaMultipleWad k: haircut added per unit of σ, WAD.
    /// @param maxHaircutWad Haircut ceiling, WAD (< 1e18).
    /// @param depositCap Most of the token all accounts may hold here (token units).
    struct CollateralTokenConfig {
        address feed;
        uint32 heartbeatSec;
        bool indexPriced;
        uint64 baseHaircutWad;
        uint64 sigmaMultipleWad;
        uint64 maxHaircutWad;
        uint128 depositCap;
    }

    /// @notice Emitted when governance lists or reconfigures a collateral token.
    /// @param token The token.
    /// @param id Its bit in account token masks (1-based).
    /// @param config The configuration after.
    event CollateralTokenSet(address indexed token, uint256 id, CollateralTokenConfig config);

    /// @notice Emitted when an account deposits token collateral.
    /// @param account The account credited (always the depositor).
    /// @param token The token.
    /// @param amount Amount received.
    /// @param balance The account's recorded balance after.
    /// @param totalDeposited The token's total recorded after.
    event TokenCollateralDeposited(
        address indexed account,
        address indexed token,
        uint256 amount,
        uint256 balance,
        uint256 totalDeposited
    );

    /// @notice Emitted when an account withdraws token collateral.
    /// @param account The account.
    /// @param to Recipient.
    /// @param token The token.
    /// @param amount Amount sent.
    /// @param balance The account's recorded balance after.
    /// @param totalDeposited The token's total recorded after.
    event TokenCollateralWithdrawn(
        address indexed account,
        address to,
        address indexed token,
        uint256 amount,
        uint256 balance,
        uint256 totalDeposited
    );

    /// @notice Emitted when a liquidation takes an account's token collateral: sold to the liquidator at its haircut
    ///         value (`proceedsUsdc` credited to the account) or, for a bankrupt account's unpriced remainder, handed
    ///         to the insurance fund for nothing.
    /// @param account The liquidated account.
    /// @param to The liquidator (or the insurance fund).
    /// @param token The token.
    /// @param amount Token amount taken (the account's whole balance).
    /// @param proceedsUsdc USDC paid by `to` and credited to the account.
    /// @param collateralUsdc The account's USDC collateral after.
    event TokenCollateralSeized(
        address indexed account,
        address indexed to,
        address indexed token,
        uint256 amount,
        uint256 proceedsUsdc,
        int256 collateralUsdc
    );

    /// @notice Thrown when a configuration is invalid (zero token, USDC itself, not 18 decimals, haircut ≥ 1, base
    ///         above the ceiling, a ninth token).
    /// @param token The token.
    error ClearingInvalidCollateralToken(address token);

    /// @notice Thrown when depositing a token that is not listed or has no price source (a feed token without feed).
    /// @param token The token.
    error ClearingCollateralTokenDisabled(address token);

    /// @notice Thrown when a deposit would take the token's total above its cap.
    /// @param token The token.
    /// @param totalAfter Total recorded after the deposit.
    /// @param cap The cap.
    error ClearingCollateralCapExceeded(address token, uint256 totalAfter, uint256 cap);

    /// @notice Thrown when the ClearingHouse received a different amount than sent (fee-on-transfer token).
    /// @param token The token.
    /// @param sent Amount asked.
    /// @param received Balance increase seen.
    error ClearingCollateralTransferMismatch(address token, uint256 sent, uint256 received);

    /// @notice Thrown when a withdrawal exceeds the account's recorded token balance.
    /// @param account The account.
    /// @param token The token.
    /// @param requested Amount asked.
    /// @param balance Recorded balance.
    error ClearingInsufficientTokenCollateral(address account, address token, uint256 requested, uint256 balance);

    /// @notice Thrown when the residual (unpriced) token collateral of an account that is not bankrupt is seized.
    /// @param account The account.
    error ClearingNotBankrupt(address account);

    /// @notice Lists or reconfigures a collateral token (ADMIN). A token keeps its id once listed; a cap below the
    ///         current total only stops new deposits. Only plain 18-decimal ERC-20s: fee-on-transfer tokens are
    ///         rejected at deposit, rebasing tokens must not be listed (balances are recorded, not read).
    /// @param token The token.
    /// @param config The configuration.
    function setCollateralToken(address token, CollateralTokenConfig calldata config) external;

    /// @notice Deposits `amount` of `token` as the caller's collateral. Pausable ("clearing.deposit"). Reverts for an
    ///         unlisted or unpriced token, above the cap, or when the ClearingHouse receives less than `amount`.
    /// @param token A listed token.
    /// @param amount Amount to deposit.
    function depositToken(address token, uint256 amount) external;

    /// @notice Withdraws `amount` of the caller's `token` collateral to `to`. With positions or negative USDC
    ///         collateral, equity after (the token valued at its haircut, a stale token at 0) must cover initial
    ///         margin at the risk-gated price. Pausable only by "clearing.withdraw".
    /// @param token The token.
    /// @param amount Amount to withdraw.
    /// @param to Recipient.
    function withdrawToken(address token, uint256 amount, address to) external;

    /// @notice LiquidationEngine only: sells every priced token collateral of `account` to `buyer` at its haircut value
    ///         at `priceWad` (the liquidation's index price), pulling that USDC from `buyer` into the account's
    ///         collateral; tokens without a price stay. With `residual`, instead hands every remaining token of a
    ///         bankrupt account (no positions, collateral < 0) to the insurance fund for nothing.
    /// @param account The liquidated account.
    /// @param buyer The liquidator (ignored with `residual`).
    /// @param priceWad Index price, WAD.
    /// @param residual Hand the unpriced remainder to the insurance fund.
    /// @return collateralUsdc The account's USDC collateral after.
    /// @return tokenMask Tokens the account still holds.
    function seizeTokenCollateral(
        address account,
        address buyer,
        uint256 priceWad,
        bool residual
    ) external returns (int256 collateralUsdc, uint256 tokenMask);

    /// @notice `account`'s recorded balance of `token`.
    /// @param account The account.
    /// @param token The token.
    /// @return The balance.
    function tokenCollateralOf(address account, address token) external view returns (uint256);

    /// @notice A collateral token's configuration, id and recorded total.
    /// @param token The token.
    /// @return config The configuration.
    /// @return id Its id (0: not listed).
    /// @return totalDeposited Σ recorded balances.
    function collateralToken(
        address token
    ) external view returns (CollateralTokenConfig memory config, uint256 id, uint256 totalDeposited);
}
