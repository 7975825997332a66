/**
 * The tasks job against the real protocol (deploy engine, every module) on the shared node: four attested providers
 * with 5,000 DPS staked, one client with USDC, tasks with a council of 1 (quorum 1) and one checkpoint. The keeper
 * finds due work through TaskKeeperLens (every task, paged) — including tasks the registry's own `checker()` cannot
 * see (it looks at the newest 64 only) — and closes bidding, draws councils, finalises a quorum and expires a missed
 * deadline. Each test starts from the same snapshot.
 */
import { expect } from "chai";
import { AbiCoder, id, keccak256, parseUnits, toBeHex, type Wallet } from "ethers";
import { TaskKeeperLens__factory } from "../../types/ethers-contracts/index.js";
import { tasksJob } from "../src/jobs/tasks.js";
import { FaultProxy } from "./fault-proxy.js";
import { account, CHAIN_ID, counts, makeKeeper, node } from "./harness.js";
import { type DeployedProtocol } from "./protocol.js";
import { onboardProvider, protocolSuite, race } from "./fixtures.js";
import { type Protocol } from "@chx/sdk";

const KEEPER_A = 20;
const KEEPER_B = 21;
const CLIENT = 50;
const FIRST_PROVIDER = 51;
const PROVIDERS = 4;
const HOUR = 3_600;
const DAY = 86_400;
const wad = (x: string) => parseUnits(x, 18);
const usdc = (x: string) => parseUnits(x, 6);
/** ITaskRegistry.Status */
const S = { Bidding: 1n, Running: 2n, Verifying: 3n, Accepted: 5n, Expired: 7n, Cancelled: 8n };

