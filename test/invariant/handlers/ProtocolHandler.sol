// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IMintable, IFeed, IMarket, IDps} from "../../helpers/ProtocolSolBase.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IRiskEngine} from "../../../contracts/interfaces/clearing/IRiskEngine.sol";
import {ILiquidationEngine} from "../../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IInsuranceFund} from "../../../contracts/interfaces/clearing/IInsuranceFund.sol";
import {IProviderRegistry} from "../../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IComputePriceOracle} from "../../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IEmission} from "../../../contracts/interfaces/emission/IEmission.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {signDigest} from "../../utils/Signatures.sol";

/// @notice Every actor of the deployed core protocol in one handler: providers (stake, heartbeat, mint and buy back
///         CH, unbond, re-attest), traders (through the ClearingHouse and a test market), guarantors and an LP on
///         an open guarantor, insurance stakers, a liquidator, keepers (epoch close, rebalance, claims, volatility,
///         fee flush), governance (parameter changes, pauses), oracle price moves and time jumps across epochs and
///         halvings. Properties that can only be seen inside a call are counted as violations.
contract ProtocolHandler is CommonBase, StdCheats, StdUtils {
    struct Core {
        IDps dps;
        IERC20 ch;
        IERC20 gfl;
        IMintable usdc;
        IProviderRegistry registry;
        IEmission emission;
        IFeed feed;
        IComputePriceOracle oracle;
        IInsuranceFund fund;
        IClearingHouse house;
        IRiskEngine risk;
        IGuarantorPool pool;
        ILiquidationEngine liq;
        IMarket market;
    }

    Core internal c;
    uint256 internal immutable attesterPk;
    uint256 internal immutable maxBounty;

    address[3] public providers;
    address[3] public traders;
    address[2] public stakers;
    address public g1;
    address public g2;
    address public lp = address(0x1B);
    address public liquidator = address(0x11C1D);
    address public keeper = address(0x6EE9);

    // ghosts
    mapping(address => uint256) public ghostMinted;
    mapping(address => uint256) public ghostBoughtBack;
    int256 public ghostCapitalFlows; // Σ over g1, g2: deposits − withdrawals + income − losses covered
    uint256 public ghostFundIn; // insurance fund: stakes + fees flushed
    uint256 public ghostFundOut; // insurance fund: bad debt covered + cooled-down withdrawals
    mapping(bytes32 => uint256) public calls;
    uint256 public liquidations;
    uint256 public epochsClosed;

    uint256 public violationsLIQ01;
    uint256 public violationsLIQ02;
    uint256 public violationsLIQ03;
    uint256 public violationsLIQ04;
    uint256 public violationsLIQ05;
    uint256 public violationsLIQ06;
    uint256 public violationsACC03;
    uint256 public violationsSEC05;
    uint256 public violationsEMI02;
    uint256 public violationsEMI04;
    /// @dev Cumulative GFL per halving era (read at construction; 0 = time halvings only).
    uint256 internal immutable spanGfl;
    uint256 public violationsORC01;

    constructor(
        Core memory c_,
        address[3] memory providers_,
        address[3] memory traders_,
        address[2] memory stakers_,
        address g1_,
        address g2_,
        uint256 attesterPk_,
        uint256 maxBounty_
    ) {
        c = c_;
        providers = providers_;
        traders = traders_;
        stakers = stakers_;
        g1 = g1_;
        g2 = g2_;
        attesterPk = attesterPk_;
        maxBounty = maxBounty_;
        // the halving span (no setter is driven here): the first threshold, before any GFL was counted
        (uint256 cumulative, uint256 threshold, ) = c_.emission.halvingState();
        require(cumulative == 0, "handler built after GFL was counted");
        spanGfl = threshold == type(uint256).max ? 0 : threshold;
    }

    modifier count(bytes32 name) {
        ++calls[name];
        _;
    }

    function _abs(int256 x) internal pure returns (uint256) {
        return x >= 0 ? uint256(x) : uint256(-x);
    }

    function _oracleValid() internal view returns (bool) {
        try c.oracle.indexPrice() returns (uint256) {
            return true;
        } catch {
            return false;
        }
    }

    // ───────────── providers ─────────────

    function providerHeartbeat(uint256 seed, uint256 capacity) external count("heartbeat") {
        address p = providers[seed % 3];
        capacity = bound(capacity, 0.01e18, 0.5e18);
        vm.prank(p);
        try c.registry.heartbeat(capacity) {} catch {}
    }

    function providerMint(uint256 seed, uint256 amount) external count("mintCH") {
        address p = providers[seed % 3];
        uint256 mintable = c.registry.mintableCh(p);
        if (mintable == 0) return;
        amount = bound(amount, 1, mintable);
        vm.prank(p);
        try c.registry.mintCH(amount, p) {
            ghostMinted[p] += amount;
        } catch {}
    }

    function providerBuyBack(uint256 seed, uint256 amount) external count("buyBack") {
        address p = providers[seed % 3];
        uint256 held = c.ch.balanceOf(p);
        if (held == 0) return;
        amount = bound(amount, 1, held);
        vm.prank(p);
        try c.registry.buyBack(amount) {
            ghostBoughtBack[p] += amount;
        } catch {}
    }

    function providerStake(uint256 seed, uint256 amount) external count("stake") {
        address p = providers[seed % 3];
        amount = bound(amount, 1, 1_000e18);
        c.dps.transfer(p, amount);
        vm.startPrank(p);
        c.dps.approve(address(c.registry), amount);
        c.registry.stake(amount);
        vm.stopPrank();
    }

    function providerUnbond(uint256 seed, uint256 amount) external count("unbond") {
        address p = providers[seed % 3];
        amount = bound(amount, 1, 2_000e18);
        vm.prank(p);
        try c.registry.requestUnbond(amount) {} catch {}
    }

    function providerWithdrawUnbonded(uint256 seed) external count("withdrawUnbonded") {
        address p = providers[seed % 3];
        vm.prank(p);
        try c.registry.withdrawUnbonded() {} catch {}
    }

    function providerReattest(uint256 seed) external count("attest") {
        address p = providers[seed % 3];
        uint256[] memory f = new uint256[](3);
        (f[0], f[1], f[2]) = (1.2e18, 0.9e18, 1e18);
        IProviderRegistry.Attestation memory a = IProviderRegistry.Attestation({
            provider: p,
            workloadClass: 1,
            standardVersion: 1,
            avgPflopsWad: 0.5e18,
            factorsWad: f,
            capacityPflopsWad: 0.5e18,
            powerWattsWad: 700e18,
            nonce: c.registry.attestationNonce(p),
            deadline: block.timestamp + 1 hours
        });
        c.registry.attest(a, signDigest(attesterPk, c.registry.attestationDigest(a)));
    }

    // ───────────── traders ─────────────

    function traderDeposit(uint256 seed, uint256 amount) external count("deposit") {
        address t = traders[seed % 3];
        amount = bound(amount, 1, 2_000e6);
        c.usdc.mint(t, amount);
        vm.startPrank(t);
        c.usdc.approve(address(c.house), amount);
        try c.house.deposit(amount) {} catch {}
        vm.stopPrank();
    }

    function traderWithdraw(uint256 seed, uint256 amount) external count("withdraw") {
        address t = traders[seed % 3];
        int256 coll = c.house.collateralOf(t);
        if (coll <= 0) return;
        amount = bound(amount, 1, uint256(coll));
        bool valid = _oracleValid();
        vm.prank(t);
        try c.house.withdraw(amount, t) {
            if (c.house.marketsOf(t).length > 0) {
                if (!valid) ++violationsORC01; // ORC-01: no margin leaves an open account without a valid index
                IClearingHouse.MarginState memory s = c.house.marginState(t);
                if (s.equityUsdc < int256(s.initialMarginUsdc)) ++violationsLIQ01;
            }
        } catch {}
    }

    function traderTrade(uint256 seed, int256 size) external count("trade") {
        address t = traders[seed % 3];
        size = bound(size, -300e18, 300e18);
        if (size == 0) return;
        int256 before = c.house.positionOf(t, address(c.market)).sizeCh;
        bool valid = _oracleValid();
        vm.prank(t);
        try c.market.trade(size) {
            // ORC-01: with a stale / out-of-bounds index no position changes (the margin check needs the index)
            if (!valid) ++violationsORC01;
            int256 afterSize = before + size;
            bool increasing = _abs(afterSize) > _abs(before) || (before != 0 && (before > 0) != (afterSize > 0));
            if (increasing) {
                IClearingHouse.MarginState memory s = c.house.marginState(t);
                if (s.equityUsdc < int256(s.initialMarginUsdc)) ++violationsLIQ01;
            }
        } catch {}
    }

    function traderFunding(uint256 seed, int256 amount) external count("funding") {
        amount = bound(amount, -20e6, 20e6);
        try c.market.settleFunding(traders[seed % 3], amount) {} catch {}
    }

    /// SEC-05: an account without positions can always withdraw all of its margin (when withdrawals are not paused).
    function traderExitAll(uint256 seed) external count("exitAll") {
        address t = traders[seed % 3];
        int256 coll = c.house.collateralOf(t);
        if (coll <= 0 || c.house.marketsOf(t).length != 0) return;
        vm.prank(t);
        try c.house.withdraw(uint256(coll), t) {} catch {
            ++violationsSEC05;
        }
    }

    /// ACC-03: deposit then immediate full withdrawal returns exactly the deposit, never more.
    function traderRoundTrip(uint256 seed, uint256 amount) external count("roundTrip") {
        address t = traders[seed % 3];
        amount = bound(amount, 1, 1_000e6);
        c.usdc.mint(t, amount);
        uint256 balBefore = c.usdc.balanceOf(t);
        int256 collBefore = c.house.collateralOf(t);
        vm.startPrank(t);
        c.usdc.approve(address(c.house), amount);
        c.house.deposit(amount);
        bool ok;
        try c.house.withdraw(amount, t) {
            ok = true;
        } catch {
            if (c.house.marketsOf(t).length == 0 && c.house.collateralOf(t) >= int256(amount)) ++violationsSEC05;
        }
        vm.stopPrank();
        if (c.usdc.balanceOf(t) > balBefore || (ok && c.house.collateralOf(t) != collBefore)) ++violationsACC03;
    }

    // ───────────── guarantors and LP ─────────────

    function lpDeposit(uint256 amount) external count("lpDeposit") {
        amount = bound(amount, 1, 5_000e6);
        c.usdc.mint(lp, amount);
        vm.startPrank(lp);
        c.usdc.approve(address(c.pool), amount);
        try c.pool.depositCapital(g2, amount) {
            ghostCapitalFlows += int256(amount);
        } catch {}
        vm.stopPrank();
    }

    function lpWithdraw(uint256 shares) external count("lpWithdraw") {
        uint256 held = c.pool.sharesOf(g2, lp);
        if (held == 0) return;
        shares = bound(shares, 1, held);
        vm.prank(lp);
        try c.pool.withdrawCapital(g2, shares, lp) returns (uint256 out) {
            ghostCapitalFlows -= int256(out);
        } catch {}
    }

    function guarantorTopUp(bool first, uint256 amount) external count("guarantorTopUp") {
        address g = first ? g1 : g2;
        amount = bound(amount, 1, 2_000e6);
        c.usdc.mint(g, amount);
        vm.startPrank(g);
        c.usdc.approve(address(c.pool), amount);
        try c.pool.depositCapital(g, amount) {
            ghostCapitalFlows += int256(amount);
        } catch {}
        vm.stopPrank();
    }

    // ───────────── insurance stakers ─────────────

    function insuranceStake(uint256 seed, uint256 amount) external count("insStake") {
        address s = stakers[seed % 2];
        amount = bound(amount, 1, 5_000e6);
        c.usdc.mint(s, amount);
        vm.startPrank(s);
        c.usdc.approve(address(c.fund), amount);
        try c.fund.stake(amount) {
            ghostFundIn += amount;
        } catch {}
        vm.stopPrank();
    }

    function insuranceRequest(uint256 seed, uint256 shares) external count("insRequest") {
        address s = stakers[seed % 2];
        uint256 held = c.fund.sharesOf(s);
        if (held == 0) return;
        shares = bound(shares, 1, held);
        vm.prank(s);
        try c.fund.requestWithdraw(shares) {} catch {}
    }

    function insuranceWithdraw(uint256 seed) external count("insWithdraw") {
        address s = stakers[seed % 2];
        IInsuranceFund.WithdrawRequest memory req = c.fund.withdrawRequest(s);
        if (req.shares == 0) return;
        uint256 shares = req.shares;
        uint256 held = c.fund.sharesOf(s);
        if (shares > held) shares = held;
        if (shares == 0) return;
        uint256 before = c.fund.totalAssets();
        vm.prank(s);
        try c.fund.withdraw(shares, s) returns (uint256 out) {
            // LIQ-06: only inside the cooled-down window
            if (block.timestamp < req.readyAt || block.timestamp > req.expiresAt) ++violationsLIQ06;
            if (before - c.fund.totalAssets() != out) ++violationsLIQ06;
            ghostFundOut += out;
        } catch {}
    }

    // ───────────── liquidator ─────────────

    struct Snap {
        uint256 gCapital;
        uint256 insurance;
        uint256 socialised;
        bool due;
        bool valid;
    }

    function liquidate(uint256 seed) external count("liquidate") {
        address t = traders[seed % 3];
        address g = c.pool.guarantorOf(t);
        Snap memory b;
        b.valid = _oracleValid();
        if (b.valid) {
            IClearingHouse.MarginState memory s = c.house.marginState(t);
            b.due = s.equityUsdc < int256(s.maintenanceMarginUsdc);
        }
        b.gCapital = c.pool.guarantorInfo(g).capitalUsdc;
        b.insurance = c.fund.totalAssets();
        (, b.socialised) = c.house.totals();
        uint256 liqBalBefore = c.usdc.balanceOf(liquidator);
        vm.prank(liquidator);
        try c.liq.liquidate(t) returns (uint256, uint256 bounty) {
            ++liquidations;
            if (!b.due) ++violationsLIQ01;
            IClearingHouse.MarginState memory a = c.house.marginState(t);
            // LIQ-02: healthy again or fully closed; never an open position with margin ≤ 0
            if (a.positionCount > 0 && (a.equityUsdc < int256(a.maintenanceMarginUsdc) || a.equityUsdc <= 0)) {
                ++violationsLIQ02;
            }
            // (CLR-03: a deficit may stay only when the guarantor and the insurance fund are both exhausted — it
            // waits for auto-deleveraging)
            if (
                a.positionCount == 0 &&
                a.collateralUsdc < 0 &&
                (c.pool.guarantorInfo(g).capitalUsdc != 0 || c.fund.totalAssets() != 0)
            ) ++violationsLIQ02;
            // LIQ-04: ≤ configured cap, paid exactly, never from a negative balance
            if (bounty > maxBounty || c.usdc.balanceOf(liquidator) - liqBalBefore != bounty) ++violationsLIQ04;
            if (bounty > 0 && a.collateralUsdc < 0) ++violationsLIQ04;
            // LIQ-03: guarantor capital, then the insurance fund, then socialised loss
            uint256 gAfter = c.pool.guarantorInfo(g).capitalUsdc;
            uint256 insAfter = c.fund.totalAssets();
            (, uint256 socialisedAfter) = c.house.totals();
            if (gAfter > b.gCapital) ++violationsLIQ03;
            if (gAfter < b.gCapital) ghostCapitalFlows -= int256(b.gCapital - gAfter);
            if (insAfter < b.insurance) {
                if (gAfter != 0) ++violationsLIQ03;
                ghostFundOut += b.insurance - insAfter;
            }
            if (insAfter > b.insurance) ++violationsLIQ06;
            if (socialisedAfter > b.socialised && (gAfter != 0 || insAfter != 0)) ++violationsLIQ03;
        } catch {
            // LIQ-05: a due liquidation never reverts while the index is valid (pauses included)
            if (b.due && _oracleValid()) ++violationsLIQ05;
        }
    }

    // ───────────── keepers ─────────────

    /// EMI-04 on every keeper close: one halving per cumulative-GFL threshold the closed epoch crosses (a huge epoch
    /// can cross two: docs/emission.md), else one when the epoch ends at or after the time halving's due date, never
    /// otherwise. Until round 42 this check was "at most one halving per close", which the deep profile broke with
    /// an epoch crossing two thresholds (test_regression_deep42_twoThresholdsInOneEpoch): the check was wrong, not
    /// the module.
    function keeperCloseEpoch() external count("closeEpoch") {
        uint256 e = c.emission.currentEpoch();
        (uint256 cumulative, uint256 threshold, uint256 dueAt) = c.emission.halvingState();
        uint256 n0 = c.emission.halvings();
        uint256 endsAt = c.emission.epochStart(e + 1);
        vm.prank(keeper);
        try c.emission.closeEpoch() {
            ++epochsClosed;
            uint256 n1 = c.emission.halvings();
            if (c.emission.currentEpoch() == e) {
                // the collection is still pending: nothing closed, nothing halved
                if (n1 != n0) ++violationsEMI04;
                return;
            }
            if (n1 != _expectedHalvings(n0, cumulative, threshold, dueAt, endsAt, c.emission.epochInfo(e).totalGfl)) {
                ++violationsEMI04;
            }
        } catch {}
    }

    /// @dev The halving count after closing an epoch of `total` GFL that ends at `endsAt`, from the state before it.
    function _expectedHalvings(
        uint256 n0,
        uint256 cumulative,
        uint256 threshold,
        uint256 dueAt,
        uint256 endsAt,
        uint256 total
    ) internal view returns (uint256) {
        uint256 crossed;
        if (spanGfl != 0 && cumulative + total >= threshold) crossed = (cumulative + total - threshold) / spanGfl + 1;
        if (n0 + crossed > 64) crossed = 64 - n0;
        if (crossed > 0) return n0 + crossed;
        return endsAt >= dueAt && n0 < 64 ? n0 + 1 : n0;
    }

    function keeperRebalance(uint256 n) external count("rebalance") {
        n = bound(n, 1, 5);
        vm.prank(keeper);
        try c.emission.rebalance(n) {} catch {}
    }

    /// EMI-02: a second claim in the same block pays 0.
    function providerClaim(uint256 seed) external count("claim") {
        address p = providers[seed % 3];
        vm.prank(p);
        try c.emission.claim(p) {
            vm.prank(p);
            if (c.emission.claim(p) != 0) ++violationsEMI02;
        } catch {}
    }

    function keeperVolatility() external count("volatility") {
        vm.prank(keeper);
        try c.risk.updateVolatility() {} catch {}
    }

    function keeperFlushFees() external count("flushFees") {
        (uint256 fees, ) = c.house.totals();
        if (fees == 0) return;
        uint256 before = c.fund.totalAssets();
        vm.prank(keeper);
        try c.house.flushFees() {
            uint256 gained = c.fund.totalAssets() - before;
            ghostFundIn += gained;
        } catch {}
    }

    // ───────────── oracle, time, governance ─────────────

    function oracleMove(uint256 moveBps) external count("price") {
        (, int256 answer, , , ) = c.feed.latestRoundData();
        moveBps = bound(moveBps, 7_000, 13_000);
        int256 next = (answer * int256(moveBps)) / 10_000;
        if (next < 1e8) next = 1e8;
        if (next > 100e8) next = 100e8;
        c.feed.setAnswer(next);
    }

    function timeJump(uint256 dt, bool refreshOracle) external count("warp") {
        vm.warp(block.timestamp + bound(dt, 10 minutes, 16 days)); // up to an epoch and a day
        if (refreshOracle) {
            (, int256 answer, , , ) = c.feed.latestRoundData();
            c.feed.setAnswer(answer);
        }
    }

    /// Governance (this handler holds ADMIN): market margin multiples within sane bounds.
    function govSetMarketParams(uint256 imFloorBps, uint256 mmShareBps) external count("govRisk") {
        uint256 im = bound(imFloorBps, 500, 2_000) * 1e14;
        uint256 mm = (im * bound(mmShareBps, 3_000, 7_000)) / 10_000;
        c.risk.setMarketParams(
            address(c.market),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: uint64(im),
                mmFloorWad: uint64(mm)
            })
        );
    }

    function govSetCooldown(uint256 cooldownSec) external count("govCooldown") {
        c.fund.setCooldown(uint64(bound(cooldownSec, 1 days, 14 days)), 2 days);
    }

    function govToggleNewRisk(bool paused) external count("govPause") {
        bytes32 f = keccak256("clearing.newRisk");
        if (paused) IChxModule(address(c.house)).pauseFeature(f);
        else IChxModule(address(c.house)).unpauseFeature(f);
    }
}
