/** Every job end to end against the real node: scan → plan → simulate → send, with bounties, errors and endpoints. */
import { expect } from "chai";
import { MockKeeperTarget__factory } from "../../types/ethers-contracts/index.js";
import { account, addItems, advance, counts, deployTarget, executions, makeKeeper, node } from "./harness.js";
import { JobUnavailable } from "../src/deployments.js";
import type { JobFactory } from "../src/jobs/types.js";

describe("keeper end to end (real node)", function () {
  it("mock-target job executes every due item, earns the bounties, and leaves future items alone", async function () {
    const { target, deployment } = await deployTarget("e2e");
    await addItems(target, 5, { bountyWei: 10n ** 15n });
    await addItems(target, 3, { dueIn: 3_600, bountyWei: 10n ** 15n });
    const keeper = makeKeeper({ deployment, accountIndex: 1 });
    try {
      const before = await node().provider.getBalance(keeper.address);
      const r1 = await keeper.tick();
      expect(counts(r1.results)).to.deep.equal({ success: 5 });
      expect(await target.executedCount()).to.equal(5n);
      const after = await node().provider.getBalance(keeper.address);
      expect(after > before, "bounties exceed the gas spent at local fees").to.equal(true);

      const r2 = await keeper.tick();
      expect(r2.results).to.have.length(0);

      await advance(3_601);
      const r3 = await keeper.tick();
      expect(counts(r3.results)).to.deep.equal({ success: 3 });
      const ex = await executions(target);
      expect([...ex.values()].every((v) => v === 1)).to.equal(true);
      expect(ex.size).to.equal(8);
      expect(await keeper.metrics.count("mock-target", "success")).to.equal(8);
    } finally {
      await keeper.stop(0);
    }
  });

  it("checker job drives any IKeeperChecker contract until checker() reports nothing due", async function () {
    const { target, deployment } = await deployTarget("checker");
    await addItems(target, 3);
    const keeper = makeKeeper({
      deployment,
      accountIndex: 2,
      config: { jobs: { "mock-target": { enabled: false }, checker: { targets: [{ contract: "MockKeeperTarget" }] } } },
    });
    try {
      expect(keeper.jobs.map((j) => j.name)).to.deep.equal(["checker"]);
      for (let i = 0; i < 3; i++) {
        const r = await keeper.tick();
        expect(counts(r.results)).to.deep.equal({ success: 1 });
      }
      const [canExec] = await target.checker();
      expect(canExec).to.equal(false);
      expect((await keeper.tick()).results).to.have.length(0);
      expect(await target.executedCount()).to.equal(3n);
    } finally {
      await keeper.stop(0);
    }
  });

  it("Chainlink shape: checkUpkeep finds work, performUpkeep does it, a replay reverts KeeperTargetAlreadyDone", async function () {
    const { target } = await deployTarget("upkeep");
    await addItems(target, 1);
    const [needed, data] = await target.checkUpkeep.staticCall("0x");
    expect(needed).to.equal(true);
    const user = target.connect(account(3).connect(node().provider));
    await (await user.performUpkeep(data)).wait();
    const iface = MockKeeperTarget__factory.createInterface();
    let reverted: string | undefined;
    try {
      await user.performUpkeep.staticCall(data);
    } catch (e) {
      reverted = iface.parseError((e as { data: string }).data)?.name;
    }
    expect(reverted).to.equal("KeeperTargetAlreadyDone");
    const [again] = await target.checkUpkeep.staticCall("0x");
    expect(again).to.equal(false);
  });

  it("--dry-run simulates and sends nothing", async function () {
    const { target, deployment } = await deployTarget("dry");
    await addItems(target, 2);
    const keeper = makeKeeper({ deployment, accountIndex: 4, config: { dryRun: true } });
    try {
      const nonce = await node().provider.getTransactionCount(keeper.address);
      const r = await keeper.tick();
      expect(counts(r.results)).to.deep.equal({ "dry-run": 2 });
      expect(r.results[0]?.reason).to.match(/^would send: execute item \d+ \(gas \d+\)$/);
      expect(await node().provider.getTransactionCount(keeper.address)).to.equal(nonce);
      expect(await target.executedCount()).to.equal(0n);
    } finally {
      await keeper.stop(0);
    }
  });

  it("a pluggable job's failing simulation becomes one sentence with the decoded custom error", async function () {
    const { target, deployment } = await deployTarget("decode");
    await addItems(target, 1, { dueIn: 3_600 });
    const address = await target.getAddress();
    const iface = MockKeeperTarget__factory.createInterface();
    const early: JobFactory = {
      name: "early",
      description: "test job that acts too early",
      create: () => ({
        name: "early",
        summary: "executes item 0 before it is due",
        alreadyDoneErrors: ["KeeperTargetAlreadyDone"],
        scan: async () => [{ key: { action: "early", id: "0", epoch: "-" }, priority: false, data: 0n }],
        plan: async (_ctx, cs) =>
          cs.map((c) => ({
            ...c,
            to: address,
            data: iface.encodeFunctionData("execute", [0n]),
            description: "execute item 0",
          })),
      }),
    };
    const keeper = makeKeeper({ deployment, accountIndex: 5, factories: [early], config: { jobs: { early: {} } } });
    try {
      const r = await keeper.tick();
      expect(r.results).to.have.length(1);
      expect(r.results[0]?.outcome).to.equal("simulation-failed");
      expect(r.results[0]?.reason).to.match(
        /^execute item 0 would fail: KeeperTargetNotDue\(id=0, dueAt=\d+, nowTs=\d+\)\.$/,
      );
    } finally {
      await keeper.stop(0);
    }
  });

  it("a job whose contracts are not deployed is reported off in the startup summary", async function () {
    const { deployment } = await deployTarget("summary");
    const missing: JobFactory = {
      name: "liquidations",
      description: "needs LiquidationEngine",
      create: () => {
        throw new JobUnavailable("LiquidationEngine is not in the deployment record");
      },
    };
    const keeper = makeKeeper({
      deployment,
      accountIndex: 6,
      factories: [missing],
      config: { jobs: { liquidations: {} } },
    });
    try {
      const text = keeper.summary().join("\n");
      expect(text).to.include("job liquidations: off — LiquidationEngine is not in the deployment record");
      expect(text).to.include("no job is enabled");
    } finally {
      await keeper.stop(0);
    }
  });

  it("serves /health and Prometheus /metrics on 127.0.0.1", async function () {
    const { target, deployment } = await deployTarget("metrics");
    await addItems(target, 1);
    const keeper = makeKeeper({ deployment, accountIndex: 7, config: { metricsPort: 0 } });
    try {
      const port = await keeper.startMetrics();
      expect(port).to.be.a("number");
      const unhealthy = await fetch(`http://127.0.0.1:${port}/health`);
      expect(unhealthy.status).to.equal(503);
      await keeper.tick();
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).to.equal(200);
      expect(((await health.json()) as { ok: boolean }).ok).to.equal(true);
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).to.match(/chx_keeper_actions_total\{job="mock-target",outcome="success"\} 1/);
      expect(metrics).to.include("chx_keeper_head_block");
    } finally {
      await keeper.stop(0);
    }
  });
});

