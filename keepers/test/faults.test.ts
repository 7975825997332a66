/**
 * OPS-02: the keeper survives faults injected by a JSON-RPC proxy between it and a real node: RPC error bursts and
 * outages (retries, failover), a dropped transaction (same nonce, higher fee), a reorg (re-detect, re-submit) and a
 * 10× gas spike (unprofitable work skipped, priority work never).
 */
import { expect } from "chai";
import { parseUnits, toBeHex, Transaction } from "ethers";
import { FaultProxy } from "./fault-proxy.js";
import { account, addItems, counts, deployTarget, executions, makeKeeper, node } from "./harness.js";
import { mockTargetJob } from "../src/jobs/mock-target.js";
import type { JobFactory } from "../src/jobs/types.js";
import { RpcUnavailableError } from "../src/chain/client.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("OPS-02 faults through a proxy (real node)", function () {
  const proxies: FaultProxy[] = [];
  async function proxy(): Promise<FaultProxy> {
    const p = await new FaultProxy(node().url).start();
    proxies.push(p);
    return p;
  }
  afterEach(async function () {
    await Promise.all(proxies.splice(0).map((p) => p.stop()));
  });

  it("OPS-02: an RPC error burst is absorbed by retries with backoff", async function () {
    const { target, deployment } = await deployTarget("burst");
    await addItems(target, 3);
    const p = await proxy();
    const k = makeKeeper({ deployment, accountIndex: 13, urls: [p.url], config: { rpcRetries: 5 } });
    try {
      p.errorBurst(5);
      const r = await k.tick();
      expect(counts(r.results)).to.deep.equal({ success: 3 });
      expect(p.injectedErrors).to.equal(5);
      const errs = (await k.metrics.rpcErrors.get()).values.reduce((a, v) => a + v.value, 0);
      expect(errs).to.equal(5);
      // a second burst, partly spent on the sending path (nonce, broadcast, receipts), is absorbed too
      await addItems(target, 2);
      p.errorBurst(3);
      const tick = k.tick();
      expect(counts((await tick).results)).to.deep.equal({ success: 2 });
      expect(await target.executedCount()).to.equal(5n);
    } finally {
      await k.stop(0);
    }
  });

  it("OPS-02: an endpoint outage fails over to the next URL; a total outage fails the tick with one sentence and the keeper recovers", async function () {
    const { target, deployment } = await deployTarget("failover");
    await addItems(target, 2);
    const a = await proxy();
    const b = await proxy();
    const k = makeKeeper({ deployment, accountIndex: 14, urls: [a.url, b.url], config: { rpcRetries: 1 } });
    try {
      a.down(true);
      expect(counts((await k.tick()).results)).to.deep.equal({ success: 2 });
      expect((await k.metrics.failovers.get()).values[0]?.value).to.equal(1);
      expect(k.client.url).to.equal(b.url);

      b.down(true);
      let err: unknown;
      try {
        await k.tick();
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(RpcUnavailableError);
      expect((err as Error).message).to.match(
        /^Every RPC endpoint failed for getBlock \(2 endpoint\(s\), last error: .*\)\.$/,
      );

      a.down(false);
      b.down(false);
      await addItems(target, 1);
      expect(counts((await k.tick()).results)).to.deep.equal({ success: 1 });
    } finally {
      await k.stop(0);
    }
  });

  it("OPS-02: a dropped transaction is replaced with the same nonce and a higher fee", async function () {
    const { target, deployment } = await deployTarget("drop");
    await addItems(target, 1);
    const p = await proxy();
    const k = makeKeeper({ deployment, accountIndex: 15, urls: [p.url], config: { replaceAfterMs: 400 } });
    try {
      p.dropSends(1);
      const r = await k.tick();
      expect(counts(r.results)).to.deep.equal({ success: 1 });
      expect(p.dropped).to.have.length(1);
      const dropped = Transaction.from(p.dropped[0] as string);
      const mined = await node().provider.getTransaction(r.results[0]?.txHash as string);
      expect(mined?.nonce).to.equal(dropped.nonce);
      expect((mined?.maxFeePerGas as bigint) > (dropped.maxFeePerGas as bigint)).to.equal(true);
      expect((mined?.maxPriorityFeePerGas as bigint) > (dropped.maxPriorityFeePerGas as bigint)).to.equal(true);
      expect(r.results[0]?.replacements).to.equal(1);
      expect((await k.metrics.replacements.get()).values[0]?.value).to.equal(1);
      expect(await target.executedCount()).to.equal(1n);
    } finally {
      await k.stop(0);
    }
  });

  it("OPS-02: a dropped transaction ahead of pipelined ones is replaced and the queue behind it drains", async function () {
    const { target, deployment } = await deployTarget("dropq");
    await addItems(target, 3);
    const p = await proxy();
    const k = makeKeeper({ deployment, accountIndex: 19, urls: [p.url], config: { replaceAfterMs: 400 } });
    try {
      p.dropSends(1);
      const r = await k.tick();
      expect(counts(r.results)).to.deep.equal({ success: 3 });
      expect(Transaction.from(p.dropped[0] as string).nonce).to.equal(
        Math.min(...r.results.map((x) => x.nonce as number)),
      );
      expect(await target.executedCount()).to.equal(3n);
    } finally {
      await k.stop(0);
    }
  });

  it("OPS-02: a nonce taken by another process using the same key is resynced and the work still goes through", async function () {
    const { target, deployment } = await deployTarget("nonce");
    await addItems(target, 2);
    const address = await target.getAddress();
    const twin = account(1).connect(node().provider);
    // A job that, between the keeper's nonce sync and its sends, lets "another process" spend the next nonce.
    const interfering: JobFactory = {
      name: "mock-target",
      description: "mock-target with a competing sender on the same key",
      create: () => {
        const inner = mockTargetJob(address, {});
        return {
          ...inner,
          plan: async (ctx, cs) => {
            await (await twin.sendTransaction({ to: twin.address, value: 0n })).wait();
            return inner.plan(ctx, cs as Parameters<typeof inner.plan>[1]);
          },
        };
      },
    };
    const k = makeKeeper({ deployment, accountIndex: 1, factories: [interfering] });
    try {
      const before = await node().provider.getTransactionCount(k.address);
      await k.nonces.resyncIfIdle(); // the keeper's counter now says `before`; the twin will use it
      const r = await k.tick();
      expect(counts(r.results)).to.deep.equal({ success: 2 });
      expect(r.results.map((x) => x.nonce).sort()).to.deep.equal([before + 1, before + 2]);
      expect(await target.executedCount()).to.equal(2n);
    } finally {
      await k.stop(0);
    }
  });

  it("OPS-02: after a reorg removes its transactions the keeper re-detects the work and re-submits it", async function () {
    const { target, deployment } = await deployTarget("reorg");
    await addItems(target, 3);
    const k = makeKeeper({ deployment, accountIndex: 16 });
    try {
      const snapshot = await node().rpc<string>("evm_snapshot");
      const first = await k.tick();
      expect(counts(first.results)).to.deep.equal({ success: 3 });
      const nonces = first.results.map((r) => r.nonce).sort();
      // the chain switches to a fork without our transactions, and that fork grows past our blocks
      expect(await node().rpc("evm_revert", [snapshot])).to.equal(true);
      await node().rpc("hardhat_mine", ["0x5"]);
      expect(await target.executedCount()).to.equal(0n);

      const second = await k.tick();
      expect(second.reorg).to.equal(true);
      expect(counts(second.results)).to.deep.equal({ success: 3 });
      expect(second.results.map((r) => r.nonce).sort()).to.deep.equal(nonces);
      expect((await k.metrics.reorgs.get()).values[0]?.value).to.equal(1);
      expect(await target.executedCount()).to.equal(3n);
      expect([...(await executions(target)).values()]).to.deep.equal([1, 1, 1]);
    } finally {
      await k.stop(0);
    }
  });

  it("OPS-02: work a reorg orphaned is redone at the freed nonces within 2 blocks of the new branch, not behind a nonce gap or a replacement timer", async function () {
    // The soak's reorg (keepers/bench/soak.ts): the keeper's mined transactions are orphaned (hardhat's evm_revert
    // drops them, mempool included) while an ordinary transaction of it is still in flight above them (here one its
    // endpoint swallowed). Before the fix the redone urgent work took that stale nonce over and the rest restarted
    // at the chain's count: a nonce gap below the taken-over one, which waited for unrelated work to fill it.
    const { target, deployment } = await deployTarget("reorg-gap");
    await node().rpc("hardhat_setBalance", [account(71).address, "0x3635c9adc5dea00000"]);
    await addItems(target, 3, { priority: true, bountyWei: 0n });
    await addItems(target, 1, { dueIn: 600 }); // ordinary work, due later
    const p = await proxy();
    const k = makeKeeper({
      deployment,
      accountIndex: 71,
      urls: [p.url],
      // no replacement and no timeout can rescue a transaction within the test: only the reorg handling can
      config: { replaceAfterMs: 60_000, txTimeoutMs: 120_000, preemptAfterMs: 200 },
    });
    const mine = () => node().rpc("evm_mine", []);
    try {
      await node().rpc("evm_setAutomine", [false]);
      const n0 = await node().provider.getTransactionCount(k.address, "latest");
      const snapshot = await node().rpc<string>("evm_snapshot");
      // 1. the three urgent items are done (mined, settled)
      await k.tick({ wait: false });
      await mine();
      for (let i = 0; i < 100 && k.sender.inFlight().length > 0; i++) await sleep(50);
      expect(await target.executedCount()).to.equal(3n);
      // 2. the ordinary item comes due; its transaction is swallowed: in flight at the next nonce, unknown to the node
      await node().rpc("evm_increaseTime", [700]);
      await mine();
      p.dropSends(1);
      await k.tick({ wait: false });
      expect(k.sender.inFlight().map((f) => f.nonce)).to.deep.equal([n0 + 3]);
      await sleep(400); // older than preemptAfterMs: urgent work may take it over
      // 3. a reorg: back before the three executions (the ordinary item is not due there), then a new branch
      expect(await node().rpc("evm_revert", [snapshot])).to.equal(true);
      expect(await target.executedCount()).to.equal(0n);
      expect(await node().provider.getTransactionCount(k.address, "pending")).to.equal(n0);
      await mine();
      const branchStart = await node().provider.getBlockNumber();
      // 4. one tick per block: the three items land within 2 blocks of the branch's first, each once
      const reports = [];
      for (let i = 0; i < 2 && (await target.executedCount()) < 3n; i++) {
        reports.push(await k.tick({ wait: false }));
        await sleep(100);
        await mine();
      }
      expect(reports[0]?.reorg).to.equal(true);
      expect(await node().provider.getBlockNumber()).to.be.at.most(branchStart + 2);
      expect(await target.executedCount()).to.equal(3n);
      expect([...(await executions(target)).values()]).to.deep.equal([1, 1, 1]);
      // redone at the nonces the reorg freed, with nothing replaced
      expect(await node().provider.getTransactionCount(k.address, "latest")).to.equal(n0 + 3);
      expect((await k.metrics.replacements.get()).values.reduce((a, v) => a + v.value, 0)).to.equal(0);
      // the ordinary transaction the reorg removed was given up (its work goes back to the queue), not taken over
      for (let i = 0; i < 60 && (await k.metrics.count("mock-target", "reorged")) < 1; i++) await sleep(50);
      expect(await k.metrics.count("mock-target", "reorged")).to.equal(1);
      expect(await k.metrics.count("mock-target", "preempted")).to.equal(0);
    } finally {
      await node().rpc("evm_setAutomine", [true]);
      await k.stop(0);
    }
  });

  it("OPS-01: across a reorg, transactions the node still holds keep their nonces and are not sent twice", async function () {
    const { target, deployment } = await deployTarget("reorg-held");
    await node().rpc("hardhat_setBalance", [account(72).address, "0x3635c9adc5dea00000"]);
    await addItems(target, 2, { priority: true, bountyWei: 0n });
    const k = makeKeeper({ deployment, accountIndex: 72, config: { replaceAfterMs: 60_000, txTimeoutMs: 120_000 } });
    const dearBlock = async (later: number) => {
      const ts = (await node().provider.getBlock("latest"))!.timestamp + later; // another timestamp: another hash
      await node().rpc("hardhat_setNextBlockBaseFeePerGas", [toBeHex(parseUnits("500", "gwei"))]);
      await node().rpc("evm_mine", [ts]); // our transactions cannot pay this base fee: they stay pending
    };
    try {
      await node().rpc("evm_setAutomine", [false]);
      const n0 = await node().provider.getTransactionCount(k.address, "latest");
      await k.tick({ wait: false }); // both pending in the node's pool
      expect(k.sender.inFlight().map((f) => f.nonce)).to.deep.equal([n0, n0 + 1]);
      const snapshot = await node().rpc<string>("evm_snapshot"); // the pool is part of the snapshot
      await dearBlock(10);
      await k.tick({ wait: false }); // the keeper saw that block
      // a reorg replaces it; the node still holds both transactions (as a node re-injecting orphaned ones does)
      expect(await node().rpc("evm_revert", [snapshot])).to.equal(true);
      await dearBlock(20);
      const r = await k.tick({ wait: false });
      expect(r.reorg).to.equal(true);
      expect(counts(r.results)).to.deep.equal({ "skipped-inflight": 2 });
      expect(k.sender.inFlight().map((f) => f.nonce)).to.deep.equal([n0, n0 + 1]);
      await node().rpc("hardhat_setNextBlockBaseFeePerGas", ["0x3b9aca00"]);
      await node().rpc("evm_mine", []);
      for (let i = 0; i < 60 && k.sender.inFlight().length > 0; i++) await sleep(50);
      expect([...(await executions(target)).values()]).to.deep.equal([1, 1]);
      expect(await node().provider.getTransactionCount(k.address, "latest")).to.equal(n0 + 2);
      expect(await k.metrics.count("mock-target", "reorged")).to.equal(0);
    } finally {
      await node().rpc("hardhat_setNextBlockBaseFeePerGas", ["0x3b9aca00"]);
      await node().rpc("evm_setAutomine", [true]);
      await k.stop(0);
    }
  });

  it("OPS-02: a 10× gas spike skips unprofitable work but never priority (bad-debt / liveness) work", async function () {
    const { target, deployment } = await deployTarget("spike");
    await node().rpc("hardhat_setNextBlockBaseFeePerGas", ["0x3b9aca00"]); // 1 gwei
    await addItems(target, 3, { bountyWei: 5n * 10n ** 14n }); // profitable at ~2 gwei, not at ~20
    await addItems(target, 2, { priority: true, bountyWei: 0n }); // bad debt: pays nothing, must be done
    const p = await proxy();
    const k = makeKeeper({
      deployment,
      accountIndex: 17,
      urls: [p.url],
      config: { jobs: { "mock-target": { gasCeilingGwei: 20 } } },
    });
    try {
      p.gasMultiplier(10);
      const spike = await k.tick();
      expect(counts(spike.results)).to.deep.equal({ "skipped-gas": 3, success: 2 });
      for (const r of spike.results) expect(r.outcome).to.equal(r.priority ? "success" : "skipped-gas");
      expect(spike.results.find((r) => !r.priority)?.reason).to.match(
        /^skipped: max fee \d+ wei\/gas is above the job ceiling \d+$/,
      );
      const done = await executions(target);
      expect([...done.keys()].sort()).to.deep.equal([3n, 4n]);

      p.gasMultiplier(1);
      const calm = await k.tick();
      expect(counts(calm.results)).to.deep.equal({ success: 3 });
      expect(await target.executedCount()).to.equal(5n);
    } finally {
      await k.stop(0);
    }
  });

  it("OPS-02: non-priority work whose bounty does not cover the gas is skipped even below the ceiling", async function () {
    const { target, deployment } = await deployTarget("unprofitable");
    await addItems(target, 1, { bountyWei: 1n });
    await addItems(target, 1, { priority: true, bountyWei: 1n });
    const k = makeKeeper({ deployment, accountIndex: 18 });
    try {
      const r = await k.tick();
      expect(counts(r.results)).to.deep.equal({ "skipped-gas": 1, success: 1 });
      expect(r.results.find((x) => x.outcome === "skipped-gas")?.reason).to.match(/exceeds the bounty 1 wei$/);
    } finally {
      await k.stop(0);
    }
  });
});
