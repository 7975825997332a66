/**
 * The emission job against the real protocol (deploy engine, every module) on the shared node: 250 providers with
 * three daily capacity samples each in epoch 1 (recorded by a COMPUTE signer), time moved past the epoch's end,
 * then the keeper closes the epoch (priority) and rebalances every provider in batches of 100. Each test starts
 * from the same chain snapshot.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { expect } from "chai";
import { getAddress, parseUnits, toBeHex, zeroPadValue, type Wallet } from "ethers";
import { pino } from "pino";
import { ChainClient } from "../src/chain/client.js";
import { ErrorDecoder } from "../src/chain/errors.js";
import { applyConfig, defaultConfig } from "../src/config.js";
import { emissionJob, emissionLimits } from "../src/jobs/emission.js";
import { jobFactories } from "../src/jobs/index.js";
import { formatDueWork, scanDueWork } from "../src/scan.js";
import { FaultProxy } from "./fault-proxy.js";
import { account, CHAIN_ID, counts, makeKeeper, node } from "./harness.js";
import { type DeployedProtocol } from "./protocol.js";
import { protocolSuite, race } from "./fixtures.js";
import { Roles, type Protocol } from "@chx/sdk";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const PROVIDERS = 250;
const BATCH = 100;
const DAY = 86_400;
const EPOCH = 15 * DAY;
const WAD = 10n ** 18n;
const KEEPER_BUDGET = parseUnits("100", 18);

/** Accounts beyond the node's 20 funded ones: no other test file uses them. */
const KEEPER_A = 20;
const KEEPER_B = 21;
const RECORDER = 23;

