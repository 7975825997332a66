import { expect } from "chai";
import { parseUnits } from "ethers";
import { connectionFor, deployAll, type Fixture } from "../../helpers/fixture.js";
import { MockAggregatorV3 } from "../../../types/ethers-contracts/index.js";
import { Roles } from "@chx/sdk";

describe("ComputePriceOracle (deployed through the deploy script)", function () {
  let fx: Fixture;
  let networkHelpers: Awaited<ReturnType<typeof connectionFor>>["networkHelpers"];

  async function setup(): Promise<Fixture> {
    return deployAll(await connectionFor("oracle"));
  }

  beforeEach(async function () {
    const connection = await connectionFor("oracle");
    networkHelpers = connection.networkHelpers;
    fx = await networkHelpers.loadFixture(setup);
  });

  function feed(): MockAggregatorV3 {
    const f = fx.protocol.chIndexFeed;
    if (f === undefined) throw new Error("local deploy must use the mock feed");
    return f;
  }

  it("reads the mock feed: 2 USDC/CH at 8 decimals → 2e18 WAD", async function () {
    const { oracle } = fx.protocol;
    expect(await oracle.indexPrice()).to.equal(parseUnits("2", 18));
    expect(await oracle.riskPrice()).to.equal(parseUnits("2", 18));
    const cfg = await oracle.feedConfig();
    expect(cfg.feed).to.equal(await feed().getAddress());
    expect(cfg.decimals).to.equal(8n);
    expect(cfg.heartbeatSec).to.equal(86_400n);
    const [lo, hi] = await oracle.priceBounds();
    expect(lo).to.equal(parseUnits("0.01", 18));
    expect(hi).to.equal(parseUnits("1000", 18));
  });

  it("reverts with OracleStalePrice once the round is older than the heartbeat (ORC-01)", async function () {
    const { oracle } = fx.protocol;
    await networkHelpers.time.increase(86_401);
    await expect(oracle.indexPrice()).to.be.revertedWithCustomError(oracle, "OracleStalePrice");
    await expect(oracle.riskPrice()).to.be.revertedWithCustomError(oracle, "OracleStalePrice");
    await feed().setAnswer(250_000_000n);
    expect(await oracle.indexPrice()).to.equal(parseUnits("2.5", 18));
  });

  it("reverts with OracleNonPositivePrice and OraclePriceOutOfBounds (ORC-01)", async function () {
    const { oracle } = fx.protocol;
    await feed().setAnswer(0n);
    await expect(oracle.indexPrice()).to.be.revertedWithCustomError(oracle, "OracleNonPositivePrice").withArgs(0n);
    await feed().setAnswer(parseUnits("1000.5", 8));
    await expect(oracle.riskPrice())
      .to.be.revertedWithCustomError(oracle, "OraclePriceOutOfBounds")
      .withArgs(parseUnits("1000.5", 18), parseUnits("0.01", 18), parseUnits("1000", 18));
  });

  it("pins the price for one transaction only: the next transaction reads the feed again (ORC-02)", async function () {
    const { oracle } = fx.protocol;
    await expect(oracle.pinIndexPrice())
      .to.emit(oracle, "OraclePricePinned")
      .withArgs(parseUnits("2", 18), fx.deployer.address);
    await feed().setAnswer(300_000_000n);
    expect(await oracle.indexPrice()).to.equal(parseUnits("3", 18));
  });

  it("lets the guardian pause new risk while the index stays readable", async function () {
    const { oracle } = fx.protocol;
    const feature = await oracle.RISK_FEATURE();
    await oracle.pauseFeature(feature); // the deployer is the local guardian
    await expect(oracle.riskPrice()).to.be.revertedWithCustomError(oracle, "ChxFeaturePaused").withArgs(feature);
    expect(await oracle.indexPrice()).to.equal(parseUnits("2", 18));
    const [allowed, reason] = await oracle.riskIncreaseAllowed();
    expect(allowed).to.equal(false);
    expect(reason).to.equal(oracle.interface.getError("ChxFeaturePaused")!.selector);
  });

  it("keeps the configuration (an upgrade) for governance (SEC-01)", async function () {
    const { oracle, accessManager } = fx.protocol;
    const [stranger] = fx.users;
    await expect(oracle.connect(stranger!).announceConfig()).to.be.revertedWithCustomError(
      oracle,
      "AccessManagedUnauthorized",
    );
    await expect(
      oracle.connect(stranger!).upgradeToAndCall(await oracle.getAddress(), "0x"),
    ).to.be.revertedWithCustomError(oracle, "AccessManagedUnauthorized");
    const sel = oracle.interface.getFunction("pauseFeature")!.selector;
    expect(await accessManager.getTargetFunctionRole(await oracle.getAddress(), sel)).to.equal(Roles.GUARDIAN);
  });
});
