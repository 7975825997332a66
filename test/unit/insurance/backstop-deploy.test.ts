import { expect } from "chai";
import { parseUnits } from "ethers";
import { connectionFor, deployAll, type Fixture } from "../../helpers/fixture.js";

/**
 * Issue 20 item 1: the deploy makes the treasury's insurance stake (CHX_TREASURY_INSURANCE_USDC) and wires the
 * guarantor requirement (CHX_GUARANTOR_STRESS_BPS): the fund's withdrawal floor reads the pool, the pool's
 * requirement reads the fund.
 */
describe("Guarantor backstops (deploy)", function () {
  let fx: Fixture;

  before(async function () {
    const saved = { stake: process.env.CHX_TREASURY_INSURANCE_USDC, stress: process.env.CHX_GUARANTOR_STRESS_BPS };
    process.env.CHX_TREASURY_INSURANCE_USDC = "5000";
    process.env.CHX_GUARANTOR_STRESS_BPS = "500";
    try {
      fx = await deployAll(await connectionFor("backstop-deploy"));
    } finally {
      if (saved.stake === undefined) delete process.env.CHX_TREASURY_INSURANCE_USDC;
      else process.env.CHX_TREASURY_INSURANCE_USDC = saved.stake;
      if (saved.stress === undefined) delete process.env.CHX_GUARANTOR_STRESS_BPS;
      else process.env.CHX_GUARANTOR_STRESS_BPS = saved.stress;
    }
  });

  it("stakes the treasury's insurance stake once, for the treasury", async function () {
    const { insuranceFund: fund } = fx.protocol;
    const treasury = fx.ctx.config.dps.genesisRecipient ?? fx.ctx.address("Timelock");
    expect(await fund.guarantorStake(treasury)).to.equal(parseUnits("5000", 6));
    expect(await fund.totalAssets()).to.equal(parseUnits("5000", 6));
  });

  it("wires the requirement both ways and sets the backstop parameters", async function () {
    const { insuranceFund: fund, guarantorPool: pool } = fx.protocol;
    expect(await fund.guarantorPool()).to.equal(await pool.getAddress());
    const p = await pool.backstopParams();
    expect(p.insuranceFund).to.equal(await fund.getAddress());
    expect(p.stressWad).to.equal(parseUnits("0.05", 18));
    expect(p.feeShareBps).to.equal(2_000n);
    expect(p.slashBps).to.equal(500n);
    expect(p.graceSec).to.equal(3n * 86_400n);
    expect(p.vestSec).to.equal(86_400n);
    expect(p.dpsSink).to.equal(fx.ctx.config.dps.genesisRecipient ?? fx.ctx.address("Timelock"));
  });
});
