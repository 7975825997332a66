/**
 * The liquidations and volatility jobs against the real protocol (deploy engine, every module) on the shared node:
 * a MockClearingMarket listed on the ClearingHouse, one guarantor, six traders each with 100 USDC of collateral and a
 * long of 10, 30, 50, 70, 80 and 95 CH at 10 USDC (IM 10 %, MM 5 %). The index then falls to 9 USDC: equity
 * 100 − size against a maintenance margin of 0.45 × size, so exactly the 70, 80 and 95 CH longs are below it
 * (30 < 31.5, 20 < 36, 5 < 42.75) and the others are not (50 ≥ 22.5, …). Each test starts from the same snapshot.
 */
import { expect } from "chai";
import { toBeHex, type Wallet } from "ethers";
import { MockERC20__factory, MockPerpFundingMarket__factory } from "../../types/ethers-contracts/index.js";
import {
  listTestMarket,
  setupGuarantor,
  setupTrader,
  usdc,
  wad,
  type ClearingSetup,
} from "../../test/helpers/clearing.js";
import {
  ADL_EXECUTE_ACTION,
  ADL_NOMINATE_ACTION,
  APPROVE_ACTION,
  LIQUIDATE_ACTION,
  liquidationJob,
} from "../src/jobs/liquidations.js";
import type { Keeper, TickReport } from "../src/keeper.js";
import { volatilityJob } from "../src/jobs/volatility.js";
import { FaultProxy } from "./fault-proxy.js";
import { account, counts, makeKeeper, node } from "./harness.js";
import { type DeployedProtocol } from "./protocol.js";
import { protocolSuite, race } from "./fixtures.js";
import {
  LiquidationChecker__factory,
  MockAggregatorV3__factory,
  VolatilityChecker__factory,
  ErrorDecoder,
  Roles,
  type Protocol,
} from "@chx/sdk";
import { AbiCoder } from "ethers";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyConfig, defaultConfig } from "../src/config.js";
import { loadJobs } from "../src/scan.js";
import { jobFactories } from "../src/jobs/index.js";
import { buildRegistrations, liquidationShards } from "../src/gelato.js";
import { discoverCheckers } from "../src/discover.js";
import { ChainClient } from "../src/chain/client.js";

/** Accounts beyond the node's 20 funded ones (20/21 are the keepers, as in emission.test.ts; restored after). */
const KEEPER_A = 20;
const KEEPER_B = 21;
const GUARANTOR = 29;
const PERP_TRADER = 40;
const TOKEN_TRADER = 41;
const FIRST_TRADER = 30;
const SIZES = ["10", "30", "50", "70", "80", "95"];
/** Indexes into SIZES below maintenance at 9 USDC (independent arithmetic in the header). */
const UNDERWATER = [3, 4, 5];

