/**
 * The volatility job's per-market σ (issue 20 item 3) against the real protocol (deploy engine, every module) on the
 * shared node. The deploy gives the perp and futures markets their own σ model (scripts/deploy/modules/wiring.ts,
 * `marketVolParams`); the job discovers them from the RiskEngine's `MarketVolParamsSet` events and updates each one
 * when it is due, beside the index σ. Each test starts from the same snapshot.
 */
import { expect } from "chai";
import { toBeHex } from "ethers";
import { listTestMarket, wad, type ClearingSetup } from "../../test/helpers/clearing.js";
import {
  MARKET_VOLATILITY_ACTION,
  TENOR_VOLATILITY_ACTION,
  VOLATILITY_ACTION,
  volatilityJob,
} from "../src/jobs/volatility.js";
import { account, counts, makeKeeper, node } from "./harness.js";
import { type DeployedProtocol } from "./protocol.js";
import { protocolSuite, race } from "./fixtures.js";
import type { Protocol } from "@chx/sdk";

/** Accounts beyond the node's 20 funded ones (as in liquidations.test.ts; the chain is restored after). */
const KEEPER_A = 20;
const KEEPER_B = 21;
const VOL_MODEL = {
  lambdaWad: wad("0.94"),
  floorSigmaWad: wad("0.01"),
  staleSigmaWad: wad("0.04"),
  staleAfterSec: 86_400n,
};

