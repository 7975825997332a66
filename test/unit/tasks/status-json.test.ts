/**
 * The read tasks for scripts (issue 22 item 5): each status task's `--json` prints one JSON document (bigints as
 * decimal strings) whose fields match the contract getters, ids are typed task arguments (Hardhat's BIGINT), and an
 * unknown id is an error, never a page of zeros. The tasks run through Hardhat's task runner (argument types and
 * defaults as the CLI applies them) against the whole protocol deployed by the real deploy script; the deployment
 * record is written to a temporary CHX_DEPLOYMENTS_DIR.
 */
import { expect } from "chai";
import hre from "hardhat";
import { parseUnits, ZeroHash } from "ethers";
import type { Fixture } from "../../helpers/fixture.js";
import { deployForTasks, runTask, runTaskJson } from "../../helpers/task-runner.js";

const wad = (x: string) => parseUnits(x, 18);

describe("tasks: --json of the read tasks, typed ids, unknown ids (issue 22 item 5)", function () {
  let fx: Fixture;
  let restore: () => void = () => {};

  before(async function () {
    ({ fx, restore } = await deployForTasks("tasks-json"));
    const { connection } = fx;

    // Something to show: a registered provider, a futures series, an option series with a written position.
    const { providerRegistry: reg, futures, options, usdc, clearingHouse } = fx.protocol;
    const provider = fx.users[0]!;
    await (await reg.connect(provider).register(1, 0b10n, ZeroHash, "")).wait();
    const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
    await (await futures.listSeries(now + 30n * 86_400n, 0)).wait();
    await (
      await options.listSeries({
        kind: 1, // put
        onFutures: false,
        futuresSeriesId: 0,
        expiry: now + 2n * 86_400n,
        strikeWad: wad("3"),
        capWad: 0n,
      })
    ).wait();
    const writer = fx.users[1]!;
    await (await usdc.mint(writer.address, 10_000n * 10n ** 6n)).wait();
    await (await usdc.connect(writer).approve(await clearingHouse.getAddress(), 10_000n * 10n ** 6n)).wait();
    await (await clearingHouse.connect(writer).deposit(10_000n * 10n ** 6n)).wait();
    await (await options.connect(writer).write(1n, wad("10"))).wait();
  });

  after(function () {
    restore();
  });

  const run = runTask;
  const json = runTaskJson;

  it("chx:oracle:status --json: feed, bounds, index price and the risk gate", async function () {
    const { oracle } = fx.protocol;
    const j = await json("chx:oracle:status", {});
    const [minWad, maxWad] = await oracle.priceBounds();
    expect(j.oracle).to.equal(await oracle.getAddress());
    expect(j.bounds).to.deep.equal({ minWad: minWad.toString(), maxWad: maxWad.toString() });
    expect(j.indexPriceWad).to.equal((await oracle.indexPrice()).toString());
    expect(j.riskIncreaseAllowed).to.equal(true);
    expect((j.feed as { address: string }).address).to.equal((await oracle.feedConfig()).feed);
  });

  it("chx:provider:status --json: the provider's registration, stake and CH", async function () {
    const who = fx.users[0]!.address;
    const j = await json("chx:provider:status", { provider: who });
    const i = await fx.protocol.providerRegistry.providerInfo(who);
    expect(j.provider).to.equal(who);
    expect(j.region).to.equal("1");
    expect(j.workloadMask).to.equal("2");
    expect(j.stakedDps).to.equal(i.stakedDps.toString());
    expect((j.ch as { mintable: string }).mintable).to.equal(i.mintableCh.toString());
  });

  it("chx:provider:status: an unregistered address is an error", async function () {
    const r = await run("chx:provider:status", { provider: fx.users[5]!.address, json: true });
    expect(r.failed).to.equal(true);
    expect(r.err).to.match(/is not a registered provider/);
    expect(r.out).to.equal("");
  });

  it("chx:emission:status --json: epoch, halvings, pools and a provider's rewards", async function () {
    const { emission } = fx.protocol;
    const who = fx.users[0]!.address;
    const j = await json("chx:emission:status", { provider: who });
    expect(j.epoch).to.equal((await emission.currentEpoch()).toString());
    expect(j.halvings).to.equal((await emission.halvings()).toString());
    const [pool, budget] = await emission.pools();
    expect(j.rewardPool).to.equal(pool.toString());
    expect(j.keeperBudget).to.equal(budget.toString());
    expect((j.provider as { address: string; claimableDps: string }).address).to.equal(who);
    expect((j.provider as { claimableDps: string }).claimableDps).to.equal((await emission.claimable(who)).toString());
  });

  it("chx:futures:status --json: every series with its state, OI and quote", async function () {
    const { futures } = fx.protocol;
    const j = await json("chx:futures:status", {});
    expect(j.seriesCount).to.equal("1");
    const series = j.series as Array<Record<string, unknown>>;
    expect(series).to.have.length(1);
    const s = await futures.seriesInfo(1n);
    expect(series[0]!.id).to.equal("1");
    expect(series[0]!.state).to.equal("trading");
    expect(series[0]!.expiry).to.equal(s.expiry.toString());
    expect(series[0]!.longOiCh).to.equal("0");
    const [mid] = await futures.quote(1n, 0);
    expect(series[0]!.midPriceWad).to.equal(mid.toString());
  });

  it("chx:futures:status: an unknown series is an error, not zeros", async function () {
    const r = await run("chx:futures:status", { series: 999n, json: true });
    expect(r.failed).to.equal(true);
    expect(r.err).to.match(/Series 999 does not exist \(1 listed/);
    expect(r.out).to.equal("");
  });

  it("chx:futures:open/close: --series is a typed id and --wait a boolean; an unknown series is refused before any transaction", async function () {
    for (const [name, args] of [
      ["chx:futures:open", { series: "one", side: "long", size: "1" }],
      ["chx:futures:close", { series: 1n, wait: "sometimes" }],
    ] as const) {
      let thrown: unknown;
      try {
        await hre.tasks.getTask(name).run(args);
      } catch (e) {
        thrown = e;
      }
      expect(String(thrown)).to.match(
        /Invalid value "(one|sometimes)" for argument "(series|wait)" of type "(BIGINT|BOOLEAN)"/,
      );
    }
    const trader = fx.users[2]!; // development account 3
    const nonce = await trader.getNonce();
    const r = await run("chx:futures:open", { series: 999n, side: "long", size: "1", signer: "3", wait: false });
    expect(r.failed).to.equal(true);
    expect(r.err).to.match(/Series 999 does not exist/);
    expect(await trader.getNonce()).to.equal(nonce); // nothing was sent
  });

  it("chx:options:status --json: the market, a series and an account's position", async function () {
    const { options } = fx.protocol;
    const writer = fx.users[1]!.address;
    const j = await json("chx:options:status", { series: 1n, account: writer });
    expect(j.seriesCount).to.equal("1");
    const series = j.series as Record<string, unknown>;
    expect(series.id).to.equal("1");
    expect(series.status).to.be.a("string");
    expect(series.strikeWad).to.equal(wad("3").toString());
    expect(series.openInterestCh).to.equal(wad("10").toString());
    const pos = await options.positionOf(1n, writer);
    // writing mints both sides to the writer: it holds the longs until it sells them
    expect(j.position).to.deep.equal({
      longCh: wad("10").toString(),
      shortCh: wad("10").toString(),
      collateralUsdc: pos.collateralUsdc.toString(),
    });
    expect((j.params as { makerFeeBps: string }).makerFeeBps).to.equal((await options.params()).makerFeeBps.toString());
  });

  it("chx:options:list --json (no --strike): every listed series, read without a signer", async function () {
    const r = await run("chx:options:list", { json: true, signer: "99" }); // a read never resolves the signer
    expect(r.failed, r.err).to.equal(false);
    const list = JSON.parse(r.out) as Array<Record<string, unknown>>;
    expect(list).to.have.length(1);
    expect(list[0]).to.include({ id: "1", kind: "1", strikeWad: wad("3").toString() });
    expect(list[0]!.status).to.be.a("string");
  });

  it("chx:options:status: an unknown series is an error, and --series is a typed id", async function () {
    const r = await run("chx:options:status", { series: 7n, json: true });
    expect(r.failed).to.equal(true);
    expect(r.err).to.match(/Series 7 does not exist \(1 listed/);
    // the argument parser refuses a non-id before anything is read
    let thrown: unknown;
    try {
      await hre.tasks.getTask("chx:options:status").run({ series: "one" });
    } catch (e) {
      thrown = e;
    }
    expect(String(thrown)).to.match(/Invalid value "one" for argument "series" of type "BIGINT"/);
  });

  it("chx:spot:status --json: fees, seats, pending fees and the TWAP", async function () {
    const { spot } = fx.protocol;
    const j = await json("chx:spot:status", { window: 600 });
    const [maker, taker] = await spot.fees();
    expect(j.market).to.equal(await spot.getAddress());
    expect(j.fees).to.include({ makerBps: maker.toString(), takerBps: taker.toString() });
    expect(j.pendingFeesUsdc).to.equal((await spot.pendingFeesUsdc()).toString());
    expect((j.twap as { windowSec: number }).windowSec).to.equal(600);
  });

  it("chx:task:status: an unknown task id is an error; --id is a typed id", async function () {
    const r = await run("chx:task:status", { id: 999n, json: true });
    expect(r.failed).to.equal(true);
    expect(r.err).to.match(/Task 999 does not exist \(0 task\(s\) submitted\)/);
    const none = await run("chx:task:status", {});
    expect(none.failed).to.equal(true);
    expect(none.err).to.match(/Pass --id/);
  });
  it("signing tasks: unknown ids are errors before any transaction; booleans and counts are typed", async function () {
    const provider = fx.connection.ethers.provider;
    const nonce = await provider.getTransactionCount(fx.users[2]!.address);
    for (const [name, args, message] of [
      ["chx:task:vote", { id: 5n, signer: "3" }, /Task 5 does not exist/],
      ["chx:task:bid", { id: 0n, price: "1", signer: "3" }, /Pass --id/],
      ["chx:options:exercise", { series: 9n, signer: "3" }, /Series 9 does not exist/],
      ["chx:options:write", { size: "1", signer: "3" }, /Pass --series/],
    ] as const) {
      const r = await run(name, args);
      expect(r.failed, name).to.equal(true);
      expect(r.err, name).to.match(message);
    }
    expect(await provider.getTransactionCount(fx.users[2]!.address)).to.equal(nonce);
    for (const [name, args] of [
      ["chx:perp:open", { side: "long", size: "1", wait: "no" }],
      ["chx:task:submit", { max: "1", council: "3" }],
      ["chx:spot:order", { side: "buy", amount: "1", price: "1", nonce: "12" }],
    ] as const) {
      let thrown: unknown;
      try {
        await hre.tasks.getTask(name).run(args);
      } catch (e) {
        thrown = e;
      }
      expect(String(thrown), name).to.match(/HHE414: Invalid value/);
    }
  });
});
