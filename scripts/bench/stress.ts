/**
 * Stress at scale (issue 20 item 6): `npm run bench` (or `CHX_BENCH=stress`) → bench/stress.json.
 *
 * On the real deploy (ClearingHouse, LiquidationEngine, GuarantorPool, InsuranceFund, RiskEngine, oracle), 1,000
 * accounts (CHX_STRESS_ACCOUNTS) drawn from a seeded generator — a mix of perp-, futures- and options-like positions
 * (three bare markets standing in for them: MockClearingMarket, opened at the index through tradeAt; the perp and
 * futures stand-ins absorb losses, the options stand-in does not and its holders are fully collateralised), spread
 * over eight open guarantors whose capital is part their own and part outside (open-pool) capital, two of them thin —
 * go through two shocks, each on a fresh deployment:
 *   - shock40: the index falls 40 % in one hour (two 20 % steps, 30 minutes apart), the keeper liquidating after each;
 *   - shock60: the index gaps down 60 % at once, which exhausts the insurance fund; the rest goes to auto-deleveraging.
 * After the liquidations the keeper's ADL procedure runs (rank off-chain, nominate, wait for the window, execute) for
 * every open ADL claim. Every figure is measured from the chain: events, balances, receipts. Nothing is hard-coded.
 */
import { writeFile, mkdir } from "node:fs/promises";
import { parseUnits, type Signer } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";
import type { BenchContext, BenchSuite } from "./lib.js";
import {
  MockAggregatorV3__factory,
  MockClearingCrowd__factory,
  MockClearingMarket__factory,
  type MockClearingMarket,
} from "../../types/ethers-contracts/index.js";
import { connectProtocol, Roles, type Protocol } from "@chx/sdk";
import { deployProtocol } from "../deploy/index.js";
import { rankAdlCandidates, type AdlCandidate } from "../../keepers/src/jobs/liquidations.js";

const usdc = (v: number): bigint => parseUnits(v.toFixed(6), 6);
const wad = (v: number): bigint => parseUnits(v.toFixed(6), 18);
const toUsdc = (v: bigint): number => Number(v) / 1e6;

const ACCOUNTS = Number(process.env.CHX_STRESS_ACCOUNTS ?? "1000");
const SEED = 20;
const GUARANTORS = 8;
const BATCH = 12;
const PRICE0 = 10;
/** The insurance fund's stake, scaled with the book: 250 USDC per account. */
const INSURANCE_USDC = 250 * ACCOUNTS;
const ADL_WINDOW_SEC = 60;
const OUT = "bench/stress.json";
const LAYERS = ["account", "guarantor", "insurance", "socialised", "adl"];

