// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../interfaces/oracle/IComputePriceOracle.sol";
import {ILiquidatableMarket} from "../interfaces/callback/ILiquidatableMarket.sol";
import {IMarketAccountRisk} from "../interfaces/callback/IMarketAccountRisk.sol";
import {IMarketScenarioRisk} from "../interfaces/callback/IMarketScenarioRisk.sol";

/// @title MockScenarioMarket
/// @notice Test-only options market for portfolio margin (issue 20 item 3): per account a short list of European
///         calls/puts (signed size: + held, − written, margined — no collateral posted), valued at intrinsic value
///         at the index. Values them through IMarketAccountRisk (equity), answers IMarketScenarioRisk (PnL per
///         scenario) and closes them at their value when the ClearingHouse liquidates a held account. Needs
///         Roles.MARKET and the flags holds-accounts, account-risk and scenario-risk.
contract MockScenarioMarket is ILiquidatableMarket, IMarketAccountRisk, IMarketScenarioRisk {
    struct Option {
        bool isCall;
        uint256 strikeWad;
        int256 sizeCh;
    }

    IClearingHouse public immutable clearingHouse;
    IComputePriceOracle public immutable oracle;
    mapping(address account => Option[]) internal _options;

    /// @param clearingHouse_ The ClearingHouse.
    /// @param oracle_ The index.
    constructor(address clearingHouse_, address oracle_) {
        clearingHouse = IClearingHouse(clearingHouse_);
        oracle = IComputePriceOracle(oracle_);
    }

    /// @notice Test hook: `account` buys (+) or writes (−) `sizeCh` options at `premiumUsdc` per CH-size total (paid
    ///         to / from the market's pool), then the ClearingHouse checks its margin (a 1-wei hold trade).
    /// @param account The account.
    /// @param isCall Call or put.
    /// @param strikeWad Strike.
    /// @param sizeCh Signed size.
    /// @param premiumUsdc Premium the account receives (> 0, writer) or pays (< 0, buyer).
    function trade(address account, bool isCall, uint256 strikeWad, int256 sizeCh, int256 premiumUsdc) external {
        _options[account].push(Option(isCall, strikeWad, sizeCh));
        if (premiumUsdc != 0) clearingHouse.settle(account, premiumUsdc);
        uint256 price = oracle.indexPrice();
        clearingHouse.modifyPosition(account, 1, price, 0); // risk-increasing: the margin check, and the hold
        clearingHouse.modifyPosition(account, -1, price, 0);
    }

    /// @notice Options of `account`.
    /// @param account The account.
    /// @return The list.
    function optionsOf(address account) external view returns (Option[] memory) {
        return _options[account];
    }

    /// @notice Value of `account`'s options at `priceWad`, USDC, rounded against the account.
    /// @param account The account.
    /// @param priceWad Price.
    /// @return valueUsdc Signed value.
    function valueAt(address account, uint256 priceWad) public view returns (int256 valueUsdc) {
        return _value(_options[account], priceWad);
    }

    function _value(Option[] memory list, uint256 priceWad) private pure returns (int256 valueUsdc) {
        for (uint256 i; i < list.length; ++i) {
            Option memory o = list[i];
            uint256 intrinsic =
                o.isCall
                    ? (priceWad > o.strikeWad ? priceWad - o.strikeWad : 0)
                    : (o.strikeWad > priceWad ? o.strikeWad - priceWad : 0);
            if (o.sizeCh >= 0) {
                valueUsdc += int256((uint256(o.sizeCh) * intrinsic) / 1e30);
            } else {
                valueUsdc -= int256((uint256(-o.sizeCh) * intrinsic + 1e30 - 1) / 1e30);
            }
        }
    }

    /// @inheritdoc IMarketAccountRisk
    function accountRisk(address account, uint256 priceWad) external view returns (int256, uint256, uint256) {
        return (valueAt(account, priceWad), 0, 0);
    }

    /// @inheritdoc IMarketScenarioRisk
    function scenarioPnl(
        address account,
        uint256 priceWad,
        uint256[] calldata scenarioPricesWad
    ) external view returns (int256[] memory pnlUsdc) {
        Option[] memory list = _options[account]; // read once: per-account aggregates, as a real market would
        int256 base = _value(list, priceWad);
        pnlUsdc = new int256[](scenarioPricesWad.length);
        for (uint256 k; k < scenarioPricesWad.length; ++k) pnlUsdc[k] = _value(list, scenarioPricesWad[k]) - base;
    }

    /// @inheritdoc ILiquidatableMarket
    /// @dev A held account (Δ = 0): every option is closed at its value (paid to / taken from the account against
    ///      the market's pool) and the account is released.
    function onPositionLiquidated(address account, int256 sizeDeltaCh, uint256 priceWad, int256) external {
        if (sizeDeltaCh != 0) return;
        int256 value = valueAt(account, priceWad);
        delete _options[account];
        if (value != 0) clearingHouse.settle(account, value);
        clearingHouse.releaseAccount(account);
    }
}
