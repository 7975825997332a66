// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../../helpers/ClearingUnitBase.sol";
import {IOptionsMarket, IOptionsMarketTypes} from "../../../contracts/interfaces/markets/IOptionsMarket.sol";

/// @notice The real OptionsMarket (proxy + settlement module + linked libraries) on the clearing unit set-up, flagged
///         for portfolio margin (holds accounts, account risk, scenario risk) with the perp stand-in's risk
///         parameters (σ = 2 %: IM range R = 10 %, MM range 5 %). Lists an uncapped call, a put and a capped call,
///         all struck at 10 and expiring in a week.
abstract contract OptionsMarginBase is ClearingUnitBase {
    IOptionsMarket internal options;
    uint64 internal expiry;
    uint256 internal uncappedCall;
    uint256 internal put10;
    uint256 internal cappedCall;
    address internal carol = makeAddr("carol");

    uint128 internal constant UNCAPPED = type(uint128).max;

    function setUp() public virtual override {
        super.setUp();
        options = IOptionsMarket(_deployOptionsMarket(stack, address(oracle), address(this)));
        _portfolioMargin(stack, address(options));
        expiry = uint64(block.timestamp + 7 days);
        uncappedCall = _list(IOptionsMarketTypes.OptionKind.Call, 10e18, UNCAPPED);
        put10 = _list(IOptionsMarketTypes.OptionKind.Put, 10e18, 0);
        cappedCall = _list(IOptionsMarketTypes.OptionKind.Call, 10e18, 5e18);
    }

    function _list(IOptionsMarketTypes.OptionKind kind, uint128 strike, uint128 cap) internal returns (uint256) {
        return options.listSeries(IOptionsMarketTypes.SeriesParams(kind, false, 0, expiry, strike, cap));
    }

    /// @dev Expiry, price fixed at `priceWad`, dispute window over.
    function _expireAt(uint256 seriesId, uint256 priceWad) internal {
        vm.warp(expiry);
        oracle.setPrice(priceWad);
        options.fixSettlementPrice(seriesId);
        vm.warp(block.timestamp + options.params().disputeWindowSec);
    }

    /// @dev Independent evaluation of the grid (CLR-04): worst weighted loss of the account's perp position and its
    ///      margined shorts (intrinsic value) over ±R/3, ±2R/3, ±R (full) and ±2R (half), at `priceWad`.
    function _worstLoss(address account, uint256 priceWad, uint256 rangeWad) internal view returns (uint256 worst) {
        int256 size = chouse.positionOf(account, address(market)).sizeCh;
        uint256[] memory ids = options.marginedSeriesOf(account);
        for (uint256 f = 1; f <= 6; ++f) {
            if (f == 4 || f == 5) continue;
            uint256 move = (priceWad * rangeWad * f + 3e18 - 1) / 3e18;
            for (uint256 side; side < 2; ++side) {
                uint256 p = side == 0 ? priceWad + move : (move >= priceWad ? 0 : priceWad - move);
                int256 pnl = (size * (int256(p) - int256(priceWad))) / 1e30 + _shortsPnl(account, ids, priceWad, p);
                if (pnl >= 0) continue;
                uint256 loss = uint256(-pnl);
                if (f == 6) loss = (loss + 1) / 2;
                if (loss > worst) worst = loss;
            }
        }
    }

    /// @dev PnL of the account's margined shorts from `priceWad` to `p` (liability now down, at `p` up).
    function _shortsPnl(
        address account,
        uint256[] memory ids,
        uint256 priceWad,
        uint256 p
    ) internal view returns (int256 pnl) {
        for (uint256 j; j < ids.length; ++j) {
            uint256 short_ = options.marginedOf(ids[j], account).shortCh;
            uint256 before = (short_ * options.payoffPerCh(ids[j], priceWad)) / 1e30;
            uint256 at = (short_ * options.payoffPerCh(ids[j], p) + 1e30 - 1) / 1e30;
            pnl += int256(before) - int256(at);
        }
    }
}
