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

  it("is deterministic for the same seed and state", async function () {
    const m = fx.protocol.providerMatcher;
    const seed = id("task-1");
    const a = await m.selectFromRegistry(query(), 50, [], seed, 3);
    const b = await m.selectFromRegistry(query(), 50, [], seed, 3);
    expect(a).to.deep.equal(b);
    expect(a.length).to.equal(3);
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

  it("never picks an excluded address, whatever the seed (fairness: a provider cannot pick itself)", async function () {
    const m = fx.protocol.providerMatcher;
    await m.setWeights(only("randomness"));
    const self = ps[2]!.address;
    const winners = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const picked = await m.selectFromRegistry(query({ mode: Mode.Council }), 6, [self], id(`seed-${i}`), 1);
      expect(picked).to.not.include(self);
      winners.add(picked[0]!);
    }
    // Randomness moves the winner across seeds.
    expect(winners.size).to.be.greaterThan(1);
  });

  it("windows the registry from the seed, so the caller does not choose the candidates", async function () {
    const m = fx.protocol.providerMatcher;
    await m.setWeights(only("uptime")); // all zero uptime: ties broken by keccak(seed, provider)
    const seed = "0x" + "00".repeat(31) + "04"; // start = 4 mod 6
    const picked = await m.selectFromRegistry(query({ mode: Mode.Council }), 2, [], seed, 2);
    expect([...picked].sort()).to.deep.equal([ps[4]!.address, ps[5]!.address].sort());
    const key = (a: string) => BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(["bytes32", "address"], [seed, a])));
    expect(picked[0]).to.equal(key(ps[4]!.address) > key(ps[5]!.address) ? ps[4]!.address : ps[5]!.address);
  });

  it("assigns deliveries only to providers with enough outstanding CH", async function () {
    const { providerMatcher: m, providerRegistry: reg } = fx.protocol;
    await reg.connect(ps[1]!).mintCH(wad("50"), ps[1]!.address);
    await reg.connect(ps[3]!).mintCH(wad("5"), ps[3]!.address);
    const q = query({ mode: Mode.Delivery, workloadClass: ANY, requiredCh: wad("10") });
    expect(await m.selectFromRegistry(q, 6, [], id("d"), 3)).to.deep.equal([ps[1]!.address]);
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
    await expect(m.selectFromRegistry(query(), 101, [], ZeroHash, 1))
      .to.be.revertedWithCustomError(m, "MatcherPageTooLarge")
      .withArgs(101, 100);
    await expect(m.selectFromRegistry(query(), 10, [], ZeroHash, 33))
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
