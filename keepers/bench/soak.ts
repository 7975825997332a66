/**
 * The keeper soak under faults (issue 25, item 9), written to bench/keepers.json section `soak` (the file's other
 * sections are kept). `npm run bench` runs it after the gas suites (`CHX_BENCH=soak npm run bench` runs only it);
 * `npx tsx keepers/bench/soak.ts` runs it alone.
 *
 * A real hardhat node, the real protocol (deploy engine), a MockClearingMarket on the ClearingHouse and 1,000 traders
 * with 100 USDC each, long 10…98 CH at 10 USDC (so each step of the index liquidates a band of them). Two hours of
 * market time: 360 blocks of 20 s mined by the driver, the CH index moving every 30 blocks, two keepers (A, B) running
 * their real loops (liquidations + volatility jobs) through fault proxies, with:
 *  - RPC 5xx bursts on either keeper's endpoint,
 *  - dropped transactions (A's next sends swallowed; replaced at the same nonce),
 *  - a stuck ordinary transaction: A's endpoint never propagates its volatility updates (ordinary work), so its
 *    liquidations must take that nonce over,
 *  - a gas spike ×10 (both keepers' fee quotes),
 *  - a reorg of depth 3 right after a shock (the liquidations in the orphaned blocks are gone: redone),
 *  - a hard restart of A with transactions in flight (state database: adopted at their own nonces),
 *  - the two keepers racing for every liquidation.
 * After every index move the driver probes every open account (the deployless LiquidationKeeperLens) to know which
 * became liquidatable at that block, and at the end reads the canonical AccountLiquidated events:
 *  - missedLiquidations: accounts liquidatable at a move and never liquidated before the next move;
 *  - doubleActions: an account liquidated twice between two index moves (a second success for the same work), plus
 *    keys with two successes across the keepers' reports;
 *  - maxLiquidationDelayBlocks: blocks from the move to the liquidation (for liquidations a reorg removed: from the
 *    new branch's first block — nothing can land before it exists);
 *  - restartRecoveryMs: from the restarted keeper's construction to the end of its first tick;
 *  - actions: successful keeper transactions (both keepers, every instance).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AbiCoder, keccak256, toBeHex, toUtf8Bytes, Wallet } from "ethers";
import { LiquidationKeeperLens__factory } from "@chx/sdk";
import { listTestMarket, setupGuarantor, usdc, wad, type ClearingSetup } from "../../test/helpers/clearing.js";
import { account, makeKeeper, node, startNode, type LocalNode } from "../test/harness.js";
import { FaultProxy } from "../test/fault-proxy.js";
import { protocolOnNode, type DeployedProtocol } from "../test/protocol.js";
import type { Keeper, TickReport } from "../src/keeper.js";
import { sendBulk } from "./liquidation.js";
import { mapLimit } from "../src/util.js";
import { createLogger } from "../src/log.js";
import { destination } from "pino";

const OUT = path.join("bench", "keepers.json");
const TRADERS = Number(process.env.CHX_SOAK_ACCOUNTS ?? 1_000);
const BLOCKS = 360;
const BLOCK_SEC = 20;
const MOVE_EVERY = 30;
const CALM_MS = 250;
const BUSY_MS = 2_000;
/** The index path (USDC per CH) at each move; each step liquidates a band of the longs. */
const PATH = ["9.4", "9.3", "9.2", "9.3", "9.1", "9.0", "8.9", "8.8", "8.7", "8.6", "8.5"];
const SPIKE = [140, 175] as const;
const REORG_AT = 184; // three blocks after the move at 180: blocks 181-183 are orphaned
const RESTART_AT = 211; // one block after the move at 210
const BURSTS = [45, 95, 241, 242, 305];
const DROPS = [62, 152, 272];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** CHX_SOAK_TRACE=<file>: both keepers' logs (debug) and the driver's events, one JSON line each (diagnostics only). */
const TRACE = process.env.CHX_SOAK_TRACE;
const traceLog = TRACE === undefined ? undefined : createLogger("debug", destination({ dest: TRACE, sync: false }));
const trace = (msg: string, fields: Record<string, unknown> = {}) => traceLog?.info({ driver: true, ...fields }, msg);

