import { expect } from "chai";
import { id } from "ethers";
import { connectionFor, deployAll, type Fixture } from "../../helpers/fixture.js";
import { genesisReferences } from "../../../scripts/deploy/modules/compute.js";
import { plain, wad } from "./helpers.js";
import { Roles, selectorOf } from "@chx/sdk";

describe("compute deploy module", function () {
  let fx: Fixture;

  async function setup(): Promise<Fixture> {
    return deployAll(await connectionFor("compute-deploy"));
  }

  beforeEach(async function () {
    fx = await (await connectionFor("compute-deploy")).networkHelpers.loadFixture(setup);
  });

  it("wires roles: registry mints CH and reports capacity; hooks map to COMPUTE, slash to PROVIDER_SLASHER", async function () {
    const { accessManager: am, providerRegistry: reg, providerMatcher, computeStandard } = fx.protocol;
    const r = await reg.getAddress();
    expect((await am.hasRole(Roles.CH_MINTER, r))[0]).to.equal(true);
    expect((await am.hasRole(Roles.CAPACITY_RECORDER, r))[0]).to.equal(true);
    expect((await am.hasRole(Roles.COMPUTE, r))[0], "task hooks are the TaskRegistry's").to.equal(false);
    for (const sig of [
      "recordTaskOutcome(address,bool)",
      "assignRedemption(address,uint256,uint256)",
      "confirmDelivery(uint256)",
      "reportDeliveryFailure(uint256,address)",
    ]) {
      expect(await am.getTargetFunctionRole(r, selectorOf(sig))).to.equal(Roles.COMPUTE);
    }
    expect(await am.getTargetFunctionRole(r, selectorOf("slash(address,uint256,address,bytes32)"))).to.equal(
      Roles.PROVIDER_SLASHER,
    );
    for (const c of [reg, providerMatcher, computeStandard]) {
      expect(await am.getTargetFunctionRole(await c.getAddress(), selectorOf("pauseFeature(bytes32)"))).to.equal(
        Roles.GUARDIAN,
      );
    }
    expect((await am.hasRole(Roles.ATTESTER, fx.deployer.address))[0]).to.equal(true);
    expect(await providerMatcher.registry()).to.equal(r);
    expect(await reg.standard()).to.equal(await computeStandard.getAddress());
  });

  it("publishes the genesis reference systems and default parameters", async function () {
    const { computeStandard: std, providerRegistry: reg } = fx.protocol;
    for (const ref of genesisReferences) {
      expect(await std.latestVersion(ref.workloadClass)).to.equal(1);
      expect((await std.referenceSystem(ref.workloadClass, 1)).refPflopsWad).to.equal(wad(ref.refPflops));
    }
    const p = await reg.params();
    expect(p.minStakeDps).to.equal(wad("1000"));
    expect(p.collateralFactorWad).to.equal(wad("0.5"));
    // the wiring module points the registry at Emission once both are deployed
    expect(await reg.capacityRecorder()).to.equal(await fx.protocol.emission.getAddress());
  });

  it("cannot be re-initialised (SEC-02) and lets the guardian pause minting", async function () {
    const { providerRegistry: reg, computeStandard: std, providerMatcher: m } = fx.protocol;
    const p = plain(await reg.params());
    await expect(
      reg.initialize(fx.deployer.address, fx.deployer.address, fx.deployer.address, fx.deployer.address, p),
    ).to.be.revertedWithCustomError(reg, "InvalidInitialization");
    await expect(std.initialize(fx.deployer.address)).to.be.revertedWithCustomError(std, "InvalidInitialization");
    await expect(m.initialize(fx.deployer.address, fx.deployer.address)).to.be.revertedWithCustomError(
      m,
      "InvalidInitialization",
    );
    for (const c of [reg, std, m]) {
      await expect(c.connect(fx.users[0]!).upgradeToAndCall(fx.users[0]!.address, "0x")).to.be.revertedWithCustomError(
        c,
        "AccessManagedUnauthorized",
      );
    }
    await expect(reg.pauseFeature(id("registry.mint")))
      .to.emit(reg, "FeaturePauseSet")
      .withArgs(id("registry.mint"), true, fx.deployer.address);
    await expect(reg.connect(fx.users[0]!).mintCH(1, fx.users[0]!.address))
      .to.be.revertedWithCustomError(reg, "ChxFeaturePaused")
      .withArgs(id("registry.mint"));
  });
});