describe("volatility job: the index σ and every market's own σ, each when due (real protocol, real node)", function () {
  let deployed: DeployedProtocol;
  let protocol: Protocol;
  let cs: ClearingSetup;
  let perp: string;
  let futures: string;

  protocolSuite(180_000, async (d) => {
    deployed = d;
    protocol = d.protocol;
    for (const i of [KEEPER_A, KEEPER_B])
      await node().rpc("hardhat_setBalance", [account(i).address, toBeHex(10n ** 22n)]);
    // a market listed after the deploy, with risk parameters but no σ model of its own (yet)
    cs = await listTestMarket(undefined as never, deployed.record, protocol, account(0).connect(node().provider));
    perp = deployed.record.contracts.PerpMarket!.address;
    futures = deployed.record.contracts.FuturesMarket!.address;
  });

  const key = (market: string, lastUpdate: bigint) =>
    `${MARKET_VOLATILITY_ACTION}:${market.toLowerCase()}:${lastUpdate}`;

  it("the deploy gives the perp and futures markets a model; the keeper updates both and the index σ, then nothing until an interval has passed", async function () {
    const re = protocol.riskEngine;
    const [, interval] = await re.volatilityParams();
    for (const m of [perp, futures]) {
      const [params, state] = await re.marketVolatility(m);
      expect([params.lambdaWad, params.floorSigmaWad, params.staleSigmaWad, params.staleAfterSec]).to.deep.equal([
        VOL_MODEL.lambdaWad,
        VOL_MODEL.floorSigmaWad,
        VOL_MODEL.staleSigmaWad,
        VOL_MODEL.staleAfterSec,
      ]);
      expect(state.lastPriceWad).to.equal(0n); // no reference price before the first update
    }
    const set = {
      perp: (await re.marketVolatility(perp))[1].lastUpdate,
      fut: (await re.marketVolatility(futures))[1].lastUpdate,
    };
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { jobs: { volatility: {} } },
    });
    try {
      expect(k.summary().join("\n")).to.match(/job volatility: .*every market with its own σ model/);
      const first = await k.tick();
      expect(first.errors).to.deep.equal([]);
      expect(first.results.map((x) => [x.key, x.outcome, x.priority])).to.have.deep.members([
        [`${VOLATILITY_ACTION}:-:0`, "success", false],
        [key(perp, set.perp), "success", false],
        [key(futures, set.fut), "success", false],
      ]);
      const [, , indexPrice] = await re.volatility();
      const states = await Promise.all([perp, futures].map(async (m) => (await re.marketVolatility(m))[1]));
      for (const s of states) expect(s.lastPriceWad).to.equal(indexPrice); // the reference price is recorded
      expect((await k.tick()).results).to.deep.equal([]); // nothing due within the interval

      // one interval later at a 10 % lower index: every σ is due again under a new key and folds in the return
      const last = states[0]!.lastUpdate > states[1]!.lastUpdate ? states[0]!.lastUpdate : states[1]!.lastUpdate;
      await node().rpc("evm_setNextBlockTimestamp", [Number(last + interval)]);
      await (await cs.oracle.setPrice((indexPrice * 9n) / 10n)).wait();
      const [, , , indexLast] = await re.volatility();
      const sigmaBefore = await Promise.all(
        [perp, futures].map(async (m) => (await re.marketVolatility(m))[1].sigmaWad),
      );
      const second = await k.tick();
      expect(second.errors).to.deep.equal([]);
      expect(second.results.map((x) => [x.key, x.outcome])).to.have.deep.members([
        [`${VOLATILITY_ACTION}:-:${indexLast}`, "success"],
        [key(perp, states[0]!.lastUpdate), "success"],
        [key(futures, states[1]!.lastUpdate), "success"],
      ]);
      for (const [i, m] of [perp, futures].entries()) {
        const [, s] = await re.marketVolatility(m);
        expect(s.lastPriceWad).to.equal((indexPrice * 9n) / 10n);
        expect(s.sigmaWad > sigmaBefore[i]!, `σ of ${m} folds in the 10 % return`).to.equal(true);
        // the ClearingHouse margins the market at its own σ (floored), not at the index σ
        expect(await re.marginSigma(m)).to.equal(
          s.sigmaWad > VOL_MODEL.floorSigmaWad ? s.sigmaWad : VOL_MODEL.floorSigmaWad,
        );
      }
    } finally {
      await k.stop(0);
    }
  });

  it("test_modelSetAfterStart_isPickedUp_andStaleSigmaEndsWithTheUpdate: a market given a model while the keeper runs is updated on its next tick", async function () {
    const re = protocol.riskEngine;
    const m = await cs.market.getAddress();
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { jobs: { volatility: {} } },
    });
    try {
      await k.tick(); // the deployed markets and the index σ
      const job = k.jobs.find((j) => j.name === "volatility")!.job as ReturnType<typeof volatilityJob>;
      expect(job.markets().map((a) => a.toLowerCase())).to.have.members([perp.toLowerCase(), futures.toLowerCase()]);
      expect((await k.tick()).results).to.deep.equal([]);

      // governance gives the test market a model: no restart, no config change
      await (await re.connect(account(0).connect(node().provider)).setMarketVolParams(m, VOL_MODEL)).wait();
      const [, set] = await re.marketVolatility(m);
      const r = await k.tick();
      expect(r.results.map((x) => [x.key, x.outcome])).to.deep.equal([[key(m, set.lastUpdate), "success"]]);
      expect(job.markets().map((a) => a.toLowerCase())).to.include(m.toLowerCase());

      // a keeper strike: a day and more without updates margins every modelled market at its stale σ …
      await node().rpc("evm_increaseTime", [Number(VOL_MODEL.staleAfterSec) + 60]);
      await (await cs.oracle.setPrice(wad("10"))).wait(); // a fresh round: the oracle is not stale, σ is
      for (const x of [m, perp, futures]) expect(await re.marginSigma(x)).to.equal(VOL_MODEL.staleSigmaWad);
      // … until the keeper is back: one tick updates them all, and margin returns to each market's own σ
      const back = await k.tick();
      expect(back.errors).to.deep.equal([]);
      const updated = back.results.filter((x) => x.key.startsWith(`${MARKET_VOLATILITY_ACTION}:`));
      expect(updated.map((x) => x.key.split(":")[1])).to.have.members([m, perp, futures].map((a) => a.toLowerCase()));
      expect(updated.every((x) => x.outcome === "success")).to.equal(true);
      for (const x of [m, perp, futures]) expect((await re.marginSigma(x)) < VOL_MODEL.staleSigmaWad).to.equal(true);
    } finally {
      await k.stop(0);
    }
  });

  it("test_reorgAtTheSameHeight_modelDiscoveryFollowsTheNewBranch: a model set only on a branch a same-height reorg replaced is dropped", async function () {
    // A scan that only looked for the head going backwards kept the replaced branch's market and sent its update
    // (reverting: no model on this chain) every interval.
    const re = protocol.riskEngine.connect(account(0).connect(node().provider));
    const m = await cs.market.getAddress();
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { jobs: { volatility: {} } },
    });
    const job = k.jobs.find((j) => j.name === "volatility")!.job as ReturnType<typeof volatilityJob>;
    try {
      await k.tick();
      const snapshot = await node().rpc("evm_snapshot", []);
      await (await re.setMarketVolParams(m, VOL_MODEL)).wait(); // branch 1: the test market gets a model
      await k.tick();
      expect(job.markets().map((a) => a.toLowerCase())).to.include(m.toLowerCase());
      const height = await node().provider.getBlockNumber();
      expect(await node().rpc("evm_revert", [snapshot])).to.equal(true);
      // branch 2, as long as branch 1, without the model (other timestamps: other hashes)
      await node().rpc("evm_increaseTime", [7]);
      while ((await node().provider.getBlockNumber()) < height) await node().rpc("evm_mine", []);
      const r = await k.tick();
      expect(r.errors).to.deep.equal([]);
      expect(job.markets().map((a) => a.toLowerCase())).to.have.members([perp.toLowerCase(), futures.toLowerCase()]);
      expect(r.results.filter((x) => x.key.includes(m.toLowerCase()))).to.deep.equal([]);
    } finally {
      await k.stop(0);
    }
  });

  it("OPS-01: two keepers racing in the same blocks update each σ once; the losers read RiskUpdateTooEarly as already done", async function () {
    const re = protocol.riskEngine;
    const cfg = { jobs: { volatility: {} }, replaceAfterMs: 20_000 };
    const a = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: cfg });
    const b = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_B, config: cfg });
    const from = (await node().provider.getBlockNumber()) + 1;
    await race(a, b, 3, async (all) => {
      expect(counts(all)).to.deep.equal({ success: 3, "already-done": 3 });
      for (const x of all.filter((y) => y.outcome === "already-done")) expect(x.reason).to.match(/RiskUpdateTooEarly/);
      expect(await a.metrics.count("volatility", "reverted")).to.equal(0);
      expect(await b.metrics.count("volatility", "reverted")).to.equal(0);
    });
    // one update per market (and one bounty), whoever won it
    const updates = await re.queryFilter(re.filters.MarketVolatilityUpdated(), from, "latest");
    expect(updates.map((e) => e.args.market.toLowerCase()).sort()).to.deep.equal(
      [perp, futures].map((x) => x.toLowerCase()).sort(),
    );
  });

  it("`markets: false` keeps the job to the index σ; bad options are rejected", async function () {
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { jobs: { volatility: { markets: false } } },
    });
    try {
      expect((await k.tick()).results.map((x) => x.key)).to.deep.equal([`${VOLATILITY_ACTION}:-:0`]);
    } finally {
      await k.stop(0);
    }
    const at = "0x0000000000000000000000000000000000000001";
    expect(() => volatilityJob(at, { markets: "yes" as never })).to.throw(/markets" must be true or false/);
    expect(() => volatilityJob(at, { fromBlock: -1 })).to.throw(/fromBlock" must be a block number/);
    expect(() => volatilityJob(at, { perMarket: true } as never)).to.throw(
      /Unknown option "jobs.volatility.perMarket"/,
    );
  });
  it("test_tenorBuckets_eachUpdatedWhenDue_oncePerInterval: the futures market's tenor buckets are discovered and each one that is due is updated", async function () {
    const re = protocol.riskEngine;
    const gov = re.connect(account(0).connect(node().provider));
    await (
      await gov.setTenorVolParams(futures, 0, { ...VOL_MODEL, floorSigmaWad: wad("0.05"), staleSigmaWad: wad("0.1") })
    ).wait();
    await (await gov.setTenorVolParams(futures, 2, VOL_MODEL)).wait();
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { jobs: { volatility: {} } },
    });
    try {
      const before = await Promise.all([0, 2].map(async (b) => (await re.tenorVolatility(futures, b))[1].lastUpdate));
      const first = await k.tick();
      expect(first.errors).to.deep.equal([]);
      const tenorKeys = first.results.filter((x) => x.key.startsWith(`${TENOR_VOLATILITY_ACTION}:`));
      expect(tenorKeys.map((x) => [x.key, x.outcome])).to.have.deep.members([
        [`${TENOR_VOLATILITY_ACTION}:${futures.toLowerCase()}/0:${before[0]}`, "success"],
        [`${TENOR_VOLATILITY_ACTION}:${futures.toLowerCase()}/2:${before[1]}`, "success"],
      ]);
      const job = k.jobs.find((j) => j.name === "volatility")!.job as ReturnType<typeof volatilityJob>;
      expect(job.tenors()).to.have.members([`${futures.toLowerCase()}/0`, `${futures.toLowerCase()}/2`]);
      for (const b of [0, 2]) expect((await re.tenorVolatility(futures, b))[1].lastPriceWad > 0n).to.equal(true);
      // the front bucket's floor sets the futures market's margin σ
      expect(await re.marginSigma(futures)).to.equal(wad("0.05"));
      // nothing is due again before an interval has passed
      expect((await k.tick()).results).to.deep.equal([]);
      const [, interval] = await re.volatilityParams();
      await node().rpc("evm_increaseTime", [Number(interval) + 1]);
      await node().rpc("evm_mine", []);
      const again = await k.tick();
      expect(again.errors).to.deep.equal([]);
      expect(
        again.results.filter((x) => x.key.startsWith(`${TENOR_VOLATILITY_ACTION}:`)).map((x) => x.outcome),
      ).to.deep.equal(["success", "success"]);
    } finally {
      await k.stop(0);
    }
  });
});
