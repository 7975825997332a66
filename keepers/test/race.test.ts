/** OPS-01: keepers racing on the same jobs produce one success per job; the loser's typed revert counts as done. */
import { expect } from "chai";
import { addItems, counts, deployTarget, executions, makeKeeper, node } from "./harness.js";

async function waitPending(addresses: string[], expected: number[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const pending = await Promise.all(addresses.map((a) => node().provider.getTransactionCount(a, "pending")));
    if (pending.every((p, i) => p >= (expected[i] as number))) return;
    if (Date.now() > deadline) throw new Error(`transactions never reached the mempool: ${pending} < ${expected}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("OPS-01 idempotent keepers (real node)", function () {
  it("OPS-01: two keepers sending in the same block produce exactly one success per item; the loser reads already-done", async function () {
    const { target, deployment } = await deployTarget("race");
    await addItems(target, 5);
    const a = makeKeeper({ deployment, accountIndex: 8, config: { replaceAfterMs: 10_000 } });
    const b = makeKeeper({ deployment, accountIndex: 9, config: { replaceAfterMs: 10_000 } });
    const n0 = await Promise.all([a, b].map((k) => node().provider.getTransactionCount(k.address, "latest")));
    await node().rpc("evm_setAutomine", [false]);
    try {
      const ticks = Promise.all([a.tick(), b.tick()]);
      await waitPending(
        [a.address, b.address],
        n0.map((n) => n + 5),
      );
      await node().rpc("evm_mine", []);
      const [ra, rb] = await ticks;
      const all = [...ra.results, ...rb.results];
      expect(counts(all)).to.deep.equal({ success: 5, "already-done": 5 });
      for (let id = 0; id < 5; id++) {
        const forId = all
          .filter((r) => r.key === `mock.execute:${id}:-`)
          .map((r) => r.outcome)
          .sort();
        expect(forId, `item ${id}`).to.deep.equal(["already-done", "success"]);
      }
      const ex = await executions(target);
      expect(ex.size).to.equal(5);
      expect([...ex.values()].every((v) => v === 1)).to.equal(true);
      expect(await a.metrics.count("mock-target", "reverted")).to.equal(0);
      expect(await b.metrics.count("mock-target", "reverted")).to.equal(0);
    } finally {
      await node().rpc("evm_setAutomine", [true]);
      await a.stop(0);
      await b.stop(0);
    }
  });

  it("OPS-01: two keepers racing through the generic checker job: one success, the loser's mined revert is typed and done", async function () {
    const { target, deployment } = await deployTarget("race-checker");
    await addItems(target, 1);
    const config = {
      replaceAfterMs: 10_000,
      jobs: { "mock-target": { enabled: false }, checker: { targets: [{ contract: "MockKeeperTarget" }] } },
    };
    const a = makeKeeper({ deployment, accountIndex: 5, config });
    const b = makeKeeper({ deployment, accountIndex: 6, config });
    const n0 = await Promise.all([a, b].map((k) => node().provider.getTransactionCount(k.address, "latest")));
    await node().rpc("evm_setAutomine", [false]);
    try {
      const ticks = Promise.all([a.tick(), b.tick()]);
      await waitPending(
        [a.address, b.address],
        n0.map((n) => n + 1),
      );
      await node().rpc("evm_mine", []);
      const all = (await ticks).flatMap((r) => r.results);
      expect(all.map((r) => r.outcome).sort()).to.deep.equal(["already-done", "success"]);
      expect(all.find((r) => r.outcome === "already-done")?.reason).to.match(/KeeperTargetAlreadyDone\(id=0\)/);
      expect((await executions(target)).get(0n)).to.equal(1);
    } finally {
      await node().rpc("evm_setAutomine", [true]);
      await a.stop(0);
      await b.stop(0);
    }
  });

  it("OPS-01: a keeper whose scan lags the chain wastes only a simulation (no transaction) on work another keeper did", async function () {
    const { target, deployment } = await deployTarget("lag");
    await addItems(target, 5);
    const fast = makeKeeper({ deployment, accountIndex: 10 });
    const slow = makeKeeper({ deployment, accountIndex: 11, config: { confirmations: 3 } });
    try {
      expect(counts((await fast.tick()).results)).to.deep.equal({ success: 5 });
      const nonce = await node().provider.getTransactionCount(slow.address);
      const r = await slow.tick();
      expect(r.results.length).to.be.greaterThan(0);
      expect(Object.keys(counts(r.results))).to.deep.equal(["already-done"]);
      expect(await node().provider.getTransactionCount(slow.address)).to.equal(nonce);
      expect(await target.executedCount()).to.equal(5n);
    } finally {
      await fast.stop(0);
      await slow.stop(0);
    }
  });

  it("OPS-01: a second tick of the same keeper never re-sends work it already did", async function () {
    const { target, deployment } = await deployTarget("rerun");
    await addItems(target, 3);
    const k = makeKeeper({ deployment, accountIndex: 12, config: { confirmations: 2 } });
    await node().rpc("hardhat_mine", ["0x2"]); // the items are now 2 blocks deep: visible to the lagging scan
    try {
      expect(counts((await k.tick()).results)).to.deep.equal({ success: 3 });
      const nonce = await node().provider.getTransactionCount(k.address);
      const again = await k.tick();
      // the lagging scan still lists some items; the memo (mined, receipt still on chain) holds them back
      expect(again.results.length).to.be.greaterThan(0);
      expect(again.results.every((r) => r.outcome === "skipped-inflight")).to.equal(true);
      expect(await node().provider.getTransactionCount(k.address)).to.equal(nonce);
      expect((await executions(target)).size).to.equal(3);
    } finally {
      await k.stop(0);
    }
  });
});