/** mulberry32: a small seeded generator, so every run draws the same book. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Book {
  members: string[];
  markets: { perp: MockClearingMarket; fut: MockClearingMarket; opt: MockClearingMarket };
}

interface ShockResult {
  liquidations: number;
  liquidationGas: bigint[];
  adlGas: { nominate: bigint[]; execute: bigint[] };
  absorbed: Record<string, number>;
  layersUsed: string[];
  adlSteps: number;
  adlRecoveredUsdc: number;
  unabsorbedBadDebtUsdc: number;
  lpLossUsdc: number;
  lpPoolPnlUsdc: number;
  insuranceBeforeUsdc: number;
  insuranceAfterUsdc: number;
  seconds: number;
}

async function setup(
  connection: NetworkConnection,
  p: Protocol,
  deployer: HardhatEthersSigner,
  users: HardhatEthersSigner[],
  address: (name: string) => string,
): Promise<Book> {
  const rand = rng(SEED);
  const feed = MockAggregatorV3__factory.connect(address("CHIndexFeed"), deployer);
  const scale = 10n ** (18n - (await feed.decimals()));
  await (await feed.setAnswer(wad(PRICE0) / scale)).wait();
  const ch = await p.clearingHouse.getAddress();
  const poolAddr = await p.guarantorPool.getAddress();
  const usdcAddr = await p.usdc.getAddress();
  await (await p.usdc.mint(deployer.address, usdc(100_000_000))).wait();

  const market = async (absorbs: boolean): Promise<MockClearingMarket> => {
    const m = await new MockClearingMarket__factory(deployer).deploy(ch, address("ComputePriceOracle"), usdcAddr);
    await m.waitForDeployment();
    const a = await m.getAddress();
    await (await p.clearingHouse.registerMarket(a)).wait();
    await (
      await p.riskEngine.setMarketParams(a, {
        imMultipleWad: wad(3),
        mmMultipleWad: wad(1.5),
        imFloorWad: wad(0.1),
        mmFloorWad: wad(0.05),
      })
    ).wait();
    await (await p.accessManager.grantRole(Roles.MARKET, a, 0)).wait();
    if (absorbs) await (await p.clearingHouse.setMarketLossAbsorber(a, true)).wait();
    await (await p.usdc.approve(a, usdc(5_000_000))).wait();
    await (await m.fund(usdc(5_000_000))).wait();
    return m;
  };
  const markets = { perp: await market(true), fut: await market(true), opt: await market(false) };
  const [perpA, futA, optA] = [
    await markets.perp.getAddress(),
    await markets.fut.getAddress(),
    await markets.opt.getAddress(),
  ];

  // the book first: each guarantor's capital is sized from the exposure of its customers
  const guarantors = users.slice(0, GUARANTORS);
  const outsider = users[GUARANTORS]!;
  const staker = users[GUARANTORS + 1]!;
  type Spec = {
    guarantor: string;
    collateralUsdc: bigint;
    marketA: string;
    sizeA: bigint;
    marketB: string;
    sizeB: bigint;
  };
  const specs: Spec[] = [];
  const exposure = new Array<number>(GUARANTORS).fill(0);
  const ZERO = "0x0000000000000000000000000000000000000000";
  for (let i = 0; i < ACCOUNTS; i++) {
    const g = Math.floor(rand() * GUARANTORS);
    const collateral = 300 + Math.floor(rand() * 2_700);
    const kind = rand();
    const side = rand() < 0.55 ? 1 : -1;
    const leverage = 1.5 + rand() * 7.5; // 1.5× … 9× (initial margin floor 10 %)
    const size = (lev: number) => (collateral * lev) / PRICE0;
    let spec: Spec;
    if (kind < 0.45) {
      spec = {
        guarantor: g.toString(),
        collateralUsdc: usdc(collateral),
        marketA: perpA,
        sizeA: wad(side * size(leverage)),
        marketB: ZERO,
        sizeB: 0n,
      };
    } else if (kind < 0.75) {
      spec = {
        guarantor: g.toString(),
        collateralUsdc: usdc(collateral),
        marketA: futA,
        sizeA: wad(side * size(leverage)),
        marketB: ZERO,
        sizeB: 0n,
      };
    } else if (kind < 0.9) {
      // an options-like position, fully collateralised (notional ≤ collateral): its holder is never in default
      spec = {
        guarantor: g.toString(),
        collateralUsdc: usdc(collateral),
        marketA: optA,
        sizeA: wad(side * size(0.5 + rand() * 0.5)),
        marketB: ZERO,
        sizeB: 0n,
      };
    } else {
      // a perp and a futures position on the same side, the leverage split between them
      spec = {
        guarantor: g.toString(),
        collateralUsdc: usdc(collateral),
        marketA: perpA,
        sizeA: wad(side * size(leverage / 2)),
        marketB: futA,
        sizeB: wad(side * size(leverage / 2)),
      };
    }
    exposure[g]! += collateral * (kind < 0.75 || kind >= 0.9 ? leverage : 1);
    specs.push(spec);
  }
  const [minDps, maxLevWad] = await p.guarantorPool.params();
  const maxLev = Number(maxLevWad) / 1e18;
  for (let k = 0; k < GUARANTORS; k++) {
    const g = guarantors[k]!;
    // guarantors 0 and 1 are thin (5 % above the capacity their book needs); the others hold 1.5× to 2.5×
    const need = (exposure[k]! * 1.1) / maxLev;
    const capital = k < 2 ? need * 1.05 : need * (1.5 + rand());
    const own = capital * (0.4 + rand() * 0.3);
    await (await p.dps.transfer(g.address, minDps)).wait();
    await (await p.guarantorPool.connect(g).registerGuarantor(true, usdc(1_000_000_000))).wait();
    await (await p.dps.connect(g).approve(poolAddr, minDps)).wait();
    await (await p.guarantorPool.connect(g).stakeDps(minDps)).wait();
    for (const [who, amount] of [
      [g, own],
      [outsider, capital - own],
    ] as const) {
      await (await p.usdc.mint(who.address, usdc(amount))).wait();
      await (await p.usdc.connect(who).approve(poolAddr, usdc(amount))).wait();
      await (await p.guarantorPool.connect(who).depositCapital(g.address, usdc(amount))).wait();
    }
  }
  for (const s of specs) s.guarantor = guarantors[Number(s.guarantor)]!.address;
  // the insurance fund, staked by an outside staker (its internal ledger counts stakes only)
  const fund = await p.insuranceFund.getAddress();
  await (await p.usdc.mint(staker.address, usdc(INSURANCE_USDC))).wait();
  await (await p.usdc.connect(staker).approve(fund, usdc(INSURANCE_USDC))).wait();
  await (await p.insuranceFund.connect(staker).stake(usdc(INSURANCE_USDC))).wait();

  const crowd = await new MockClearingCrowd__factory(deployer).deploy();
  await crowd.waitForDeployment();
  for (let i = 0; i < specs.length; i += BATCH) {
    const batch = specs.slice(i, i + BATCH);
    await (await crowd.spawn(batch, poolAddr, usdcAddr, ch, wad(PRICE0), { gasLimit: 16_000_000 })).wait();
  }
  const members: string[] = [];
  const n = Number(await crowd.count());
  for (let i = 0; i < n; i++) members.push(await crowd.members(i));
  void connection;
  return { members, markets };
}

/** Every account below maintenance margin, liquidated until none is left (a partial liquidation may need a second). */
async function liquidateAll(p: Protocol, keeper: Signer, members: string[], gas: bigint[]): Promise<number> {
  let count = 0;
  for (let pass = 0; pass < 4; pass++) {
    const flags = await mapChunked(members, async (a) => (await p.liquidationEngine.isLiquidatable(a))[0]);
    const due = members.filter((_, i) => flags[i] === true);
    if (due.length === 0) break;
    for (const a of due) {
      const r = await (await p.liquidationEngine.connect(keeper).liquidate(a, { gasLimit: 5_000_000 })).wait();
      if (r === null || r.status !== 1) throw new Error(`liquidation of ${a} failed`);
      gas.push(r.gasUsed);
      count++;
    }
  }
  return count;
}

