/**
 * Futures orders (two-step, docs/futures.md) through the keeper's discovered checker job (`futures-expiry`,
 * FuturesMarket's checker()) against the real protocol on the shared node: a trader commits, and once the order's price
 * time has passed the job sends the checker's `executeOrder(account, seriesId, roundId)` payload and earns the
 * execution fee; an order nobody executed in time is cancelled by the job (`cancelOrder`). Each test starts from the
 * same snapshot.
 */
import { expect } from "chai";
import { type Wallet } from "ethers";
import { type Protocol } from "@chx/sdk";
import { usdc, wad } from "../../test/helpers/clearing.js";
import { account, advance, makeKeeper, node } from "./harness.js";
import { type DeployedProtocol } from "./protocol.js";
import { protocolSuite, setIndexPrice, setupOrderTrading } from "./fixtures.js";

const KEEPER_A = 70;
const GUARANTOR = 71;
const TRADER = 72;
const LP = 73;

describe("futures orders: the checker job executes due orders and cancels expired ones (real protocol, real node)", function () {
  let deployed: DeployedProtocol;
  let protocol: Protocol;
  let trader: Wallet;
  let seriesId: bigint;

  const config = { jobs: { "futures-expiry": { gasCeilingGwei: 20 } } };
  const setPrice = (priceWad: bigint) => setIndexPrice(protocol, priceWad);
  const now = async () => BigInt((await node().provider.getBlock("latest"))!.timestamp);

  protocolSuite(180_000, async (d) => {
    deployed = d;
    protocol = d.protocol;
    trader = await setupOrderTrading(protocol, await protocol.futures.getAddress(), {
      fund: [KEEPER_A, GUARANTOR, TRADER, LP],
      guarantor: GUARANTOR,
      trader: TRADER,
      lp: LP,
    });
    const admin = account(0).connect(node().provider);
    await (await protocol.futures.connect(admin).listSeries((await now()) + 60n * 86_400n, 0)).wait();
    [seriesId] = await protocol.futures.seriesCount();
  });

  it("commit → not due yet → after the delay the job executes it at the round in force and earns the fee", async function () {
    const futures = protocol.futures;
    const fee = (await futures.params()).executionFeeUsdc;
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config });
    try {
      await (await futures.connect(trader).commitOrder(seriesId, wad("100"), 0)).wait();
      const early = await k.tick();
      expect(early.errors).to.deep.equal([]);
      expect(early.results).to.deep.equal([]);
      const { priceTime } = await futures.pendingOrder(seriesId, trader.address);
      await advance(Number(priceTime + 1n - (await now())));
      const r = await k.tick();
      expect(r.errors).to.deep.equal([]);
      expect(r.results.map((x) => [x.job, x.outcome])).to.deep.equal([["futures-expiry", "success"]]);
      expect((await futures.positionOf(seriesId, trader.address)).sizeCh).to.equal(wad("100"));
      expect(await protocol.clearingHouse.collateralOf(k.address)).to.equal(fee);
      expect((await futures.pendingOrders())[0]).to.equal(0n);
      expect((await k.tick()).results).to.deep.equal([]);
    } finally {
      await k.stop(0);
    }
  });

  it("an order nobody executed before its expiry is cancelled by the job (the fee pays for it)", async function () {
    const futures = protocol.futures;
    await (await futures.connect(trader).commitOrder(seriesId, wad("100"), 0)).wait();
    const { expiresAt } = await futures.pendingOrder(seriesId, trader.address);
    await advance(Number(expiresAt + 1n - (await now())));
    await setPrice(wad("10"));
    const k = makeKeeper({ deployment: deployed.deployment, accountIndex: KEEPER_A, config });
    try {
      const from = (await node().provider.getBlockNumber()) + 1;
      const r = await k.tick();
      expect(r.errors).to.deep.equal([]);
      expect(r.results.map((x) => x.outcome)).to.deep.equal(["success"]);
      const logs = await futures.queryFilter(futures.filters.OrderCancelled(), from, "latest");
      expect(logs.map((l) => [l.args.seriesId, l.args.account, l.args.by])).to.deep.equal([
        [seriesId, trader.address, k.address],
      ]);
      expect(futures.interface.parseError(logs[0]!.args.reason)?.name).to.equal("DelayedOrderExpired");
      expect((await futures.positionOf(seriesId, trader.address)).sizeCh).to.equal(0n);
      // the escrowed margin went back to the trader
      expect(await protocol.clearingHouse.collateralOf(trader.address)).to.equal(
        usdc("10000") - (await futures.params()).executionFeeUsdc,
      );
    } finally {
      await k.stop(0);
    }
  });
});
