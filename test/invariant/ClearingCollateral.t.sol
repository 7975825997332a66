// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingSolBase} from "../helpers/ClearingSolBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseCollateral} from "../../contracts/interfaces/clearing/IClearingHouseCollateral.sol";
import {MockERC20} from "../../contracts/mocks/MockERC20.sol";
import {MockAggregatorV3} from "../../contracts/mocks/MockAggregatorV3.sol";
import {ClearingCollateralHandler} from "./handlers/ClearingCollateralHandler.sol";

/// @notice Token collateral beside positions (issue 20 item 5, docs/clearing.md "Non-USDC collateral"): ACC-01 for
///         USDC and the analogous identity per token (Σ recorded balances = total ≤ held), and no account's margin
///         ever counts a token above balance × price × (1 − h) with h ≥ base + k·σ (ACC-05: rounded down).
contract ClearingCollateralInvariantTest is ClearingSolBase {
    ClearingCollateralHandler internal handler;
    IClearingHouseCollateral internal coll;
    MockERC20 internal chTok;
    MockERC20 internal feedToken;
    MockAggregatorV3 internal feed;
    address[3] internal traders = [address(0x7201), address(0x7202), address(0x7203)];

    uint64 internal constant BASE = 0.1e18;
    uint64 internal constant K = 1e18;

    function setUp() public {
        _deployClearing();
        _setupGuarantor(guarantor, false, 5_000e6);
        for (uint256 i; i < 3; ++i) _setupTrader(traders[i], guarantor, 100e6);
        _fundMarket(50_000e6);
        _fundInsurance(1_000e6);
        coll = IClearingHouseCollateral(address(chouse));
        chTok = MockERC20(deployCode("MockERC20.sol:MockERC20", abi.encode("CH", "CH", uint8(18))));
        feedToken = MockERC20(deployCode("MockERC20.sol:MockERC20", abi.encode("DPS", "DPS", uint8(18))));
        feed = MockAggregatorV3(deployCode("MockAggregatorV3.sol:MockAggregatorV3", abi.encode(8, "DPS", 2e8)));
        coll.setCollateralToken(
            address(chTok),
            IClearingHouseCollateral.CollateralTokenConfig(address(0), 0, true, BASE, K, 0.5e18, 1e30)
        );
        coll.setCollateralToken(
            address(feedToken),
            IClearingHouseCollateral.CollateralTokenConfig(address(feed), 1 hours, false, BASE, K, 0.5e18, 1e30)
        );
        handler = new ClearingCollateralHandler(
            [address(chouse), address(liq), address(oracle), address(market), address(feed), address(usdc), address(0)],
            [address(chTok), address(feedToken)],
            traders
        );
        targetContract(address(handler));
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_tokenLedgerIdentity();
        check_usdcLedger();
        check_marginNeverAboveHaircutValue();
    }

    /// ACC-01 per token: Σ recorded balances = the recorded total ≤ the ClearingHouse's balance (donations count for
    /// nobody; a seized balance leaves both).
    function check_tokenLedgerIdentity() public view {
        address[2] memory tokens = [address(chTok), address(feedToken)];
        for (uint256 j; j < 2; ++j) {
            uint256 sum;
            for (uint256 i; i < 3; ++i) sum += coll.tokenCollateralOf(traders[i], tokens[j]);
            (, , uint256 total) = coll.collateralToken(tokens[j]);
            assertEq(sum, total, "ACC-01 token: sum of balances");
            assertLe(total, MockERC20(tokens[j]).balanceOf(address(chouse)), "ACC-01 token: held");
        }
    }

    /// ACC-01 for USDC is unchanged by token collateral: balance = Σ collateral + pool + fees (liquidation proceeds are
    /// USDC the keeper pays in).
    function check_usdcLedger() public view {
        int256 sum;
        for (uint256 i; i < 3; ++i) sum += chouse.collateralOf(traders[i]);
        sum += chouse.collateralOf(handler.keeperAccount());
        (, int256 poolUsdc) = chouse.marketInfo(address(market));
        (uint256 fees, ) = chouse.totals();
        assertEq(int256(usdc.balanceOf(address(chouse))), sum + poolUsdc + int256(fees), "ACC-01");
        uint256 uncovered;
        for (uint256 i; i < 4; ++i) {
            int256 c = chouse.collateralOf(i < 3 ? traders[i] : handler.keeperAccount());
            if (c < 0) uncovered += uint256(-c);
        }
        // a token sale's proceeds and a residual seizure move the booking with the account
        assertEq(chouse.uncoveredCollateralUsdc(), uncovered, "ACC-01: uncovered booked through token sales");
    }

    /// An account's margin never counts a token above balance × price × (1 − base − k·σ), and equity is exactly
    /// collateral + unrealised PnL + that value (ACC-05).
    function check_marginNeverAboveHaircutValue() public view {
        uint256 price = oracle.indexPrice();
        (uint256 sigma, , , ) = risk.volatility();
        uint256 h = BASE + (uint256(K) * sigma) / 1e18;
        if (h > 0.5e18) h = 0.5e18;
        (, int256 answer, , uint256 updatedAt, ) = feed.latestRoundData();
        uint256 feedPrice = block.timestamp - updatedAt > 1 hours ? 0 : uint256(answer) * 1e10;
        for (uint256 i; i < 3; ++i) {
            IClearingHouse.MarginState memory s = chouse.marginState(traders[i]);
            uint256 cap =
                _value(coll.tokenCollateralOf(traders[i], address(chTok)), price, h) +
                    _value(coll.tokenCollateralOf(traders[i], address(feedToken)), feedPrice, h);
            assertLe(s.tokenCollateralUsdc, cap, "margin above haircut value");
            assertEq(s.equityUsdc, s.collateralUsdc + s.unrealisedPnlUsdc + int256(s.tokenCollateralUsdc));
        }
    }

    function _value(uint256 balance, uint256 priceWad, uint256 h) private pure returns (uint256) {
        return (((balance * priceWad) / 1e30) * (1e18 - h)) / 1e18;
    }

    /// The run summary: every action was reached.
    function afterInvariant() public view {
        assertGt(handler.calls("deposit") + handler.calls("trade"), 0, "handler reached");
    }
}