describe("keeper batch actions (real node)", function () {
  it("a batch action covers many keys in one transaction, priority work batched apart; a lost batch reads already-done", async function () {
    const { target, deployment } = await deployTarget("batch");
    await addItems(target, 7);
    await addItems(target, 2, { priority: true });
    const a = makeKeeper({ deployment, accountIndex: 3, config: { jobs: { "mock-target": { batchSize: 5 } } } });
    const b = makeKeeper({ deployment, accountIndex: 4, config: { jobs: { "mock-target": { batchSize: 5 } } } });
    try {
      const nonce = await node().provider.getTransactionCount(a.address);
      const r = await a.tick();
      // 2 priority items in one batch, 7 ordinary ones in batches of 5 + 2
      expect(counts(r.results)).to.deep.equal({ success: 3 });
      expect(r.results.map((x) => x.covers ?? 1).sort()).to.deep.equal([2, 2, 5]);
      expect(await node().provider.getTransactionCount(a.address)).to.equal(nonce + 3);
      expect(await target.executedCount()).to.equal(9n);
      expect([...(await executions(target)).values()].every((v) => v === 1)).to.equal(true);
      // a lagging keeper's batch over the same (now done) items is "already done" in simulation
      const stale = await b.sender.simulate(
        { to: await target.getAddress(), data: target.interface.encodeFunctionData("executeBatch", [[0n, 1n]]) },
        (n) => n === "KeeperTargetAlreadyDone",
      );
      expect(stale.ok).to.equal(false);
      expect(!stale.ok && stale.alreadyDone).to.equal(true);
    } finally {
      await a.stop(0);
      await b.stop(0);
    }
  });
});
