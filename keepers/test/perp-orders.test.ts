/**
 * Perp orders (IDelayedOrders) through the keeper's discovered checker job (`funding`, PerpMarket's checker()) against
 * the real protocol on the shared node: a trader commits, and once the order's price time has passed the job sends the
 * checker's `executeOrder(account, roundId)` payload (the round the oracle finds for that time) and earns the
 * execution fee; an order nobody executed in time is cancelled by the job (`cancelOrder`); two keepers racing on
 * the same order fill it once, the loser reading DelayedOrderAlreadyDone as done (OPS-01). Each test starts from
 * the same snapshot.
 */
import { expect } from "chai";
import { type Wallet } from "ethers";
import { type Protocol } from "@chx/sdk";
import { wad } from "../../test/helpers/clearing.js";
import { account, advance, counts, makeKeeper, node } from "./harness.js";
import { type DeployedProtocol } from "./protocol.js";
import { protocolSuite, setIndexPrice, setupOrderTrading, race } from "./fixtures.js";

const KEEPER_A = 20;
const KEEPER_B = 21;
const GUARANTOR = 45;
const TRADER = 46;
const LP = 47;

describe("perp orders: the checker job executes due orders and cancels expired ones (real protocol, real node)", function () {
  let deployed: DeployedProtocol;
  let protocol: Protocol;
  let trader: Wallet;

  const config = { jobs: { funding: { gasCeilingGwei: 20 } } };
  const setPrice = (priceWad: bigint) => setIndexPrice(protocol, priceWad);

  protocolSuite(180_000, async (d) => {
    deployed = d;
    protocol = d.protocol;
    trader = await setupOrderTrading(protocol, await protocol.perpMarket.getAddress(), {
      fund: [KEEPER_A, KEEPER_B, GUARANTOR, TRADER, LP],
      guarantor: GUARANTOR,
      trader: TRADER,
      lp: LP,
    });
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
      // the fee is a keeper credit in the market (issue 18 item 4), claimed like the poke bounty
      expect(await perp.keeperBountyOf(k.address)).to.equal(fee);
      expect(await protocol.clearingHouse.collateralOf(k.address)).to.equal(0n);
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
    await race(a, b, 1, async (all) => {
      expect(counts(all)).to.deep.equal({ success: 1, "already-done": 1 });
      expect(all.find((x) => x.outcome === "already-done")!.reason).to.match(/DelayedOrderAlreadyDone/);
      expect((await protocol.clearingHouse.positionOf(trader.address, await perp.getAddress())).sizeCh).to.equal(
        wad("100"),
      );
    });
  });
});