describe("liquidations job: accounts from ClearingHouse events, liquidated below maintenance (real protocol, real node)", function () {
  let deployed: DeployedProtocol;
  let protocol: Protocol;
  let cs: ClearingSetup;
  let traders: Wallet[];

  protocolSuite(180_000, async (d) => {
    deployed = d;
    protocol = d.protocol;
    const p = node().provider;
    const admin = account(0).connect(p);
    const indexes = [KEEPER_A, KEEPER_B, GUARANTOR, ...SIZES.map((_, i) => FIRST_TRADER + i)];
    for (const i of indexes) await node().rpc("hardhat_setBalance", [account(i).address, toBeHex(10n ** 22n)]);
    cs = await listTestMarket(undefined as never, deployed.record, protocol, admin);
    const g = account(GUARANTOR).connect(p);
    await setupGuarantor(protocol, admin, g, false, usdc("1000"));
    traders = SIZES.map((_, i) => account(FIRST_TRADER + i).connect(p));
    for (const [i, t] of traders.entries()) {
      await setupTrader(protocol, g, t, usdc("100"));
      await (await cs.market.connect(t).trade(wad(SIZES[i]!))).wait();
    }
    for (const t of traders) expect((await protocol.liquidationEngine.isLiquidatable(t.address))[0]).to.equal(false);
  });

  const config = (extra: Record<string, unknown> = {}) => ({
    jobs: { liquidations: { gasCeilingGwei: 20 }, ...extra },
  });
  const underwater = () => UNDERWATER.map((i) => traders[i]!.address.toLowerCase()).sort();

  async function liquidatedSince(from: number): Promise<Array<[string, string]>> {
    const le = protocol.liquidationEngine;
    const logs = await le.queryFilter(le.filters.AccountLiquidated(), from, "latest");
    return logs.map((l) => [l.args.account.toLowerCase(), l.args.keeper]);
  }

  it("a price drop makes 3 of 6 traders liquidatable: the keeper liquidates exactly those (priority), then finds nothing", async function () {
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: config() });
    try {
      expect(k.summary().join("\n")).to.match(
        /job liquidations: liquidate accounts below maintenance margin \(priority\)/,
      );
      // Before the drop: every account is tracked from the events, none is due.
      const calm = await k.tick();
      expect(calm.errors).to.deep.equal([]);
      expect(calm.results).to.deep.equal([]);

      await (await cs.oracle.setPrice(wad("9"))).wait();
      const from = (await node().provider.getBlockNumber()) + 1;
      const r = await k.tick();
      expect(r.errors).to.deep.equal([]);
      expect(
        r.results.map((x) => [x.key.split(":")[0], x.key.split(":")[1], x.outcome, x.priority]),
      ).to.have.deep.members(underwater().map((a) => ["liquidations.liquidate", a, "success", true]));
      const done = await liquidatedSince(from);
      expect(done.map(([a]) => a).sort()).to.deep.equal(underwater());
      expect(done.every(([, keeper]) => keeper === k.address)).to.equal(true);
      for (const t of traders) {
        const [liquidatable, equity, mm] = await protocol.liquidationEngine.isLiquidatable(t.address);
        expect(liquidatable, t.address).to.equal(false);
        expect(equity >= BigInt(mm)).to.equal(true);
      }
      // A re-run: nothing due, no transaction.
      const nonce = await node().provider.getTransactionCount(k.address);
      expect((await k.tick()).results).to.deep.equal([]);
      expect(await node().provider.getTransactionCount(k.address)).to.equal(nonce);
    } finally {
      await k.stop(0);
    }
  });

  it("test_reorgAtTheSameHeight_rewindsTheAccountSet: a deeper-than-confirmations reorg that replaces scanned blocks without lowering the head is followed (rewound, not rebuilt)", async function () {
    // The keeper tracked X, whose position exists only on the branch a reorg then replaced; the new branch, as long as
    // the old one, holds Y's position instead. A scan that only looked for the head going backwards kept X and never
    // read Y's blocks (they were at or below its cursor): Y would never be liquidated.
    const p = node().provider;
    const [x, y] = [42, 43].map((i) => account(i).connect(p));
    for (const w of [x!, y!]) await node().rpc("hardhat_setBalance", [w.address, toBeHex(10n ** 22n)]);
    const g = account(GUARANTOR).connect(p);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "chx-keeper-reorg-"));
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: { ...config(), dataDir } });
    const job = k.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
    try {
      expect((await k.tick()).errors).to.deep.equal([]);
      const snapshot = await node().rpc("evm_snapshot", []);
      await setupTrader(protocol, g, x!, usdc("100"));
      await (await cs.market.connect(x!).trade(wad("95"))).wait();
      const height = await p.getBlockNumber();
      expect((await k.tick()).errors).to.deep.equal([]);
      expect(job.set.open().map((o) => o.account)).to.include(x!.address.toLowerCase());

      expect(await node().rpc("evm_revert", [snapshot])).to.equal(true);
      await setupTrader(protocol, g, y!, usdc("100"));
      await (await cs.market.connect(y!).trade(wad("95"))).wait();
      expect(await p.getBlockNumber()).to.equal(height); // the same height, other blocks
      await (await cs.oracle.setPrice(wad("9"))).wait();
      const from = await p.getBlockNumber();

      const r = await k.tick();
      expect(r.errors).to.deep.equal([]);
      const tracked = job.set.open().map((o) => o.account);
      expect(tracked).to.include(y!.address.toLowerCase());
      expect(tracked).to.not.include(x!.address.toLowerCase());
      expect([job.set.rewinds, job.set.rebuilds]).to.deep.equal([1, 0]);
      const done = await liquidatedSince(from);
      expect(done.map(([a]) => a).sort()).to.deep.equal([...underwater(), y!.address.toLowerCase()].sort());
    } finally {
      await k.stop(0);
    }
    // The checkpoint followed the rewind: a restart resumes from it without a rebuild, and X (whose row a stale
    // checkpoint would still hold, with its 95 CH) is not among the open accounts.
    const k2 = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { ...config(), dataDir },
    });
    const job2 = k2.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
    try {
      expect((await k2.tick()).errors).to.deep.equal([]);
      expect(job2.set.rebuilds).to.equal(0);
      const open = job2.set.open().map((o) => o.account);
      expect(open).to.not.include(x!.address.toLowerCase());
      for (const t of traders.slice(0, 3)) expect(open).to.include(t.address.toLowerCase());
    } finally {
      await k2.stop(0);
    }
  });

  it("test_reorgBelowTheHead_undoesOrphanedLiquidations: liquidations a deeper reorg removed are found again from the journal (no rebuild) and redone once", async function () {
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: config() });
    const job = k.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
    const sizes = () => JSON.stringify([...job.set.accounts].map(([a, t]) => [a, [...t.sizes].map(String)]).sort());
    try {
      expect((await k.tick()).errors).to.deep.equal([]);
      const calm = sizes();
      await (await cs.oracle.setPrice(wad("9"))).wait();
      const snapshot = await node().rpc("evm_snapshot", []);
      const first = await k.tick();
      expect(counts(first.results)).to.deep.equal({ success: 3 });
      expect((await k.tick()).errors).to.deep.equal([]); // the scan reads the three liquidations
      expect(sizes()).to.not.equal(calm);
      // the reorg takes the liquidations away: the head falls back below the cursor
      expect(await node().rpc("evm_revert", [snapshot])).to.equal(true);
      await node().rpc("evm_mine", []);
      const from = await node().provider.getBlockNumber();
      const r = await k.tick();
      expect(r.reorg).to.equal(true);
      expect(r.errors).to.deep.equal([]);
      expect([job.set.rewinds, job.set.rebuilds]).to.deep.equal([1, 0]);
      expect(sizes()).to.equal(calm); // the liquidated sizes came back from the journal
      expect(r.results.filter((x) => x.outcome === "success").map((x) => x.key.split(":")[1])).to.have.members(
        underwater(),
      );
      const done = await liquidatedSince(from);
      expect(done.map(([a]) => a).sort()).to.deep.equal(underwater());
    } finally {
      await k.stop(0);
    }
  });

  it("OPS-01: two keepers racing in the same blocks liquidate each account once; the losers read LiquidationAccountHealthy as already done", async function () {
    await (await cs.oracle.setPrice(wad("9"))).wait();
    const from = (await node().provider.getBlockNumber()) + 1;
    const a = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { ...config(), replaceAfterMs: 20_000 },
    });
    const b = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_B,
      config: { ...config(), replaceAfterMs: 20_000 },
    });
    await race(a, b, 3, async (all) => {
      expect(counts(all)).to.deep.equal({ success: 3, "already-done": 3 });
      for (const x of all.filter((y) => y.outcome === "already-done")) {
        expect(x.reason).to.match(/LiquidationAccountHealthy\(account=0x/);
      }
      expect(await a.metrics.count("liquidations", "reverted")).to.equal(0);
      expect(await b.metrics.count("liquidations", "reverted")).to.equal(0);
      // Exactly one liquidation per underwater account, whoever won it.
      const done = await liquidatedSince(from);
      expect(done.map(([acc]) => acc).sort()).to.deep.equal(underwater());
    });
  });

  it("OPS-02: a 10× gas spike still liquidates (priority) while the volatility update waits for the fee to fall", async function () {
    await node().rpc("hardhat_setNextBlockBaseFeePerGas", ["0x3b9aca00"]); // 1 gwei
    await node().rpc("evm_mine", []);
    await (await cs.oracle.setPrice(wad("9"))).wait();
    const px = await new FaultProxy(node().url).start();
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      urls: [px.url],
      config: config({ volatility: { gasCeilingGwei: 20, markets: false } }),
    });
    try {
      px.gasMultiplier(10);
      const spike = await k.tick();
      expect(spike.errors).to.deep.equal([]);
      const liq = spike.results.filter((x) => x.job === "liquidations");
      expect(counts(liq)).to.deep.equal({ success: 3 });
      expect(spike.results.filter((x) => x.job === "volatility").map((x) => [x.key, x.outcome])).to.deep.equal([
        ["volatility.update:-:0", "skipped-gas"],
      ]);
      const from = 0;
      expect((await liquidatedSince(from)).map(([acc]) => acc).sort()).to.deep.equal(underwater());

      px.gasMultiplier(1);
      const calm = await k.tick();
      expect(calm.results.map((x) => [x.key, x.outcome])).to.deep.equal([["volatility.update:-:0", "success"]]);
    } finally {
      await k.stop(0);
      await px.stop();
    }
  });

  it("volatility: updates when due (first ever, then every minUpdateInterval), nothing in between", async function () {
    const re = protocol.riskEngine;
    const [, interval] = await re.volatilityParams();
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { jobs: { volatility: { markets: false } } },
    });
    try {
      expect(k.summary().join("\n")).to.match(/job volatility: update the EWMA volatility when due on RiskEngine/);
      const first = await k.tick();
      expect(first.results.map((x) => [x.key, x.outcome, x.priority])).to.deep.equal([
        ["volatility.update:-:0", "success", false],
      ]);
      const [, , lastPrice, lastUpdate] = await re.volatility();
      expect(lastPrice).to.equal(wad("10"));
      expect((await k.tick()).results).to.deep.equal([]); // not due again yet

      // One interval later, at 9 USDC: due again, under a new key; σ folds in the 10 % return.
      await node().rpc("evm_setNextBlockTimestamp", [Number(lastUpdate + interval)]);
      await (await cs.oracle.setPrice(wad("9"))).wait();
      const [sigmaBefore] = await re.volatility();
      const second = await k.tick();
      expect(second.results.map((x) => [x.key, x.outcome])).to.deep.equal([
        [`volatility.update:-:${lastUpdate}`, "success"],
      ]);
      const [sigmaAfter, , price] = await re.volatility();
      expect(price).to.equal(wad("9"));
      expect(sigmaAfter > sigmaBefore).to.equal(true);
    } finally {
      await k.stop(0);
    }
  });

  it("stop() ends the background margin-model fits first: no model is fitted and no read runs after it returns", async function () {
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: config() });
    const job = k.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
    await k.tick(); // starts the fits in the background
    await k.stop(0);
    const after = job.modelCount();
    await new Promise((r) => setTimeout(r, 500));
    expect(job.modelCount()).to.equal(after);
    // The closed job starts nothing new either.
    expect(after).to.be.at.most(SIZES.length);
  });

  it("with every margin model fitted, a price drop is found by the model and the probe's gas is what the liquidation costs", async function () {
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: config() });
    try {
      await k.tick();
      const job = k.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
      const deadline = Date.now() + 30_000;
      while (job.modelCount() < SIZES.length) {
        if (Date.now() > deadline) throw new Error(`only ${job.modelCount()} margin models after 30 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
      // Calm: nothing due (the models put nobody near maintenance).
      expect((await k.tick()).results).to.deep.equal([]);
      await (await cs.oracle.setPrice(wad("9"))).wait();
      const from = (await node().provider.getBlockNumber()) + 1;
      const r = await k.tick();
      expect(counts(r.results)).to.deep.equal({ success: 3 });
      const txs = await liquidatedSince(from);
      expect(txs.map(([a]) => a).sort()).to.deep.equal(underwater());
      for (const x of r.results) {
        const tx = await node().provider.getTransaction(x.txHash!);
        const receipt = await node().provider.getTransactionReceipt(x.txHash!);
        // gas limit = (probe + 21,600) × 1.25 + 10k: the probe measured at least what the transaction used.
        const probed = ((tx!.gasLimit - 10_000n) * 100n) / 125n;
        expect(receipt!.gasUsed <= probed, `${receipt!.gasUsed} > ${probed}`).to.equal(true);
        expect(receipt!.gasUsed * 10n >= probed * 8n, `${receipt!.gasUsed} ≪ ${probed}`).to.equal(true);
      }
    } finally {
      await k.stop(0);
    }
  });

  it("settles the perp funding of an account near maintenance first (docs/perps.md), then liquidates it when the funding put it below", async function () {
    const p = node().provider;
    const admin = account(0).connect(p);
    const oracleAddr = deployed.record.contracts.ComputePriceOracle!.address;
    const perp = await new MockPerpFundingMarket__factory(admin).deploy(
      await protocol.clearingHouse.getAddress(),
      oracleAddr,
      await protocol.usdc.getAddress(),
    );
    await perp.waitForDeployment();
    const m = await perp.getAddress();
    await (await protocol.clearingHouse.connect(admin).registerMarket(m)).wait();
    await (
      await protocol.riskEngine.connect(admin).setMarketParams(m, {
        imMultipleWad: wad("3"),
        mmMultipleWad: wad("1.5"),
        imFloorWad: wad("0.1"),
        mmFloorWad: wad("0.05"),
      })
    ).wait();
    await (await protocol.accessManager.connect(admin).grantRole(Roles.MARKET, m, 0)).wait();
    await (await protocol.usdc.connect(admin).mint(admin.address, usdc("10000"))).wait();
    await (await protocol.usdc.connect(admin).approve(m, usdc("10000"))).wait();
    await (await perp.connect(admin).fund(usdc("10000"))).wait();
    const t = account(PERP_TRADER).connect(p);
    await node().rpc("hardhat_setBalance", [t.address, toBeHex(10n ** 22n)]);
    await setupTrader(protocol, account(GUARANTOR).connect(p), t, usdc("100"));
    await (await perp.connect(t).trade(wad("60"))).wait();
    // At 9 USDC: equity 100 − 60 = 40 ≥ maintenance 0.05 × 540 = 27 (healthy, but below 1.5 × 27: near); with the
    // 20 USDC of funding it owes settled, 20 < 27: liquidatable.
    await (await perp.setOwed(t.address, usdc("20"))).wait();
    await (await cs.oracle.setPrice(wad("9"))).wait();
    const deployment = {
      ...deployed.deployment,
      contracts: { ...deployed.deployment.contracts, MockPerp: { contract: "MockPerpFundingMarket", address: m } },
    };
    const k = makeKeeper({
      deployment,
      accountIndex: KEEPER_A,
      config: { jobs: { liquidations: { gasCeilingGwei: 20, perpMarkets: ["MockPerp"] } } },
    });
    try {
      const first = await k.tick();
      expect(first.errors).to.deep.equal([]);
      const settle = first.results.filter((x) => x.key.startsWith("liquidations.settleFunding"));
      expect(settle.map((x) => [x.key.split(":")[1], x.outcome, x.priority])).to.deep.equal([
        [`${t.address.toLowerCase()}@${m.toLowerCase()}`, "success", true],
      ]);
      expect(await protocol.clearingHouse.collateralOf(t.address)).to.equal(usdc("80"));
      expect(counts(first.results)).to.deep.equal({ success: 4 }); // the settlement + the three underwater longs
      const second = await k.tick();
      // the funding bounty left the keeper USDC: it also approves the ClearingHouse before its first liquidation
      const work = second.results.filter((x) => !x.key.startsWith(`${APPROVE_ACTION}:`));
      expect(work.map((x) => [x.key.split(":")[0], x.key.split(":")[1], x.outcome])).to.deep.equal([
        ["liquidations.liquidate", t.address.toLowerCase(), "success"],
      ]);
      expect((await k.tick()).results).to.deep.equal([]);
    } finally {
      await k.stop(0);
    }
  });

  it("test_adl_keeperRanksNominatesAndExecutes_whenInsuranceIsExhausted: a default beyond the guarantor and the empty fund is deleveraged against the best-ranked short", async function () {
    const p = node().provider;
    const admin = account(0).connect(p);
    const [thin, bankrupt, big, small] = [41, 42, 43, 44].map((i) => account(i).connect(p));
    for (const w of [thin, bankrupt, big, small])
      await node().rpc("hardhat_setBalance", [w!.address, toBeHex(10n ** 22n)]);
    expect(await protocol.insuranceFund.totalAssets()).to.equal(0n);
    // the bankrupt: 50 CH long at 10 on 100 USDC under a guarantor with 60 USDC of capital
    await setupGuarantor(protocol, admin, thin!, false, usdc("60"));
    await setupTrader(protocol, thin!, bankrupt!, usdc("100"));
    await (await cs.market.connect(bankrupt!).trade(wad("50"))).wait();
    // the opposite side: a leveraged short of 50 CH (at 6: score 200 × 300 / 300 = 200) and a rich one of 5 CH (≈ 0.6)
    const g = account(GUARANTOR).connect(p);
    await setupTrader(protocol, g, big!, usdc("100"));
    await (await cs.market.connect(big!).trade(-wad("50"))).wait();
    await setupTrader(protocol, g, small!, usdc("1000"));
    await (await cs.market.connect(small!).trade(-wad("5"))).wait();
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: config() });
    try {
      // 10 → 6: the bankrupt is at −100; the guarantor pays 60, the fund nothing: 40 left, an ADL claim opens (the
      // six longs' deficits, 800 in all, stay within their guarantor's 1,000)
      await (await cs.oracle.setPrice(wad("6"))).wait();
      const first = await k.tick();
      expect(first.errors).to.deep.equal([]);
      expect(await protocol.clearingHouse.collateralOf(bankrupt!.address)).to.equal(-usdc("40"));
      const claim = await protocol.liquidationEngine.adlClaim(bankrupt!.address);
      expect(claim.sizeCh).to.equal(wad("50"));
      // next tick: the keeper ranks the shorts off-chain and nominates the best until the size is covered: only `big`
      const second = await k.tick();
      const nominations = second.results.filter((x) => x.key.startsWith("liquidations.nominateAdl"));
      expect(nominations.map((x) => [x.key.split(":")[1], x.outcome])).to.deep.equal([
        [`${bankrupt!.address.toLowerCase()}@${big!.address.toLowerCase()}`, "success"],
      ]);
      expect(
        (await protocol.liquidationEngine.adlScore(bankrupt!.address, big!.address)) >
          (await protocol.liquidationEngine.adlScore(bankrupt!.address, small!.address)),
      ).to.equal(true);
      expect((await protocol.liquidationEngine.adlClaim(bankrupt!.address)).nominees).to.deep.equal([big!.address]);
      // after the window: executed, at the bankruptcy price (40 / 50 = 0.8 USDC per CH)
      await node().rpc("evm_increaseTime", [Number(await protocol.liquidationEngine.adlWindow())]);
      await node().rpc("evm_mine", []);
      const third = await k.tick();
      const exec = third.results.filter((x) => x.key.startsWith("liquidations.executeAdl"));
      expect(exec.map((x) => [x.key.split(":")[1], x.outcome])).to.deep.equal([
        [bankrupt!.address.toLowerCase(), "success"],
      ]);
      expect(await protocol.clearingHouse.collateralOf(bankrupt!.address)).to.equal(0n);
      const m = await cs.market.getAddress();
      expect((await protocol.clearingHouse.positionOf(big!.address, m)).sizeCh).to.equal(0n);
      expect((await protocol.clearingHouse.positionOf(small!.address, m)).sizeCh).to.equal(-wad("5"));
      expect((await protocol.liquidationEngine.adlClaim(bankrupt!.address)).market).to.equal(
        "0x0000000000000000000000000000000000000000",
      );
      // nothing left to do
      expect((await k.tick()).results.filter((x) => x.key.includes("Adl"))).to.deep.equal([]);
    } finally {
      await k.stop(0);
    }
  });

  // ---- ADL claims across reorgs (followReorg: claims dropped as closed after the fork are put back and re-read) ----

  /** Counts the keeper's reads labelled `label` (the job reads each ADL claim it holds as "adlClaim", every tick). */
  function readsOf(k: Keeper, label: string): { n: number } {
    const c = { n: 0 };
    const read = k.client.read.bind(k.client);
    k.client.read = ((...args: Parameters<typeof read>) => {
      if (args[0] === label) c.n++;
      return read(...args);
    }) as typeof read;
    return c;
  }
  const adlOf = (r: TickReport) =>
    r.results.filter((x) => x.key.includes("Adl")).map((x) => [x.key.split(":")[0], x.key.split(":")[1], x.outcome]);
  const adlKey = (bankrupt: string) => `adl:${bankrupt}`;
  const claimOpen = async (bankrupt: string) =>
    (await protocol.liquidationEngine.adlClaim(bankrupt)).market !== "0x0000000000000000000000000000000000000000";
  /** AdlRoundExecuted events of `bankrupt` on the current chain (a reverted branch's are gone). */
  async function adlExecutions(bankrupt: string, from: number): Promise<string[]> {
    const le = protocol.liquidationEngine;
    const logs = await le.queryFilter(le.filters.AdlRoundExecuted(bankrupt), from, "latest");
    return logs.map((l) => l.args.keeper);
  }
  async function passAdlWindow(): Promise<void> {
    await node().rpc("evm_increaseTime", [Number(await protocol.liquidationEngine.adlWindow())]);
    await node().rpc("evm_mine", []);
  }
  /** A block on another branch: an explicit timestamp, so it never repeats the replaced block's header. */
  async function mineAt(timestamp: number): Promise<void> {
    await node().rpc("evm_setNextBlockTimestamp", [timestamp]);
    await node().rpc("evm_mine", []);
  }

  /**
   * The claim of test_adl_keeperRanksNominatesAndExecutes_whenInsuranceIsExhausted (a 50 CH long defaults beyond its
   * 60 USDC guarantor and the empty fund; `big` is the best-ranked short), opened by `k`'s liquidation and nominated
   * by its next tick (each tick `confirmations` blocks later, so its scan sees the block before). Returns at the
   * nomination, inside the window.
   */
  async function adlClaimNominated(k: Keeper, confirmations = 0): Promise<{ bankrupt: string; big: string }> {
    const confirm = async () => {
      for (let i = 0; i < confirmations; i++) await node().rpc("evm_mine", []);
    };
    const p = node().provider;
    const admin = account(0).connect(p);
    const [thin, bankrupt, big, small] = [41, 42, 43, 44].map((i) => account(i).connect(p));
    for (const w of [thin!, bankrupt!, big!, small!])
      await node().rpc("hardhat_setBalance", [w.address, toBeHex(10n ** 22n)]);
    expect(await protocol.insuranceFund.totalAssets()).to.equal(0n);
    await setupGuarantor(protocol, admin, thin!, false, usdc("60"));
    await setupTrader(protocol, thin!, bankrupt!, usdc("100"));
    await (await cs.market.connect(bankrupt!).trade(wad("50"))).wait();
    const g = account(GUARANTOR).connect(p);
    await setupTrader(protocol, g, big!, usdc("100"));
    await (await cs.market.connect(big!).trade(-wad("50"))).wait();
    await setupTrader(protocol, g, small!, usdc("1000"));
    await (await cs.market.connect(small!).trade(-wad("5"))).wait();
    const [b, c] = [bankrupt!.address.toLowerCase(), big!.address.toLowerCase()];
    await (await cs.oracle.setPrice(wad("6"))).wait();
    await confirm();
    expect((await k.tick()).errors).to.deep.equal([]);
    expect((await protocol.liquidationEngine.adlClaim(b)).sizeCh).to.equal(wad("50"));
    await confirm();
    const nominated = await k.tick();
    expect(nominated.errors).to.deep.equal([]);
    expect(adlOf(nominated)).to.deep.equal([[ADL_NOMINATE_ACTION, `${b}@${c}`, "success"]]);
    expect(k.store.jobStore("liquidations").get(adlKey(b))).to.equal("1");
    return { bankrupt: b, big: c };
  }

  /**
   * After the window `k` executes the claim; its next tick reads it closed and drops it (store key deleted, no ADL
   * work) and the tick after does not read it any more. Returns the head the claim was dropped at.
   */
  async function executeAndDrop(k: Keeper, bankrupt: string, claimReads: { n: number }): Promise<number> {
    const store = k.store.jobStore("liquidations");
    await passAdlWindow();
    const exec = await k.tick();
    expect(exec.errors).to.deep.equal([]);
    expect(adlOf(exec)).to.deep.equal([[ADL_EXECUTE_ACTION, bankrupt, "success"]]);
    expect(await claimOpen(bankrupt)).to.equal(false);
    const droppedAt = await node().provider.getBlockNumber();
    const drop = await k.tick();
    expect([drop.head, drop.errors, adlOf(drop)]).to.deep.equal([droppedAt, [], []]);
    expect(store.get(adlKey(bankrupt))).to.equal(undefined);
    await node().rpc("evm_mine", []);
    claimReads.n = 0;
    const after = await k.tick();
    expect([after.errors, adlOf(after), claimReads.n]).to.deep.equal([[], [], 0]); // the job holds no claim
    return droppedAt;
  }

  it("test_reorgUnclosesAnAdlClaim_theKeeperExecutesItAgain: a same-height reorg orphans the executeAdl; the dropped claim is restored, survives a restart and is executed once on the new branch", async function () {
    const p = node().provider;
    const from = await p.getBlockNumber();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "chx-keeper-adl-reorg-"));
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: { ...config(), dataDir } });
    const job = k.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
    const reads = readsOf(k, "adlClaim");
    let bankrupt = "";
    try {
      ({ bankrupt } = await adlClaimNominated(k));
      const snapshot = await node().rpc("evm_snapshot", []); // after the nomination, before the window ends
      const nominatedAt = (await p.getBlock("latest"))!;
      await executeAndDrop(k, bankrupt, reads);
      const oldHead = (await p.getBlock("latest"))!;
      expect(await adlExecutions(bankrupt, from)).to.deep.equal([k.address]);

      // The reorg: the branch from the nomination on is replaced by one as long, still inside the window, where the
      // execution never happened (only the block hash at the keeper's cursor tells it).
      expect(await node().rpc("evm_revert", [snapshot])).to.equal(true);
      for (let b = nominatedAt.number + 1; b <= oldHead.number; b++)
        await mineAt(nominatedAt.timestamp + b - nominatedAt.number);
      const newHead = (await p.getBlock("latest"))!;
      expect(newHead.number).to.equal(oldHead.number);
      expect(newHead.hash).to.not.equal(oldHead.hash);
      expect(await claimOpen(bankrupt)).to.equal(true);
      expect(await adlExecutions(bankrupt, from)).to.deep.equal([]);

      reads.n = 0;
      const r = await k.tick();
      expect(r.reorg).to.equal(true);
      expect(r.errors).to.deep.equal([]);
      expect([job.set.rewinds, job.set.rebuilds]).to.deep.equal([1, 0]);
      expect(reads.n).to.equal(1); // the restored claim is read again
      expect(adlOf(r)).to.deep.equal([]); // `big` is still nominated on this branch; the window is not over
      expect(k.store.jobStore("liquidations").get(adlKey(bankrupt))).to.equal("1");
    } finally {
      await k.stop(0);
    }

    // A restart from the data directory after the rewind: the checkpoint holds the claim again, and the restarted job
    // executes it once the window is over on this branch, then drops it.
    const k2 = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { ...config(), dataDir },
    });
    const job2 = k2.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
    const reads2 = readsOf(k2, "adlClaim");
    const store2 = k2.store.jobStore("liquidations");
    try {
      const resumed = await k2.tick();
      expect([resumed.errors, adlOf(resumed), job2.set.rebuilds, reads2.n]).to.deep.equal([[], [], 0, 1]);
      expect(store2.get(adlKey(bankrupt))).to.equal("1");

      await passAdlWindow();
      const exec = await k2.tick();
      expect(exec.errors).to.deep.equal([]);
      expect(adlOf(exec)).to.deep.equal([[ADL_EXECUTE_ACTION, bankrupt, "success"]]);
      expect(await claimOpen(bankrupt)).to.equal(false);
      expect(await adlExecutions(bankrupt, from)).to.deep.equal([k2.address]); // once on the final branch

      const drop = await k2.tick();
      expect([drop.errors, adlOf(drop)]).to.deep.equal([[], []]);
      expect(store2.get(adlKey(bankrupt))).to.equal(undefined);
      await node().rpc("evm_mine", []);
      reads2.n = 0;
      const after = await k2.tick();
      expect([after.errors, adlOf(after), reads2.n]).to.deep.equal([[], [], 0]);
      expect(await adlExecutions(bankrupt, from)).to.have.length(1);
    } finally {
      await k2.stop(0);
    }
  });

  it("test_reorgUnclosesAnAdlClaim_pastTheWindow_theSameKeeperExecutesItAgainAtOnce: the rewind tick re-reads the restored claim and re-sends the orphaned executeAdl", async function () {
    const p = node().provider;
    const from = await p.getBlockNumber();
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: config() });
    const job = k.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
    const reads = readsOf(k, "adlClaim");
    try {
      const { bankrupt } = await adlClaimNominated(k);
      const snapshot = await node().rpc("evm_snapshot", []);
      const nominatedAt = (await p.getBlock("latest"))!;
      await executeAndDrop(k, bankrupt, reads);
      const oldHead = (await p.getBlock("latest"))!;

      // the new branch, as long as the old one, past the window from its first block: the claim is due at once
      expect(await node().rpc("evm_revert", [snapshot])).to.equal(true);
      const window = Number(await protocol.liquidationEngine.adlWindow());
      for (let b = nominatedAt.number + 1; b <= oldHead.number; b++)
        await mineAt(nominatedAt.timestamp + window + 10 + b - nominatedAt.number);
      expect(await p.getBlockNumber()).to.equal(oldHead.number);
      expect(await claimOpen(bankrupt)).to.equal(true);

      reads.n = 0;
      const r = await k.tick();
      expect([r.reorg, r.errors, job.set.rewinds, job.set.rebuilds]).to.deep.equal([true, [], 1, 0]);
      expect(reads.n).to.equal(1);
      expect(adlOf(r)).to.deep.equal([[ADL_EXECUTE_ACTION, bankrupt, "success"]]);
      expect(await claimOpen(bankrupt)).to.equal(false);
      expect(await adlExecutions(bankrupt, from)).to.deep.equal([k.address]);

      const drop = await k.tick();
      expect([drop.errors, adlOf(drop)]).to.deep.equal([[], []]);
      expect(k.store.jobStore("liquidations").get(adlKey(bankrupt))).to.equal(undefined);
      expect(await adlExecutions(bankrupt, from)).to.have.length(1);
    } finally {
      await k.stop(0);
    }
  });

  it("test_shallowReorgUnclosesAnAdlClaim_withConfirmations_theKeeperExecutesItAgain: a reorg within the confirmations orphans the executeAdl; the claim, closed only above the safe block, was kept and is executed again", async function () {
    // With confirmations (2 by default off a local node) the scan, and so followReorg's rewind, covers the blocks up to
    // head − confirmations only; a reorg no deeper than that is never followed by the set. The claim's close read at
    // the head is such a block: a job that dropped the claim there lost it for good when a shallow reorg orphaned the
    // close (no rewind, no restore; a restart neither: its store key was deleted) and never executed it again.
    const p = node().provider;
    const from = await p.getBlockNumber();
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { ...config(), confirmations: 2 },
    });
    const job = k.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
    const store = k.store.jobStore("liquidations");
    try {
      const { bankrupt } = await adlClaimNominated(k, 2);
      const snapshot = await node().rpc("evm_snapshot", []);
      const nominatedAt = (await p.getBlock("latest"))!;
      await passAdlWindow();
      const exec = await k.tick();
      expect([exec.errors, adlOf(exec)]).to.deep.equal([[], [[ADL_EXECUTE_ACTION, bankrupt, "success"]]]);
      expect(await claimOpen(bankrupt)).to.equal(false);
      // closed at the head, still open at the safe block: nothing to do, the claim is kept
      const closedAbove = await k.tick();
      expect([closedAbove.errors, adlOf(closedAbove)]).to.deep.equal([[], []]);
      expect(store.get(adlKey(bankrupt))).to.equal("1");
      const oldHead = (await p.getBlock("latest"))!;

      // a 2-block reorg (within the confirmations) from the nomination: the execution is gone, the window is over
      expect(await node().rpc("evm_revert", [snapshot])).to.equal(true);
      const window = Number(await protocol.liquidationEngine.adlWindow());
      for (let b = nominatedAt.number + 1; b <= oldHead.number; b++)
        await mineAt(nominatedAt.timestamp + window + 10 + b - nominatedAt.number);
      expect(await p.getBlockNumber()).to.equal(oldHead.number);
      expect(await claimOpen(bankrupt)).to.equal(true);

      const r = await k.tick();
      expect([r.reorg, r.errors, job.set.rewinds, job.set.rebuilds]).to.deep.equal([true, [], 0, 0]);
      expect(adlOf(r)).to.deep.equal([[ADL_EXECUTE_ACTION, bankrupt, "success"]]);
      expect(await claimOpen(bankrupt)).to.equal(false);
      // dropped once the safe block has the close, and not before
      const closedAt = await p.getBlockNumber();
      while ((await p.getBlockNumber()) < closedAt + 2) {
        const t = await k.tick();
        expect([t.errors, adlOf(t)]).to.deep.equal([[], []]);
        expect(store.get(adlKey(bankrupt))).to.equal("1");
        await node().rpc("evm_mine", []);
      }
      const drop = await k.tick();
      expect([drop.errors, adlOf(drop)]).to.deep.equal([[], []]);
      expect(store.get(adlKey(bankrupt))).to.equal(undefined);
      expect(await adlExecutions(bankrupt, from)).to.deep.equal([k.address]);
    } finally {
      await k.stop(0);
    }
  });

  it("test_reorgAboveTheAdlDrop_doesNotBringTheClaimBack: a reorg forking after the head the closed claim was dropped at keeps its close; nothing is re-read or re-sent", async function () {
    const p = node().provider;
    const from = await p.getBlockNumber();
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: config() });
    const job = k.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
    const reads = readsOf(k, "adlClaim");
    try {
      const { bankrupt } = await adlClaimNominated(k);
      const droppedAt = await executeAndDrop(k, bankrupt, reads);
      // executeAndDrop's last tick scanned the block after the drop: the fork will be there, above the drop's head
      const fork = (await p.getBlock("latest"))!;
      expect(fork.number).to.be.greaterThan(droppedAt);
      const snapshot = await node().rpc("evm_snapshot", []);
      await mineAt(fork.timestamp + 10);
      expect((await k.tick()).errors).to.deep.equal([]); // the keeper scans the block the reorg replaces
      const oldHead = (await p.getBlock("latest"))!;

      expect(await node().rpc("evm_revert", [snapshot])).to.equal(true);
      await mineAt(fork.timestamp + 20);
      const newHead = (await p.getBlock("latest"))!;
      expect([newHead.number, newHead.hash === oldHead.hash]).to.deep.equal([oldHead.number, false]);
      expect(await claimOpen(bankrupt)).to.equal(false); // the close is below the fork: still on this branch

      reads.n = 0;
      const nonce = await p.getTransactionCount(k.address);
      const r = await k.tick();
      expect([r.reorg, r.errors, job.set.rewinds, job.set.rebuilds]).to.deep.equal([true, [], 1, 0]);
      expect(r.results).to.deep.equal([]);
      expect(reads.n).to.equal(0); // the claim is not back: not even read
      expect(k.store.jobStore("liquidations").get(adlKey(bankrupt))).to.equal(undefined);
      expect(await p.getTransactionCount(k.address)).to.equal(nonce); // no executeAdl sent
      expect(await adlExecutions(bankrupt, from)).to.deep.equal([k.address]);
    } finally {
      await k.stop(0);
    }
  });

  it("test_readmeExample_aFundingSectionKeepsLiquidationsOn: a jobs section overrides, it never selects", function () {
    const cfg = applyConfig(defaultConfig("localhost"), { jobs: { funding: { gasCeilingGwei: 30 } } });
    const { jobs } = loadJobs(cfg, deployed.deployment, jobFactories);
    const names = jobs.map((j) => j.name);
    expect(names).to.include.members(["funding", "liquidations", "volatility", "emission", "tasks", "bounties"]);
    expect(jobs.find((j) => j.name === "funding")?.config.gasCeilingGwei).to.equal(30);
    expect(jobs.find((j) => j.name === "liquidations")?.config.gasCeilingGwei).to.equal(50);
  });

  it("test_bountiesClaimedOnSchedule_andProfitPerJob: bounties in the metrics as bounty − gas; margin credited to the keeper is claimed to its wallet", async function () {
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: {
        ...config({ bounties: { intervalMs: 0, minUsdc: "1" } }),
        prices: { USDC: "1000000000000000" }, // 1 USDC = 0.001 ETH
      },
    });
    const me = k.address;
    try {
      await (await cs.oracle.setPrice(wad("9"))).wait();
      const from = (await node().provider.getBlockNumber()) + 1;
      const first = await k.tick();
      expect(counts(first.results.filter((r) => r.job === "liquidations"))).to.deep.equal({ success: 3 });
      const le = protocol.liquidationEngine;
      const paid = (await le.queryFilter(le.filters.AccountLiquidated(undefined, me), from, "latest")).reduce(
        (a, l) => a + l.args.bountyUsdc,
        0n,
      );
      expect(paid > 0n).to.equal(true);
      const earned = (await k.metrics.bounties.get()).values.find(
        (v) => v.labels.job === "liquidations" && v.labels.asset === "USDC",
      );
      expect(Math.abs(earned!.value - Number(paid) / 1e6) < 1e-9).to.equal(true);
      const gas = first.results.filter((r) => r.job === "liquidations").reduce((a, r) => a + (r.gasCostWei ?? 0n), 0n);
      const profit = (await k.metrics.profit.get()).values.find((v) => v.labels.job === "liquidations")?.value;
      expect(Math.abs(profit! - Number(paid * 10n ** 9n - gas)) < 1e6).to.equal(true); // 1e15 wei per 1e6 units
      // The liquidation bounty is paid to the wallet; options settlement bounties are credited to the keeper's
      // ClearingHouse margin instead — stand in for them with a deposit of what it earned: the bounties job claims it.
      const signer = account(KEEPER_A).connect(node().provider);
      await (await protocol.usdc.connect(signer).approve(await protocol.clearingHouse.getAddress(), paid)).wait();
      await (await protocol.clearingHouse.connect(signer).deposit(paid)).wait();
      expect(await protocol.clearingHouse.collateralOf(me)).to.equal(paid);
      const before = await protocol.usdc.balanceOf(me);
      const second = await k.tick();
      expect(
        second.results.filter((r) => r.job === "bounties").map((r) => [r.key.split(":")[1], r.outcome]),
      ).to.deep.equal([["ClearingHouse", "success"]]);
      expect((await protocol.usdc.balanceOf(me)) - before).to.equal(paid);
      expect(await protocol.clearingHouse.collateralOf(me)).to.equal(0n);
      expect(Math.abs((await k.metrics.claimed.get()).values[0]!.value - Number(paid) / 1e6) < 1e-9).to.equal(true);
    } finally {
      await k.stop(0);
    }
  });

  it("test_vendorCheckers_liquidationAndVolatility: Gelato checker() / Chainlink checkUpkeep find the work, performUpkeep does it once, bounties go to the beneficiary", async function () {
    const p = node().provider;
    const vendor = account(45).connect(p);
    await node().rpc("hardhat_setBalance", [vendor.address, toBeHex(10n ** 21n)]);
    const lc = LiquidationChecker__factory.connect(deployed.record.contracts.LiquidationChecker!.address, vendor);
    const vc = VolatilityChecker__factory.connect(deployed.record.contracts.VolatilityChecker!.address, vendor);
    const all = traders.map((t) => t.address);
    const coder = AbiCoder.defaultAbiCoder();
    expect((await lc.checker(all))[0]).to.equal(false);
    await (await cs.oracle.setPrice(wad("9"))).wait();
    const [canExec, payload] = await lc.checker(all);
    expect(canExec).to.equal(true);
    const [needed, performData] = await lc.checkUpkeep.staticCall(coder.encode(["address[]"], [all]));
    expect(needed).to.equal(true);
    expect(payload).to.equal(lc.interface.encodeFunctionData("performUpkeep", [performData]));
    const due = coder.decode(["address[]"], performData)[0] as string[];
    expect(due.map((a) => a.toLowerCase()).sort()).to.deep.equal(underwater());
    const beneficiary = await lc.beneficiary();
    const before = await protocol.usdc.balanceOf(beneficiary);
    const from = (await p.getBlockNumber()) + 1;
    await (await vendor.sendTransaction({ to: await lc.getAddress(), data: payload })).wait();
    const done = await liquidatedSince(from);
    expect(done.map(([a]) => a).sort()).to.deep.equal(underwater());
    const le = protocol.liquidationEngine;
    const paid = (await le.queryFilter(le.filters.AccountLiquidated(), from, "latest")).reduce(
      (a, l) => a + l.args.bountyUsdc,
      0n,
    );
    expect((await protocol.usdc.balanceOf(beneficiary)) - before).to.equal(paid);
    expect(await protocol.usdc.balanceOf(await lc.getAddress())).to.equal(0n);
    expect(await failure(lc.performUpkeep.staticCall(performData))).to.equal("LiquidationCheckerAlreadyDone");
    expect((await lc.checker(all))[0]).to.equal(false);

    // volatility: due (never updated) → done once → not due; a stale oracle is "not now", not a revert to pay for
    const [vDue, vPayload] = await vc.checker();
    expect(vDue).to.equal(true);
    await (await vendor.sendTransaction({ to: await vc.getAddress(), data: vPayload })).wait();
    expect((await vc.checker())[0]).to.equal(false);
    expect((await vc.checkUpkeep.staticCall("0x"))[0]).to.equal(false);
    expect(await failure(vc.performUpkeep.staticCall("0x"))).to.equal("VolatilityCheckerAlreadyDone");
    const [, interval] = await protocol.riskEngine.volatilityParams();
    await node().rpc("evm_increaseTime", [Number(interval) + 1]);
    await node().rpc("evm_mine", []);
    expect((await vc.status()).due).to.equal(true);
    const feed = MockAggregatorV3__factory.connect(
      deployed.record.contracts.CHIndexFeed!.address,
      account(0).connect(p),
    );
    await (await feed.setRound(9n * 10n ** 8n, 1n, 1n)).wait(); // a round from 1970: stale
    const st = await vc.status();
    expect([st.due, st.oracleOk]).to.deep.equal([false, false]);
    expect((await vc.checker())[0]).to.equal(false);

    // the Gelato registration covers both: the volatility checker and one task per shard of accounts
    const client = new ChainClient({
      urls: [node().url],
      chainId: 31337,
      retries: 1,
      backoffMs: 50,
      timeoutMs: 10_000,
    });
    try {
      const shards = await liquidationShards(deployed.deployment, client, 4);
      expect(shards.length).to.equal(Math.ceil((await lensOpen()) / 4));
      const targets = [
        ...discoverCheckers(deployed.deployment, "artifacts")
          .filter((d) => d.contract === "VolatilityChecker")
          .map((d) => ({ contract: d.name, job: d.job, execFunctions: d.execFunctions })),
        ...shards,
      ];
      const { registrations, problems } = await buildRegistrations(deployed.deployment, targets, client);
      expect(problems).to.deep.equal([]);
      const vol = registrations.find((r) => r.contract === "VolatilityChecker");
      expect(vol?.job).to.equal("volatility");
      expect(vol?.options.execSelector).to.equal(vc.interface.getFunction("performUpkeep").selector);
      const liq = registrations.filter((r) => r.contract === "LiquidationChecker");
      expect(liq.length).to.equal(shards.length);
      expect(String(liq[0]?.options.resolverData).slice(0, 10)).to.equal(lc.interface.getFunction("checker").selector);
      expect(liq.every((r) => r.job === "liquidations")).to.equal(true);
    } finally {
      client.destroy();
    }
  });

  /** The decoded custom error a call reverts with ("ok" if it does not). */
  const failure = (call: Promise<unknown>) =>
    call.then(
      () => "ok",
      (e: unknown) => new ErrorDecoder().decode(e).name ?? "unknown",
    );

  /** Accounts with an open position now (the shards cover exactly those). */
  async function lensOpen(): Promise<number> {
    let n = 0;
    for (const t of traders) if ((await protocol.clearingHouse.marketsOf(t.address)).length > 0) n++;
    const other = await protocol.clearingHouse.marketsOf(account(GUARANTOR).address);
    return n + (other.length > 0 ? 1 : 0);
  }

  it("test_staleOracle_volatilityIsDeferredWithBackoff: a warning once, not an error every tick", async function () {
    const feed = MockAggregatorV3__factory.connect(
      deployed.record.contracts.CHIndexFeed!.address,
      account(0).connect(node().provider),
    );
    await (await feed.setRound(10n * 10n ** 8n, 1n, 1n)).wait();
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { jobs: { volatility: { markets: false } }, breakerBaseMs: 10_000 },
    });
    try {
      const r = await k.tick();
      expect(r.results.map((x) => [x.key, x.outcome])).to.deep.equal([["volatility.update:-:0", "deferred"]]);
      expect(r.results[0]?.reason).to.match(/waits: OracleStalePrice\(updatedAt=1, .*\(expected; retrying in 10 s\)/);
      for (let i = 0; i < 3; i++) expect((await k.tick()).results).to.deep.equal([]);
      expect(await k.metrics.count("volatility", "simulation-failed")).to.equal(0);
    } finally {
      await k.stop(0);
    }
  });

  it("test_adaptiveGetLogs_splitsOnRangeCaps_andResumesFromCheckpoint", async function () {
    const px = await new FaultProxy(node().url).start();
    const dir = mkdtempSync(path.join(os.tmpdir(), "chx-keeper-logs-"));
    const cfg = { jobs: { liquidations: { gasCeilingGwei: 20, logPageBlocks: 1_000, model: false } }, dataDir: dir };
    try {
      px.logRangeCap(100); // a public RPC capping eth_getLogs at 100 blocks
      const a = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, urls: [px.url], config: cfg });
      const ja = a.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
      try {
        const r = await a.tick();
        expect(r.errors).to.deep.equal([]);
        expect(ja.set.open().length).to.equal(SIZES.length + 0);
        expect(ja.scanner.splits).to.be.greaterThan(0);
        // Halved from 1,000 to under the cap; after a streak of good pages the scanner probes upward (× 2), so
        // depending on how many pages the chain's history takes it sits at 62 or at a probe of 124 (≤ 2 × the cap).
        expect(ja.scanner.range).to.be.below(2 * 100);
        expect(px.seen.get("eth_getLogs:capped")).to.be.greaterThan(0);
        expect(await a.metrics.count("liquidations", "failed")).to.equal(0);
      } finally {
        await a.stop(0);
      }
      // a restart resumes from the checkpoint: one short getLogs from the saved block, not the whole history again
      const callsBefore = px.seen.get("eth_getLogs") ?? 0;
      const b = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, urls: [px.url], config: cfg });
      const jb = b.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
      try {
        await b.tick();
        expect(
          jb.set
            .open()
            .map((o) => o.account)
            .sort(),
        ).to.deep.equal(
          ja.set
            .open()
            .map((o) => o.account)
            .sort(),
        );
        expect((px.seen.get("eth_getLogs") ?? 0) - callsBefore).to.be.at.most(1);
      } finally {
        await b.stop(0);
      }
    } finally {
      await px.stop();
    }
  });

  it("tracks open positions from the events' post-state sizes, and rejects bad options", async function () {
    const at = "0x0000000000000000000000000000000000000001";
    expect(() => liquidationJob(at, at, { logPages: 10 } as never)).to.throw(
      /Unknown option "jobs.liquidations.logPages"/,
    );
    expect(() => liquidationJob(at, at, { logPageBlocks: 0 })).to.throw(/logPageBlocks" must be an integer from 1/);
    expect(() => liquidationJob(at, at, { modelBuffer: -1 })).to.throw(/modelBuffer" must be a number from 0 to 10/);
    expect(() => liquidationJob(at, at, { probe: "yes" as never })).to.throw(/probe" must be true or false/);
    expect(() => volatilityJob(at, { interval: 1 } as never)).to.throw(/Unknown option "jobs.volatility.interval"/);
    const job = liquidationJob(at, at);
    job.set.apply(traders[0]!.address, at, 5n, 10);
    job.set.apply(traders[0]!.address, at, 0n, 12);
    job.set.apply(traders[1]!.address, at, 7n, 11);
    job.set.apply(traders[1]!.address, at, undefined, 14); // a settlement: same size, newer block
    expect(job.set.open()).to.deep.equal([{ account: traders[1]!.address.toLowerCase(), lastBlock: 14 }]);
  });
  it("test_tokenCollateralAccount_keeperApprovesUsdcThenLiquidates: an account holding CH-like token collateral is liquidated; the keeper approves USDC to the ClearingHouse first and buys the token at its haircut value", async function () {
    const p = node().provider;
    const admin = account(0).connect(p);
    const keeper = account(KEEPER_A).connect(p);
    const t = account(TOKEN_TRADER).connect(p);
    await node().rpc("hardhat_setBalance", [t.address, toBeHex(10n ** 22n)]);
    const ch = await protocol.clearingHouse.getAddress();
    const tok = await new MockERC20__factory(admin).deploy("CH (keeper test)", "CHK", 18);
    await tok.waitForDeployment();
    const tokAddr = await tok.getAddress();
    await (
      await protocol.clearingHouse.connect(admin).setCollateralToken(tokAddr, {
        feed: "0x0000000000000000000000000000000000000000",
        heartbeatSec: 0n,
        indexPriced: true,
        baseHaircutWad: wad("0.1"),
        sigmaMultipleWad: wad("1"),
        maxHaircutWad: wad("0.5"),
        depositCap: wad("1000000"),
      })
    ).wait();
    await setupTrader(protocol, account(GUARANTOR).connect(p), t, usdc("20"));
    await (await tok.mint(t.address, wad("10"))).wait();
    await (await tok.connect(t).approve(ch, wad("10"))).wait();
    await (await protocol.clearingHouse.connect(t).depositToken(tokAddr, wad("10"))).wait();
    await (await cs.market.connect(t).trade(wad("95"))).wait();
    await (await protocol.usdc.connect(admin).mint(keeper.address, usdc("1000"))).wait();
    await (await cs.oracle.setPrice(wad("9"))).wait();
    expect((await protocol.liquidationEngine.isLiquidatable(t.address))[0]).to.equal(true);
    expect(await protocol.usdc.allowance(keeper.address, ch)).to.equal(0n);
    const from = (await p.getBlockNumber()) + 1;
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: config() });
    try {
      const outcomes: Array<[string, string, string]> = [];
      const keys: string[] = [];
      // up to 8 ticks: on a loaded machine a tick can end before its transaction is mined (outcome timeout, then
      // already-done), so the proof that this keeper liquidated is the event and the tokens it bought, below
      for (let i = 0; i < 8 && !(await liquidatedSince(from)).some(([a]) => a === t.address.toLowerCase()); ++i) {
        const r = await k.tick();
        for (const x of r.results) outcomes.push([x.key.split(":")[0]!, x.key.split(":")[1]!, x.outcome]);
        for (const x of r.results) if (x.outcome === "success") keys.push(x.key);
      }
      expect(outcomes).to.deep.include([APPROVE_ACTION, ch.toLowerCase(), "success"]);
      // the approval is each keeper's own work: its key names the keeper (two keepers approving is not a double action)
      expect(keys.filter((x) => x.startsWith(APPROVE_ACTION))).to.deep.equal([
        `${APPROVE_ACTION}:${ch.toLowerCase()}:${keeper.address.toLowerCase()}:0`,
      ]);
      expect(outcomes.some(([a, id]) => a === LIQUIDATE_ACTION && id === t.address.toLowerCase())).to.equal(true);
      expect((await protocol.usdc.allowance(keeper.address, ch)) > usdc("1000")).to.equal(true);
      expect(await liquidatedSince(from)).to.deep.include([t.address.toLowerCase(), keeper.address]);
      // the keeper bought every token at its haircut value; the account holds none
      expect(await tok.balanceOf(keeper.address)).to.equal(wad("10"));
      expect(await protocol.clearingHouse.tokenCollateralOf(t.address, tokAddr)).to.equal(0n);
      expect((await protocol.usdc.balanceOf(keeper.address)) < usdc("1000")).to.equal(true);
    } finally {
      await k.stop(0);
    }
  });
});