async function mapChunked<T, R>(xs: T[], f: (x: T) => Promise<R>, chunk = 50): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < xs.length; i += chunk) out.push(...(await Promise.all(xs.slice(i, i + chunk).map(f))));
  return out;
}

/** The keeper's ADL procedure over every open claim: rank off-chain, nominate, wait, execute; a few rounds. */
async function deleverageAll(
  connection: NetworkConnection,
  p: Protocol,
  keeper: Signer,
  members: string[],
  gas: { nominate: bigint[]; execute: bigint[] },
): Promise<number> {
  let steps = 0;
  for (let round = 0; round < 6; round++) {
    const claims = (await mapChunked(members, async (a) => ({ a, c: await p.liquidationEngine.adlClaim(a) }))).filter(
      (x) => x.c.market !== "0x0000000000000000000000000000000000000000",
    );
    if (claims.length === 0) break;
    // candidates per market and side, ranked once: positions do not move between nominations
    const byKey = new Map<string, AdlCandidate[]>();
    const open = claims.filter((x) => Number(x.c.nominees.length) === 0);
    for (const { c } of open) {
      const key = `${c.market}:${c.bankruptLong}`;
      if (byKey.has(key)) continue;
      const rows = await mapChunked(members, async (a) => {
        const [pos, st] = await Promise.all([p.clearingHouse.positionOf(a, c.market), p.clearingHouse.marginState(a)]);
        return { account: a, sizeCh: pos.sizeCh, openNotionalUsdc: pos.openNotionalUsdc, margin: st };
      });
      const idx = await indexPrice(p);
      byKey.set(key, rankAdlCandidates(rows, c.bankruptLong, idx));
    }
    for (const { a, c } of open) {
      const list = byKey.get(`${c.market}:${c.bankruptLong}`) ?? [];
      let need = c.sizeCh;
      let k = 0;
      for (const cand of list) {
        if (need <= 0n || k >= 8) break;
        if (cand.remainingCh <= 0n || cand.account === a) continue;
        try {
          const r = await (await p.liquidationEngine.connect(keeper).nominateAdl(a, cand.account)).wait();
          if (r !== null) gas.nominate.push(r.gasUsed);
        } catch {
          continue; // no longer a candidate (e.g. below maintenance after an earlier step)
        }
        const take = cand.remainingCh < need ? cand.remainingCh : need;
        cand.remainingCh -= take;
        need -= take;
        k++;
      }
    }
    await connection.networkHelpers.time.increase(ADL_WINDOW_SEC);
    for (const { a } of claims) {
      const r = await (await p.liquidationEngine.connect(keeper).executeAdl(a, { gasLimit: 16_000_000 })).wait();
      if (r === null) continue;
      for (const log of r.logs) {
        try {
          const ev = p.liquidationEngine.interface.parseLog(log);
          if (ev?.name === "AdlRoundExecuted" && Number(ev.args.steps) > 0) {
            steps += Number(ev.args.steps);
            gas.execute.push(r.gasUsed);
          }
        } catch {
          // another contract's log
        }
      }
    }
  }
  return steps;
}

