import { expect } from "chai";
import { keccak256, AbiCoder, ZeroHash, id } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { connectionFor, deployAll, type Fixture } from "../../helpers/fixture.js";
import { onboard, wad } from "./helpers.js";

enum Mode {
  Executor,
  Council,
  Delivery,
}
const ANY = 0xffff;
const query = (over: Partial<Record<string, unknown>> = {}) => ({
  mode: Mode.Executor,
  workloadClass: 1,
  region: 0,
  regionStrict: false,
  budgetPriceWad: 0n,
  requiredCapacityPflopsWad: 0n,
  requiredCh: 0n,
  ...over,
});
/** A draw from the registry's snapshot as of the latest block (TSK-07). */
async function drawQuery(fx: Fixture, over: Partial<Record<string, unknown>> = {}) {
  const b = (await fx.connection.ethers.provider.getBlock("latest"))!;
  return {
    workloadClass: 1,
    requiredCapacityPflopsWad: 0n,
    atBlock: BigInt(b.number),
    atTime: BigInt(b.timestamp),
    candidates: await fx.protocol.providerRegistry.drawCount(),
    extraSamples: 16n,
    ...over,
  };
}
const only = (field: string) => ({
  region: 0,
  price: 0,
  uptime: 0,
  reputation: 0,
  capacity: 0,
  slashRate: 0,
  stake: 0,
  randomness: 0,
  [field]: 10_000,
});

