// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {AggregatorV3Interface} from "@chainlink/contracts/src/v0.8/shared/interfaces/AggregatorV3Interface.sol";
import {IClearingHouseErrors} from "../../interfaces/clearing/IClearingHouseErrors.sol";
import {IClearingHouseCollateral} from "../../interfaces/clearing/IClearingHouseCollateral.sol";
import {FixedPointMath} from "../math/FixedPointMath.sol";
import {ClearingHouseStorage, ClearingStorage} from "./ClearingStorage.sol";

/// @title ClearingCollateral
/// @notice Collateral beyond USDC (IClearingHouseCollateral, docs/clearing.md "Non-USDC collateral"): listing,
///         deposits and withdrawals on recorded balances, the haircut valuation the margin scan adds to equity, and
///         the liquidation sale.
/// @dev An external library the ClearingHouse links and runs by delegatecall (EIP-170 room). The scan calls
///      `valueOf` only for an account whose token mask is not 0: USDC-only accounts pay one bit test.
library ClearingCollateral {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;
    using SafeCast for int256;

    uint256 internal constant WAD = 1e18;
    /// @dev Ids are bits of the uint8 Account.tokenMask.
    uint256 internal constant MAX_TOKENS = 8;

    /// @notice IClearingHouseCollateral.setCollateralToken after its access check.
    function configure(address token, IClearingHouseCollateral.CollateralTokenConfig calldata c) external {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        if (
            token == address(0) ||
            token == address($.usdc) ||
            c.maxHaircutWad >= WAD ||
            c.baseHaircutWad > c.maxHaircutWad ||
            IERC20Metadata(token).decimals() != 18
        ) revert IClearingHouseCollateral.ClearingInvalidCollateralToken(token);
        ClearingHouseStorage.CollateralToken storage t = $.collateralTokens[token];
        uint8 id = t.id;
        if (id == 0) {
            if ($.collateralTokenCount == MAX_TOKENS)
                revert IClearingHouseCollateral.ClearingInvalidCollateralToken(token);
            id = ++$.collateralTokenCount;
            t.id = id;
            $.collateralTokenById[id] = token;
        }
        t.feed = c.indexPriced ? address(0) : c.feed;
        t.heartbeatSec = c.heartbeatSec;
        t.feedDecimals = t.feed == address(0) ? 0 : AggregatorV3Interface(t.feed).decimals();
        t.indexPriced = c.indexPriced;
        (t.baseHaircutWad, t.sigmaMultipleWad, t.maxHaircutWad) = (
            c.baseHaircutWad,
            c.sigmaMultipleWad,
            c.maxHaircutWad
        );
        t.depositCap = c.depositCap;
        emit IClearingHouseCollateral.CollateralTokenSet(token, id, c);
    }

    /// @notice IClearingHouseCollateral.depositToken (credits msg.sender; the received amount must equal `amount`).
    function depositToken(address token, uint256 amount) external {
        if (amount == 0) revert IClearingHouseErrors.ClearingZeroAmount();
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.CollateralToken storage t = $.collateralTokens[token];
        if (t.id == 0 || (!t.indexPriced && t.feed == address(0))) {
            revert IClearingHouseCollateral.ClearingCollateralTokenDisabled(token);
        }
        uint256 total = t.totalDeposited + amount;
        if (total > t.depositCap)
            revert IClearingHouseCollateral.ClearingCollateralCapExceeded(token, total, t.depositCap);
        uint256 before = IERC20(token).balanceOf(address(this));
        IERC20(token).safeTransferFrom(msg.sender, address(this), amount);
        uint256 received = IERC20(token).balanceOf(address(this)) - before;
        if (received != amount)
            revert IClearingHouseCollateral.ClearingCollateralTransferMismatch(token, amount, received);
        t.totalDeposited = total.toUint128();
        uint256 balance = $.tokenBalances[msg.sender][token] + amount;
        $.tokenBalances[msg.sender][token] = balance;
        $.accounts[msg.sender].tokenMask |= uint8(1 << (t.id - 1));
        emit IClearingHouseCollateral.TokenCollateralDeposited(msg.sender, token, amount, balance, total);
    }

    /// @notice IClearingHouseCollateral.withdrawToken's effects (the ClearingHouse then runs the margin check and
    ///         transfers): returns whether the check is needed (a market in the account's set or USDC collateral < 0).
    /// @dev The check stays in the ClearingHouse: the scan calls `valueOf`, which this library cannot call on itself.
    function withdraw(address token, uint256 amount, address to) external returns (bool checkMargin) {
        if (amount == 0) revert IClearingHouseErrors.ClearingZeroAmount();
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.CollateralToken storage t = $.collateralTokens[token];
        uint256 balance = $.tokenBalances[msg.sender][token];
        if (t.id == 0 || balance < amount) {
            revert IClearingHouseCollateral.ClearingInsufficientTokenCollateral(msg.sender, token, amount, balance);
        }
        balance -= amount;
        $.tokenBalances[msg.sender][token] = balance;
        uint256 total = t.totalDeposited - amount;
        t.totalDeposited = uint128(total);
        ClearingHouseStorage.Account storage a = $.accounts[msg.sender];
        if (balance == 0) a.tokenMask &= ~uint8(1 << (t.id - 1));
        checkMargin = a.markets.count() != 0 || a.collateralUsdc < 0;
        emit IClearingHouseCollateral.TokenCollateralWithdrawn(msg.sender, to, token, amount, balance, total);
    }

    /// @dev One liquidation sale's inputs and running totals (memory: keeps the stack small).
    struct Sale {
        address account;
        address to;
        uint256 priceWad;
        uint256 sigmaWad;
        bool residual;
        int256 collateralUsdc;
        uint256 proceedsUsdc;
    }

    /// @notice IClearingHouseCollateral.seizeTokenCollateral after its access check (the liquidation sale, or the
    ///         bankrupt remainder to the insurance fund). Never reverts on a missing price: that token stays.
    function seize(
        address account,
        address buyer,
        uint256 priceWad,
        bool residual
    ) external returns (int256 collateralUsdc, uint256 tokenMask) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingHouseStorage.Account memory acc = $.accounts[account];
        Sale memory sale = Sale(account, buyer, priceWad, _sigma($), residual, acc.collateralUsdc, 0);
        if (residual) {
            if (acc.markets.count() != 0 || sale.collateralUsdc >= 0) {
                revert IClearingHouseCollateral.ClearingNotBankrupt(account);
            }
            sale.to = address($.insuranceFund);
        }
        tokenMask = acc.tokenMask;
        for (uint256 id = 1; id <= MAX_TOKENS; ++id) {
            uint256 bit = 1 << (id - 1);
            if (tokenMask & bit != 0 && _seizeOne($, sale, $.collateralTokenById[id])) tokenMask &= ~bit;
        }
        collateralUsdc = sale.collateralUsdc;
        ClearingStorage.bookUncovered($, acc.collateralUsdc, collateralUsdc);
        acc.collateralUsdc = collateralUsdc.toInt88();
        acc.tokenMask = uint8(tokenMask);
        $.accounts[account] = acc;
        if (sale.proceedsUsdc != 0) $.usdc.safeTransferFrom(buyer, address(this), sale.proceedsUsdc);
    }

    /// @dev Takes one token's whole balance to `sale.to` (paid at the haircut value unless residual); a priced sale
    ///      with no price takes nothing (returns false).
    function _seizeOne(
        ClearingHouseStorage.Layout storage $,
        Sale memory sale,
        address token
    ) private returns (bool taken) {
        ClearingHouseStorage.CollateralToken storage t = $.collateralTokens[token];
        uint256 balance = $.tokenBalances[sale.account][token];
        uint256 paid;
        if (!sale.residual) {
            paid = _haircutValue(t, balance, sale.priceWad, sale.sigmaWad, true);
            if (paid == 0) return false;
        }
        $.tokenBalances[sale.account][token] = 0;
        t.totalDeposited -= uint128(balance);
        sale.proceedsUsdc += paid;
        sale.collateralUsdc += int256(paid);
        emit IClearingHouseCollateral.TokenCollateralSeized(
            sale.account,
            sale.to,
            token,
            balance,
            paid,
            sale.collateralUsdc
        );
        IERC20(token).safeTransfer(sale.to, balance);
        return true;
    }

    /// @notice Σ over the tokens in `mask` of balance × price × (1 − h), rounded down; a token without a valid price
    ///         counts 0. `priceWad` is the scan's index price (CH).
    function valueOf(address account, uint256 mask, uint256 priceWad) external view returns (uint256 valueUsdc) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        uint256 sigma = _sigma($);
        for (uint256 id = 1; id <= MAX_TOKENS; ++id) {
            if (mask & (1 << (id - 1)) == 0) continue;
            address token = $.collateralTokenById[id];
            valueUsdc += _haircutValue(
                $.collateralTokens[token],
                $.tokenBalances[account][token],
                priceWad,
                sigma,
                false
            );
        }
    }

    /// @notice The haircut h = min(maxHaircut, base + k·σ), WAD.
    function haircut(
        ClearingHouseStorage.CollateralToken storage t,
        uint256 sigmaWad
    ) internal view returns (uint256 h) {
        h = t.baseHaircutWad + FixedPointMath.wadMulUp(t.sigmaMultipleWad, sigmaWad);
        if (h > t.maxHaircutWad) h = t.maxHaircutWad;
    }

    /// @dev balance × price × (1 − h) in USDC (18-decimal tokens): rounded down for margin, up for what a liquidator
    ///      pays (both in the protocol's favour).
    function _haircutValue(
        ClearingHouseStorage.CollateralToken storage t,
        uint256 balance,
        uint256 indexPriceWad,
        uint256 sigmaWad,
        bool up
    ) private view returns (uint256) {
        if (balance == 0) return 0;
        uint256 price = t.indexPriced ? indexPriceWad : feedPrice(t);
        if (price == 0) return 0;
        uint256 keep = WAD - haircut(t, sigmaWad);
        return
            up
                ? FixedPointMath.mulDivUp(FixedPointMath.wadToUsdcUp(balance, price), keep, WAD)
                : FixedPointMath.mulDivDown(FixedPointMath.wadToUsdcDown(balance, price), keep, WAD);
    }

    /// @notice The token's feed price, WAD; 0 when off, failing, non-positive, incomplete, stale or from the future.
    function feedPrice(ClearingHouseStorage.CollateralToken storage t) internal view returns (uint256) {
        address feed = t.feed;
        if (feed == address(0)) return 0;
        try AggregatorV3Interface(feed).latestRoundData() returns (
            uint80 roundId,
            int256 answer,
            uint256,
            uint256 updatedAt,
            uint80 answeredInRound
        ) {
            if (
                answer <= 0 ||
                answeredInRound < roundId ||
                updatedAt > block.timestamp ||
                block.timestamp - updatedAt > t.heartbeatSec
            ) return 0;
            uint256 dec = t.feedDecimals;
            return dec <= 18 ? uint256(answer) * 10 ** (18 - dec) : uint256(answer) / 10 ** (dec - 18);
        } catch {
            return 0;
        }
    }

    /// @dev The index σ: the RiskEngine's pushed copy, else the RiskEngine itself; one that cannot answer gives the
    ///      largest σ (every haircut at its ceiling).
    function _sigma(ClearingHouseStorage.Layout storage $) private view returns (uint256) {
        uint256 copy = $.sigmaPlusOneWad;
        if (copy != 0) return copy - 1;
        try $.riskEngine.volatility() returns (uint256 sigmaWad, uint256, uint256, uint256) {
            return sigmaWad;
        } catch {
            return type(uint64).max;
        }
    }

    /// @notice IClearingHouseCollateral.collateralToken (internal: compiled into the ClearingHouse's view).
    function collateralToken(
        address token
    )
        external
        view
        returns (IClearingHouseCollateral.CollateralTokenConfig memory config, uint256 id, uint256 totalDeposited)
    {
        ClearingHouseStorage.CollateralToken storage t = ClearingStorage.layout().collateralTokens[token];
        config = IClearingHouseCollateral.CollateralTokenConfig(
            t.feed,
            t.heartbeatSec,
            t.indexPriced,
            t.baseHaircutWad,
            t.sigmaMultipleWad,
            t.maxHaircutWad,
            t.depositCap
        );
        return (config, t.id, t.totalDeposited);
    }

    /// @notice IClearingHouseCollateral.tokenCollateralOf.
    function tokenCollateralOf(address account, address token) external view returns (uint256) {
        return ClearingStorage.layout().tokenBalances[account][token];
    }
}