async function indexPrice(p: Protocol): Promise<bigint> {
  const [oracle] = await p.clearingHouse.liquidationModules();
  const { IComputePriceOracle__factory } = await import("../../types/ethers-contracts/index.js");
  return IComputePriceOracle__factory.connect(oracle, p.clearingHouse.runner).indexPrice();
}

async function shock(
  connection: NetworkConnection,
  p: Protocol,
  deployer: HardhatEthersSigner,
  users: HardhatEthersSigner[],
  address: (name: string) => string,
  steps: number[],
): Promise<ShockResult> {
  const t0 = Date.now();
  const book = await setup(connection, p, deployer, users, address);
  const keeper = users[GUARANTORS + 2]!;
  await (await p.liquidationEngine.setAdlWindow(ADL_WINDOW_SEC)).wait();
  const feed = MockAggregatorV3__factory.connect(address("CHIndexFeed"), deployer);
  const scale = 10n ** (18n - (await feed.decimals()));
  const pools = async () => {
    let s = 0n;
    for (const m of [book.markets.perp, book.markets.fut])
      s += (await p.clearingHouse.marketInfo(await m.getAddress()))[1];
    return s;
  };
  const poolsBefore = await pools();
  const insuranceBefore = await p.insuranceFund.totalAssets();
  const [, socialisedBefore] = await p.clearingHouse.totals();
  const start = await connection.ethers.provider.getBlockNumber();
  const gas: bigint[] = [];
  let liquidations = 0;
  for (const [i, price] of steps.entries()) {
    if (i > 0) await connection.networkHelpers.time.increase(3_600 / steps.length);
    await (await feed.setAnswer(wad(price) / scale)).wait();
    liquidations += await liquidateAll(p, keeper, book.members, gas);
  }
  const adlGas = { nominate: [] as bigint[], execute: [] as bigint[] };
  const adlSteps = await deleverageAll(connection, p, keeper, book.members, adlGas);

  const absorbed: Record<string, number> = {};
  for (const ev of await p.clearingHouse.queryFilter(p.clearingHouse.filters.DeficitAbsorbed(), start + 1)) {
    const name = LAYERS[Number(ev.args.layer)] ?? "unknown";
    absorbed[name] = (absorbed[name] ?? 0) + toUsdc(ev.args.amountUsdc);
  }
  const collateral = await mapChunked(book.members, (a) => p.clearingHouse.collateralOf(a));
  const negative = collateral.reduce((s, c) => (c < 0n ? s - c : s), 0n);
  const [, socialisedAfter] = await p.clearingHouse.totals();
  const socialised = socialisedAfter - socialisedBefore;
  const poolsAfter = await pools();
  return {
    liquidations,
    liquidationGas: gas,
    adlGas,
    absorbed: Object.fromEntries(Object.entries(absorbed).map(([k, v]) => [k, Number(v.toFixed(6))])),
    layersUsed: LAYERS.filter((l) => (absorbed[l] ?? 0) > 0),
    adlSteps,
    adlRecoveredUsdc: Number((absorbed.adl ?? 0).toFixed(6)),
    unabsorbedBadDebtUsdc: toUsdc(negative + socialised),
    // what the markets' LP pools were charged for defaults (socialised loss: ADL replaced it), and, apart, the pools'
    // trading PnL against the crowd over the shock
    lpLossUsdc: toUsdc(socialised),
    lpPoolPnlUsdc: toUsdc(poolsAfter - poolsBefore),
    insuranceBeforeUsdc: toUsdc(insuranceBefore),
    insuranceAfterUsdc: toUsdc(await p.insuranceFund.totalAssets()),
    seconds: Math.round((Date.now() - t0) / 1000),
  };
}

