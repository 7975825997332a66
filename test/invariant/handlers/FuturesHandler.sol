// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {FuturesOrderSteps} from "../../helpers/FuturesOrderSteps.sol";
import {IFuturesMarket} from "../../../contracts/interfaces/markets/IFuturesMarket.sol";
import {IFuturesTypes} from "../../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {ILiquidationEngine} from "../../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {MockPriceIndex} from "../../../contracts/mocks/MockPriceIndex.sol";
import {MockFuturesIndex} from "../../../contracts/mocks/MockFuturesIndex.sol";

/// @notice Traders buy, sell, elect delivery and escrow CH on the live daily series — and hold calendar spreads
///         against a far series — while the index moves and time passes, and withdraw everything the margin check
///         lets go (issue 17 items 1 and 3: election + withdraw, spreads netting to zero); `expireAndSettle` walks a
///         series through fix → finalise → delivery deadline → every settlement and checks, per short and per long,
///         the delivery rules (MKT-05, MKT-08) as they happen.
contract FuturesHandler is CommonBase, StdCheats, StdUtils {
    IFuturesMarket internal f;
    IClearingHouse internal chouse;
    ILiquidationEngine internal liq;
    MockPriceIndex internal oracle;
    MockFuturesIndex internal fIndex;
    IERC20 internal chToken;
    address internal vault;

    address[4] public traders;
    uint256 public series;
    uint256 public far;
    uint256[] public finished;
    uint256 public settlements;
    uint256 public violationsMKT05;
    uint256 public violationsMKT08;
    uint256 public withdrawals;

    constructor(address[7] memory m, address[4] memory traders_, uint256 far_) {
        f = IFuturesMarket(m[0]);
        chouse = IClearingHouse(m[1]);
        liq = ILiquidationEngine(m[2]);
        oracle = MockPriceIndex(m[3]);
        fIndex = MockFuturesIndex(m[4]);
        chToken = IERC20(m[5]);
        vault = m[6];
        traders = traders_;
        far = far_;
        series = f.listStandardSeries(IFuturesTypes.Tenor.Daily);
    }

    function finishedCount() external view returns (uint256) {
        return finished.length;
    }

    function _t(uint256 seed) internal view returns (address) {
        return traders[seed % 4];
    }

    function trade(uint256 seed, int256 size) external {
        size = bound(size, -300e18, 300e18);
        if (size == 0) return;
        FuturesOrderSteps.trade(f, _t(seed), series, size, 0);
    }

    /// A leg in the far series (with the daily one: calendar spreads that may net to zero).
    function tradeFar(uint256 seed, int256 size) external {
        size = bound(size, -300e18, 300e18);
        if (size == 0) return;
        FuturesOrderSteps.trade(f, _t(seed), far, size, 0);
    }

    /// Election + withdraw (issue 17 items 1, 3): withdraw everything the margin check lets go. MKT-08: what is left
    /// still covers initial margin with every delivery payment held and every leg and bond margined.
    function withdrawMax(uint256 seed) external {
        address t = _t(seed);
        IClearingHouse.MarginState memory m = chouse.marginState(t);
        int256 free = m.equityUsdc - int256(m.initialMarginUsdc);
        int256 c = chouse.collateralOf(t);
        if (free > c) free = c;
        if (free <= 0) return;
        vm.prank(t);
        try chouse.withdraw(uint256(free), t) {
            ++withdrawals;
            m = chouse.marginState(t);
            if (m.equityUsdc < int256(m.initialMarginUsdc)) ++violationsMKT08;
        } catch {}
    }

    function close(uint256 seed) external {
        FuturesOrderSteps.close(f, _t(seed), series, 0);
    }

    function elect(uint256 seed, uint256 amount) external {
        address t = _t(seed);
        int256 size = f.positionOf(series, t).sizeCh;
        if (size <= 0) return;
        amount = bound(amount, 0, uint256(size));
        uint256 before = f.positionOf(series, t).electedCh;
        vm.prank(t);
        try f.electDelivery(series, amount) {
            // Only a RAISED election is risk-increasing and must leave initial margin covered; lowering one is always
            // open (docs/futures.md), also for an account a price move already put under initial margin.
            IClearingHouse.MarginState memory m = chouse.marginState(t);
            if (amount > before && m.equityUsdc < int256(m.initialMarginUsdc)) ++violationsMKT08;
        } catch {}
    }

    function deliver(uint256 seed, uint256 amount) external {
        address t = _t(seed);
        IFuturesTypes.Position memory p = f.positionOf(series, t);
        if (p.sizeCh >= 0 || uint256(-int256(p.sizeCh)) <= p.escrowCh) return;
        amount = bound(amount, 1, uint256(-int256(p.sizeCh)) - p.escrowCh);
        vm.prank(t);
        try f.deliver(series, amount) {} catch {}
    }

    function movePrice(uint256 priceWad) external {
        priceWad = bound(priceWad, 5e18, 20e18);
        oracle.setPrice(priceWad);
        fIndex.setPrice(priceWad);
    }

    function warp(uint256 dt) external {
        vm.warp(block.timestamp + bound(dt, 10 minutes, 6 hours));
    }

    function liquidate(uint256 seed) external {
        try liq.liquidate(_t(seed)) {} catch {}
    }

    /// @dev Expiry, finalisation and every settlement of the live series, then a new daily series.
    function expireAndSettle() external {
        uint256 id = series;
        (uint64 expiry, ) = f.seriesExpiry(id);
        if (block.timestamp < expiry) vm.warp(expiry);
        f.fixSettlementPrice(id);
        vm.warp(f.seriesInfo(id).finalAt);
        f.finalizeSettlement(id);
        vm.warp(f.seriesInfo(id).deliveryDeadline);
        IFuturesTypes.Series memory s = f.seriesInfo(id);
        uint256 price = s.settlementPriceWad;
        // shorts first: each either delivered its assignment or is charged the penalty (price × 10 %) on the rest
        for (uint256 i; i < 4; ++i) {
            IFuturesTypes.Position memory p = f.positionOf(id, traders[i]);
            // a short liquidated after expiry keeps its delivery base at zero size (baseTaken)
            if (p.open && (p.sizeCh < 0 || p.baseTaken)) _settleShort(id, traders[i], price);
        }
        // then everyone else: electing longs receive CH (Σ = delivered, with what a long could not pay for forfeited
        // to the vault, MKT-08) and the slashes
        uint256 vaultBefore = chToken.balanceOf(vault);
        uint256 received;
        for (uint256 i; i < 4; ++i) {
            address t = traders[i];
            IFuturesTypes.Position memory p = f.positionOf(id, t);
            if (!p.open) continue;
            uint256 chBefore = chToken.balanceOf(t);
            vm.prank(t);
            f.settlePosition(id, t);
            ++settlements;
            uint256 got = chToken.balanceOf(t) - chBefore;
            if (p.sizeCh == 0 && !p.baseTaken) {
                // MKT-05: a short a liquidation closed in full before expiry has no delivery base — it delivers
                // nothing and gets its escrow back whole (FuturesSettlement.settle); that CH is not "received"
                // delivery (round 36: counting it was the CI's violationsMKT05 1 ≠ 0)
                if (got != p.escrowCh) ++violationsMKT05;
                continue;
            }
            received += got;
            // MKT-08: an electing long gets CH only against payment collected — never into a deficit
            if (p.electedCh != 0 && got != 0 && chouse.collateralOf(t) < 0) ++violationsMKT08;
        }
        received += chToken.balanceOf(vault) - vaultBefore;
        s = f.seriesInfo(id);
        if (received != s.deliveredCh || s.receivedCh != s.deliveredCh) ++violationsMKT05;
        if (s.compensatedUsdc != s.slashedUsdc && s.electedCh != 0) ++violationsMKT05;
        finished.push(id);
        series = f.listStandardSeries(IFuturesTypes.Tenor.Daily);
    }

    function _settleShort(uint256 id, address t, uint256 price) internal {
        (uint256 assigned, uint256 escrow, ) = f.deliveryObligation(id, t);
        uint256 delivered = escrow < assigned ? escrow : assigned;
        uint256 chBefore = chToken.balanceOf(t);
        IFuturesTypes.Series memory before = f.seriesInfo(id);
        f.settlePosition(id, t);
        ++settlements;
        IFuturesTypes.Series memory after_ = f.seriesInfo(id);
        if (after_.slashedUsdc - before.slashedUsdc != _slash(assigned - delivered, price)) ++violationsMKT05;
        if (after_.deliveredCh - before.deliveredCh != delivered) ++violationsMKT05;
        if (chToken.balanceOf(t) - chBefore != escrow - delivered) ++violationsMKT05;
    }

    function _slash(uint256 undeliveredCh, uint256 priceWad) internal pure returns (uint256) {
        uint256 up = (undeliveredCh * 1_000 * priceWad + 1e30 - 1) / 1e30;
        return (up + 10_000 - 1) / 10_000;
    }
}
