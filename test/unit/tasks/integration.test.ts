import { expect } from "chai";
import { AbiCoder, id, keccak256, parseUnits, ZeroHash } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { connectionFor, deployAll, type Fixture } from "../../helpers/fixture.js";
import { domainOf, signAttestation, type AttestationMessage } from "@chx/sdk";

const wad = (x: string) => parseUnits(x, 18);

/**
 * A DPS-paid batch task through the real deploy script: the TaskRegistry's COMPUTE role reaches the real
 * Emission.replenish (transfer first, then replenish) and the real ProviderRegistry hooks.
 */
describe("tasks integration (real deployment)", function () {
  let fx: Fixture;

  async function setup(): Promise<Fixture> {
    const f = await deployAll(await connectionFor("tasks-integration"));
    const { providerRegistry: reg, dps, computeStandard } = f.protocol;
    const provider = f.connection.ethers.provider;
    const regAddr = await reg.getAddress();
    for (const p of f.users.slice(1, 7)) {
      await (await reg.connect(p).register(1, 0b10n, ZeroHash, "")).wait();
      await (await dps.transfer(p.address, wad("5000"))).wait();
      await (await dps.connect(p).approve(regAddr, wad("5000"))).wait();
      await (await reg.connect(p).stake(wad("5000"))).wait();
      const now = BigInt((await provider.getBlock("latest"))!.timestamp);
      const m: AttestationMessage = {
        provider: p.address,
        workloadClass: 1,
        standardVersion: Number(await computeStandard.latestVersion(1)),
        avgPflopsWad: wad("0.5"),
        factorsWad: [wad("1.2"), wad("0.9"), wad("1")],
        capacityPflopsWad: wad("0.5"),
        powerWattsWad: wad("700"),
        nonce: await reg.attestationNonce(p.address),
        deadline: now + 3600n,
      };
      await (
        await reg.attest(m, await signAttestation(f.deployer, await domainOf(provider, "ProviderRegistry", regAddr), m))
      ).wait();
    }
    return f;
  }

  beforeEach(async function () {
    fx = await (await connectionFor("tasks-integration")).networkHelpers.loadFixture(setup);
  });

  /** Submits a DPS task (n = 3, q = 2), provs[0] bids 500, closes, draws, commits, two members agree. */
  async function agreedDpsTask(): Promise<{
    taskId: bigint;
    council: string[];
    byAddr: (a: string) => HardhatEthersSigner;
  }> {
    const { taskRegistry: tasks, dps } = fx.protocol;
    const helpers = fx.connection.networkHelpers;
    const client = fx.users[0]!;
    const provs = fx.users.slice(1, 7);
    await (await dps.transfer(client.address, wad("1000"))).wait();
    await (await dps.connect(client).approve(await tasks.getAddress(), wad("1000"))).wait();
    const now = BigInt((await fx.connection.ethers.provider.getBlock("latest"))!.timestamp);
    await (
      await tasks.connect(client).submit(
        {
          currency: 2,
          responseMode: 0,
          councilSize: 3,
          quorum: 2,
          checkpoints: 1,
          maxBids: 0,
          workloadClass: 1,
          region: 0,
          bidWindowSec: 3600,
          deadline: now + 86_400n,
          maxPayment: wad("1000"),
          capacityPflopsWad: wad("0.1"),
          paymentParams: 0n,
        },
        {
          dataHash: id("D"),
          modelHash: id("M"),
          inputHash: id("I"),
          outputFnHash: id("f"),
          evalHash: id("e"),
          uri: "",
        },
      )
    ).wait();
    await (await tasks.connect(provs[0]!).bid(1, wad("500"))).wait();
    await helpers.time.increase(3601);
    await (await tasks.closeBidding(1)).wait(); // seal: commits the seed block
    await helpers.mine(1);
    await (await tasks.closeBidding(1)).wait(); // select
    await (await tasks.drawCouncil(1)).wait();
    await (await tasks.connect(provs[0]!).commit(1, 0, id("result"))).wait();
    const council = await tasks.councilOf(1, 0);
    const byAddr = (a: string) => provs.find((p) => p.address === a) as HardhatEthersSigner;
    // commit–reveal (issue 21 item 1): both commit the executor's result salted, then reveal past the commit window
    const coder = AbiCoder.defaultAbiCoder();
    const salt = id("salt");
    for (const m of council.slice(0, 2)) {
      const c = keccak256(coder.encode(["uint256", "address", "bytes32", "bytes32"], [1n, m, id("result"), salt]));
      await (await tasks.connect(byAddr(m)).commitResult(1, c)).wait();
    }
    await helpers.time.increaseTo(Number((await tasks.getTask(1)).commitEnds) + 1);
    for (const m of council.slice(0, 2))
      await (await tasks.connect(byAddr(m)).revealResult(1, id("result"), salt)).wait();
    return { taskId: 1n, council: [...council], byAddr };
  }

  it("runs a DPS task end to end and replenishes the Emission reward pool", async function () {
    const { taskRegistry: tasks, dps, emission } = fx.protocol;
    const provs = fx.users.slice(1, 7);
    const { council, byAddr } = await agreedDpsTask();
    const poolBefore = await dps.balanceOf(await emission.getAddress());
    // Independent reference: cost = 500 × (1 − 10 %) = 450; pool 20 % = 90; executor 360; keeper bounties 0.1 % of
    // the deposit (1 DPS) for closeBidding, drawCouncil and this finalize (the caller is neither client nor executor).
    await expect(tasks.finalize(1))
      .to.emit(tasks, "TaskFinalized")
      .withArgs(1n, 5n, wad("360"), wad("10"), wad("1000") - wad("450") - wad("10") - wad("3"), wad("90"));
    expect((await dps.balanceOf(await emission.getAddress())) - poolBefore).to.equal(wad("90"));
    // the unclaimed fees and the keeper's three credited bounties (issue 21 item 6: pulled, counted in totalEscrow)
    expect(await tasks.totalEscrow(2)).to.equal(wad("10") + wad("3"));
    await (await tasks.connect(byAddr(council[0]!)).claimCouncilFee(1)).wait();
    await (await tasks.connect(byAddr(council[1]!)).claimCouncilFee(1)).wait();
    expect(await tasks.keeperCredits(fx.deployer.address, 2)).to.equal(wad("3"));
    await (await tasks.claimKeeperCredits(2, fx.deployer.address)).wait();
    expect(await tasks.totalEscrow(2)).to.equal(0n);
    // issue 18 item 4: the completion is recorded when the client's appeal window closes (with the executor's lock)
    expect((await fx.protocol.providerRegistry.providerInfo(provs[0]!.address)).completed).to.equal(0n);
    await fx.connection.networkHelpers.time.increase(Number((await tasks.params()).disputeWindowSec) + 1);
    await (await tasks.closeAppeal(1)).wait();
    expect((await fx.protocol.providerRegistry.providerInfo(provs[0]!.address)).completed).to.equal(1n);
  });

  // Issue 17 item 17: a paused (or far-behind) Emission made `replenish` revert, and with it every accepting DPS
  // finalize. The verdict now goes through; the pool's share waits at Emission and is accounted by a flush.
  it("test_emissionReplenishPaused_dpsAcceptanceStillFinalizes", async function () {
    const { taskRegistry: tasks, dps, emission } = fx.protocol;
    const provs = fx.users.slice(1, 7);
    await (await emission.pauseFeature(await emission.FEATURE_REPLENISH())).wait();
    await agreedDpsTask();
    await expect(tasks.finalize(1)).to.emit(tasks, "ReplenishmentDeferred").withArgs(wad("90"), wad("90"));
    expect((await tasks.getTask(1)).status).to.equal(5n); // Accepted
    expect(await dps.balanceOf(provs[0]!.address)).to.equal(wad("360"));
    expect(await tasks.replenishBacklog()).to.equal(wad("90"));
    await expect(tasks.flushReplenishment()).to.be.revertedWithCustomError(emission, "ChxFeaturePaused");
    await (await emission.unpauseFeature(await emission.FEATURE_REPLENISH())).wait();
    await expect(tasks.flushReplenishment()).to.emit(emission, "Replenished");
    expect(await tasks.replenishBacklog()).to.equal(0n);
  });
});