describe("ProviderMatcher", function () {
  let fx: Fixture;
  let ps: HardhatEthersSigner[];

  async function setup(): Promise<Fixture> {
    const f = await deployAll(await connectionFor("compute-matching"));
    const providers = f.users.slice(0, 6);
    for (const [i, p] of providers.entries()) {
      await onboard(f, p, wad(String(2000 + 1000 * i)));
      await f.protocol.providerRegistry.connect(p).setAskPrice(wad(String(1 + i)));
    }
    return f;
  }

  beforeEach(async function () {
    fx = await (await connectionFor("compute-matching")).networkHelpers.loadFixture(setup);
    ps = fx.users.slice(0, 6);
  });

  it("is deterministic for the same seed and snapshot", async function () {
    const m = fx.protocol.providerMatcher;
    const seed = id("task-1");
    const q = await drawQuery(fx);
    const a = await m.drawFromSnapshot(q, [], seed, 3);
    const b = await m.drawFromSnapshot(q, [], seed, 3);
    expect(a).to.deep.equal(b);
    expect(a.length).to.equal(3);
    expect(new Set(a).size).to.equal(3);
  });

  it("scores price vs budget by worked numbers and filters asks over budget", async function () {
    const m = fx.protocol.providerMatcher;
    await m.setWeights(only("price"));
    const addrs = ps.map((p) => p.address);
    const [eligible, scores] = await m.scoreCandidates(query({ budgetPriceWad: wad("4") }), addrs, ZeroHash);
    // asks 1..6 vs budget 4: (4 − ask) / 4 → 0.75, 0.5, 0.25, 0; asks 5 and 6 are over budget.
    expect(eligible).to.deep.equal([true, true, true, true, false, false]);
    expect(scores.slice(0, 4)).to.deep.equal([wad("0.75"), wad("0.5"), wad("0.25"), 0n]);
    const picked = await m.selectFromCandidates(query({ budgetPriceWad: wad("4") }), addrs, [], ZeroHash, 6);
    expect(picked).to.deep.equal(addrs.slice(0, 4));
  });

  it("scores stake and reputation by worked numbers", async function () {
    const m = fx.protocol.providerMatcher;
    await m.setWeights(only("stake"));
    const [, s] = await m.scoreCandidates(query(), [ps[0]!.address, ps[5]!.address], ZeroHash);
    // stake 2 000 and 7 000 DPS vs the 50 000 DPS norm.
    expect(s).to.deep.equal([wad("0.04"), wad("0.14")]);
    await m.setWeights(only("reputation"));
    const [, r] = await m.scoreCandidates(query(), [ps[0]!.address], ZeroHash);
    expect(r[0]).to.equal(wad("0.5")); // (0 + 1) / (0 + 2)
  });

  it("never draws an excluded address, whatever the seed (a provider cannot draw itself)", async function () {
    const m = fx.protocol.providerMatcher;
    const self = ps[2]!.address;
    const q = await drawQuery(fx);
    const winners = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const picked = await m.drawFromSnapshot(q, [self], id(`seed-${i}`), 1);
      expect(picked).to.not.include(self);
      winners.add(picked[0]!);
    }
    // The seed moves the draw.
    expect(winners.size).to.be.greaterThan(1);
  });

  it("samples the draw list at uint128(keccak256(seed, k)) mod length, so nobody chooses the candidates", async function () {
    const m = fx.protocol.providerMatcher;
    const reg = fx.protocol.providerRegistry;
    const q = await drawQuery(fx);
    expect(q.candidates).to.equal(6n); // every onboarded provider listed once
    const seed = id("worked");
    const coder = AbiCoder.defaultAbiCoder();
    // Independent reference: the first samples that are new entries, in order.
    const expected: string[] = [];
    for (let k = 0n; expected.length < 2; k++) {
      // accepted with probability weight / reference (stake units × reputation percent; issue 21 item 3)
      const h = BigInt(keccak256(coder.encode(["bytes32", "uint256"], [seed, k])));
      const [[who], [word], ref] = await reg.drawSample([(h & ((1n << 128n) - 1n)) % q.candidates], q.atBlock);
      const w = ((word! >> 144n) & ((1n << 55n) - 1n)) * ((word! >> 199n) & 0xffn);
      if (w < ref && (h >> 128n) % ref >= w) continue;
      if (!expected.includes(who!)) expected.push(who!);
    }
    expect(await m.drawFromSnapshot(q, [], seed, 2)).to.deep.equal(expected);
  });

  it("reads profiles as of the commit block: a later unbond or a later registration changes nothing", async function () {
    const m = fx.protocol.providerMatcher;
    const reg = fx.protocol.providerRegistry;
    const q = await drawQuery(fx);
    const seed = id("commit");
    const before = await m.drawFromSnapshot(q, [], seed, 4);
    for (const who of before) {
      const p = ps.find((x) => x.address === who)!;
      await reg.connect(p).requestUnbond((await reg.providerInfo(who)).stakedDps);
    }
    expect(await m.drawFromSnapshot(q, [], seed, 4)).to.deep.equal(before);
    // a fresh query (commit now) sees the unbonded providers as ineligible
    const now = await m.drawFromSnapshot(await drawQuery(fx), [], seed, 4);
    for (const who of now) expect(before).to.not.include(who);
  });

  it("fills the seats by a seeded sweep when the samples run out", async function () {
    const m = fx.protocol.providerMatcher;
    const q = await drawQuery(fx, { extraSamples: 0n });
    // 6 listed, 1 excluded: all 5 others are drawn even with no spare samples
    const drawn = await m.drawFromSnapshot(q, [ps[0]!.address], id("sweep"), 5);
    expect([...drawn].sort()).to.deep.equal(
      ps
        .slice(1, 6)
        .map((p) => p.address)
        .sort(),
    );
    // capacity and class filters apply to the snapshot profile
    expect(await m.drawFromSnapshot({ ...q, workloadClass: 3 }, [], id("x"), 2)).to.deep.equal([]);
    expect(await m.drawFromSnapshot({ ...q, requiredCapacityPflopsWad: wad("100") }, [], id("x"), 2)).to.deep.equal([]);
    expect(await m.drawFromSnapshot({ ...q, atTime: 2n ** 39n }, [], id("x"), 2)).to.deep.equal([]);
  });

  it("assigns deliveries only to providers with enough outstanding CH", async function () {
    const { providerMatcher: m, providerRegistry: reg } = fx.protocol;
    await reg.connect(ps[1]!).mintCH(wad("50"), ps[1]!.address);
    await reg.connect(ps[3]!).mintCH(wad("5"), ps[3]!.address);
    const q = query({ mode: Mode.Delivery, workloadClass: ANY, requiredCh: wad("10") });
    const page = ps.map((p) => p.address);
    expect(await m.selectFromCandidates(q, page, [], id("d"), 3)).to.deep.equal([ps[1]!.address]);
  });

  it("filters by workload class, strict region and capacity", async function () {
    const m = fx.protocol.providerMatcher;
    const addrs = ps.map((p) => p.address);
    expect(await m.selectFromCandidates(query({ workloadClass: 3 }), addrs, [], ZeroHash, 5)).to.deep.equal([]);
    expect(
      await m.selectFromCandidates(query({ region: 2, regionStrict: true }), addrs, [], ZeroHash, 5),
    ).to.deep.equal([]);
    expect(
      await m.selectFromCandidates(query({ requiredCapacityPflopsWad: wad("0.6") }), addrs, [], ZeroHash, 5),
    ).to.deep.equal([]);
    expect(
      (await m.selectFromCandidates(query({ requiredCapacityPflopsWad: wad("0.5") }), addrs, [], ZeroHash, 5)).length,
    ).to.equal(5);
  });

  it("derives seeds from a committed past block only", async function () {
    const m = fx.protocol.providerMatcher;
    const block = await fx.connection.ethers.provider.getBlockNumber();
    await expect(m.blockSeed(ZeroHash, block + 5))
      .to.be.revertedWithCustomError(m, "MatcherSeedUnavailable")
      .withArgs(block + 5, block);
    await fx.connection.networkHelpers.mine(1);
    const h = (await fx.connection.ethers.provider.getBlock(block))!.hash!;
    const { chainId } = await fx.connection.ethers.provider.getNetwork();
    expect(await m.blockSeed(id("salt"), block)).to.equal(
      keccak256(AbiCoder.defaultAbiCoder().encode(["bytes32", "bytes32", "uint256"], [h, id("salt"), chainId])),
    );
  });

  it("bounds pages and picks, and keeps configuration admin-only", async function () {
    const m = fx.protocol.providerMatcher;
    const big = Array.from({ length: 101 }, () => ps[0]!.address);
    await expect(m.scoreCandidates(query(), big, ZeroHash))
      .to.be.revertedWithCustomError(m, "MatcherPageTooLarge")
      .withArgs(101, 100);
    await expect(m.drawFromSnapshot(await drawQuery(fx), [], ZeroHash, 33))
      .to.be.revertedWithCustomError(m, "MatcherCountTooLarge")
      .withArgs(33, 32);
    await expect(m.setWeights({ ...only("price"), stake: 1 }))
      .to.be.revertedWithCustomError(m, "MatcherInvalidWeights")
      .withArgs(10_001);
    await expect(m.connect(ps[0]!).setWeights(only("price"))).to.be.revertedWithCustomError(
      m,
      "AccessManagedUnauthorized",
    );
    await expect(m.connect(ps[0]!).setLimits(1, 1, 1)).to.be.revertedWithCustomError(m, "AccessManagedUnauthorized");
    await expect(m.setLimits(0, 0, 1)).to.be.revertedWithCustomError(m, "MatcherInvalidLimits");
  });
});
