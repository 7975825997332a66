import { expect } from "chai";
import { connectionFor } from "../../helpers/fixture.js";
import { perpSetup, usdc, wad, type PerpFixture } from "../perps/helpers.js";

/**
 * Issue 20 item 2 through a real market: the PerpMarket's fee reaches the ClearingHouse, a share of it accrues to the
 * trader's guarantor on a risk-increasing trade, flushFees pays it into the GuarantorPool, and collectIncome vests it
 * into the capital providers' share price. A reduction accrues nothing (it calls nothing in the pool, SEC-05).
 */
describe("Guarantor fee income from a real market (deploy parameters: 20 % share, 1-day vesting)", function () {
  let fx: PerpFixture;

  before(async function () {
    fx = await perpSetup(await connectionFor("backstop-perp"));
  });

  it("accrues on new risk, is paid in by the fee flush and vests into the guarantor's capital", async function () {
    const p = fx.protocol;
    const pool = p.guarantorPool;
    const g = fx.guarantor.address;
    const [t] = fx.traders;
    const [feesBefore] = await p.clearingHouse.totals();
    await (await fx.trade(t!, wad("1000"))).wait();
    const [feesAfter] = await p.clearingHouse.totals();
    const fee = feesAfter - feesBefore;
    expect(fee).to.be.greaterThan(0n);
    const pending = (await pool.incomeOf(g)).pendingUsdc;
    expect(pending).to.equal((fee * 2_000n) / 10_000n);
    expect(await pool.incomeOwed()).to.equal(pending);

    await (await fx.trade(t!, -wad("500"))).wait(); // a reduction: nothing accrues
    expect((await pool.incomeOf(g)).pendingUsdc).to.equal(pending);

    const poolAddress = await pool.getAddress();
    const poolBalance = await p.usdc.balanceOf(poolAddress);
    const [feesNow] = await p.clearingHouse.totals();
    const fundAssets = await p.insuranceFund.totalAssets();
    await (await p.clearingHouse.flushFees()).wait();
    expect(await p.usdc.balanceOf(poolAddress)).to.equal(poolBalance + pending);
    expect(await p.insuranceFund.totalAssets()).to.equal(fundAssets + feesNow - pending);
    expect(await pool.incomeOwed()).to.equal(0n);

    const capital = (await pool.guarantorInfo(g)).capitalUsdc;
    await (await pool.collectIncome(g)).wait();
    expect((await pool.incomeOf(g)).unvestedUsdc).to.equal(pending);
    await fx.connection.networkHelpers.time.increase(86_400);
    expect((await pool.guarantorInfo(g)).capitalUsdc).to.equal(capital + pending);
    expect(capital).to.equal(usdc("1000000"));
  });
});