interface Due {
  account: string;
  block: number;
  /** Index of the move (the window it must be liquidated in). */
  move: number;
}

async function probe(p: DeployedProtocol, accounts: string[], blockTag: number): Promise<string[]> {
  const engine = p.record.contracts.LiquidationEngine!.address;
  const lens = new LiquidationKeeperLens__factory();
  const coder = AbiCoder.defaultAbiCoder();
  const out: string[] = [];
  const pages: string[][] = [];
  for (let i = 0; i < accounts.length; i += 25) pages.push(accounts.slice(i, i + 25));
  const results = await mapLimit(pages, 4, async (page) => {
    const tx = await lens.getDeployTransaction(engine, page);
    const raw = await node().provider.call({ data: tx.data, blockTag });
    return coder.decode(
      [
        "tuple(address account, uint8 outcome, uint256 gasUsed, int256 equityUsdc, uint256 maintenanceMarginUsdc, bytes revertData)[]",
      ],
      raw,
    )[0] as Array<{ account: string; outcome: bigint }>;
  });
  for (const r of results.flat()) if (Number(r.outcome) === 1) out.push(r.account.toLowerCase());
  return out;
}

export async function soak(): Promise<Record<string, unknown>> {
  const t0 = Date.now();
  const deployed = await protocolOnNode();
  const p = deployed.protocol;
  const provider = node().provider;
  const admin = account(0).connect(provider);
  const cs: ClearingSetup = await listTestMarket(undefined as never, deployed.record, p, admin);
  const g = account(9).connect(provider);
  await setupGuarantor(p, admin, g, false, usdc("10000000"));
  const traders = Array.from(
    { length: TRADERS },
    (_, i) => new Wallet(keccak256(toUtf8Bytes(`chx-soak-${i}`)), provider),
  );
  for (const t of traders) await node().rpc("hardhat_setBalance", [t.address, toBeHex(10n ** 20n)]);
  const [gp, ch, usdcAddr, market] = await Promise.all([
    p.guarantorPool.getAddress(),
    p.clearingHouse.getAddress(),
    p.usdc.getAddress(),
    cs.market.getAddress(),
  ]);
  const collateral = usdc("100");
  await sendBulk(
    traders.flatMap((t) => [
      {
        from: g,
        to: gp,
        data: p.guarantorPool.interface.encodeFunctionData("admitCustomer", [t.address, usdc("1000000")]),
      },
      { from: admin, to: usdcAddr, data: p.usdc.interface.encodeFunctionData("mint", [t.address, collateral]) },
      { from: t, to: usdcAddr, data: p.usdc.interface.encodeFunctionData("approve", [ch, collateral]) },
    ]),
  );
  await sendBulk(
    traders.map((t) => ({
      from: t,
      to: ch,
      data: p.clearingHouse.interface.encodeFunctionData("deposit", [collateral]),
    })),
  );
  await sendBulk(
    traders.map((t, i) => ({
      from: admin,
      to: market,
      data: cs.market.interface.encodeFunctionData("tradeAt", [t.address, wad(String(10 + (i % 89))), wad("10")]),
      gasLimit: 1_000_000n,
    })),
  );
  const setupSec = (Date.now() - t0) / 1000;
  console.log(`  soak: ${TRADERS} accounts set up in ${setupSec.toFixed(0)} s`);

  // Two keepers through fault proxies, each with its own state database.
  const [pa, pb] = await Promise.all([new FaultProxy(node().url).start(), new FaultProxy(node().url).start()]);
  pa.dropTo = deployed.record.contracts.RiskEngine!.address; // A's volatility updates never propagate: stuck ordinary
  const dirA = mkdtempSync(path.join(os.tmpdir(), "chx-soak-a-"));
  const dirB = mkdtempSync(path.join(os.tmpdir(), "chx-soak-b-"));
  const reports: TickReport[] = [];
  const keeperConfig = (dataDir: string) => ({
    dataDir,
    pollIntervalMs: 400,
    replaceAfterMs: 3_000,
    preemptAfterMs: 1_000,
    maxInFlight: 256,
    rpcRetries: 2,
    rpcBackoffMs: 20,
    breakerBaseMs: 300,
    breakerMaxMs: 2_000,
    jobs: { liquidations: { concurrency: 8, revalidatePerTick: 10 }, volatility: { gasCeilingGwei: 1_000 } },
  });
  let firstTickAt: number | undefined;
  const start = (idx: number, url: string, dataDir: string): { k: Keeper; loop: Promise<void>; created: number } => {
    const created = Date.now();
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: idx,
      urls: [url],
      config: keeperConfig(dataDir),
      ...(traceLog === undefined ? {} : { log: traceLog.child({ keeper: idx === 1 ? "A" : "B" }) }),
    });
    const orig = k.tick.bind(k);
    let first = true;
    k.tick = async (o) => {
      const r = await orig(o);
      reports.push(r);
      if (first && idx === 1) firstTickAt ??= Date.now();
      first = false;
      return r;
    };
    return { k, loop: k.run(), created };
  };
  await node().rpc("evm_setAutomine", [false]);
  let a = start(1, pa.url, dirA);
  const b = start(2, pb.url, dirB);
  const allKeepers: Keeper[] = [a.k, b.k];

  const open = traders.map((t) => t.address.toLowerCase());
  const dues: Due[] = [];
  const pending = new Set<string>();
  const moveBlocks: number[] = [];
  let reorgBranchStart = 0;
  let restartRecoveryMs = 0;
  let ts = (await provider.getBlock("latest"))!.timestamp;
  let snapshotAfterMove: string | undefined;
  let price = "10";
  const mine = async () => {
    ts += BLOCK_SEC;
    await node().rpc("evm_mine", [ts]);
    if (traceLog !== undefined) {
      const b = (await provider.getBlock("latest"))!;
      trace("mined", { block: b.number, hash: b.hash, txs: b.transactions.length });
    }
  };
  // warm-up: both keepers track every account before the first move (as long-running keepers do)
  for (let i = 0; i < 100; i++) {
    await mine();
    await sleep(CALM_MS);
    const jobs = allKeepers.map(
      (k) => k.jobs.find((j) => j.name === "liquidations")!.job as unknown as { set: { open(): unknown[] } },
    );
    if (jobs.every((j) => j.set.open().length >= TRADERS)) break;
  }
  const startBlock = await provider.getBlockNumber();
  console.log(`  soak: keepers warm at block ${startBlock}; running ${BLOCKS} blocks of ${BLOCK_SEC} s`);
  let busy = 0;
  for (let n = 1; n <= BLOCKS; n++) {
    // faults
    if (n === SPIKE[0]) [pa, pb].forEach((x) => x.gasMultiplier(10));
    if (n === SPIKE[1]) [pa, pb].forEach((x) => x.gasMultiplier(1));
    if (BURSTS.includes(n)) (n % 2 === 0 ? pa : pb).errorBurst(8);
    if (DROPS.includes(n)) pa.dropSends(3);
    if (n === REORG_AT && snapshotAfterMove !== undefined) {
      // depth 3: back to the block of the move, then a new branch (other timestamps: other hashes)
      const orphaned = (await provider.getBlockNumber()) - moveBlocks.at(-1)!;
      await node().rpc("evm_revert", [snapshotAfterMove]);
      const back = await provider.getBlockNumber();
      ts = (await provider.getBlock(back))!.timestamp + 1;
      reorgBranchStart = back + 1;
      for (const d of dues) if (d.block > back) d.block = back; // nothing due was lost with the orphaned blocks
      console.log(`  soak: reorg of depth ${orphaned}: back to block ${back}, a new branch from ${back + 1}`);
      trace("reorg", { back, orphaned });
      busy = 4;
    }
    if (n === RESTART_AT) {
      for (let i = 0; i < 30 && a.k.sender.inFlight().length === 0; i++) await sleep(100);
      const inFlight = a.k.sender.inFlight().length;
      await a.k.stop(0); // hard: what is in flight stays in A's state database
      await a.loop.catch(() => undefined);
      firstTickAt = undefined;
      a = start(1, pa.url, dirA);
      allKeepers.push(a.k);
      const created = a.created;
      for (let i = 0; i < 200 && firstTickAt === undefined; i++) await sleep(25);
      restartRecoveryMs = (firstTickAt ?? Date.now()) - created;
      console.log(
        `  soak: A restarted with ${inFlight} transaction(s) in flight; first tick after ${restartRecoveryMs} ms`,
      );
    }
    // the market
    if (n % MOVE_EVERY === 0 && n / MOVE_EVERY <= PATH.length) {
      price = PATH[n / MOVE_EVERY - 1]!;
      await cs.oracle.setPrice(wad(price)); // pending: mined in the block below
      busy = 4;
    }
    await mine();
    const head = await provider.getBlockNumber();
    if (n % MOVE_EVERY === 0 && n / MOVE_EVERY <= PATH.length) {
      moveBlocks.push(head);
      if (n === REORG_AT - 4) snapshotAfterMove = await node().rpc<string>("evm_snapshot", []);
      pending.clear();
      for (const acc of await probe(deployed, open, head)) {
        dues.push({ account: acc, block: head, move: moveBlocks.length - 1 });
        pending.add(acc);
      }
      console.log(`  soak: block ${head} index ${price}: ${pending.size} account(s) liquidatable`);
    }
    await sleep(busy > 0 ? BUSY_MS : CALM_MS);
    if (busy > 0) busy--;
  }
  // settle: no faults, a few more blocks
  const droppedSends = pa.dropped.length + pb.dropped.length;
  [pa, pb].forEach((x) => x.reset());
  for (let i = 0; i < 6; i++) {
    await mine();
    await sleep(BUSY_MS);
  }
  const endBlock = await provider.getBlockNumber();
  for (const k of allKeepers) await k.stop(5_000).catch(() => undefined);
  await node().rpc("evm_setAutomine", [true]);
  await Promise.all([pa.stop(), pb.stop()]);

  // canonical liquidations
  const le = p.liquidationEngine;
  const logs = await le.queryFilter(le.filters.AccountLiquidated(), startBlock, endBlock);
  const byAccount = new Map<string, number[]>();
  for (const l of logs) {
    const acc = l.args.account.toLowerCase();
    byAccount.set(acc, [...(byAccount.get(acc) ?? []), l.blockNumber]);
  }
  const moveOf = (block: number) => moveBlocks.filter((m) => m <= block).length - 1;
  let missed = 0;
  let maxDelay = 0;
  let maxRawDelay = 0;
  const late: Array<{ account: string; move: number; due: number; liq: number; delay: number }> = [];
  const perMove: Record<string, number> = {};
  const delays: number[] = [];
  for (const d of dues) {
    const next = moveBlocks[d.move + 1] ?? endBlock + 1;
    const liq = (byAccount.get(d.account) ?? []).find((blk) => blk > d.block && blk < next);
    if (liq === undefined) {
      missed++;
      continue;
    }
    // A due the reorg orphaned (its move block is the fork point, its liquidations were in the orphaned blocks) can
    // be liquidated again only once the new branch exists: its delay counts from the branch's first block.
    const acrossReorg = reorgBranchStart > 0 && d.block < reorgBranchStart && liq >= reorgBranchStart;
    const delay = liq - (acrossReorg ? reorgBranchStart : d.block);
    delays.push(delay);
    if (delay > 2) late.push({ account: d.account, move: d.move, due: d.block, liq, delay });
    maxDelay = Math.max(maxDelay, delay);
    maxRawDelay = Math.max(maxRawDelay, liq - d.block);
    const m = `move ${d.move} (block ${moveBlocks[d.move]})${acrossReorg ? " across the reorg" : ""}`;
    perMove[m] = Math.max(perMove[m] ?? 0, delay);
  }
  let doubles = 0;
  for (const blocks of byAccount.values()) {
    const perMove = new Map<number, number>();
    for (const blk of blocks) perMove.set(moveOf(blk), (perMove.get(moveOf(blk)) ?? 0) + 1);
    for (const c of perMove.values()) if (c > 1) doubles += c - 1;
  }
  // Successes per idempotency key that are still on the canonical chain (a success the reorg orphaned and the
  // keepers redid is one action, not two).
  const successes = new Map<string, string>();
  for (const r of reports)
    for (const x of r.results)
      if (x.outcome === "success" && x.txHash !== undefined) successes.set(x.txHash, `${x.job}|${x.key}`);
  const perKey = new Map<string, number>();
  let orphaned = 0;
  for (const [hash, key] of successes) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (receipt === null || receipt.status !== 1) {
      orphaned++;
      continue;
    }
    perKey.set(key, (perKey.get(key) ?? 0) + 1);
  }
  // diagnostics: who liquidated the late accounts, at which nonce
  for (const x of late) {
    const l = logs.find((g) => g.args.account.toLowerCase() === x.account && g.blockNumber === x.liq);
    const tx = l === undefined ? null : await provider.getTransaction(l.transactionHash);
    const line = { ...x, tx: tx?.hash, from: tx?.from, nonce: tx?.nonce };
    console.log(`  soak: late liquidation ${JSON.stringify(line)}`);
    trace("late", line);
  }
  const keyDoubles = [...perKey.values()].filter((c) => c > 1).reduce((a, c) => a + c - 1, 0);
  const outcomes: Record<string, number> = {};
  for (const r of reports) for (const x of r.results) outcomes[x.outcome] = (outcomes[x.outcome] ?? 0) + 1;
  const metric = async (f: (k: Keeper) => Promise<number>) =>
    (await Promise.all(allKeepers.map(f))).reduce((x, y) => x + y, 0);
  const sum = async (k: Keeper, m: "preemptions" | "replacements" | "reorgs") =>
    (await k.metrics[m].get()).values.reduce((x, v) => x + v.value, 0);
  const result = {
    doubleActions: doubles + keyDoubles,
    missedLiquidations: missed,
    maxLiquidationDelayBlocks: maxDelay,
    maxLiquidationDelayBlocksFromTheMoveEvenAcrossTheReorg: maxRawDelay,
    restartRecoveryMs,
    actions: successes.size - orphaned,
    orphanedByReorgAndRedone: orphaned,
    accounts: TRADERS,
    simulatedSeconds: BLOCKS * BLOCK_SEC,
    blocks: endBlock - startBlock,
    liquidationsDue: dues.length,
    liquidations: logs.length,
    maxDelayBlocksPerMove: perMove,
    delayBlocksHistogram: delays.reduce<Record<string, number>>((h, d) => ({ ...h, [d]: (h[d] ?? 0) + 1 }), {}),
    preemptions: await metric((k) => sum(k, "preemptions")),
    replacements: await metric((k) => sum(k, "replacements")),
    reorgsDetected: await metric((k) => sum(k, "reorgs")),
    outcomes,
    faults: {
      rpcBursts: BURSTS.length,
      droppedSends,
      gasSpikeX10Blocks: SPIKE[1] - SPIKE[0],
      reorgDepth: 3,
      stuckOrdinary: "A's volatility updates never propagate",
      restarts: 1,
      keepers: 2,
    },
    targets: { doubleActions: 0, missedLiquidations: 0, maxLiquidationDelayBlocks: 2 },
    pass: doubles + keyDoubles === 0 && missed === 0 && maxDelay <= 2,
    setupSeconds: Math.round(setupSec),
    wallSeconds: Math.round((Date.now() - t0) / 1000),
  };
  return result;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  let n: LocalNode | undefined;
  let code = 0;
  try {
    n = await startNode();
    console.log(`[keepers soak] local node ${n.url}`);
    const result = await soak();
    const out: Record<string, unknown> = existsSync(OUT)
      ? (JSON.parse(readFileSync(OUT, "utf8")) as Record<string, unknown>)
      : {};
    out.soak = {
      ...result,
      machine: { cpus: os.cpus().length, node: process.version, date: new Date().toISOString() },
    };
    mkdirSync("bench", { recursive: true });
    writeFileSync(OUT, JSON.stringify(out, null, 2) + "\n");
    console.log(
      `  soak: doubleActions ${result.doubleActions}, missedLiquidations ${result.missedLiquidations}, maxLiquidationDelayBlocks ${result.maxLiquidationDelayBlocks}, restartRecoveryMs ${result.restartRecoveryMs}, actions ${result.actions}`,
    );
    console.log(`wrote ${OUT} (section soak)`);
  } catch (e) {
    console.error(`soak failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    code = 1;
  } finally {
    await n?.stop();
  }
  process.exit(code);
}