const providerAddress = (i: number) => getAddress(zeroPadValue(toBeHex(0xc0ffee0000 + i), 20));
/** Whole PetaFLOPs per provider per day (days 0, 1, 2 of epoch 1): three different orders of magnitude and orders. */
const samplesOf = (i: number): bigint[] => [100 + i, 50 + 3 * (i % 97), 200 - (i % 150)].map(BigInt);
/** Independent reference: the median of three samples, in GFL wei (1e18 = 1 PetaFLOP). */
const medianGfl = (i: number): bigint => [...samplesOf(i)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[1]! * WAD;

async function latestTimestamp(): Promise<number> {
  return (await node().provider.getBlock("latest"))!.timestamp;
}

/** Sends signed transactions with automine off and mines until every one is in (hundreds per second). */
async function sendBulk(wallet: Wallet, txs: Array<{ to: string; data: string }>, atTimestamp: number): Promise<void> {
  const p = node().provider;
  let nonce = await p.getTransactionCount(wallet.address, "pending");
  const last = nonce + txs.length;
  await node().rpc("evm_setAutomine", [false]);
  try {
    for (const t of txs) {
      const raw = await wallet.signTransaction({
        type: 2,
        chainId: CHAIN_ID,
        nonce: nonce++,
        to: t.to,
        data: t.data,
        gasLimit: 400_000n,
        maxFeePerGas: parseUnits("100", "gwei"),
        maxPriorityFeePerGas: parseUnits("1", "gwei"),
      });
      await node().rpc("eth_sendRawTransaction", [raw]);
    }
    await node().rpc("evm_setNextBlockTimestamp", [atTimestamp]);
    while ((await p.getTransactionCount(wallet.address, "latest")) < last) await node().rpc("evm_mine", []);
  } finally {
    await node().rpc("evm_setAutomine", [true]);
  }
}

async function dpsOf(protocol: Protocol, who: string): Promise<bigint> {
  return protocol.dps.balanceOf(who);
}

async function gflBalances(protocol: Protocol): Promise<bigint[]> {
  const out: bigint[] = [];
  for (let i = 0; i < PROVIDERS; i += 50) {
    const chunk = Array.from({ length: Math.min(50, PROVIDERS - i) }, (_, k) => i + k);
    out.push(...(await Promise.all(chunk.map((j) => protocol.gfl.balanceOf(providerAddress(j))))));
  }
  return out;
}

/** Every provider rebalanced exactly once for `epoch`, by batches that tile [0, PROVIDERS). */
async function expectOnePass(protocol: Protocol, fromBlock: number, epoch: bigint, openEpoch: bigint) {
  const { emission } = protocol;
  const rebalanced = await emission.queryFilter(emission.filters.ProviderRebalanced(), fromBlock, "latest");
  const perProvider = new Map<string, number>();
  for (const l of rebalanced) {
    expect(l.args.epoch).to.equal(epoch);
    perProvider.set(l.args.provider, (perProvider.get(l.args.provider) ?? 0) + 1);
  }
  expect(perProvider.size).to.equal(PROVIDERS);
  expect([...perProvider.values()].every((n) => n === 1)).to.equal(true);
  const batches = await emission.queryFilter(emission.filters.RebalanceBatch(), fromBlock, "latest");
  expect(batches.map((b) => [b.args.epoch, b.args.fromIndex, b.args.toIndex])).to.deep.equal([
    [openEpoch, 0n, 100n],
    [openEpoch, 100n, 200n],
    [openEpoch, 200n, 250n],
  ]);
  expect(await emission.rebalanceProgress()).to.deep.equal([250n, 250n]);
}

describe("emission job: epoch close and GFL rebalancing (real protocol, real node)", function () {
  let deployed: DeployedProtocol;
  let protocol: Protocol;
  /** The shared protocol as this file found it: restored at the end for the next file that uses it. */
  let epoch1Start: number;

  protocolSuite(120_000, async (d) => {
    deployed = d;
    protocol = d.protocol;
    const { emission, dps, accessManager } = protocol;
    const emissionAddress = await emission.getAddress();
    const recorder = account(RECORDER).connect(node().provider);
    for (const i of [KEEPER_A, KEEPER_B, RECORDER]) {
      await node().rpc("hardhat_setBalance", [account(i).address, toBeHex(10n ** 22n)]);
    }
    // Governance on a local network: the deployer keeps ADMIN_ROLE. The recorder stands in for the ProviderRegistry.
    await (await accessManager.grantRole(Roles.CAPACITY_RECORDER, recorder.address, 0)).wait();
    await (await emission.setMinSamples(1)).wait(); // from epoch 1: one sample gives a GFL
    await (await dps.approve(emissionAddress, KEEPER_BUDGET)).wait();
    await (await emission.fundKeeperBudget(KEEPER_BUDGET)).wait();
    expect(await emission.currentEpoch()).to.equal(0n);
    epoch1Start = Number(await emission.epochStart(1n));
    // Days 0, 1 and 2 of epoch 1 (the first sample closes epoch 0 on its way).
    for (let day = 0; day < 3; day++) {
      const at = Math.max((await latestTimestamp()) + 1, epoch1Start + day * DAY + 60);
      const txs = Array.from({ length: PROVIDERS }, (_, i) => ({
        to: emissionAddress,
        data: emission.interface.encodeFunctionData("recordCapacity", [providerAddress(i), samplesOf(i)[day]! * WAD]),
      }));
      await sendBulk(recorder, txs, at);
    }
    expect(await emission.currentEpoch()).to.equal(1n);
    expect(await emission.providerCount()).to.equal(BigInt(PROVIDERS));
    const expectedTotal = Array.from({ length: PROVIDERS }, (_, i) => medianGfl(i)).reduce((a, b) => a + b, 0n);
    expect((await emission.epochInfo(1n)).totalGfl).to.equal(expectedTotal);
    // Past the end of epoch 1: the close is due.
    await node().rpc("evm_setNextBlockTimestamp", [epoch1Start + EPOCH + 60]);
    await node().rpc("evm_mine", []);
    expect(await emission.epochDue()).to.equal(true);
  });

  const config = (extra: Record<string, unknown> = {}) => ({
    jobs: { emission: { batchSize: BATCH, gasCeilingGwei: 20, ...extra } },
  });

  it("closes the due epoch (priority), rebalances all 250 providers in 3 batches, GFL = the medians; a re-run does nothing", async function () {
    const { emission, gfl } = protocol;
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: config() });
    try {
      expect(k.summary().join("\n")).to.match(/job emission: close due epochs \(priority\) and rebalance GFL/);
      const from = (await node().provider.getBlockNumber()) + 1;
      const dpsBefore = await dpsOf(protocol, k.address);
      const r = await k.tick();
      expect(r.errors).to.deep.equal([]);
      expect(r.results.map((x) => [x.key, x.outcome])).to.have.deep.members([
        ["emission.closeEpochs:-:1", "success"],
        ["emission.rebalance:0:2", "success"],
        ["emission.rebalance:100:2", "success"],
        ["emission.rebalance:200:2", "success"],
      ]);
      // The close went first (priority), then the batches in nonce order.
      const byNonce = [...r.results].sort((a, b) => (a.nonce ?? 0) - (b.nonce ?? 0)).map((x) => x.key);
      expect(byNonce[0]).to.equal("emission.closeEpochs:-:1");
      const closed = await emission.queryFilter(emission.filters.EpochClosed(), from, "latest");
      expect(closed.map((l) => [l.args.epoch, l.args.closedBy])).to.deep.equal([[1n, k.address]]);
      expect(await emission.currentEpoch()).to.equal(2n);
      await expectOnePass(protocol, from, 1n, 2n);
      // Every transaction far under the 16,777,216 cap (batch of 100 first-ever GFL ≈ 5M).
      for (const x of r.results) {
        const receipt = await node().provider.getTransactionReceipt(x.txHash!);
        expect(Number(receipt!.gasUsed)).to.be.lessThan(8_000_000);
      }
      // GFL balances equal the medians of each provider's epoch-1 samples (independent TypeScript reference).
      const balances = await gflBalances(protocol);
      balances.forEach((b, i) => expect(b, `provider ${i}`).to.equal(medianGfl(i)));
      expect(await gfl.totalSupply()).to.equal((await emission.epochInfo(1n)).totalGfl);
      // Bounties: 1 DPS for the close + 0.05 DPS per provider changed (250) = 13.5 DPS.
      expect((await dpsOf(protocol, k.address)) - dpsBefore).to.equal(parseUnits("13.5", 18));

      // A re-run finds nothing due: no candidate, no transaction.
      const nonce = await node().provider.getTransactionCount(k.address);
      const again = await k.tick();
      expect(again.results).to.deep.equal([]);
      expect(again.errors).to.deep.equal([]);
      expect(await node().provider.getTransactionCount(k.address)).to.equal(nonce);
    } finally {
      await k.stop(0);
    }
  });

  it("OPS-01: two keepers racing in the same blocks produce one success per action; the losers read already-done", async function () {
    const { emission } = protocol;
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
    const from = (await node().provider.getBlockNumber()) + 1;
    const paid0 = (await dpsOf(protocol, a.address)) + (await dpsOf(protocol, b.address));
    await race(a, b, 4, async (all) => {
      const closes = all.filter((x) => x.key.startsWith("emission.closeEpochs"));
      const batches = all.filter((x) => x.key.startsWith("emission.rebalance"));
      expect(counts(closes)).to.deep.equal({ success: 1, "already-done": 1 });
      expect(counts(batches)).to.deep.equal({ success: 3, "already-done": 3 });
      expect(closes.find((x) => x.outcome === "already-done")?.reason).to.match(/EmissionEpochNotDue\(epoch=2/);
      for (const x of batches.filter((y) => y.outcome === "already-done")) {
        expect(x.reason).to.match(/EmissionRebalanceComplete\(epoch=2\)/);
      }
      expect(await a.metrics.count("emission", "reverted")).to.equal(0);
      expect(await b.metrics.count("emission", "reverted")).to.equal(0);
      expect((await emission.queryFilter(emission.filters.EpochClosed(), from, "latest")).length).to.equal(1);
      await expectOnePass(protocol, from, 1n, 2n);
      const balances = await gflBalances(protocol);
      balances.forEach((v, i) => expect(v, `provider ${i}`).to.equal(medianGfl(i)));
      // The bounty is paid once per unit of work, whoever did it.
      const paid = (await dpsOf(protocol, a.address)) + (await dpsOf(protocol, b.address)) - paid0;
      expect(paid).to.equal(parseUnits("13.5", 18));
    });
  });

  it("OPS-02: a 10× gas spike never skips the epoch close (priority); the batches wait for the fee to fall", async function () {
    const { emission } = protocol;
    await node().rpc("hardhat_setNextBlockBaseFeePerGas", ["0x3b9aca00"]); // 1 gwei
    await node().rpc("evm_mine", []);
    const p = await new FaultProxy(node().url).start();
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, urls: [p.url], config: config() });
    try {
      p.gasMultiplier(10);
      const spike = await k.tick();
      expect(spike.results.map((x) => [x.key, x.outcome])).to.have.deep.members([
        ["emission.closeEpochs:-:1", "success"],
        ["emission.rebalance:0:2", "skipped-gas"],
        ["emission.rebalance:100:2", "skipped-gas"],
        ["emission.rebalance:200:2", "skipped-gas"],
      ]);
      expect(await emission.currentEpoch()).to.equal(2n);
      expect(await emission.rebalanceProgress()).to.deep.equal([0n, 250n]);

      p.gasMultiplier(1);
      const calm = await k.tick();
      expect(counts(calm.results)).to.deep.equal({ success: 3 });
      expect(await emission.rebalanceProgress()).to.deep.equal([250n, 250n]);
      const balances = await gflBalances(protocol);
      balances.forEach((v, i) => expect(v, `provider ${i}`).to.equal(medianGfl(i)));
    } finally {
      await k.stop(0);
      await p.stop();
    }
  });

  it("catches up after a long pause: several due epochs closed in capped closeEpochs runs, then one pass (GFL 0: no samples since)", async function () {
    const { emission, gfl } = protocol;
    await node().rpc("evm_setNextBlockTimestamp", [epoch1Start + 3 * EPOCH + 60]); // epochs 1, 2, 3 due
    await node().rpc("evm_mine", []);
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: config({ maxEpochsPerTx: 2 }),
    });
    try {
      const r = await k.tick();
      expect(r.results.map((x) => [x.key, x.outcome])).to.have.deep.members([
        ["emission.closeEpochs:-:1", "success"],
        ["emission.closeEpochs:-:3", "success"],
        ["emission.rebalance:0:4", "success"],
        ["emission.rebalance:100:4", "success"],
        ["emission.rebalance:200:4", "success"],
      ]);
      expect(await emission.currentEpoch()).to.equal(4n);
      expect(await emission.rebalanceProgress()).to.deep.equal([250n, 250n]);
      // Epoch 3 had no samples: every median is 0, and so is every balance; epoch 1's rewards were accrued.
      expect(await gfl.totalSupply()).to.equal(0n);
      const info = await emission.providerInfo(providerAddress(7));
      expect(info.accruedDps).to.equal((medianGfl(7) * (await emission.epochInfo(1n)).rateWad) / WAD);
      expect((await k.tick()).results).to.deep.equal([]);
    } finally {
      await k.stop(0);
    }
  });

  it("npx hardhat chx:keeper:status lists each job's due work with the keeper's scan (read-only), then nothing once the keeper ran", async function () {
    const status = () =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(
          path.join(ROOT, "node_modules", ".bin", "hardhat"),
          ["chx:keeper:status", "--network", "localhost"],
          {
            cwd: ROOT,
            timeout: 60_000,
            env: { ...process.env, CHX_LOCAL_RPC: node().url, CHX_KEEPER_DEPLOYMENTS_DIR: deployed.dir },
          },
          (err, stdout, stderr) => resolve({ code: err === null ? 0 : 1, out: `${stdout}${stderr}` }),
        );
      });
    const nonce = await node().provider.getTransactionCount(account(0).address);
    const due = await status();
    expect(due.code, due.out).to.equal(0);
    const lines = due.out.trim().split("\n");
    expect(lines[0]).to.match(
      /^keeper status on localhost \(chain 31337, .*localhost\.json\): block \d+, .* 7 action\(s\) due$/,
    );
    // The markets' checkers are discovered from the deployment; no market has open interest, so nothing is due.
    expect(due.out).to.include("job funding: nothing due");
    expect(due.out).to.include("job futures-expiry: nothing due");
    expect(due.out).to.include("job options-expiry: nothing due");
    // The clearing jobs are on too: no account has a position; the first volatility updates are due (the index σ
    // and the perp and futures markets' own σ, whose models the deploy sets).
    expect(due.out).to.include("job liquidations: nothing due");
    expect(due.out).to.include("job volatility: 3 action(s) due");
    expect(due.out).to.include('job checker: off — no "targets" configured for the checker job');
    expect(due.out).to.match(/job mock-target: off — MockKeeperTarget is not in /);
    expect(due.out).to.include("job emission: 4 action(s) due, 1 priority");
    expect(due.out).to.include("  ! emission.closeEpochs:-:1  closeEpochs(1): close epoch 1 (priority)");
    expect(due.out).to.match(
      / {4}emission\.rebalance:200:2 {2}rebalance\(100\): providers 200-249 of 250 from 0x[0-9a-fA-F]{40} for epoch 1/,
    );
    expect(await node().provider.getTransactionCount(account(0).address)).to.equal(nonce); // read-only

    // With a DPS price the scan prices each action's bounty (per unit of work, capped per call and by the budget).
    const priced = await scanOnce({ dpsPriceWei: (10n ** 15n).toString() });
    expect(priced.map((a) => [a.key, a.rewardWei])).to.deep.equal([
      ["emission.closeEpochs:-:1", 10n ** 15n], // 1 DPS
      ["emission.rebalance:0:2", 5n * 10n ** 15n], // 100 × 0.05 DPS
      ["emission.rebalance:100:2", 5n * 10n ** 15n],
      ["emission.rebalance:200:2", 25n * 10n ** 14n], // 50 × 0.05 DPS
    ]);

    // At most maxBatchesPerTick batches per tick; the next tick goes on from the cursor.
    expect((await scanOnce({ maxBatchesPerTick: 2 })).map((a) => a.key)).to.deep.equal([
      "emission.closeEpochs:-:1",
      "emission.rebalance:0:2",
      "emission.rebalance:100:2",
    ]);

    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: config() });
    try {
      expect(counts((await k.tick()).results)).to.deep.equal({ success: 4 });
    } finally {
      await k.stop(0);
    }
    // Once done, the same scan (in process: the task's code path without Hardhat) reports nothing due.
    expect(await scanOnce()).to.deep.equal([]);
  });

  /** The task's scan in process (no Hardhat): the emission job's due actions. */
  async function scanOnce(options: Record<string, unknown> = {}) {
    const client = new ChainClient({
      urls: [node().url],
      chainId: CHAIN_ID,
      retries: 1,
      backoffMs: 20,
      timeoutMs: 5_000,
    });
    try {
      const report = await scanDueWork({
        client,
        deployment: deployed.deployment,
        config: applyConfig(defaultConfig("localhost"), {
          rpcUrls: [node().url],
          jobs: { emission: { batchSize: BATCH, ...options } },
        }),
        factories: jobFactories,
        log: pino({ level: "silent" }),
        decoder: new ErrorDecoder([]),
      });
      const lines = formatDueWork(report);
      const emission = report.jobs.find((j) => j.job === "emission");
      expect(emission?.state, lines.join("\n")).to.equal("on");
      if (emission?.actions.length === 0) expect(lines).to.include("job emission: nothing due");
      return emission?.actions ?? [];
    } finally {
      client.destroy();
    }
  }

  it("bounds the batch so a transaction stays far under the 16,777,216 gas cap, and rejects bad options", function () {
    expect(emissionLimits({}, 100)).to.deep.equal({
      batchSize: 100,
      maxEpochsPerTx: 64,
      maxTxGas: 8_000_000,
      maxBatchesPerTick: 20,
    });
    // 200 asked, but (8M − 300k) / 60k = 128 fit the default gas budget.
    expect(emissionLimits({ batchSize: 200 }).batchSize).to.equal(128);
    expect(emissionLimits({ batchSize: 200, maxTxGas: 12_000_000 }).batchSize).to.equal(195);
    // Epochs still due when a batch runs are closed on its way: room is kept for them.
    expect(emissionLimits({ batchSize: 200 }, 100, 64).batchSize).to.equal(96);
    expect(
      emissionLimits({ batchSize: 200, maxTxGas: 12_000_000 }, 100, 1).batchSize * 60_000 + 330_000,
    ).to.be.lessThan(16_777_216 * 0.75);
    expect(() => emissionLimits({ batchSize: 201 })).to.throw(
      /"jobs.emission.batchSize" must be an integer from 1 to 200/,
    );
    expect(() => emissionLimits({ maxTxGas: 16_777_216 })).to.throw(/maxTxGas/);
    expect(() => emissionLimits({ maxEpochsPerTx: 0 })).to.throw(/maxEpochsPerTx/);
    const at = "0x0000000000000000000000000000000000000001";
    expect(() => emissionJob(at, { batchSise: 10 } as never)).to.throw(/Unknown option "jobs.emission.batchSise"/);
    expect(() => emissionJob(at, { dpsPriceWei: "0.5" })).to.throw(/dpsPriceWei" must be a decimal string/);
  });
});
