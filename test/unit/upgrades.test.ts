import { expect } from "chai";
import hre from "hardhat";
import { upgrades as upgradesFactory } from "@openzeppelin/hardhat-upgrades";
import { connectionFor, deployAll, type Fixture } from "../helpers/fixture.js";
import { CHTokenV2Mock__factory } from "../../types/ethers-contracts/index.js";
import { proposeAndExecute } from "../helpers/governance.js";
import { upgradeConstructorArgs } from "../../scripts/lib/deployer.js";

describe("Upgrades (SEC-02)", function () {
  let fx: Fixture;

  async function setup(): Promise<Fixture> {
    // handover: the deployer gives up every admin power, as on a real network
    return deployAll(await connectionFor("upgrades"), { handover: true });
  }

  beforeEach(async function () {
    const connection = await connectionFor("upgrades");
    fx = await connection.networkHelpers.loadFixture(setup);
  });

  it("implementations cannot be initialised", async function () {
    const ethers = fx.connection.ethers;
    for (const name of ["DPSToken", "CHToken", "GFLToken"]) {
      const impl = fx.ctx.record.contracts[name]!.implementation;
      const c = await ethers.getContractAt(name, impl);
      const args = name === "DPSToken" ? [impl, impl, 1n] : [impl];
      await expect(c.getFunction("initialize")(...args), name).to.be.revertedWithCustomError(
        c,
        "InvalidInitialization",
      );
    }
    const gov = await ethers.getContractAt("ChxGovernor", fx.ctx.record.contracts.Governor!.implementation);
    await expect(gov.initialize(gov, gov, 1, 1, 0, 4)).to.be.revertedWithCustomError(gov, "InvalidInitialization");
  });

  it("proxies cannot be re-initialised", async function () {
    const { dps, ch, gfl, accessManager, timelock } = fx.protocol;
    await expect(dps.initialize(fx.deployer.address, fx.deployer.address, 1n)).to.be.revertedWithCustomError(
      dps,
      "InvalidInitialization",
    );
    await expect(ch.initialize(fx.deployer.address)).to.be.revertedWithCustomError(ch, "InvalidInitialization");
    await expect(gfl.initialize(fx.deployer.address)).to.be.revertedWithCustomError(gfl, "InvalidInitialization");
    await expect(accessManager.initialize(fx.deployer.address)).to.be.revertedWithCustomError(
      accessManager,
      "InvalidInitialization",
    );
    await expect(timelock.initialize(1, [], [], fx.deployer.address)).to.be.revertedWithCustomError(
      timelock,
      "InvalidInitialization",
    );
  });

  it("refuses an upgrade from anyone but the timelock, including the former deployer", async function () {
    const v2 = await (await fx.connection.ethers.getContractFactory("CHTokenV2Mock")).deploy();
    const { ch, accessManager, timelock, governor } = fx.protocol;
    for (const who of [fx.deployer, fx.users[0]!]) {
      await expect(ch.connect(who).upgradeToAndCall(await v2.getAddress(), "0x")).to.be.revertedWithCustomError(
        ch,
        "AccessManagedUnauthorized",
      );
    }
    const mgrImpl = await (await fx.connection.ethers.getContractFactory("ChxAccessManager")).deploy();
    await expect(accessManager.upgradeToAndCall(await mgrImpl.getAddress(), "0x")).to.be.revertedWithCustomError(
      accessManager,
      "ChxAccessManagerUnauthorizedUpgrade",
    );
    const tlImpl = await (await fx.connection.ethers.getContractFactory("ChxTimelock")).deploy();
    await expect(timelock.upgradeToAndCall(await tlImpl.getAddress(), "0x")).to.be.revertedWithCustomError(
      timelock,
      "ChxTimelockUnauthorizedUpgrade",
    );
    const govImpl = await (await fx.connection.ethers.getContractFactory("ChxGovernor")).deploy();
    await expect(governor.upgradeToAndCall(await govImpl.getAddress(), "0x")).to.be.revertedWithCustomError(
      governor,
      "GovernorOnlyExecutor",
    );
  });

  it("upgrades through Governor → Timelock to a v2 that keeps every piece of state", async function () {
    const { ch, dps } = fx.protocol;
    const ethers = fx.connection.ethers;
    const [alice, bob] = fx.users;
    // state to preserve: a CH balance (minted by a stand-in registry), an allowance, a permit nonce
    await proposeAndExecute(fx, [
      {
        target: await fx.protocol.accessManager.getAddress(),
        data: fx.protocol.accessManager.interface.encodeFunctionData("grantRole", [3n, alice!.address, 0]),
      },
    ]);
    await ch.connect(alice!).mint(bob!.address, 1234n);
    await ch.connect(bob!).approve(alice!.address, 77n);
    const before = {
      balance: await ch.balanceOf(bob!.address),
      supply: await ch.totalSupply(),
      allowance: await ch.allowance(bob!.address, alice!.address),
      name: await ch.name(),
      authority: await ch.authority(),
      domain: await ch.DOMAIN_SEPARATOR(),
    };

    const u = await upgradesFactory(hre, fx.connection);
    const V2 = await ethers.getContractFactory("CHTokenV2Mock");
    const implAddress = (await u.prepareUpgrade(await ch.getAddress(), V2, {
      kind: "uups",
      // a v2 that adds only a reinitializer inherits v1's initializer: see docs/upgrades.md
      unsafeAllow: ["missing-initializer", "missing-initializer-call"],
    })) as string;
    await proposeAndExecute(fx, [
      {
        target: await ch.getAddress(),
        data: ch.interface.encodeFunctionData("upgradeToAndCall", [
          implAddress,
          CHTokenV2Mock__factory.createInterface().encodeFunctionData("initializeV2", [42n]),
        ]),
      },
    ]);

    const v2 = CHTokenV2Mock__factory.connect(await ch.getAddress(), fx.deployer);
    expect(await v2.version()).to.equal("2.0.0");
    expect(await v2.marker()).to.equal(42n);
    await expect(v2.initializeV2(43n)).to.be.revertedWithCustomError(v2, "InvalidInitialization");
    expect({
      balance: await v2.balanceOf(bob!.address),
      supply: await v2.totalSupply(),
      allowance: await v2.allowance(bob!.address, alice!.address),
      name: await v2.name(),
      authority: await v2.authority(),
      domain: await v2.DOMAIN_SEPARATOR(),
    }).to.deep.equal(before);
    expect(await dps.version()).to.equal("1.0.0");
    // roles survive too: the registry stand-in still mints
    await v2.connect(alice!).mint(bob!.address, 1n);
    expect(await v2.balanceOf(bob!.address)).to.equal(1235n);
  });

  it("records the oracle's configuration and re-configures it only by a governance upgrade (ORC-01, SEC-02)", async function () {
    const { oracle } = fx.protocol;
    const ethers = fx.connection.ethers;
    const rec = fx.ctx.record.contracts.ComputePriceOracle!;
    const Oracle = await ethers.getContractFactory("ComputePriceOracle");
    // the deploy records the implementation's constructor arguments (verification and the next upgrade read them)
    const recorded = upgradeConstructorArgs(rec, Oracle.interface) as unknown as [unknown[]];
    const live = await oracle.config();
    expect(recorded[0]![0]).to.equal(live.feed);
    expect(recorded[0]![1]).to.equal(live.heartbeatSec);
    expect(recorded[0]![3]).to.equal(live.maxPriceWad);
    // a constructor with inputs and nothing recorded or given stops the upgrade script before it deploys
    expect(() => upgradeConstructorArgs({ ...rec, implementationArgs: undefined }, Oracle.interface)).to.throw(
      /constructor arguments/,
    );
    expect(
      upgradeConstructorArgs(fx.ctx.record.contracts.CHToken, (await ethers.getContractFactory("CHToken")).interface),
    ).to.deep.equal([]);
    // the operator's new configuration (CHX_UPGRADE_ARGS): a shorter heartbeat and a lower price cap
    const next = [...(recorded[0] as unknown[])];
    next[1] = 3_600n;
    next[3] = live.maxPriceWad / 2n;
    const args = upgradeConstructorArgs(rec, Oracle.interface, [next]);
    const u = await upgradesFactory(hre, fx.connection);
    const impl = (await u.prepareUpgrade(await oracle.getAddress(), Oracle, {
      kind: "uups",
      constructorArgs: args,
    })) as string;
    expect((await oracle.config()).heartbeatSec, "nothing changes before the proposal executes").to.equal(
      live.heartbeatSec,
    );
    await proposeAndExecute(fx, [
      {
        target: await oracle.getAddress(),
        data: oracle.interface.encodeFunctionData("upgradeToAndCall", [
          impl,
          oracle.interface.encodeFunctionData("announceConfig"),
        ]),
      },
    ]);
    const after = await oracle.config();
    expect(after.heartbeatSec).to.equal(3_600n);
    expect(after.maxPriceWad).to.equal(live.maxPriceWad / 2n);
    expect(after.feed).to.equal(live.feed);
    // the next read runs on the new implementation: the vote and the timelock outlasted the new 1-hour heartbeat
    const round = await fx.protocol.chIndexFeed!.latestRoundData();
    await expect(oracle.indexPrice())
      .to.be.revertedWithCustomError(oracle, "OracleStalePrice")
      .withArgs(round[3], 3_600n, await fx.connection.networkHelpers.time.latest());
    await fx.protocol.chIndexFeed!.setAnswer(round[1]);
    expect(await oracle.indexPrice()).to.equal(round[1] * 10n ** 10n);
  });

  it("rejects a layout-breaking v2 in storage-layout validation", async function () {
    const u = await upgradesFactory(hre, fx.connection);
    const Broken = await fx.connection.ethers.getContractFactory("DPSTokenBrokenV2Mock");
    let message = "";
    try {
      await u.validateUpgrade(await fx.protocol.dps.getAddress(), Broken, { kind: "uups" });
    } catch (e) {
      message = e instanceof Error ? e.message : String(e);
    }
    expect(message, message).to.match(/New storage layout is incompatible|Deleted|Inserted/);
  });
});
