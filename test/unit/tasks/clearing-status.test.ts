/**
 * The clearing read tasks of issue 20 item 8: `chx:guarantor:status` shows the capital notice period and a capital
 * provider's withdrawal notice (CLR-02), `chx:adl:status` a bankrupt account's auto-deleveraging claim. Run through
 * Hardhat's task runner against the whole protocol deployed by the real deploy script (the pattern of
 * status-json.test.ts; the record goes to a temporary CHX_DEPLOYMENTS_DIR).
 */
import { expect } from "chai";
import { ZeroAddress } from "ethers";
import type { Fixture } from "../../helpers/fixture.js";
import { deployForTasks, runTask, runTaskJson } from "../../helpers/task-runner.js";

const usdc = (n: bigint) => n * 10n ** 6n;

describe("tasks: guarantor withdrawal notices and ADL claims (issue 20 item 8)", function () {
  let fx: Fixture;
  let restore: () => void = () => {};

  before(async function () {
    ({ fx, restore } = await deployForTasks("tasks-clearing-status"));
  });

  after(function () {
    restore();
  });

  const run = runTask;
  const json = runTaskJson;

  it("chx:guarantor:status: the notice period, then a holder's notice as the pool records it (CLR-02)", async function () {
    const { guarantorPool: pool, dps, usdc: token } = fx.protocol;
    const [g, holder] = [fx.users[2]!, fx.users[3]!];
    const [minDps] = await pool.params();
    await (await dps.connect(fx.deployer).transfer(g.address, minDps)).wait();
    await (await dps.connect(g).approve(await pool.getAddress(), minDps)).wait();
    await (await pool.connect(g).registerGuarantor(true, usdc(1_000n))).wait();
    await (await pool.connect(g).stakeDps(minDps)).wait();
    await (await token.mint(holder.address, usdc(500n))).wait();
    await (await token.connect(holder).approve(await pool.getAddress(), usdc(500n))).wait();
    await (await pool.connect(holder).depositCapital(g.address, usdc(500n))).wait();
    const shares = await pool.sharesOf(g.address, holder.address);

    const before = await json("chx:guarantor:status", { guarantor: g.address, holder: holder.address });
    const [noticeSec, windowSec] = await pool.capitalNotice();
    expect(noticeSec, "the deploy sets a notice period").to.be.greaterThan(0n);
    expect(before.capitalNotice).to.deep.equal({ noticeSec: noticeSec.toString(), windowSec: windowSec.toString() });
    expect(before.withdrawalNotice).to.deep.equal({
      holder: holder.address,
      shares: "0",
      readyAt: "0",
      expiresAt: "0",
    });

    await (await pool.connect(holder).requestCapitalWithdrawal(g.address, shares / 2n)).wait();
    const n = await pool.withdrawalNotice(g.address, holder.address);
    const after = await json("chx:guarantor:status", { guarantor: g.address, holder: holder.address });
    expect(after.withdrawalNotice).to.deep.equal({
      holder: holder.address,
      shares: (shares / 2n).toString(),
      readyAt: n.readyAt.toString(),
      expiresAt: n.expiresAt.toString(),
    });
    expect(n.expiresAt - n.readyAt).to.equal(windowSec);
    // the guarantor's own notice by default: it gave none
    const own = await json("chx:guarantor:status", { guarantor: g.address });
    expect((own.withdrawalNotice as { holder: string; shares: string }).holder).to.equal(g.address);
    expect((own.withdrawalNotice as { shares: string }).shares).to.equal("0");
    const text = await run("chx:guarantor:status", { guarantor: g.address, holder: holder.address });
    expect(text.failed, text.err).to.equal(false);
    expect(text.out).to.contain(`notice of ${holder.address}: ${shares / 2n} shares`);
    const bad = await run("chx:guarantor:status", { guarantor: g.address, holder: "0x1234" });
    expect(bad.failed).to.equal(true);
    expect(bad.err).to.contain("--holder");
  });

  it("chx:adl:status: an account without a claim reads open: false with the window; a bad address is an error", async function () {
    const account = fx.users[4]!.address;
    const j = await json("chx:adl:status", { account });
    expect(j.open).to.equal(false);
    expect(j.market).to.equal(ZeroAddress);
    expect(j.nominees).to.deep.equal([]);
    expect(j.windowSec).to.equal((await fx.protocol.liquidationEngine.adlWindow()).toString());
    const text = await run("chx:adl:status", { account });
    expect(text.out).to.contain("no open ADL claim");
    const missing = await run("chx:adl:status", {});
    expect(missing.failed).to.equal(true);
    expect(missing.err).to.contain("--account");
  });
});
