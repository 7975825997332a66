/**
 * SEC-02 upgrade rehearsal: one governance proposal (Governor → Timelock) upgrades EVERY UUPS proxy of the full
 * deploy record to a fresh deployment of its own implementation, and every getter of every contract reads the same
 * before and after — zero-argument getters, and one-argument getters at a set of probe addresses/ids. New contracts
 * of other modules are rehearsed without editing this file. Getters that read the clock are compared with the
 * execute block's one-second step taken into account (listed below with their reason).
 */
import { expect } from "chai";
import hre from "hardhat";
import { Interface, id, parseUnits, type FunctionFragment } from "ethers";
import { upgrades as upgradesFactory } from "@openzeppelin/hardhat-upgrades";
import { connectionFor, deployAll, type Fixture } from "../../helpers/fixture.js";
import { onboard } from "../compute/helpers.js";
import { isMock } from "./access-scan.js";
import { linkedLibraries, upgradeConstructorArgs } from "../../../scripts/lib/deployer.js";

/** Getters whose value depends on block.timestamp or block.number (the execute transaction is one block later). */
const CLOCK_DEPENDENT = new Set<string>([
  "ChxGovernor.clock()", // block.timestamp (ERC-6372)
  "DPSToken.clock()", // block.timestamp (ERC-6372)
  "SpotMarket.twapPrice(uint32)", // a window ending at block.timestamp
]);

type Snapshot = Map<string, string>;

function probeArgs(f: FunctionFragment, addresses: string[]): unknown[][] | undefined {
  if (f.inputs.length === 0) return [[]];
  if (f.inputs.length !== 1) return undefined;
  const t = f.inputs[0]!.type;
  if (t === "address") return addresses.map((a) => [a]);
  if (t.startsWith("uint")) return [[0n], [1n], [2n]];
  if (t === "bytes32") return [["0x" + "00".repeat(32)], [id("clearing.newRisk")]];
  return undefined;
}

async function snapshot(fx: Fixture, addresses: string[]): Promise<Snapshot> {
  const out: Snapshot = new Map();
  const provider = fx.connection.ethers.provider;
  for (const [name, rec] of Object.entries(fx.ctx.record.contracts)) {
    if (rec.abiHash === "") continue;
    const artifact = await hre.artifacts.readArtifact(rec.contract);
    if (isMock(artifact.sourceName)) continue;
    const iface = new Interface(artifact.abi);
    const getters: FunctionFragment[] = [];
    iface.forEachFunction((f) => {
      if (f.stateMutability === "view" || f.stateMutability === "pure") getters.push(f);
    });
    for (const f of getters) {
      const sig = `${rec.contract}.${f.format("sighash")}`;
      if (CLOCK_DEPENDENT.has(sig)) continue;
      for (const args of probeArgs(f, addresses) ?? []) {
        const key = `${name}.${f.format("sighash")}(${args.map(String).join(",")})`;
        let value: string;
        try {
          value = await provider.call({ to: rec.address, data: iface.encodeFunctionData(f, args) });
        } catch (e) {
          value = `revert ${(e as { data?: string }).data ?? ""}`;
        }
        out.set(key, value);
      }
    }
  }
  return out;
}

describe("Upgrade rehearsal: every proxy, every getter (SEC-02)", function () {
  let fx: Fixture;

  async function setup(): Promise<Fixture> {
    // handover: only governance can upgrade, as on a real network
    return deployAll(await connectionFor("security-upgrade-rehearsal"), { handover: true });
  }

  before(async function () {
    fx = await (await connectionFor("security-upgrade-rehearsal")).networkHelpers.loadFixture(setup);
  });

  it("upgrades every UUPS proxy in one proposal and every getter reads the same afterwards", async function () {
    const ethers = fx.connection.ethers;
    const { time, mine } = fx.connection.networkHelpers;
    const [alice, bob, carol] = fx.users;
    const { usdc, clearingHouse, insuranceFund, dps, governor, timelock } = fx.protocol;
    // some state in several modules: a provider, margin, an insurance stake, a delegation
    await onboard(fx, carol!);
    await usdc.mint(alice!.address, parseUnits("1000", 6));
    await usdc.connect(alice!).approve(await clearingHouse.getAddress(), parseUnits("400", 6));
    await clearingHouse.connect(alice!).deposit(parseUnits("400", 6));
    await usdc.connect(alice!).approve(await insuranceFund.getAddress(), parseUnits("300", 6));
    await insuranceFund.connect(alice!).stake(parseUnits("300", 6));
    await dps.delegate(fx.deployer.address);
    await mine(1);

    // a fresh implementation per proxy, validated by the upgrades plugin (storage layout, SEC-02)
    const u = await upgradesFactory(hre, fx.connection);
    const targets: string[] = [];
    const datas: string[] = [];
    const upgraded: Array<{ name: string; proxy: string; impl: string }> = [];
    for (const [name, rec] of Object.entries(fx.ctx.record.contracts)) {
      if (rec.kind !== "uups") continue;
      const libraries = await linkedLibraries(hre, fx.ctx.record, rec.contract);
      const factory = await ethers.getContractFactory(rec.contract, { libraries });
      // an implementation configured by immutables (the oracle) is rebuilt with its recorded constructor arguments
      const ctorArgs = upgradeConstructorArgs(rec, factory.interface);
      const impl = await (await factory.deploy(...ctorArgs)).getAddress();
      await u.validateUpgrade(rec.address, factory, {
        kind: "uups",
        unsafeAllow: ["external-library-linking"],
        ...(ctorArgs.length > 0 ? { constructorArgs: ctorArgs } : {}),
      });
      const iface = new Interface((await hre.artifacts.readArtifact(rec.contract)).abi);
      targets.push(rec.address);
      datas.push(iface.encodeFunctionData("upgradeToAndCall", [impl, "0x"]));
      upgraded.push({ name, proxy: rec.address, impl });
    }
    expect(upgraded.length).to.be.greaterThan(15);

    const desc = "SEC-02 rehearsal: upgrade every proxy to a fresh copy of its implementation";
    const values = targets.map(() => 0n);
    await (await governor.propose(targets, values, datas, desc)).wait();
    const proposalId = await governor.hashProposal(targets, values, datas, id(desc));
    await time.increase(Number(await governor.votingDelay()) + 1);
    await (await governor.castVote(proposalId, 1)).wait();
    await time.increase(Number(await governor.votingPeriod()) + 1);
    await (await governor.queue(targets, values, datas, id(desc))).wait();
    await time.increase(Number(await timelock.getMinDelay()) + 1);

    const probes = [
      fx.deployer.address,
      alice!.address,
      bob!.address,
      carol!.address,
      ...Object.values(fx.ctx.record.contracts).map((r) => r.address),
    ];
    const before = await snapshot(fx, probes);
    await (await governor.execute(targets, values, datas, id(desc))).wait();
    for (const x of upgraded) {
      expect(await u.erc1967.getImplementationAddress(x.proxy), x.name).to.equal(x.impl);
    }
    const after = await snapshot(fx, probes);

    expect(before.size).to.be.greaterThan(500);
    const changed: string[] = [];
    for (const [key, value] of before) {
      const v = after.get(key);
      if (v !== value) changed.push(key);
    }
    expect(changed, `getters changed by the upgrade:\n  ${changed.join("\n  ")}`).to.deep.equal([]);
  });
});
