/**
 * Issue 25: what an operator hit, as tests against the real node (mock target): restarts mid-flight, urgent work
 * behind a stuck ordinary transaction, one failing job among healthy ones, failing endpoints, a key with no ETH,
 * an expected revert, a protected submission endpoint, the state database.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "chai";
import { parseUnits, toBeHex } from "ethers";
import { pino, type Logger } from "pino";
import { FaultProxy } from "./fault-proxy.js";
import { account, addItems, counts, deployTarget, executions, makeKeeper, node } from "./harness.js";
import { mockTargetJob } from "../src/jobs/mock-target.js";
import type { JobFactory, KeeperJob } from "../src/jobs/types.js";
import { classifySendError } from "../src/chain/errors.js";
import { ReorgDetector } from "../src/state.js";
import type { ChainClient } from "../src/chain/client.js";
import { KeeperStore } from "../src/store.js";

const fund = (i: number, wei = 10n ** 21n) => node().rpc("hardhat_setBalance", [account(i).address, toBeHex(wei)]);
const tmp = (tag: string) => mkdtempSync(path.join(os.tmpdir(), `chx-keeper-${tag}-`));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A log sink that keeps every JSON line (to assert what an operator would read). */
function capture(): { log: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split("\n"))
        if (l.trim() !== "") lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { log: pino({ level: "debug" }, sink) as unknown as Logger, lines };
}

