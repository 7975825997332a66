import { expect } from "chai";
import { parseUnits, type Interface } from "ethers";
import { connectionFor, deployAll, type Fixture } from "../../helpers/fixture.js";
import { INSURANCE_CLEARING_FUNCTIONS } from "../../../scripts/deploy/modules/insurance.js";
import { Roles } from "@chx/sdk";

/** Independent reference of the fund's conversions (virtual offset 1e6 shares / 1 unit), rounding down. */
const VIRTUAL_SHARES = 10n ** 6n;
const toShares = (amount: bigint, shares: bigint, assets: bigint) =>
  (amount * (shares + VIRTUAL_SHARES)) / (assets + 1n);
const toAssets = (sh: bigint, shares: bigint, assets: bigint) => (sh * (assets + 1n)) / (shares + VIRTUAL_SHARES);

const usdc = (v: string) => parseUnits(v, 6);
const DAY = 86_400;

describe("InsuranceFund (deployed through the deploy script)", function () {
  let fx: Fixture;
  let networkHelpers: Awaited<ReturnType<typeof connectionFor>>["networkHelpers"];

  async function setup(): Promise<Fixture> {
    const f = await deployAll(await connectionFor("insurance"));
    const [alice, bob, clearing] = f.users;
    await f.protocol.accessManager.grantRole(Roles.CLEARING, clearing!.address, 0);
    await f.protocol.accessManager.grantRole(Roles.FEE_SOURCE, clearing!.address, 0);
    const fundAddress = await f.protocol.insuranceFund.getAddress();
    for (const u of [alice!, bob!, clearing!]) {
      await f.protocol.usdc.mint(u.address, usdc("100000"));
      await f.protocol.usdc.connect(u).approve(fundAddress, 2n ** 255n);
    }
    return f;
  }

  beforeEach(async function () {
    const connection = await connectionFor("insurance");
    networkHelpers = connection.networkHelpers;
    fx = await networkHelpers.loadFixture(setup);
  });

  it("is wired by the deploy module: USDC asset, 7-day cooldown, 2-day window, CLEARING functions", async function () {
    const { insuranceFund: fund, usdc: token, accessManager } = fx.protocol;
    expect(await fund.asset()).to.equal(await token.getAddress());
    const [cooldownSec, windowSec] = await fund.cooldown();
    expect(cooldownSec).to.equal(7n * 86_400n);
    expect(windowSec).to.equal(2n * 86_400n);
    for (const sig of INSURANCE_CLEARING_FUNCTIONS) {
      const sel = (fund.interface as Interface).getFunction(sig)!.selector;
      expect(await accessManager.getTargetFunctionRole(await fund.getAddress(), sel)).to.equal(Roles.CLEARING);
    }
  });

  it("takes a loss pro rata and shares fees, matching an independent reference (ACC-05)", async function () {
    const { insuranceFund: fund } = fx.protocol;
    const [alice, bob, clearing] = fx.users;
    let S = 0n;
    let A = 0n;
    const stakeA = usdc("1234.567891");
    const expA = toShares(stakeA, S, A);
    await expect(fund.connect(alice!).stake(stakeA))
      .to.emit(fund, "InsuranceStaked")
      .withArgs(alice!.address, alice!.address, stakeA, expA, expA, expA, stakeA);
    S += expA;
    A += stakeA;
    const stakeB = usdc("3000");
    const expB = toShares(stakeB, S, A);
    await fund.connect(bob!).stake(stakeB);
    S += expB;
    A += stakeB;
    expect(await fund.sharesOf(bob!.address)).to.equal(expB);

    await fund.connect(clearing!).depositFees(usdc("77.7"));
    A += usdc("77.7");
    await expect(fund.connect(clearing!).coverBadDebt(usdc("500"), clearing!.address))
      .to.emit(fund, "InsuranceBadDebtCovered")
      .withArgs(clearing!.address, usdc("500"), usdc("500"), 0n, A - usdc("500"), S);
    A -= usdc("500");
    expect(await fund.totalAssets()).to.equal(A);
    expect(await fund.guarantorStake(alice!.address)).to.equal(toAssets(expA, S, A));
    expect(await fund.guarantorStake(bob!.address)).to.equal(toAssets(expB, S, A));
    // Pro rata: both lost the same fraction (to within one unit of rounding).
    const lossA = (stakeA - toAssets(expA, S, A)) * stakeB;
    const lossB = (stakeB - toAssets(expB, S, A)) * stakeA;
    expect(lossA - lossB).to.be.lessThanOrEqual(stakeA + stakeB);
    expect(lossB - lossA).to.be.lessThanOrEqual(stakeA + stakeB);
  });

  it("withdraws only after the cooldown and inside the window (LIQ-06)", async function () {
    const { insuranceFund: fund, usdc: token } = fx.protocol;
    const [alice] = fx.users;
    await fund.connect(alice!).stake(usdc("1000"));
    const sh = await fund.sharesOf(alice!.address);
    await fund.connect(alice!).requestWithdraw(sh);
    await expect(fund.connect(alice!).withdraw(sh, alice!.address)).to.be.revertedWithCustomError(
      fund,
      "InsuranceCooldownActive",
    );
    await networkHelpers.time.increase(7 * DAY);
    const before = await token.balanceOf(alice!.address);
    await expect(fund.connect(alice!).withdraw(sh, alice!.address)).to.emit(fund, "InsuranceWithdrawn");
    expect((await token.balanceOf(alice!.address)) - before).to.equal(usdc("1000"));
    expect(await fund.totalAssets()).to.equal(0n);
  });

  it("lets a request lapse after its window (InsuranceWithdrawWindowExpired)", async function () {
    const { insuranceFund: fund } = fx.protocol;
    const [alice] = fx.users;
    await fund.connect(alice!).stake(usdc("10"));
    const sh = await fund.sharesOf(alice!.address);
    await fund.connect(alice!).requestWithdraw(sh);
    await networkHelpers.time.increase(9 * DAY + 1);
    await expect(fund.connect(alice!).withdraw(sh, alice!.address)).to.be.revertedWithCustomError(
      fund,
      "InsuranceWithdrawWindowExpired",
    );
  });

  it("holds a guarantor to the requirement clearing pushes", async function () {
    const { insuranceFund: fund } = fx.protocol;
    const [guarantor, , clearing] = fx.users;
    await fund.connect(guarantor!).stake(usdc("1000"));
    await expect(fund.connect(clearing!).setGuarantorRequirement(guarantor!.address, usdc("800")))
      .to.emit(fund, "InsuranceGuarantorRequirementSet")
      .withArgs(guarantor!.address, usdc("800"), usdc("1000"));
    const sh = await fund.sharesOf(guarantor!.address);
    await expect(fund.connect(guarantor!).requestWithdraw(sh / 2n))
      .to.be.revertedWithCustomError(fund, "InsuranceGuarantorFloor")
      .withArgs(guarantor!.address, usdc("800"), usdc("500"));
    await expect(
      fund.connect(guarantor!).setGuarantorRequirement(guarantor!.address, 0n),
    ).to.be.revertedWithCustomError(fund, "AccessManagedUnauthorized");
  });
});
