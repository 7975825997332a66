/**
 * Perp orders (IDelayedOrders) through the keeper's discovered checker job (`funding`, PerpMarket's checker()) against
 * the real protocol on the shared node: a trader commits, and once the order's price time has passed the job sends the
 * checker's `executeOrder(account, roundId)` payload (the round the oracle finds for that time) and earns the
 * execution fee; an order nobody executed in time is cancelled by the job (`cancelOrder`); two keepers racing on
 * the same order fill it once, the loser reading DelayedOrderAlreadyDone as done (OPS-01). Each test starts from
 * the same snapshot.
 */
import { expect } from "chai";
import { toBeHex, type Wallet } from "ethers";
import { Roles, type Protocol } from "@chx/sdk";
import { setupGuarantor, setupTrader, usdc, wad } from "../../test/helpers/clearing.js";
import { account, advance, counts, makeKeeper, node } from "./harness.js";
import { protocolOnNode, type DeployedProtocol } from "./protocol.js";

const KEEPER_A = 20;
const KEEPER_B = 21;
const GUARANTOR = 45;
const TRADER = 46;
const LP = 47;

describe("perp orders: the checker job executes due orders and cancels expired ones (real protocol, real node)", function () {
  let deployed: DeployedProtocol;
  let protocol: Protocol;
  let trader: Wallet;
  let snapshot: string;
  let pristine: string;

  const config = { jobs: { funding: { gasCeilingGwei: 20 } } };
  const setPrice = async (priceWad: bigint) => {
    const feed = protocol.chIndexFeed;
    if (feed === undefined) throw new Error("no mock CH index feed");
    await (await feed.setAnswer(priceWad / 10n ** 10n)).wait();
  };

  before(async function () {
    this.timeout(180_000);
    deployed = await protocolOnNode();
    protocol = deployed.protocol;
    pristine = await node().rpc<string>("evm_snapshot", []);
    const p = node().provider;
    const admin = account(0).connect(p);
    for (const i of [KEEPER_A, KEEPER_B, GUARANTOR, TRADER, LP]) {
      await node().rpc("hardhat_setBalance", [account(i).address, toBeHex(10n ** 22n)]);
    }
    await setPrice(wad("10"));
    const g = account(GUARANTOR).connect(p);
    await setupGuarantor(protocol, admin, g, false, usdc("100000"));
    trader = account(TRADER).connect(p);
    await setupTrader(protocol, g, trader, usdc("10000"));
    // LP capital behind the market
    const lp = account(LP).connect(p);
    const vault = protocol.liquidityVault;
    await (await protocol.usdc.connect(lp).mint(lp.address, usdc("100000"))).wait();
    await (await protocol.usdc.connect(lp).approve(await vault.getAddress(), usdc("100000"))).wait();
    await (await vault.connect(lp).deposit(usdc("100000"), lp.address)).wait();
    await (await protocol.accessManager.grantRole(Roles.KEEPER, admin.address, 0)).wait();
    await (await vault.allocate(await protocol.perpMarket.getAddress(), usdc("50000"))).wait();
    snapshot = await node().rpc<string>("evm_snapshot", []);
  });

  after(async function () {
    expect(await node().rpc("evm_revert", [pristine])).to.equal(true);
  });

  beforeEach(async function () {
    expect(await node().rpc("evm_revert", [snapshot])).to.equal(true);
    snapshot = await node().rpc<string>("evm_snapshot", []);
  });

  it("commit → not due yet → after the delay the job executes it at the round in force and earns the fee", async function () {
    const perp = protocol.perpMarket;
    const fee = (await perp.params()).executionFeeUsdc;
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config });
    try {
      await (await perp.connect(trader).commitOrder(wad("100"), 0)).wait();
      const early = await k.tick();
      expect(early.errors).to.deep.equal([]);
      expect(early.results).to.deep.equal([]);
      const { priceTime } = await perp.pendingOrder(trader.address);
      await advance(Number(priceTime) + 1 - (await node().provider.getBlock("latest"))!.timestamp);
      const r = await k.tick();
      expect(r.errors).to.deep.equal([]);
      expect(r.results.map((x) => [x.job, x.outcome])).to.deep.equal([["funding", "success"]]);
      expect((await protocol.clearingHouse.positionOf(trader.address, await perp.getAddress())).sizeCh).to.equal(
        wad("100"),
      );
      expect(await protocol.clearingHouse.collateralOf(k.address)).to.equal(fee);
      expect((await perp.marketState()).pendingOrders).to.equal(0n);
      expect((await k.tick()).results).to.deep.equal([]);
    } finally {
      await k.stop(0);
    }
  });

  it("an order nobody executed before its expiry is cancelled by the job (the fee pays for it)", async function () {
    const perp = protocol.perpMarket;
    await (await perp.connect(trader).commitOrder(wad("100"), 0)).wait();
    const { expiresAt } = await perp.pendingOrder(trader.address);
    await advance(Number(expiresAt) + 1 - (await node().provider.getBlock("latest"))!.timestamp);
    await setPrice(wad("10"));
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config });
    try {
      const from = (await node().provider.getBlockNumber()) + 1;
      const r = await k.tick();
      expect(r.errors).to.deep.equal([]);
      expect(r.results.map((x) => x.outcome)).to.deep.equal(["success"]);
      const logs = await perp.queryFilter(perp.filters.OrderCancelled(), from, "latest");
      expect(logs.map((l) => [l.args.account, l.args.by])).to.deep.equal([[trader.address, k.address]]);
      expect(perp.interface.parseError(logs[0]!.args.reason)?.name).to.equal("DelayedOrderExpired");
      expect((await protocol.clearingHouse.positionOf(trader.address, await perp.getAddress())).sizeCh).to.equal(0n);
    } finally {
      await k.stop(0);
    }
  });

  it("OPS-01: two keepers racing on one due order fill it once; the loser reads DelayedOrderAlreadyDone as done", async function () {
    const perp = protocol.perpMarket;
    await (await perp.connect(trader).commitOrder(wad("100"), 0)).wait();
    const { priceTime } = await perp.pendingOrder(trader.address);
    await advance(Number(priceTime) + 1 - (await node().provider.getBlock("latest"))!.timestamp);
    const a = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config });
    const b = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_B, config });
    const n0 = await Promise.all([a, b].map((k) => node().provider.getTransactionCount(k.address, "latest")));
    await node().rpc("evm_setAutomine", [false]);
    try {
      let settled = false;
      const ticks = Promise.all([a.tick(), b.tick()]).finally(() => (settled = true));
      const deadline = Date.now() + 30_000;
      for (;;) {
        const pending = await Promise.all([a, b].map((k) => node().provider.getTransactionCount(k.address, "pending")));
        if (pending[0]! > n0[0]! && pending[1]! > n0[1]!) break;
        if (Date.now() > deadline) throw new Error(`transactions never reached the mempool: ${pending}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      while (!settled) {
        await node().rpc("evm_mine", []);
        await new Promise((r) => setTimeout(r, 100));
      }
      const all = (await ticks).flatMap((t) => t.results);
      expect(counts(all)).to.deep.equal({ success: 1, "already-done": 1 });
      expect(all.find((x) => x.outcome === "already-done")!.reason).to.match(/DelayedOrderAlreadyDone/);
      expect((await protocol.clearingHouse.positionOf(trader.address, await perp.getAddress())).sizeCh).to.equal(
        wad("100"),
      );
    } finally {
      await node().rpc("evm_setAutomine", [true]);
      await a.stop(0);
      await b.stop(0);
    }
  });
});