describe("issue 25 / OPS-02: operator-grade keeper (real node)", function () {
  const proxies: FaultProxy[] = [];
  async function proxy(): Promise<FaultProxy> {
    const p = await new FaultProxy(node().url).start();
    proxies.push(p);
    return p;
  }
  afterEach(async function () {
    await node().rpc("evm_setAutomine", [true]);
    await Promise.all(proxies.splice(0).map((p) => p.stop()));
  });

  it("test_restartWithPendingTxs_adoptsThemAtTheirOwnNonces: no re-send at new nonces, no lost race", async function () {
    const { target, deployment } = await deployTarget("adopt");
    await addItems(target, 3);
    await fund(60);
    const dir = tmp("adopt-state");
    const n0 = await node().provider.getTransactionCount(account(60).address, "latest");
    await node().rpc("evm_setAutomine", [false]);
    const a = makeKeeper({ deployment, accountIndex: 60, config: { dataDir: dir } });
    await a.tick({ wait: false }); // broadcast, not mined
    expect(a.sender.inFlight().map((f) => f.nonce)).to.deep.equal([n0, n0 + 1, n0 + 2]);
    await a.stop(0); // the process dies with three transactions in the mempool

    const b = makeKeeper({ deployment, accountIndex: 60, config: { dataDir: dir } });
    try {
      const first = await b.tick({ wait: false });
      // the keys are held back while the adopted transactions are pending: nothing is sent twice
      expect(first.results.every((r) => r.outcome === "skipped-inflight")).to.equal(true);
      expect(b.sender.inFlight().map((f) => f.nonce)).to.deep.equal([n0, n0 + 1, n0 + 2]);
      await node().rpc("evm_mine", []);
      const adopted = await b.adoptedSettled();
      expect(counts(adopted)).to.deep.equal({ success: 3 });
      expect(adopted.map((r) => r.nonce).sort()).to.deep.equal([n0, n0 + 1, n0 + 2]);
      expect(adopted.every((r) => r.adopted === true)).to.equal(true);
      expect([...(await executions(target)).values()]).to.deep.equal([1, 1, 1]);
      await node().rpc("evm_setAutomine", [true]);
      expect((await b.tick()).results.filter((r) => r.outcome !== "skipped-inflight")).to.deep.equal([]);
      expect(await node().provider.getTransactionCount(account(60).address, "latest")).to.equal(n0 + 3);
    } finally {
      await b.stop(0);
    }
  });

  it("test_unknownPendingNonceAtStartup_isCancelledByReplacement", async function () {
    const { target, deployment } = await deployTarget("cancel");
    await fund(61);
    const w = account(61).connect(node().provider);
    const n0 = await node().provider.getTransactionCount(w.address, "latest");
    await node().rpc("evm_setAutomine", [false]);
    // another process (or a run whose state was lost) left a cheap transaction pending with this key
    await w.sendTransaction({
      to: w.address,
      value: 1n,
      nonce: n0,
      maxFeePerGas: parseUnits("1", "gwei"),
      maxPriorityFeePerGas: 1n,
      gasLimit: 21_000n,
    });
    const k = makeKeeper({ deployment, accountIndex: 61 });
    try {
      const t = k.tick({ wait: false });
      await sleep(300);
      await node().rpc("evm_mine", []);
      await t;
      const [cancel] = await k.adoptedSettled();
      expect(cancel?.key).to.equal(`nonce:${n0}`);
      expect(cancel?.outcome).to.equal("success");
      expect(await node().provider.getTransactionCount(w.address, "latest")).to.equal(n0 + 1);
      await node().rpc("evm_setAutomine", [true]);
      await addItems(target, 1);
      const r = await k.tick();
      expect(counts(r.results)).to.deep.equal({ success: 1 });
      expect(r.results[0]?.nonce).to.equal(n0 + 1);
    } finally {
      await k.stop(0);
    }
  });

  it("test_urgentBehindStuckOrdinary_takesOverItsNonce: a liquidation-class action never waits behind a tx priced out by a spike", async function () {
    const { target, deployment } = await deployTarget("preempt");
    await fund(62);
    await node().rpc("hardhat_setNextBlockBaseFeePerGas", ["0x3b9aca00"]); // 1 gwei
    await node().rpc("evm_mine", []);
    await addItems(target, 1, { bountyWei: 10n ** 16n }); // ordinary work, profitable at ~3 gwei
    await addItems(target, 1, { priority: true, bountyWei: 0n, dueIn: 1_000 }); // bad debt, due at the spike
    const dueAt = (await node().provider.getBlock("latest"))!.timestamp + 1_000;
    const k = makeKeeper({
      deployment,
      accountIndex: 62,
      config: { jobs: { "mock-target": { gasCeilingGwei: 5 } }, replaceAfterMs: 60_000, preemptAfterMs: 60_000 },
    });
    try {
      await node().rpc("evm_setAutomine", [false]);
      await k.tick({ wait: false }); // the ordinary tx is in the mempool at ~3 gwei
      const [ordinary] = k.sender.inFlight();
      expect(ordinary?.priority).to.equal(false);
      // a spike: the base fee jumps far above the ordinary tx's max fee and its job ceiling (it cannot be bumped)
      await node().rpc("evm_setNextBlockTimestamp", [dueAt]);
      await node().rpc("hardhat_setNextBlockBaseFeePerGas", [toBeHex(parseUnits("40", "gwei"))]);
      await node().rpc("evm_mine", []);
      const spikeBlock = await node().provider.getBlockNumber();
      expect(await node().provider.getTransactionCount(k.address, "latest")).to.equal(ordinary!.nonce);
      // the bad-debt work is now due: it takes the stuck nonce over at a fee that clears the spike
      const tick = k.tick();
      for (
        let i = 0;
        i < 100 &&
        (
          (await node().rpc<string[]>("eth_getBlockByNumber", ["pending", false])) as unknown as {
            transactions: string[];
          }
        ).transactions.length < 1;
        i++
      )
        await sleep(50);
      await sleep(200);
      await node().rpc("evm_mine", []);
      const r = await tick;
      const urgent = r.results.find((x) => x.key === "mock.execute:1:-");
      expect(urgent?.outcome).to.equal("success");
      expect(urgent?.nonce).to.equal(ordinary!.nonce);
      const receipt = await node().provider.getTransactionReceipt(urgent!.txHash!);
      expect(receipt!.blockNumber - spikeBlock).to.equal(1); // no waiting behind the stuck transaction
      expect((await k.metrics.preemptions.get()).values[0]?.value).to.equal(1);
      // the ordinary work went back to the queue: it is done once the fee falls (never twice)
      await node().rpc("evm_setAutomine", [true]);
      await node().rpc("hardhat_setNextBlockBaseFeePerGas", ["0x3b9aca00"]);
      await node().rpc("evm_mine", []);
      for (let i = 0; i < 10 && (await target.executedCount()) < 2n; i++) {
        await k.tick();
        await sleep(100);
      }
      expect([...(await executions(target)).values()]).to.deep.equal([1, 1]);
      expect(await k.metrics.count("mock-target", "preempted")).to.equal(1);
    } finally {
      await k.stop(0);
    }
  });

  it("test_oneJobFailingOrHanging_backsOffThatJobOnly: the others keep their cadence", async function () {
    const { target, deployment } = await deployTarget("isolate");
    await fund(63);
    const address = await target.getAddress();
    let brokenScans = 0;
    const broken: JobFactory = {
      name: "broken",
      description: "always fails",
      create: (): KeeperJob => ({
        name: "broken",
        summary: "fails",
        alreadyDoneErrors: [],
        scan: async () => {
          brokenScans++;
          throw new Error("every RPC endpoint failed for this job's contract");
        },
        plan: async () => [],
      }),
    };
    const hanging: JobFactory = {
      name: "hanging",
      description: "never answers",
      create: (): KeeperJob => ({
        name: "hanging",
        summary: "hangs",
        alreadyDoneErrors: [],
        scan: () => new Promise(() => undefined),
        plan: async () => [],
      }),
    };
    const mock: JobFactory = { name: "mock-target", description: "", create: () => mockTargetJob(address, {}) };
    const k = makeKeeper({
      deployment,
      accountIndex: 63,
      factories: [mock, broken, hanging],
      // a 60 s back-off: three rounds on a loaded 2-core CI machine (the coverage build runs beside this suite) must fit
      config: { jobTimeoutMs: 400, breakerBaseMs: 60_000, breakerMaxMs: 120_000, jobs: {}, discoverCheckers: false },
    });
    try {
      for (let round = 0; round < 3; round++) {
        await addItems(target, 2);
        const t0 = Date.now();
        const r = await k.tick();
        // the hanging scan is cut at jobTimeoutMs: the tick ends (a generous bound: this is not a speed test)
        expect(Date.now() - t0).to.be.below(30_000);
        expect(counts(r.results.filter((x) => x.job === "mock-target"))).to.deep.equal({ success: 2 });
        if (round === 0) {
          expect(r.errors).to.have.length(2);
          expect(r.errors.join(" ")).to.match(/Job hanging could not scan: job hanging's scan took longer than 400 ms/);
        } else expect(r.errors).to.deep.equal([]); // both back off (60 s): not retried every tick
      }
      expect(brokenScans).to.equal(1);
      expect(k.health().jobsBackingOff).to.have.members(["broken", "hanging"]);
      expect(await target.executedCount()).to.equal(6n);
    } finally {
      await k.stop(0);
    }
  });

  it("test_failingEndpoint_isSkippedByItsBreaker_andTriedAgainAfterCooldown", async function () {
    const { target, deployment } = await deployTarget("endpoint-breaker");
    await addItems(target, 1);
    await fund(64);
    const a = await proxy();
    const b = await proxy();
    const k = makeKeeper({
      deployment,
      accountIndex: 64,
      urls: [a.url, b.url],
      // a 15 s breaker: two ticks on a loaded CI machine must fit inside it; the test then waits until it closes
      config: { rpcRetries: 1, breakerBaseMs: 15_000, breakerMaxMs: 30_000 },
    });
    try {
      a.down(true);
      expect(counts((await k.tick()).results)).to.deep.equal({ success: 1 });
      const seenA = [...a.seen.values()].reduce((x, y) => x + y, 0);
      await addItems(target, 1);
      expect(counts((await k.tick()).results)).to.deep.equal({ success: 1 });
      // while a's breaker is open, a is not even tried
      expect([...a.seen.values()].reduce((x, y) => x + y, 0)).to.equal(seenA);
      expect(k.health().endpointsOpen).to.deep.equal([a.url]);
      a.down(false);
      for (let i = 0; i < 200 && (k.health().endpointsOpen as string[]).length > 0; i++) await sleep(100);
      expect(k.health().endpointsOpen).to.deep.equal([]);
      await addItems(target, 1);
      expect(counts((await k.tick()).results)).to.deep.equal({ success: 1 });
      expect(k.client.url).to.equal(a.url); // the preferred endpoint is back
    } finally {
      await k.stop(0);
    }
  });

  it("test_keyWithNoEth_isOneClearCause: not an RPC failure, no fee bumps", async function () {
    const { target, deployment } = await deployTarget("unfunded");
    await addItems(target, 1);
    await fund(65, 0n);
    const { log, lines } = capture();
    const k = makeKeeper({ deployment, accountIndex: 65, log });
    try {
      const r = await k.tick();
      expect(counts(r.results)).to.deep.equal({ failed: 1 });
      expect((await k.metrics.rpcErrors.get()).values.reduce((x, v) => x + v.value, 0)).to.equal(0);
      expect((await k.metrics.replacements.get()).values.reduce((x, v) => x + v.value, 0)).to.equal(0);
      expect(
        lines.some((l) => /has no ETH: 1 action\(s\) due and none can be sent; fund it/.test(String(l.msg))),
      ).to.equal(true);
      // a balance too small for the transaction: the node's answer is mapped to its cause
      await fund(65, 1_000n);
      const r2 = await k.tick();
      expect(counts(r2.results)).to.deep.equal({ failed: 1 });
      expect(r2.results[0]?.reason).to.match(/cannot pay for gas \(insufficient funds\): fund it/);
      expect((await k.metrics.rpcErrors.get()).values.reduce((x, v) => x + v.value, 0)).to.equal(0);
      expect(k.sender.inFlight()).to.deep.equal([]);
    } finally {
      await k.stop(0);
    }
    expect(
      classifySendError({
        code: "UNKNOWN_ERROR",
        shortMessage: "could not coalesce error",
        error: {
          message:
            "Sender doesn't have enough funds to send tx. The max upfront cost is: 1 and the sender's balance is: 0.",
        },
      }),
    ).to.equal("insufficient-funds");
  });

  it("test_expectedRevert_isAWarningWithBackoff_notAnErrorEveryTick", async function () {
    const { target, deployment } = await deployTarget("expected");
    await fund(66);
    await addItems(target, 1, { dueIn: 3_600 }); // not due: execute reverts KeeperTargetNotDue
    const address = await target.getAddress();
    const waiting: JobFactory = {
      name: "mock-target",
      description: "",
      create: () => {
        const inner = mockTargetJob(address, {});
        return {
          ...inner,
          expectedErrors: ["KeeperTargetNotDue"],
          scan: async () => [
            { key: { action: "mock.execute", id: "0", epoch: "-" }, priority: false, data: { id: 0n } },
          ],
        };
      },
    };
    const { log, lines } = capture();
    const k = makeKeeper({
      deployment,
      accountIndex: 66,
      factories: [waiting],
      // a 15 s back-off: three ticks on a loaded 2-core CI machine must fit inside it (600 ms did not, once)
      config: { breakerBaseMs: 15_000, breakerMaxMs: 30_000 },
      log,
    });
    try {
      const first = await k.tick();
      expect(first.results.map((r) => r.outcome)).to.deep.equal(["deferred"]);
      expect(first.results[0]?.reason).to.match(/waits: KeeperTargetNotDue\(id=0, .*\(expected; retrying in \d+ s\)/);
      for (let i = 0; i < 3; i++) expect((await k.tick()).results).to.deep.equal([]); // backing off: not simulated
      await sleep(15_100);
      expect((await k.tick()).results.map((r) => r.outcome)).to.deep.equal(["deferred"]);
      const loud = lines.filter((l) => (l.level === 40 || l.level === 50) && l.key === "mock.execute:0:-");
      expect(loud.map((l) => l.level)).to.deep.equal([40]); // one warning, no error, not repeated
    } finally {
      await k.stop(0);
    }
  });

  it("test_protectedEndpoint_getsContestedSends_andFallsBackToPublic", async function () {
    const { target, deployment } = await deployTarget("protected");
    await addItems(target, 1);
    await fund(67);
    const pub = await proxy();
    const priv = await proxy();
    const k = makeKeeper({
      deployment,
      accountIndex: 67,
      urls: [pub.url],
      config: { protectedRpcUrl: priv.url, jobs: { "mock-target": { protectedSubmit: true, gasCeilingGwei: 20 } } },
    });
    try {
      expect(counts((await k.tick()).results)).to.deep.equal({ success: 1 });
      expect(priv.seen.get("eth_sendRawTransaction")).to.equal(1);
      expect(pub.seen.get("eth_sendRawTransaction") ?? 0).to.equal(0);
      priv.down(true);
      await addItems(target, 1);
      expect(counts((await k.tick()).results)).to.deep.equal({ success: 1 });
      expect(pub.seen.get("eth_sendRawTransaction")).to.equal(1);
    } finally {
      await k.stop(0);
    }
  });

  it("state database: memo, flights and job checkpoints persist; a database of another signer is refused", async function () {
    const dir = tmp("store");
    const a = account(68).address;
    const s1 = KeeperStore.open(dir, 31337, a);
    s1.putMemo([{ key: "k:1:-", state: "mined", txHash: "0x01", blockNumber: 5, at: 1 }]);
    s1.jobStore("liquidations").batch([
      ["cursor", "{}"],
      ["acct:0xa", "1"],
    ]);
    s1.close();
    const s2 = KeeperStore.open(dir, 31337, a);
    expect(s2.memo().map((m) => [m.key, m.state, m.blockNumber])).to.deep.equal([["k:1:-", "mined", 5]]);
    expect(s2.jobStore("liquidations").entries("acct:")).to.deep.equal([["acct:0xa", "1"]]);
    s2.close();
    const other = path.join(dir, `keeper-31337-${a.toLowerCase()}.sqlite`);
    expect(other).to.match(/\.sqlite$/);
    expect(() => KeeperStore.open(dir, 1, a)).to.not.throw(); // another chain: another file
  });

  it("a chain restarted from genesis under the same id empties the state database (old work is not read as done)", async function () {
    const dir = tmp("genesis");
    const a = account(69).address;
    const s1 = KeeperStore.open(dir, 31337, a);
    expect(s1.bindToChain("0x" + "11".repeat(32))).to.equal(false); // first sight: bound, nothing to drop
    s1.putMemo([{ key: "spot-match:0xabc", state: "mined", txHash: "0x01", blockNumber: 5, at: 1 }]);
    s1.jobStore("liquidations").batch([["cursor", "{}"]]);
    expect(s1.bindToChain("0x" + "11".repeat(32))).to.equal(false); // same chain: kept
    expect(s1.memo()).to.have.length(1);
    s1.close();
    const s2 = KeeperStore.open(dir, 31337, a);
    expect(s2.bindToChain("0x" + "22".repeat(32))).to.equal(true); // a new genesis: emptied
    expect(s2.memo()).to.deep.equal([]);
    expect(s2.jobStore("liquidations").entries()).to.deep.equal([]);
    expect(s2.flights()).to.deep.equal([]);
    s2.close();
  });

  it("a restarted or lagging node serving an older head of the same chain is not a reorg", async function () {
    const hashes = new Map([
      [10, "0xa"],
      [11, "0xb"],
      [12, "0xc"],
    ]);
    const fake = {
      read: async (_l: string, fn: (p: unknown) => unknown) =>
        fn({ getBlock: async (n: number) => ({ hash: hashes.get(n) }) }),
    };
    const d = new ReorgDetector(fake as unknown as ChainClient);
    await d.check({ number: 12, hash: "0xc", timestamp: 0 });
    d.remember(11, "0xb");
    expect(await d.check({ number: 11, hash: "0xb", timestamp: 0 })).to.deep.equal({ reorg: false, behind: true });
    hashes.set(11, "0xbb");
    expect(await d.check({ number: 11, hash: "0xbb", timestamp: 0 })).to.deep.equal({ reorg: true, behind: false });
  });
});