describe("tasks job: deadlines and council finalisation through TaskKeeperLens (real protocol, real node)", function () {
  let deployed: DeployedProtocol;
  let protocol: Protocol;
  let client: Wallet;
  let providers: Wallet[];

  const now = async () => (await node().provider.getBlock("latest"))!.timestamp;
  const advance = async (s: number) => {
    await node().rpc("evm_increaseTime", [s]);
    await node().rpc("evm_mine", []);
  };
  const terms = async (bidWindowSec = HOUR, deadlineIn = 2 * DAY) => ({
    currency: 1,
    responseMode: 0,
    councilSize: 1,
    quorum: 1,
    checkpoints: 1,
    maxBids: 0,
    workloadClass: 1,
    region: 0,
    bidWindowSec,
    deadline: (await now()) + deadlineIn,
    maxPayment: usdc("100"),
    capacityPflopsWad: wad("0.1"),
    paymentParams: 0n,
  });
  const prescription = {
    dataHash: id("D"),
    modelHash: id("M"),
    inputHash: id("I"),
    outputFnHash: id("f"),
    evalHash: id("e"),
    uri: "ipfs://keeper-test",
  };
  /** Submits a task (and a bid from `bidder`); returns its id. */
  async function submit(bidder?: Wallet, bidWindowSec = HOUR, deadlineIn = 2 * DAY): Promise<bigint> {
    const tr = protocol.taskRegistry;
    await (await tr.connect(client).submit(await terms(bidWindowSec, deadlineIn), prescription)).wait();
    const taskId = await tr.taskCount();
    if (bidder !== undefined) await (await tr.connect(bidder).bid(taskId, usdc("50"))).wait();
    return taskId;
  }
  const status = async (taskId: bigint) => (await protocol.taskRegistry.getTask(taskId)).status;
  /** Seals the bids, mines the seed block, selects the executor (closeBidding's two calls). */
  const closeFully = async (taskId: bigint) => {
    const tr = protocol.taskRegistry.connect(client);
    await (await tr.closeBidding(taskId)).wait();
    await node().rpc("evm_mine", []);
    await (await tr.closeBidding(taskId)).wait();
  };
  const byAddress = (a: string) => providers.find((p) => p.address === a)!;
  const tasksConfig = (extra: Record<string, unknown> = {}) => ({
    jobs: { tasks: { gasCeilingGwei: 1_000, pageSize: 25, ...extra } },
  });

  protocolSuite(180_000, async (d) => {
    deployed = d;
    protocol = d.protocol;
    const p = node().provider;
    const admin = account(0).connect(p);
    for (const i of [KEEPER_A, KEEPER_B, CLIENT, ...Array.from({ length: PROVIDERS }, (_, k) => FIRST_PROVIDER + k)]) {
      await node().rpc("hardhat_setBalance", [account(i).address, toBeHex(10n ** 22n)]);
    }
    const { usdc: token, taskRegistry } = protocol;
    providers = Array.from({ length: PROVIDERS }, (_, k) => account(FIRST_PROVIDER + k).connect(p));
    for (const pr of providers) {
      await onboardProvider(protocol, admin, pr, "keeper-test", await now());
    }
    client = account(CLIENT).connect(p);
    await (await token.connect(admin).mint(client.address, usdc("100000"))).wait();
    await (await token.connect(client).approve(await taskRegistry.getAddress(), usdc("100000"))).wait();
  });

  it("drives tasks outside checker()'s newest-64 window: close bidding (cancel / select), draw the council, finalise, expire; then nothing", async function () {
    this.timeout(120_000);
    const tr = protocol.taskRegistry;
    const accepted = await submit(providers[0]); // 1: executed, voted, finalised
    const expired = await submit(providers[1]); // 2: the executor never commits
    const cancelled = await submit(); // 3: no bid at all
    // 64 newer tasks whose bidding is still open: the registry's checker() scans only these and finds nothing.
    for (let i = 0; i < 64; i++) await submit(undefined, 30 * DAY, 60 * DAY);
    await advance(HOUR + 1);
    expect((await tr.checker())[0]).to.equal(false);

    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: tasksConfig() });
    try {
      expect(k.summary().join("\n")).to.match(/job tasks: close bidding, expire missed deadlines, draw councils/);
      const close = await k.tick();
      expect(close.errors).to.deep.equal([]);
      expect(close.results.map((r) => [r.key, r.outcome, r.priority])).to.have.deep.members([
        [`tasks.closeBidding:${accepted}:seal`, "success", true],
        [`tasks.closeBidding:${expired}:seal`, "success", true],
        [`tasks.closeBidding:${cancelled}:seal`, "success", true],
      ]);
      expect([await status(accepted), await status(expired), await status(cancelled)]).to.deep.equal([
        S.Bidding,
        S.Bidding,
        S.Cancelled,
      ]);
      await node().rpc("evm_mine", []); // every seed block is now mined
      const seeds = await Promise.all([accepted, expired].map(async (t) => (await tr.getTask(t)).targetBlock));
      const select = await k.tick();
      expect(select.results.map((r) => [r.key, r.outcome, r.priority])).to.have.deep.members([
        [`tasks.closeBidding:${accepted}:${seeds[0]}`, "success", true],
        [`tasks.closeBidding:${expired}:${seeds[1]}`, "success", true],
      ]);
      expect([await status(accepted), await status(expired)]).to.deep.equal([S.Running, S.Running]);

      const draw = await k.tick();
      const targets = await Promise.all([accepted, expired].map(async (t) => (await tr.getTask(t)).targetBlock));
      expect(draw.results.map((r) => [r.key, r.outcome, r.priority])).to.have.deep.members([
        [`tasks.drawCouncil:${accepted}:0.${targets[0]}`, "success", false],
        [`tasks.drawCouncil:${expired}:0.${targets[1]}`, "success", false],
      ]);
      const [member] = await tr.councilOf(accepted, 0);
      expect(member).to.not.equal(undefined);
      expect((await k.tick()).results).to.deep.equal([]); // nothing due until the executor and council act

      // The executor commits, the council member commits the same result salted and reveals it after the commit
      // window (issue 21 item 1): the keeper finalises (priority) and reports the bounty it earned (item 6).
      await (await tr.connect(providers[0]!).commit(accepted, 0, id("result"))).wait();
      const salt = id("salt");
      const commitment = keccak256(
        AbiCoder.defaultAbiCoder().encode(
          ["uint256", "address", "bytes32", "bytes32"],
          [accepted, member!, id("result"), salt],
        ),
      );
      await (await tr.connect(byAddress(member!)).commitResult(accepted, commitment)).wait();
      expect((await k.tick()).results).to.deep.equal([]); // nothing due while the commit window is open
      await advance(Number((await tr.getTask(accepted)).commitEnds) - (await now()) + 1);
      await (await tr.connect(byAddress(member!)).revealResult(accepted, id("result"), salt)).wait();
      const fin = await k.tick();
      expect(fin.results.map((r) => [r.key, r.outcome, r.priority])).to.deep.equal([
        [`tasks.finalize:${accepted}:0`, "success", true],
      ]);
      expect(await status(accepted)).to.equal(S.Accepted);
      const earned = fin.results[0]!.bounties ?? [];
      expect(earned.map((b) => [b.asset, b.event])).to.deep.equal([["USDC", "KeeperBountyPaid"]]);
      expect(earned[0]!.amount).to.equal((await tr.getTask(accepted)).maxPayment / 1_000n); // 0.1 % of the deposit
      // Item 6: the bounties are credited (pull); the bounties job claims the keeper's TaskRegistry credits.
      const credited = await tr.keeperCredits(k.address, 1);
      expect(credited >= earned[0]!.amount).to.equal(true);
      const claimer = makeKeeper({
        deployment: deployed.deployment,
        accountIndex: KEEPER_A,
        config: { jobs: { bounties: { intervalMs: 0, minUsdc: "1", sources: ["tasks"] } } },
      });
      try {
        const usdcBefore = await protocol.usdc.balanceOf(k.address);
        const claim = await claimer.tick();
        expect(claim.results.map((r) => [r.job, r.outcome])).to.deep.equal([["bounties", "success"]]);
        expect((await protocol.usdc.balanceOf(k.address)) - usdcBefore).to.equal(credited);
        expect(await tr.keeperCredits(k.address, 1)).to.equal(0n);
      } finally {
        await claimer.stop(0);
      }

      // The other executor misses its deadline: the keeper expires the task and earns the registry's finder fee.
      await advance(2 * DAY);
      const dpsBefore = await protocol.dps.balanceOf(k.address);
      const exp = await k.tick();
      expect(exp.results.map((r) => [r.key, r.outcome, r.priority])).to.deep.equal([
        [`tasks.expire:${expired}:-`, "success", true],
      ]);
      expect(await status(expired)).to.equal(S.Expired);
      expect((await protocol.dps.balanceOf(k.address)) > dpsBefore).to.equal(true);

      // A re-run sends nothing; everything below task 4 is final, so the next scan starts there.
      const job = k.jobs.find((j) => j.name === "tasks")!.job as ReturnType<typeof tasksJob>;
      const nonce = await node().provider.getTransactionCount(k.address);
      expect((await k.tick()).results).to.deep.equal([]);
      expect(await node().provider.getTransactionCount(k.address)).to.equal(nonce);
      expect(job.cursor()).to.equal(4n);
    } finally {
      await k.stop(0);
    }
  });

  it("OPS-01: two keepers racing on a missed deadline expire it once; the loser reads TaskAlreadyDone as already done", async function () {
    const tr = protocol.taskRegistry;
    const t = await submit(providers[2]);
    await advance(HOUR + 1);
    await closeFully(t);
    await advance(2 * DAY);
    const from = (await node().provider.getBlockNumber()) + 1;
    const cfg = { ...tasksConfig(), replaceAfterMs: 20_000 };
    const a = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: cfg });
    const b = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_B, config: cfg });
    await race(a, b, 1, async (all) => {
      expect(counts(all)).to.deep.equal({ success: 1, "already-done": 1 });
      expect(all.find((x) => x.outcome === "already-done")!.reason).to.match(/TaskAlreadyDone\(taskId=\d+, status=7\)/);
      const closed = await tr.queryFilter(tr.filters.TaskClosed(t), from, "latest");
      expect(closed.map((l) => l.args.status)).to.deep.equal([S.Expired]);
    });
  });

  it("OPS-02: on a 10× gas spike the expiry (priority) goes ahead while the council draw (ordinary) waits", async function () {
    const tr = protocol.taskRegistry;
    const late = await submit(providers[0]);
    const fresh = await submit(providers[1], HOUR, 10 * DAY);
    await advance(HOUR + 1);
    await closeFully(late);
    await advance(2 * DAY);
    await closeFully(fresh);
    await node().rpc("evm_mine", []);
    await node().rpc("hardhat_setNextBlockBaseFeePerGas", ["0x3b9aca00"]); // 1 gwei
    await node().rpc("evm_mine", []);
    const px = await new FaultProxy(node().url).start();
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      urls: [px.url],
      config: { jobs: { tasks: { gasCeilingGwei: 20 } } },
    });
    try {
      px.gasMultiplier(10);
      const spike = await k.tick();
      expect(spike.errors).to.deep.equal([]);
      expect(spike.results.map((r) => [r.key.split(":").slice(0, 2).join(":"), r.outcome])).to.have.deep.members([
        [`tasks.expire:${late}`, "success"],
        [`tasks.drawCouncil:${fresh}`, "skipped-gas"],
      ]);
      px.gasMultiplier(1);
      const calm = await k.tick();
      expect(calm.results.map((r) => [r.key.split(":").slice(0, 2).join(":"), r.outcome])).to.deep.equal([
        [`tasks.drawCouncil:${fresh}`, "success"],
      ]);
      expect(await status(late)).to.equal(S.Expired);
    } finally {
      await k.stop(0);
      await px.stop();
    }
  });

  it("the lens pages every task and reports the first open id; bad pages and options fail clearly", async function () {
    const lensAddr = deployed.deployment.contracts.TaskKeeperLens!.address;
    const lens = TaskKeeperLens__factory.connect(lensAddr, node().provider);
    const a = await submit(providers[0]);
    const b = await submit();
    await advance(HOUR + 1);
    const [due, firstOpen, next, count] = await lens.dueTasks(0, 10);
    expect(due.map((d) => [d.taskId, d.action])).to.deep.equal([
      [a, 1n],
      [b, 1n],
    ]);
    expect([firstOpen, next, count]).to.deep.equal([a, 11n, b]);
    const bad = await lens.dueTasks(1, 501).then(
      () => undefined,
      (e: { revert?: { name: string; args: unknown[] } }) => e.revert,
    );
    expect(bad?.name).to.equal("TaskLensBadPage");
    expect(bad?.args).to.deep.equal([501n, 500n]);
    const at = lensAddr;
    expect(() => tasksJob(at, at, { page: 10 } as never)).to.throw(/Unknown option "jobs.tasks.page"/);
    expect(() => tasksJob(at, at, { ordinary: ["vote"] })).to.throw(/"vote", which is not a task action/);
    expect(() => tasksJob(at, at, { pageSize: 0 })).to.throw(/pageSize" must be an integer from 1 to 500/);
  });
  it("drives a bisection's lapsed move (issue 21 item 2): nothing while the move is pending, then timeoutDispute", async function () {
    this.timeout(120_000);
    const tr = protocol.taskRegistry;
    const admin = account(0).connect(node().provider);
    const t = await submit(providers[0]);
    await advance(HOUR + 1);
    await closeFully(t);
    await (await tr.connect(client).drawCouncil(t)).wait();
    const executor = byAddress((await tr.getTask(t)).executor);
    const member = byAddress((await tr.councilOf(t, 0))[0]!);
    // the executor commits a result and no checkpoint chain; the member reveals another result and bisects
    await (await tr.connect(executor).commit(t, 0, id("wrong"))).wait();
    const salt = id("salt");
    const commitment = keccak256(
      AbiCoder.defaultAbiCoder().encode(
        ["uint256", "address", "bytes32", "bytes32"],
        [t, member.address, id("right"), salt],
      ),
    );
    await (await tr.connect(member).commitResult(t, commitment)).wait();
    await advance(Number((await tr.getTask(t)).commitEnds) - (await now()) + 1);
    await (await tr.connect(member).revealResult(t, id("right"), salt)).wait();
    const bond = await tr.bisectionBond(t);
    await (await protocol.usdc.connect(admin).mint(member.address, bond)).wait();
    await (await protocol.usdc.connect(member).approve(await tr.getAddress(), bond)).wait();
    await (await tr.connect(member).openBisection(t, id("root"), id("right"), [], id("mid"), [])).wait();
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config: tasksConfig() });
    try {
      expect((await k.tick()).results).to.deep.equal([]); // the executor's move is pending: nobody's work
      await advance(Number((await tr.bisectionOf(t)).moveEnds) - (await now()) + 1);
      const out = await k.tick();
      expect(out.results.map((r) => [r.key, r.outcome, r.priority])).to.deep.equal([
        [`tasks.timeoutDispute:${t}:1`, "success", true],
      ]);
      expect(await status(t)).to.equal(6n); // Rejected: the executor could not answer (no chain)
      expect((await tr.bisectionOf(t)).phase).to.equal(5n);
    } finally {
      await k.stop(0);
    }
  });
});
