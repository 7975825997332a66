/**
 * OPS-02: the keeper survives faults injected by a JSON-RPC proxy between it and a real node: RPC error bursts and
 * outages (retries, failover), a dropped transaction (same nonce, higher fee), a reorg (re-detect, re-submit) and a
 * 10× gas spike (unprofitable work skipped, priority work never).
 */
import { expect } from "chai";
import { Transaction } from "ethers";
import { FaultProxy } from "./fault-proxy.js";
import { account, addItems, counts, deployTarget, executions, makeKeeper, node } from "./harness.js";
import { mockTargetJob } from "../src/jobs/mock-target.js";
import type { JobFactory } from "../src/jobs/types.js";
import { RpcUnavailableError } from "../src/chain/client.js";

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