function percentile(xs: bigint[], q: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Number(s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]);
}

export const stressBench: BenchSuite = {
  name: "stress",
  async run(ctx: BenchContext) {
    const address = (name: string) => ctx.deploy.address(name);
    console.log(`  ${ACCOUNTS} accounts, shock40 (two 20 % steps in one hour)`);
    const s40 = await shock(ctx.connection, ctx.protocol, ctx.deployer, ctx.users, address, [8, 6]);
    console.log(`  shock40: ${JSON.stringify({ ...s40, liquidationGas: undefined, adlGas: undefined })}`);
    const connection = await ctx.hre.network.create();
    const deploy = await deployProtocol(ctx.hre, connection, { write: false, quiet: true });
    const [deployer, ...users] = await connection.ethers.getSigners();
    const s60 = await shock(
      connection,
      connectProtocol(deploy.record, deployer!),
      deployer!,
      users,
      (n) => deploy.address(n),
      [4],
    );
    await connection.close();
    console.log(`  shock60: ${JSON.stringify({ ...s60, liquidationGas: undefined, adlGas: undefined })}`);
    const gas = [...s40.liquidationGas, ...s60.liquidationGas];
    const out = {
      accounts: ACCOUNTS,
      seed: SEED,
      insuranceFundUsdc: INSURANCE_USDC,
      "shock40.unabsorbedBadDebtUsdc": s40.unabsorbedBadDebtUsdc,
      "shock40.liquidations": s40.liquidations,
      "shock40.layersUsed": s40.layersUsed,
      "shock40.absorbedUsdc": s40.absorbed,
      "shock40.adlSteps": s40.adlSteps,
      "shock40.insuranceAfterUsdc": s40.insuranceAfterUsdc,
      "shock40.seconds": s40.seconds,
      "shock60.adlSteps": s60.adlSteps,
      "shock60.unabsorbedBadDebtUsdc": s60.unabsorbedBadDebtUsdc,
      "shock60.lpLossUsdc": s60.lpLossUsdc,
      "shock60.lpPoolPnlUsdc": s60.lpPoolPnlUsdc,
      "shock60.liquidations": s60.liquidations,
      "shock60.layersUsed": s60.layersUsed,
      "shock60.absorbedUsdc": s60.absorbed,
      "shock60.insuranceAfterUsdc": s60.insuranceAfterUsdc,
      "shock60.seconds": s60.seconds,
      "liquidationGas.p50": percentile(gas, 0.5),
      "liquidationGas.p99": percentile(gas, 0.99),
      "liquidationGas.samples": gas.length,
      // an executeAdl transaction that reduced at least one position (up to ADL_MAX_NOMINEES steps), and a nomination
      "adlExecuteGas.p50": percentile([...s40.adlGas.execute, ...s60.adlGas.execute], 0.5),
      "adlExecuteGas.p99": percentile([...s40.adlGas.execute, ...s60.adlGas.execute], 0.99),
      "adlNominateGas.p50": percentile([...s40.adlGas.nominate, ...s60.adlGas.nominate], 0.5),
    };
    await mkdir("bench", { recursive: true });
    await writeFile(OUT, JSON.stringify(out, null, 2) + "\n");
    console.log(`  wrote ${OUT}`);
  },
};
