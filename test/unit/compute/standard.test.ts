import { expect } from "chai";
import { ZeroHash } from "ethers";
import { connectionFor, deployAll, type Fixture } from "../../helpers/fixture.js";
import { ML, wad, WAD, plain } from "./helpers.js";

/** Independent reference of seed 001 eqs. 1–3 and seed 000 eq. 1, with the contract's rounding. */
const ref = {
  w: (weights: bigint[], factors: bigint[]) => weights.reduce((s, w, k) => s + (w * factors[k]!) / WAD, 0n),
  corrected: (avg: bigint, w: bigint) => (avg * w) / WAD,
  chPerHour: (corrected: bigint, refPflops: bigint) => (corrected * WAD) / refPflops,
  payment: (c: bigint, f: bigint, t: bigint) => {
    const num = c * f * t;
    const den = WAD * 3600n;
    return (num + den - 1n) / den;
  },
};

describe("ComputeStandard", function () {
  let fx: Fixture;

  async function setup(): Promise<Fixture> {
    return deployAll(await connectionFor("compute-standard"));
  }

  beforeEach(async function () {
    fx = await (await connectionFor("compute-standard")).networkHelpers.loadFixture(setup);
  });

  it("computes W_i, FLOPS_corrected and CH per hour (seed 001 eqs. 1–2, seed 000 eq. 1) by worked numbers", async function () {
    const std = fx.protocol.computeStandard;
    const weights = [wad("0.5"), wad("0.3"), wad("0.2")];
    const factors = [wad("1.2"), wad("0.9"), wad("1")];
    // Hand: W = 0.6 + 0.27 + 0.2 = 1.07; corrected = 0.5 × 1.07 = 0.535 PFLOPS; CH/h = 0.535 / 0.312.
    expect(await std.adjustmentRatioWad(ML, 1, factors)).to.equal(wad("1.07"));
    expect(ref.w(weights, factors)).to.equal(wad("1.07"));
    const [corrected, chPerHour] = await std.rate(ML, 1, wad("0.5"), factors);
    expect(corrected).to.equal(wad("0.535"));
    expect(chPerHour).to.equal(1714743589743589743n); // 1.714743589743589743… rounded down
    expect(chPerHour).to.equal(ref.chPerHour(ref.corrected(wad("0.5"), wad("1.07")), wad("0.312")));
    // Twice the reference performance → 2 CH per wall-clock hour; 90 minutes → 3 CH.
    const [, two] = await std.rate(ML, 1, wad("0.624"), [WAD, WAD, WAD]);
    expect(two).to.equal(wad("2"));
    expect(await std.computeHoursWad(wad("2"), 5400)).to.equal(wad("3"));
    // Odd weights: W rounds down per term.
    expect(await std.adjustmentRatioWad(ML, 1, [1n, 1n, 3n])).to.equal(0n);
  });

  it("quotes P = C · FLOPS_corrected · T rounded up (seed 001 eq. 3)", async function () {
    const std = fx.protocol.computeStandard;
    // 2 USDC per PFLOPS-hour × 0.535 PFLOPS × 15 days (360 h) = 385.2 USDC.
    expect(await std.quotePaymentWad(wad("2"), wad("0.535"), 15 * 86_400)).to.equal(wad("385.2"));
    expect(ref.payment(wad("2"), wad("0.535"), 1_296_000n)).to.equal(wad("385.2"));
    expect(await std.quotePaymentWad(1, 1, 1)).to.equal(1n); // dust rounds up, never to zero
    expect(await std.quotePaymentWad(wad("3"), wad("0.1"), 7)).to.equal(ref.payment(wad("3"), wad("0.1"), 7n));
  });

  it("grades every boundary: performance A/B/C/D, reliability 1/2/3/4, energy X/Y/Z", async function () {
    const std = fx.protocol.computeStandard;
    const perf = async (x: bigint) => Number(await std.performanceGrade(x));
    expect(await perf(wad("1.5"))).to.equal(0);
    expect(await perf(wad("1.5") - 1n)).to.equal(1);
    expect(await perf(wad("1.1"))).to.equal(1);
    expect(await perf(wad("1.1") - 1n)).to.equal(2);
    expect(await perf(wad("0.9"))).to.equal(2);
    expect(await perf(wad("0.9") - 1n)).to.equal(3);
    const rel = async (x: bigint) => Number(await std.reliabilityGrade(x));
    expect(await rel(wad("1"))).to.equal(0);
    expect(await rel(wad("0.999") + 1n)).to.equal(0); // > 99.9 %
    expect(await rel(wad("0.999"))).to.equal(1); // exactly 99.9 % is grade 2
    expect(await rel(wad("0.99"))).to.equal(1);
    expect(await rel(wad("0.99") - 1n)).to.equal(2);
    expect(await rel(wad("0.95"))).to.equal(2);
    expect(await rel(wad("0.95") - 1n)).to.equal(3);
    expect(await rel(0n)).to.equal(3);
    const energy = async (x: bigint) => Number(await std.energyGrade(x));
    expect(await energy(wad("500"))).to.equal(0);
    expect(await energy(wad("500") + 1n)).to.equal(1);
    expect(await energy(wad("1000"))).to.equal(1);
    expect(await energy(wad("1000") + 1n)).to.equal(2);
  });

  it("rates a benchmark with grades in one call; energy per CH rounds up", async function () {
    const std = fx.protocol.computeStandard;
    const r = await std.rateBenchmark(ML, 1, wad("0.624"), [WAD, WAD, WAD], wad("1000") + 1n);
    expect(r.latestVersion).to.equal(1);
    expect(r.chPerHourWad).to.equal(wad("2"));
    expect(r.whPerChWad).to.equal(wad("500") + 1n); // (1000e18 + 1) / 2, rounded up
    expect(await std.performanceGrade(r.chPerHourWad)).to.equal(0);
    expect(await std.energyGrade(r.whPerChWad)).to.equal(1);
  });

  it("publishes immutable versions and validates them", async function () {
    const std = fx.protocol.computeStandard;
    await expect(std.publishReference(ML, wad("1"), [wad("0.4"), wad("0.6")], "v2", ZeroHash))
      .to.emit(std, "ReferencePublished")
      .withArgs(ML, 2, wad("1"), [wad("0.4"), wad("0.6")], "v2", ZeroHash);
    const v1 = await std.referenceSystem(ML, 1);
    expect(v1.refPflopsWad).to.equal(wad("0.312"));
    expect(v1.weightsWad).to.deep.equal([wad("0.5"), wad("0.3"), wad("0.2")]);
    expect(await std.latestVersion(ML)).to.equal(2);
    await expect(std.publishReference(ML, wad("1"), [wad("0.4"), wad("0.5")], "", ZeroHash))
      .to.be.revertedWithCustomError(std, "StandardWeightsSum")
      .withArgs(ML, wad("0.9"));
    await expect(std.publishReference(ML, 0, [WAD], "", ZeroHash))
      .to.be.revertedWithCustomError(std, "StandardZeroReference")
      .withArgs(ML);
    await expect(std.publishReference(ML, 1, [], "", ZeroHash))
      .to.be.revertedWithCustomError(std, "StandardFactorCount")
      .withArgs(0, 8);
    await expect(std.publishReference(ML, 1, Array(9).fill(1n), "", ZeroHash)).to.be.revertedWithCustomError(
      std,
      "StandardFactorCount",
    );
    await expect(std.referenceSystem(ML, 3))
      .to.be.revertedWithCustomError(std, "StandardUnknownVersion")
      .withArgs(ML, 3);
    await expect(std.adjustmentRatioWad(ML, 1, [WAD]))
      .to.be.revertedWithCustomError(std, "StandardFactorMismatch")
      .withArgs(ML, 1, 3, 1);
    await expect(std.connect(fx.users[0]!).publishReference(ML, 1, [WAD], "", ZeroHash)).to.be.revertedWithCustomError(
      std,
      "AccessManagedUnauthorized",
    );
  });

  it("lets governance move grade thresholds, in order only", async function () {
    const std = fx.protocol.computeStandard;
    const t = plain(await std.gradeThresholds());
    await expect(std.setGradeThresholds({ ...t, perfAWad: wad("2") })).to.emit(std, "GradeThresholdsSet");
    expect(await std.performanceGrade(wad("1.9"))).to.equal(1);
    await expect(std.setGradeThresholds({ ...t, uptime2Wad: wad("0.9999") })).to.be.revertedWithCustomError(
      std,
      "StandardInvalidThresholds",
    );
    await expect(std.connect(fx.users[0]!).setGradeThresholds(t)).to.be.revertedWithCustomError(
      std,
      "AccessManagedUnauthorized",
    );
  });
});
