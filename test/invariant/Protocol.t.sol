// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpOrderSteps} from "../helpers/PerpOrderSteps.sol";
import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ProtocolSolBase, IMintable, IFeed, IMarket, IDps} from "../helpers/ProtocolSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IClearingHouse} from "../../contracts/interfaces/IClearingHouse.sol";
import {IGuarantorPool} from "../../contracts/interfaces/IGuarantorPool.sol";
import {IRiskEngine} from "../../contracts/interfaces/IRiskEngine.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/ILiquidationEngine.sol";
import {IInsuranceFund} from "../../contracts/interfaces/IInsuranceFund.sol";
import {IProviderRegistry} from "../../contracts/interfaces/IProviderRegistry.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/IComputePriceOracle.sol";
import {IEmission} from "../../contracts/interfaces/IEmission.sol";
import {IChxModule} from "../../contracts/interfaces/IChxModule.sol";
import {ITaskRegistry} from "../../contracts/interfaces/ITaskRegistry.sol";
import {IPerpMarket} from "../../contracts/interfaces/IPerpMarket.sol";
import {ILiquidityVault} from "../../contracts/interfaces/ILiquidityVault.sol";

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
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(attesterPk, c.registry.attestationDigest(a));
        c.registry.attest(a, abi.encodePacked(r, s, v));
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
            if (a.positionCount == 0 && a.collateralUsdc < 0) ++violationsLIQ02;
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

    function keeperCloseEpoch() external count("closeEpoch") {
        uint256 halvingsBefore = c.emission.halvings();
        vm.prank(keeper);
        try c.emission.closeEpoch() {
            ++epochsClosed;
            // EMI-04: one trigger halves at most once per close
            if (c.emission.halvings() > halvingsBefore + 1) ++violationsEMI04;
        } catch {}
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

/// @notice The client / council side of the protocol: a client submits USDC or DPS tasks (DPS tasks replenish
///         Emission), providers bid, keepers close bidding and draw councils, the executor commits, the council
///         votes, and anyone finalises, expires or claims council fees. Counts TSK-01 violations.
contract ProtocolTaskHandler is CommonBase, StdCheats, StdUtils {
    ITaskRegistry internal tasks;
    IERC20 internal usdc;
    IERC20 internal dps;
    address[3] public providers;
    address public client = address(0xC11E);
    uint256 public violationsTSK01;
    uint256 public finalized;
    bytes32 internal constant RESULT = keccak256("result");

    constructor(ITaskRegistry tasks_, IERC20 usdc_, IERC20 dps_, address[3] memory providers_) {
        tasks = tasks_;
        usdc = usdc_;
        dps = dps_;
        providers = providers_;
    }

    function _task(uint256 seed) internal view returns (uint256 id, ITaskRegistry.Task memory t) {
        uint256 n = tasks.taskCount();
        if (n == 0) return (0, t);
        id = 1 + (seed % n);
        t = tasks.getTask(id);
    }

    function clientSubmit(bool inDps, uint256 maxPayment) external {
        ITaskRegistry.Terms memory t = ITaskRegistry.Terms({
            currency: inDps ? ITaskRegistry.Currency.DPS : ITaskRegistry.Currency.USDC,
            responseMode: 1,
            councilSize: 1,
            quorum: 1,
            checkpoints: 2,
            maxBids: 0,
            workloadClass: 1,
            region: 0,
            bidWindowSec: 1 hours,
            deadline: uint40(block.timestamp + 2 days),
            maxPayment: uint128(bound(maxPayment, 10e6, 1_000e6) * (inDps ? 1e12 : 1)),
            capacityPflopsWad: 0.1e18,
            paymentParams: 0
        });
        ITaskRegistry.Prescription memory p = ITaskRegistry.Prescription({
            dataHash: keccak256("D"),
            modelHash: keccak256("M"),
            inputHash: keccak256("I"),
            outputFnHash: keccak256("f"),
            evalHash: keccak256("e"),
            uri: "ipfs://task"
        });
        vm.prank(client);
        try tasks.submit(t, p) {} catch {}
    }

    function providerBid(uint256 seed, uint256 providerSeed, uint256 priceBps) external {
        (uint256 id, ITaskRegistry.Task memory t) = _task(seed);
        if (id == 0 || t.status != ITaskRegistry.Status.Bidding) return;
        uint256 price = (uint256(t.maxPayment) * bound(priceBps, 1_000, 9_000)) / 10_000;
        vm.prank(providers[providerSeed % 3]);
        try tasks.bid(id, uint128(price)) {} catch {}
    }

    function keeperCloseAndDraw(uint256 seed) external {
        (uint256 id, ITaskRegistry.Task memory t) = _task(seed);
        if (id == 0) return;
        if (t.status == ITaskRegistry.Status.Bidding) {
            vm.warp(block.timestamp + 1 hours + 1);
            try tasks.closeBidding(id) {} catch {} // seals; the next call (seed block mined) selects
            t = tasks.getTask(id);
            if (t.status == ITaskRegistry.Status.Bidding && t.targetBlock != 0) {
                vm.roll(uint256(t.targetBlock) + 1);
                vm.setBlockhash(t.targetBlock, keccak256(abi.encode("block", t.targetBlock)));
                try tasks.closeBidding(id) {} catch {}
                t = tasks.getTask(id);
            }
        }
        if (t.targetBlock != 0 && block.number <= t.targetBlock) {
            vm.roll(uint256(t.targetBlock) + 1);
            vm.setBlockhash(t.targetBlock, keccak256(abi.encode("block", t.targetBlock)));
        }
        try tasks.drawCouncil(id) {} catch {}
    }

    function executorCommit(uint256 seed) external {
        (uint256 id, ITaskRegistry.Task memory t) = _task(seed);
        if (id == 0 || t.status != ITaskRegistry.Status.Running) return;
        vm.startPrank(t.executor);
        try tasks.commit(id, 0, keccak256("checkpoint-0")) {} catch {}
        try tasks.commit(id, 1, RESULT) {} catch {}
        vm.stopPrank();
    }

    function councilVote(uint256 seed, bool agree) external {
        (uint256 id, ITaskRegistry.Task memory t) = _task(seed);
        if (id == 0 || t.status != ITaskRegistry.Status.Verifying) return;
        address[] memory c = tasks.councilOf(id, t.round);
        for (uint256 i; i < c.length; ++i) {
            vm.prank(c[i]);
            try tasks.vote(id, agree) {} catch {}
        }
    }

    /// TSK-01: finalising twice reverts.
    function anyoneFinalize(uint256 seed) external {
        (uint256 id, ) = _task(seed);
        if (id == 0) return;
        try tasks.finalize(id) {
            ++finalized;
            try tasks.finalize(id) {
                ++violationsTSK01;
            } catch {}
        } catch {}
    }

    function anyoneExpire(uint256 seed) external {
        (uint256 id, ) = _task(seed);
        if (id == 0) return;
        try tasks.expire(id) {} catch {}
    }

    function councilClaim(uint256 seed) external {
        (uint256 id, ITaskRegistry.Task memory t) = _task(seed);
        if (id == 0) return;
        address[] memory c = tasks.councilOf(id, t.round);
        for (uint256 i; i < c.length; ++i) {
            vm.prank(c[i]);
            try tasks.claimCouncilFee(id) {} catch {}
        }
    }
}

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

/// @notice Cross-module invariants of the whole deployed core protocol (docs/invariants.md maps each id):
///         ACC-01 (every contract's token ledger), ACC-02 (sums), ACC-03, TSK-01/02 (tasks), TSK-04 (CH supply = Σ liabilities),
///         LIQ-01..07, EMI-01..04, SEC-05; and, on the real PerpMarket + LiquidityVault sharing the ClearingHouse
///         accounts and oracle feed: ACC-01 (perp pool in the ClearingHouse ledger, vault idle ledger, burn sink,
///         bounties), ACC-02 (open interest, cost basis, vault shares), ACC-03/04 (vault shares, donations),
///         MKT-01 (funding conservation, aggregate = positions), MKT-02 (direction, margin-independence), ORC-01,
///         LIQ-01 and SEC-05 on perp trades and closes, LIQ-01..05 on perp liquidations.
/// forge-config: default.invariant.runs = 100
/// forge-config: default.invariant.depth = 101
/// forge-config: deep.invariant.runs = 1000
/// forge-config: deep.invariant.depth = 200
contract ProtocolInvariantTest is ProtocolSolBase {
    ProtocolHandler internal handler;
    ProtocolTaskHandler internal taskHandler;
    ProtocolMarketHandler internal marketHandler;
    address[3] internal providers = [address(0x9001), address(0x9002), address(0x9003)];
    address[3] internal traders = [address(0x7001), address(0x7002), address(0x7003)];
    address[2] internal stakers = [address(0x5001), address(0x5002)];
    address internal g1 = address(0x6001);
    address internal g2 = address(0x6002);
    int256 internal capital0;

    function setUp() public {
        _deployProtocol();
        for (uint256 i; i < 3; ++i) _onboardProvider(providers[i], 5_000e18);
        _setupGuarantor(g1, false, 2_000e6);
        _setupGuarantor(g2, true, 300e6);
        capital0 = 2_300e6;
        vm.startPrank(g1);
        pool.admitCustomer(traders[0], 1_000_000e6);
        pool.admitCustomer(traders[1], 1_000_000e6);
        vm.stopPrank();
        vm.prank(traders[2]);
        pool.joinOpenGuarantor(g2);
        for (uint256 i; i < 3; ++i) _depositFor(traders[i], 500e6);
        usdc.mint(address(this), 10_000e6);
        usdc.approve(address(market), 10_000e6);
        market.fund(10_000e6);
        market.setFeeBps(5);

        ProtocolHandler.Core memory core = ProtocolHandler.Core({
            dps: dps,
            ch: ch,
            gfl: gfl,
            usdc: usdc,
            registry: registry,
            emission: emission,
            feed: feed,
            oracle: oracle,
            fund: fund,
            house: house,
            risk: risk,
            pool: pool,
            liq: liq,
            market: market
        });
        handler = new ProtocolHandler(core, providers, traders, stakers, g1, g2, ATTESTER_PK, MAX_BOUNTY);
        dps.transfer(address(handler), 1_000_000e18);
        // the handler plays governance (ADMIN) and the guardian
        manager.grantRole(0, address(handler), 0);
        targetContract(address(handler));

        taskHandler = new ProtocolTaskHandler(tasks, usdc, dps, providers);
        address client = taskHandler.client();
        usdc.mint(client, 1_000_000e6);
        dps.transfer(client, 1_000_000e18);
        vm.startPrank(client);
        usdc.approve(address(tasks), type(uint256).max);
        dps.approve(address(tasks), type(uint256).max);
        vm.stopPrank();
        targetContract(address(taskHandler));

        // the real perpetual, on the same ClearingHouse accounts, guarantors and oracle feed
        _deployPerpMarket();
        marketHandler = new ProtocolMarketHandler(
            ProtocolMarketHandler.Markets({
                perp: perp,
                vault: vault,
                house: house,
                oracle: oracle,
                feed: feed,
                usdc: usdc,
                main: handler,
                burnSink: BURN_SINK
            }),
            traders
        );
        manager.grantRole(0, address(marketHandler), 0); // governance: pauses "perp.trade"
        _grant(Roles.KEEPER, marketHandler.keeper());
        _grant(Roles.KEEPER, address(this));
        usdc.mint(address(this), 200_000e6);
        usdc.approve(address(vault), 200_000e6);
        vault.deposit(200_000e6, address(this));
        vault.allocate(address(perp), 150_000e6);
        targetContract(address(marketHandler));
    }

    // ───────────── sums over the actors ─────────────

    function _sumCollateral() internal view returns (int256 total) {
        for (uint256 i; i < 3; ++i) total += house.collateralOf(traders[i]);
        total += house.collateralOf(address(marketHandler)); // perp execution fees it earned as the executor
    }

    // ───────────── invariants ─────────────

    /// ACC-01: the ClearingHouse's USDC = Σ customer collateral + both markets' PnL pools (test market and
    /// PerpMarket) + accrued fees, exactly.
    function invariant_ACC01_clearingHouseLedger() public view {
        (, int256 poolUsdc, , ) = house.marketInfo(address(market));
        (, int256 perpPoolUsdc, , ) = house.marketInfo(address(perp));
        (uint256 fees, ) = house.totals();
        assertEq(int256(usdc.balanceOf(address(house))), _sumCollateral() + poolUsdc + perpPoolUsdc + int256(fees));
    }

    /// ACC-01 / LIQ-07: the GuarantorPool holds exactly the guarantors' capital and DPS bonds; capital moves only by
    /// deposits, withdrawals, income and recorded defaults — never from or to customer collateral.
    function invariant_ACC01_LIQ07_guarantorCapitalSegregated() public view {
        uint256 c1 = pool.guarantorInfo(g1).capitalUsdc;
        uint256 c2 = pool.guarantorInfo(g2).capitalUsdc;
        assertEq(usdc.balanceOf(address(pool)), c1 + c2);
        assertEq(dps.balanceOf(address(pool)), pool.guarantorInfo(g1).dpsStaked + pool.guarantorInfo(g2).dpsStaked);
        assertEq(int256(c1 + c2), capital0 + handler.ghostCapitalFlows());
    }

    /// ACC-01 / LIQ-06: the InsuranceFund holds exactly its ledger, which moved only by stakes, fee income, bad-debt
    /// cover and cooled-down withdrawals.
    function invariant_ACC01_LIQ06_insuranceLedger() public view {
        assertEq(usdc.balanceOf(address(fund)), fund.totalAssets());
        assertEq(fund.totalAssets(), handler.ghostFundIn() - handler.ghostFundOut());
        assertEq(handler.violationsLIQ06(), 0, "LIQ-06");
    }

    /// ACC-01: the ProviderRegistry's DPS = Σ staked + unbonding DPS of its providers.
    function invariant_ACC01_registryStakeBacked() public view {
        uint256 sum;
        for (uint256 i; i < 3; ++i) {
            IProviderRegistry.ProviderInfo memory info = registry.providerInfo(providers[i]);
            sum += uint256(info.stakedDps) + info.unbondingDps;
        }
        assertEq(dps.balanceOf(address(registry)), sum);
    }

    /// ACC-01 / EMI-01: Emission holds at least its pool, keeper budget and funded rewards; claims are covered.
    function invariant_ACC01_emissionRewardsCovered() public view {
        (uint256 rewardPool, uint256 budget, , ) = emission.pools();
        (uint256 funded, uint256 unfunded) = emission.rewardReserves();
        assertGe(dps.balanceOf(address(emission)), rewardPool + budget + funded);
        uint256 owed;
        for (uint256 i; i < 3; ++i) owed += emission.claimable(providers[i]);
        assertLe(owed, funded + unfunded);
    }

    /// TSK-04: per provider, liability = minted − bought back (no deliveries in this suite); CH supply = Σ liabilities
    /// = Σ CH balances (ACC-02 for CH).
    function invariant_TSK04_ACC02_chSupplyEqualsLiabilities() public view {
        uint256 liabilities;
        uint256 balances;
        for (uint256 i; i < 3; ++i) {
            address p = providers[i];
            assertEq(registry.liabilityOf(p), handler.ghostMinted(p) - handler.ghostBoughtBack(p));
            liabilities += registry.liabilityOf(p);
            balances += ch.balanceOf(p);
        }
        assertEq(ch.totalSupply(), liabilities);
        assertEq(ch.totalSupply(), balances);
    }

    /// EMI-01: DPS ever minted by Emission ≤ the geometric bound; DPS supply = genesis + emitted − burned (slashes).
    function invariant_EMI01_mintedWithinBound() public view {
        (, , uint256 minted, ) = emission.pools();
        assertLe(minted, emission.emissionBound());
        assertEq(dps.totalEmitted(), minted);
        assertEq(dps.totalSupply(), GENESIS_DPS + minted - dps.totalBurned());
    }

    /// EMI-03 / ACC-02: total GFL = Σ provider GFL, mirrored by the module; GFL held by no one else.
    function invariant_EMI03_ACC02_gflSums() public view {
        uint256 sum;
        for (uint256 i; i < 3; ++i) {
            uint256 bal = gfl.balanceOf(providers[i]);
            assertEq(bal, emission.providerInfo(providers[i]).gfl);
            sum += bal;
        }
        assertEq(gfl.totalSupply(), sum);
    }

    /// ACC-02: Σ long/short sizes = open interest per side; Σ shares = total shares (open guarantor, insurance fund).
    function invariant_ACC02_sums() public view {
        uint256 longs;
        uint256 shorts;
        for (uint256 i; i < 3; ++i) {
            int256 s = house.positionOf(traders[i], address(market)).sizeCh;
            if (s > 0) longs += uint256(s);
            else shorts += uint256(-s);
        }
        (, , uint256 longOi, uint256 shortOi) = house.marketInfo(address(market));
        assertEq(longOi, longs);
        assertEq(shortOi, shorts);
        assertEq(pool.guarantorInfo(g2).totalShares, pool.sharesOf(g2, g2) + pool.sharesOf(g2, handler.lp()));
        assertEq(fund.totalShares(), fund.sharesOf(stakers[0]) + fund.sharesOf(stakers[1]));
    }

    /// TSK-02 / ACC-01: the TaskRegistry holds exactly its escrows and claimable payouts, per currency (DPS tasks
    /// replenish Emission on the way out, never from escrow).
    function invariant_TSK02_ACC01_taskEscrow() public view {
        assertEq(usdc.balanceOf(address(tasks)), tasks.totalEscrow(ITaskRegistry.Currency.USDC), "USDC");
        assertEq(dps.balanceOf(address(tasks)), tasks.totalEscrow(ITaskRegistry.Currency.DPS), "DPS");
        assertEq(taskHandler.violationsTSK01(), 0, "TSK-01");
    }

    /// LIQ-01..05, ACC-03, SEC-05, EMI-02, EMI-04, ORC-01 (staleness): properties observed inside handler calls.
    function invariant_LIQ01_LIQ05_ACC03_SEC05_EMI02_EMI04_noViolations() public view {
        assertEq(handler.violationsLIQ01(), 0, "LIQ-01");
        assertEq(handler.violationsLIQ02(), 0, "LIQ-02");
        assertEq(handler.violationsLIQ03(), 0, "LIQ-03");
        assertEq(handler.violationsLIQ04(), 0, "LIQ-04");
        assertEq(handler.violationsLIQ05(), 0, "LIQ-05");
        assertEq(handler.violationsACC03(), 0, "ACC-03");
        assertEq(handler.violationsSEC05(), 0, "SEC-05");
        assertEq(handler.violationsEMI02(), 0, "EMI-02");
        assertEq(handler.violationsEMI04(), 0, "EMI-04");
        assertEq(handler.violationsORC01(), 0, "ORC-01");
    }

    // ───────────── the real perpetual market ─────────────

    /// ACC-01: the PerpMarket holds no USDC (its pool is in the ClearingHouse ledger, summed above); the vault
    /// holds exactly its idle ledger plus donations; the burn sink got exactly the flushed reserve; unclaimed poke
    /// bounties = credited − paid, all of them the keeper's. The PnL pool is a signed ledger and is NOT asserted to
    /// cover the reserves (burn reserve + unclaimed bounties): a poke can credit a bounty the pool cannot pay — see
    /// test_finding_pokeBountyCanExceedPerpPool.
    function invariant_ACC01_perpPoolAndVaultLedgers() public view {
        assertEq(usdc.balanceOf(address(perp)), 0, "perp holds USDC");
        assertEq(usdc.balanceOf(address(vault)), vault.idleUsdc() + marketHandler.ghostDonated(), "vault idle");
        assertEq(usdc.balanceOf(BURN_SINK), marketHandler.ghostBurnFlushed(), "burn sink");
        IPerpMarket.MarketState memory s = perp.marketState();
        assertEq(s.keeperOwedUsdc, marketHandler.ghostBountyCredited() - marketHandler.ghostBountyPaid(), "bounties");
        assertEq(s.keeperOwedUsdc, perp.keeperBountyOf(marketHandler.keeper()), "bounty ledger");
    }

    /// ACC-02: Σ perp sizes per side = the market's open interest = the ClearingHouse's; every account's size
    /// mirrors its ClearingHouse position; Σ cost basis mirrors the ClearingHouse; Σ vault shares = total supply.
    function invariant_ACC02_perpOpenInterestAndShares() public view {
        uint256 longs;
        uint256 shorts;
        int256 basis;
        for (uint256 i; i < 3; ++i) {
            IClearingHouse.Position memory p = house.positionOf(traders[i], address(perp));
            if (p.sizeCh > 0) longs += uint256(int256(p.sizeCh));
            else shorts += uint256(-int256(p.sizeCh));
            basis += p.openNotionalUsdc;
            assertEq(perp.accountState(traders[i]).sizeCh, p.sizeCh, "size mirror");
        }
        IPerpMarket.MarketState memory s = perp.marketState();
        assertEq(s.longOiCh, longs, "long OI");
        assertEq(s.shortOiCh, shorts, "short OI");
        assertEq(s.sumOpenNotionalUsdc, basis, "cost basis");
        (, , uint256 chLong, uint256 chShort) = house.marketInfo(address(perp));
        assertEq(chLong, longs, "ClearingHouse long OI");
        assertEq(chShort, shorts, "ClearingHouse short OI");
        uint256 shares = vault.balanceOf(address(this));
        shares += vault.balanceOf(marketHandler.lps(0)) + vault.balanceOf(marketHandler.lps(1));
        assertEq(shares, vault.totalSupply(), "vault shares");
    }

    /// MKT-01: Σ funding paid ≥ Σ funding received — what traders settled plus what they still owe (pending
    /// funding carried over liquidations included) is never negative beyond one wei of rounding per settlement.
    function invariant_MKT01_fundingConservation() public view {
        // what is owed is priced at the index: not observable while the oracle is stale (ProtocolHandler.timeJump
        // without a refresh); checked again at the next valid state
        try oracle.indexPrice() returns (uint256) {} catch {
            return;
        }
        int256 unsettled;
        for (uint256 i; i < 3; ++i) unsettled += perp.fundingOwedUsdc(traders[i]);
        assertGe(
            marketHandler.ghostFundingSettled() + unsettled,
            -int256(marketHandler.ghostFundingOps()),
            "funding created"
        );
    }

    /// MKT-01 / MKT-03: the O(1) aggregate the vault's equity uses (funding offset = Σ size × snapshot − Σ pending
    /// funding) equals the sum over the actual positions, so LPs' funding claim is the traders' debt, exactly.
    function invariant_MKT01_MKT03_fundingAggregateMatchesPositions() public view {
        int256 offset;
        for (uint256 i; i < 3; ++i) {
            IPerpMarket.AccountState memory a = perp.accountState(traders[i]);
            offset += (a.sizeCh * a.fundingSnapshotWad) / 1e18 - a.pendingFundingUsdc * 1e12;
        }
        assertEq(perp.marketState().fundingOffsetWad, offset);
    }

    /// MKT-01 (settlements move what was owed), MKT-02 (direction over every time jump), ACC-03 / ACC-04 (vault
    /// shares: no free value, share price never lowered by an LP action, donations inert, bounties exact), LIQ-01,
    /// SEC-05 and ORC-01 on the perp's trades and closes, and no Panic in any market call.
    function invariant_MKT01_MKT02_ACC03_ACC04_LIQ01_SEC05_ORC01_perpNoViolations() public view {
        assertEq(marketHandler.violationsMKT01(), 0, "MKT-01");
        assertEq(marketHandler.violationsMKT02(), 0, "MKT-02");
        assertEq(marketHandler.violationsACC03(), 0, "ACC-03");
        assertEq(marketHandler.violationsACC04(), 0, "ACC-04");
        assertEq(marketHandler.violationsLIQ01(), 0, "LIQ-01");
        assertEq(marketHandler.violationsSEC05(), 0, "SEC-05");
        assertEq(marketHandler.violationsORC01(), 0, "ORC-01");
        assertEq(marketHandler.panics(), 0, "Panic");
    }

    // ───────────── the handler's paths are live (so the invariants are not vacuous) ─────────────

    function test_handlerPathsAreLive() public {
        // provider: heartbeat feeds Emission; mint CH against stake
        handler.providerHeartbeat(0, 0.4e18);
        handler.providerHeartbeat(1, 0.5e18);
        handler.providerHeartbeat(2, 0.5e18);
        handler.providerMint(0, 100e18);
        assertGt(ch.totalSupply(), 0, "CH minted");
        // keeper: an epoch closes and rebalances, GFL follows the samples
        vm.warp(emission.epochStart(emission.currentEpoch() + 1));
        handler.timeJump(10 minutes, true);
        handler.keeperCloseEpoch();
        handler.keeperRebalance(5);
        assertEq(handler.epochsClosed(), 1, "epoch closed");
        assertGt(gfl.totalSupply(), 0, "GFL rebalanced");
        // a second epoch over the threshold: a halving (EMI-04 runs across halvings, not only before the first)
        handler.providerHeartbeat(0, 0.5e18);
        handler.providerHeartbeat(1, 0.5e18);
        handler.providerHeartbeat(2, 0.5e18);
        vm.warp(emission.epochStart(emission.currentEpoch() + 1));
        handler.timeJump(10 minutes, true);
        handler.keeperCloseEpoch();
        handler.keeperRebalance(5);
        assertGe(emission.halvings(), 1, "halving reached");
        // trader at 6x, price −20 %: liquidated, deficit walks the waterfall
        handler.traderTrade(0, 300e18);
        handler.oracleMove(8_000);
        handler.liquidate(0);
        assertEq(handler.liquidations(), 1, "liquidated");
        // insurance staker: stake, cooled-down withdrawal
        handler.insuranceStake(0, 1_000e6);
        handler.insuranceRequest(0, type(uint256).max);
        vm.warp(block.timestamp + 7 days + 1);
        handler.insuranceWithdraw(0);
        assertEq(fund.sharesOf(stakers[0]), 0, "staker exited");
        invariant_LIQ01_LIQ05_ACC03_SEC05_EMI02_EMI04_noViolations();
        invariant_ACC01_clearingHouseLedger();
        invariant_ACC01_LIQ06_insuranceLedger();
        invariant_TSK04_ACC02_chSupplyEqualsLiabilities();
        // client / council: a USDC task from submission to a finalised, paid result
        taskHandler.clientSubmit(false, 500e6);
        taskHandler.providerBid(0, 1, 5_000);
        handler.providerReattest(0);
        handler.providerReattest(1);
        handler.providerReattest(2);
        taskHandler.keeperCloseAndDraw(0);
        taskHandler.executorCommit(0);
        taskHandler.councilVote(0, true);
        taskHandler.anyoneFinalize(0);
        taskHandler.councilClaim(0);
        assertEq(taskHandler.finalized(), 1, "task finalised");
        invariant_TSK02_ACC01_taskEscrow();
    }

    /// Regression (found by invariant_ACC01_perpPoolAndVaultLedgers in its first form, "pool ≥ burn reserve + unclaimed
    /// bounties"): `pokeFunding` credits the fixed `pokeBountyUsdc` whenever any open interest exists, and the vault
    /// used to be able to take the pool down to reserves + owed to traders + lpReserveBps of the gross notional —
    /// about zero for a dust position — so after a full deallocation the next poke's credit was unpayable
    /// (`claimKeeperBounty` reverted ClearingMarketPoolTooLow). `withdrawableToVaultUsdc` now leaves a week of poke
    /// bounties (PerpMarket.BOUNTY_RUNWAY_SEC) in the pool while positions are open.
    function test_pokeBountyStaysPayableAfterFullDeallocation() public {
        PerpOrderSteps.mustTrade(perp, traders[0], 0.01e18); // dust open interest
        vault.deallocate(address(perp), perp.withdrawableToVaultUsdc());
        vm.warp(block.timestamp + 1 hours);
        feed.setAnswer(10e8);
        address keeper = address(0xEE02);
        vm.prank(keeper);
        assertEq(perp.pokeFunding(), 0.1e6);
        (, int256 poolUsdc, , ) = house.marketInfo(address(perp));
        IPerpMarket.MarketState memory s = perp.marketState();
        assertGe(poolUsdc, int256(s.burnReserveUsdc + s.keeperOwedUsdc), "reserves covered by the pool");
        vm.prank(keeper);
        assertEq(perp.claimKeeperBounty(), 0.1e6, "bounty paid");
        assertEq(usdc.balanceOf(keeper), 0.1e6, "keeper received it");
    }

    function test_marketHandlerPathsAreLive() public {
        // traders: a long and a smaller short, longs ahead pay funding over a day
        marketHandler.perpTrade(0, 2_000e6); // 200 CH at 10 USDC
        marketHandler.perpTrade(1, -1_000e6);
        assertEq(marketHandler.trades(), 2, "traded");
        marketHandler.perpTimeJump(1 days);
        assertGt(perp.fundingOwedUsdc(traders[0]), 0, "longs owe");
        marketHandler.perpMarginDeposit(0, 100e6);
        // keeper: poke (bounty), settle, claim, flush the burn reserve, move vault capital
        marketHandler.keeperPoke();
        marketHandler.keeperSettle(0);
        marketHandler.keeperClaim();
        marketHandler.keeperFlushBurn();
        marketHandler.keeperAllocate(10_000e6);
        marketHandler.keeperDeallocate(5_000e6);
        assertGt(marketHandler.ghostFundingSettled(), 0, "funding settled");
        assertGt(marketHandler.ghostBountyPaid(), 0, "bounty paid");
        assertGt(marketHandler.ghostBurnFlushed(), 0, "burn flushed");
        // LPs: deposit, a donation, withdraw and redeem after the lock
        marketHandler.lpDeposit(0, 10_000e6);
        marketHandler.donate(1_000e6);
        marketHandler.perpTimeJump(1 days);
        marketHandler.perpTimeJump(1 minutes);
        marketHandler.lpWithdraw(0, 1_000e6);
        marketHandler.lpRedeem(0, type(uint256).max);
        assertEq(vault.balanceOf(marketHandler.lps(0)), 0, "LP exited");
        // SEC-05: a close works with new perp risk paused
        marketHandler.govPausePerp(0);
        marketHandler.perpClose(1);
        assertEq(marketHandler.closes(), 1, "closed while paused");
        marketHandler.govPausePerp(1);
        // liquidator: the long levered up to near initial margin, price −22 %: liquidated through the
        // LiquidationEngine, the deficit walks the waterfall
        marketHandler.perpTradeLevered(0, true, 9_000);
        assertEq(marketHandler.trades(), 3, "long levered up to near initial margin");
        marketHandler.perpPriceMove(800, false);
        marketHandler.perpPriceMove(800, false);
        marketHandler.perpPriceMove(800, false);
        marketHandler.perpLiquidate(0, false);
        assertEq(marketHandler.perpLiquidations(), 1, "perp position liquidated");
        invariant_ACC01_clearingHouseLedger();
        invariant_ACC01_LIQ07_guarantorCapitalSegregated();
        invariant_ACC01_LIQ06_insuranceLedger();
        invariant_ACC01_perpPoolAndVaultLedgers();
        invariant_ACC02_perpOpenInterestAndShares();
        invariant_MKT01_fundingConservation();
        invariant_MKT01_MKT03_fundingAggregateMatchesPositions();
        invariant_MKT01_MKT02_ACC03_ACC04_LIQ01_SEC05_ORC01_perpNoViolations();
        invariant_LIQ01_LIQ05_ACC03_SEC05_EMI02_EMI04_noViolations();
    }
}
