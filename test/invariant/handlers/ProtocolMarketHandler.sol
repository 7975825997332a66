// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpOrderSteps} from "../../helpers/PerpOrderSteps.sol";
import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {IMintable, IFeed} from "../../helpers/ProtocolSolBase.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {IPerpMarket} from "../../../contracts/interfaces/markets/IPerpMarket.sol";
import {ILiquidityVault} from "../../../contracts/interfaces/markets/ILiquidityVault.sol";
import {ProtocolHandler} from "./ProtocolHandler.sol";

/// @notice The real perpetual market inside the whole protocol: traders (the same three ClearingHouse accounts and
///         guarantors as ProtocolHandler, so perp and test-market positions share one cross margin) trade and close
///         on PerpMarket, LPs deposit / withdraw / redeem on its LiquidityVault (and an attacker donates USDC to it),
///         a keeper pokes and settles funding, claims its bounty, flushes the burn reserve and allocates or
///         deallocates vault capital, liquidators go through ProtocolHandler.liquidate (one set of LIQ checks and
///         waterfall ghosts), governance pauses "perp.trade"; price moves go through the same Chainlink-style feed
///         and time jumps refresh it. Expected reverts are counted by selector; a Panic is a violation.
contract ProtocolMarketHandler is CommonBase, StdCheats, StdUtils {
    struct Markets {
        IPerpMarket perp;
        ILiquidityVault vault;
        IClearingHouse house;
        IComputePriceOracle oracle;
        IFeed feed;
        IMintable usdc;
        ProtocolHandler main;
        address burnSink;
    }

    Markets internal m;
    address[3] public traders;
    address[2] public lps = [address(0x1A01), address(0x1A02)];
    address public keeper = address(0xEE01);
    address public donor = address(0xD0D0);

    // ghosts
    int256 public ghostFundingSettled; // Σ funding owed by traders at each settlement (+ = paid to the pool)
    uint256 public ghostFundingOps;
    uint256 public ghostBountyCredited;
    uint256 public ghostBountyPaid;
    uint256 public ghostBurnFlushed;
    uint256 public ghostDonated;
    mapping(bytes32 => uint256) public calls;
    mapping(bytes4 => uint256) public reverts;
    bytes4[] public revertSelectors;
    uint256 public trades;
    uint256 public closes;
    uint256 public perpLiquidations;

    uint256 public violationsLIQ01;
    uint256 public violationsSEC05;
    uint256 public violationsORC01;
    uint256 public violationsMKT01;
    uint256 public violationsMKT02;
    uint256 public violationsACC03;
    uint256 public violationsACC04;
    uint256 public panics;

    bytes4 internal constant PANIC = 0x4e487b71;
    bytes32 internal constant PERP_TRADE = keccak256("perp.trade");

    constructor(Markets memory m_, address[3] memory traders_) {
        m = m_;
        traders = traders_;
        for (uint256 i; i < 2; ++i) {
            m_.usdc.mint(lps[i], 10_000_000e6);
            vm.prank(lps[i]);
            m_.usdc.approve(address(m_.vault), type(uint256).max);
        }
    }

    modifier count(bytes32 name) {
        ++calls[name];
        _;
    }

    function _abs(int256 x) internal pure returns (uint256) {
        return x >= 0 ? uint256(x) : uint256(-x);
    }

    function _revert(bytes memory err) internal {
        bytes4 sel = err.length >= 4 ? bytes4(err) : bytes4(0);
        if (reverts[sel] == 0) revertSelectors.push(sel);
        ++reverts[sel];
        if (sel == PANIC) ++panics;
    }

    function _indexValid() internal view returns (bool) {
        try m.oracle.indexPrice() returns (uint256) {
            return true;
        } catch {
            return false;
        }
    }

    function _owed(address t) internal view returns (int256 owed, bool ok) {
        try m.perp.fundingOwedUsdc(t) returns (int256 o) {
            return (o, true);
        } catch {
            return (0, false);
        }
    }

    function _sharePrice() internal view returns (uint256) {
        return m.vault.sharePriceWad();
    }

    // ───────────── traders ─────────────

    /// A trade of up to ±2,000 USDC notional at the feed's price (sizes follow the price, so positions stay
    /// meaningful against 500-USDC accounts wherever the random walk takes the price).
    function perpTrade(uint256 seed, int256 notionalUsdc) external count("perpTrade") {
        notionalUsdc = bound(notionalUsdc, -2_000e6, 2_000e6);
        (, int256 answer, , , ) = m.feed.latestRoundData();
        int256 size = (notionalUsdc * 1e20) / answer; // USDC 6 dp, answer 8 dp → CH WAD
        if (size > -0.01e18 && size < 0.01e18) size = size < 0 ? -0.01e18 : int256(0.01e18);
        _trade(traders[seed % 3], size);
    }

    /// Opens or adds to a position using `useBps` of the account's free margin (equity − initial margin) at the
    /// 10 % initial-margin floor: accounts near initial margin, which the price moves then make liquidatable.
    function perpTradeLevered(uint256 seed, bool long, uint256 useBps) external count("perpLevered") {
        address t = traders[seed % 3];
        (IClearingHouse.MarginState memory s, uint256 priceWad) = _liquidationState(t);
        if (priceWad == 0 || s.equityUsdc <= int256(s.initialMarginUsdc)) return;
        uint256 freeUsdc = uint256(s.equityUsdc) - s.initialMarginUsdc;
        uint256 notionalUsdc = (freeUsdc * 10 * bound(useBps, 5_000, 9_500)) / 10_000;
        int256 size = int256((notionalUsdc * 1e30) / priceWad);
        if (size < 0.01e18) return;
        _trade(t, long ? size : -size);
    }

    function _liquidationState(address t) internal view returns (IClearingHouse.MarginState memory s, uint256 p) {
        try m.house.liquidationState(t) returns (IClearingHouse.MarginState memory s_, uint256 p_) {
            return (s_, p_);
        } catch {}
    }

    function _trade(address t, int256 size) internal {
        int256 before = m.perp.accountState(t).sizeCh;
        int256 afterSize = before + size;
        bool increasing = _abs(afterSize) > _abs(before) || (before != 0 && (before > 0) != (afterSize > 0));
        vm.prank(t);
        try m.perp.commitOrder(size, 0) returns (uint256 priceTime) {
            // the order fills after its delay (IDelayedOrders), executed by this handler
            vm.warp(priceTime + 1);
            (bool allowed, ) = m.oracle.riskIncreaseAllowed();
            (int256 owed, ) = _owed(t);
            (bool filled, bytes memory reason) = PerpOrderSteps.execute(m.perp, t, priceTime);
            if (!filled) return _revert(reason);
            ++trades;
            ghostFundingSettled += owed;
            ++ghostFundingOps;
            if (increasing) {
                // ORC-01: new risk only with a valid risk price; LIQ-01: never left below initial margin
                if (!allowed) ++violationsORC01;
                IClearingHouse.MarginState memory s = m.house.marginState(t);
                if (s.equityUsdc < int256(s.initialMarginUsdc)) ++violationsLIQ01;
            }
        } catch (bytes memory err) {
            _revert(err);
        }
    }

    /// SEC-05: a position can always be closed while the oracle is valid (also with "perp.trade" or the
    /// ClearingHouse's new risk paused).
    function perpClose(uint256 seed) external count("perpClose") {
        address t = traders[seed % 3];
        if (m.perp.accountState(t).sizeCh == 0) return;
        vm.prank(t);
        try m.perp.closePosition(0) returns (uint256 priceTime) {
            vm.warp(priceTime + 1);
            bool valid = _indexValid();
            (int256 owed, ) = _owed(t);
            (bool filled, bytes memory reason) = PerpOrderSteps.execute(m.perp, t, priceTime);
            if (!filled) {
                _revert(reason);
                if (valid) ++violationsSEC05;
                return;
            }
            ++closes;
            ghostFundingSettled += owed;
            ++ghostFundingOps;
            if (m.house.positionOf(t, address(m.perp)).sizeCh != 0) ++violationsSEC05;
        } catch (bytes memory err) {
            // a close is committed whenever there is a position (SEC-05)
            _revert(err);
            ++violationsSEC05;
        }
    }

    /// MKT-02: funding is computed from open interest, never from margin balances — a deposit into a trader's
    /// ClearingHouse margin leaves the funding index and rate unchanged.
    function perpMarginDeposit(uint256 seed, uint256 amount) external count("perpMargin") {
        address t = traders[seed % 3];
        amount = bound(amount, 1, 1_000e6);
        (int256 index0, int256 rate0) = _currentFunding();
        m.usdc.mint(t, amount);
        vm.startPrank(t);
        m.usdc.approve(address(m.house), amount);
        try m.house.deposit(amount) {} catch (bytes memory err) {
            _revert(err);
        }
        vm.stopPrank();
        (int256 index1, int256 rate1) = _currentFunding();
        if (index1 != index0 || rate1 != rate0) ++violationsMKT02;
    }

    function _currentFunding() internal view returns (int256 index, int256 rate) {
        try m.perp.currentFunding() returns (int256 i, int256 r) {
            return (i, r);
        } catch {}
    }

    // ───────────── LPs (and a donor) ─────────────

    /// ACC-03 / ACC-04: a deposit never lowers the share price and its shares are worth the deposit (≥ V·(1 − 1e-6)
    /// and never more).
    function lpDeposit(uint256 seed, uint256 amount) external count("lpDeposit") {
        address lp = lps[seed % 2];
        amount = bound(amount, 1, 200_000e6);
        uint256 price0 = _sharePrice();
        vm.prank(lp);
        try m.vault.deposit(amount, lp) returns (uint256 shares) {
            uint256 worth = m.vault.convertToAssets(shares);
            if (worth > amount) ++violationsACC03;
            if (worth + 1 < amount - amount / 1e6) ++violationsACC04;
            if (_sharePrice() < price0) ++violationsACC04;
        } catch (bytes memory err) {
            _revert(err);
        }
    }

    function lpWithdraw(uint256 seed, uint256 amount) external count("lpWithdraw") {
        address lp = lps[seed % 2];
        uint256 max = m.vault.maxWithdraw(lp);
        amount = bound(amount, 1, max > 1 ? max : 1);
        uint256 price0 = _sharePrice();
        uint256 bal0 = m.usdc.balanceOf(lp);
        vm.prank(lp);
        try m.vault.withdraw(amount, lp, lp) {
            if (m.usdc.balanceOf(lp) - bal0 != amount) ++violationsACC03;
            if (_sharePrice() < price0) ++violationsACC04;
        } catch (bytes memory err) {
            _revert(err);
        }
    }

    function lpRedeem(uint256 seed, uint256 shares) external count("lpRedeem") {
        address lp = lps[seed % 2];
        uint256 held = m.vault.balanceOf(lp);
        if (held == 0) return;
        shares = bound(shares, 1, held);
        uint256 worth = m.vault.previewRedeem(shares);
        uint256 price0 = _sharePrice();
        uint256 bal0 = m.usdc.balanceOf(lp);
        vm.prank(lp);
        try m.vault.redeem(shares, lp, lp) returns (uint256 out) {
            if (out > worth || m.usdc.balanceOf(lp) - bal0 != out) ++violationsACC03;
            if (_sharePrice() < price0) ++violationsACC04;
        } catch (bytes memory err) {
            _revert(err);
        }
    }

    /// ACC-04: USDC sent to the vault directly never moves its assets or share price.
    function donate(uint256 amount) external count("donate") {
        amount = bound(amount, 1, 1_000_000e6);
        uint256 assets0 = m.vault.totalAssets();
        m.usdc.mint(donor, amount);
        vm.prank(donor);
        m.usdc.transfer(address(m.vault), amount);
        ghostDonated += amount;
        if (m.vault.totalAssets() != assets0) ++violationsACC04;
    }

    // ───────────── keeper ─────────────

    function keeperPoke() external count("perpPoke") {
        vm.prank(keeper);
        try m.perp.pokeFunding() returns (uint256 bounty) {
            ghostBountyCredited += bounty;
        } catch (bytes memory err) {
            _revert(err);
        }
    }

    /// MKT-01: a settlement moves exactly the funding the account owed (never recomputed).
    function keeperSettle(uint256 seed) external count("perpSettle") {
        address t = traders[seed % 3];
        (int256 owed, ) = _owed(t);
        if (owed == 0 && m.perp.accountState(t).sizeCh == 0) return;
        vm.prank(keeper);
        try m.perp.settleFunding(t) returns (int256 credited) {
            ghostFundingSettled += owed;
            ++ghostFundingOps;
            if (credited != -owed) ++violationsMKT01;
        } catch (bytes memory err) {
            _revert(err);
        }
    }

    /// ACC-03: a bounty claim pays exactly what was credited.
    function keeperClaim() external count("perpClaim") {
        uint256 owed = m.perp.keeperBountyOf(keeper);
        if (owed == 0) return;
        uint256 bal0 = m.usdc.balanceOf(keeper);
        vm.prank(keeper);
        try m.perp.claimKeeperBounty() returns (uint256 paid) {
            ghostBountyPaid += paid;
            if (paid != owed || m.usdc.balanceOf(keeper) - bal0 != paid) ++violationsACC03;
        } catch (bytes memory err) {
            _revert(err);
        }
    }

    function keeperFlushBurn() external count("perpFlush") {
        if (m.perp.marketState().burnReserveUsdc == 0) return;
        try m.perp.flushBurnReserve() returns (uint256 amount) {
            ghostBurnFlushed += amount;
        } catch (bytes memory err) {
            _revert(err);
        }
    }

    function keeperAllocate(uint256 amount) external count("allocate") {
        amount = bound(amount, 1, 300_000e6);
        vm.prank(keeper);
        try m.vault.allocate(address(m.perp), amount) {} catch (bytes memory err) {
            _revert(err);
        }
    }

    function keeperDeallocate(uint256 amount) external count("deallocate") {
        uint256 free = m.perp.withdrawableToVaultUsdc();
        amount = bound(amount, 1, free > 1 ? free : 1);
        vm.prank(keeper);
        try m.vault.deallocate(address(m.perp), amount) {} catch (bytes memory err) {
            _revert(err);
        }
    }

    // ───────────── liquidator ─────────────

    /// Liquidates a trader holding a perp position through ProtocolHandler.liquidate: the same LIQ-01..05 checks and
    /// waterfall ghosts as the test market's positions.
    function perpLiquidate(uint256 seed, bool crash) external count("perpLiquidate") {
        uint256 i = seed % 3;
        int256 size = m.perp.accountState(traders[i]).sizeCh;
        if (size == 0) return;
        if (crash) {
            // the price moves 20 % against the position first (same feed, so every market and margin sees it)
            (, int256 answer, , , ) = m.feed.latestRoundData();
            int256 next = size > 0 ? (answer * 80) / 100 : (answer * 120) / 100;
            if (next < 1e8) next = 1e8;
            if (next > 100e8) next = 100e8;
            m.feed.setAnswer(next);
        }
        uint256 before = m.main.liquidations();
        m.main.liquidate(i);
        if (m.main.liquidations() > before) ++perpLiquidations;
    }

    // ───────────── price, time, governance ─────────────

    /// A move of up to ±15 % on the feed ProtocolHandler moves (the oracle every market and the RiskEngine read).
    function perpPriceMove(uint256 moveBps, bool up) external count("perpPrice") {
        (, int256 answer, , , ) = m.feed.latestRoundData();
        int256 step = (answer * int256(bound(moveBps, 1, 1_500))) / 10_000;
        int256 next = up ? answer + step : answer - step;
        if (next < 1e8) next = 1e8;
        if (next > 100e8) next = 100e8;
        m.feed.setAnswer(next);
    }

    /// MKT-02 over the interval: with longs ahead the funding index can only rise (longs pay), and the reverse;
    /// the feed is refreshed at the same answer, so the oracle stays valid and the price does not change.
    function perpTimeJump(uint256 dt) external count("perpWarp") {
        dt = bound(dt, 1 minutes, 1 days);
        (, int256 answer, , , ) = m.feed.latestRoundData();
        m.feed.setAnswer(answer);
        IPerpMarket.MarketState memory s = m.perp.marketState();
        int256 skew = int256(s.longOiCh) - int256(s.shortOiCh);
        (int256 before, ) = m.perp.currentFunding();
        vm.warp(block.timestamp + dt);
        m.feed.setAnswer(answer);
        (int256 after_, ) = m.perp.currentFunding();
        if (skew > 0 && after_ < before) ++violationsMKT02;
        if (skew < 0 && after_ > before) ++violationsMKT02;
        if (skew == 0 && after_ != before) ++violationsMKT02;
    }

    function revertSelectorCount() external view returns (uint256) {
        return revertSelectors.length;
    }

    /// Governance (this handler holds ADMIN): pause new perp risk (one call in five) or resume it.
    function govPausePerp(uint256 seed) external count("perpPause") {
        if (seed % 5 == 0) IChxModule(address(m.perp)).pauseFeature(PERP_TRADE);
        else IChxModule(address(m.perp)).unpauseFeature(PERP_TRADE);
    }
}
