import { expect } from "chai";
import { id } from "ethers";
import { connectionFor, deployAll, type Fixture } from "../helpers/fixture.js";
import { proposeAndExecute } from "../helpers/governance.js";
import { Roles } from "@chx/sdk";

describe("Governance: Governor → Timelock → AccessManager", function () {
  let fx: Fixture;
  const FEATURE = id("ch.transfer");

  async function setup(): Promise<Fixture> {
    return deployAll(await connectionFor("governance"), { handover: true });
  }

  beforeEach(async function () {
    fx = await (await connectionFor("governance")).networkHelpers.loadFixture(setup);
  });

  it("hands every admin power to the timelock at deploy (handover)", async function () {
    const { accessManager, timelock } = fx.protocol;
    const [deployerAdmin] = await accessManager.hasRole(Roles.ADMIN, fx.deployer.address);
    const [timelockAdmin] = await accessManager.hasRole(Roles.ADMIN, await timelock.getAddress());
    expect(deployerAdmin).to.equal(false);
    expect(timelockAdmin).to.equal(true);
    expect(await timelock.hasRole(await timelock.DEFAULT_ADMIN_ROLE(), fx.deployer.address)).to.equal(false);
    expect(await timelock.hasRole(await timelock.PROPOSER_ROLE(), await fx.protocol.governor.getAddress())).to.equal(
      true,
    );
  });

  it("lets the guardian pause but never unpause; a passed proposal unpauses", async function () {
    const { ch } = fx.protocol;
    // deployer is the guardian on this network
    await expect(ch.pauseFeature(FEATURE)).to.emit(ch, "FeaturePauseSet").withArgs(FEATURE, true, fx.deployer.address);
    expect(await ch.isFeaturePaused(FEATURE)).to.equal(true);
    await expect(ch.unpauseFeature(FEATURE)).to.be.revertedWithCustomError(ch, "AccessManagedUnauthorized");
    await expect(ch.connect(fx.users[0]!).pauseFeature(FEATURE)).to.be.revertedWithCustomError(
      ch,
      "AccessManagedUnauthorized",
    );
    await proposeAndExecute(fx, [
      { target: await ch.getAddress(), data: ch.interface.encodeFunctionData("unpauseFeature", [FEATURE]) },
    ]);
    expect(await ch.isFeaturePaused(FEATURE)).to.equal(false);
  });

  it("changes a parameter (a function's role) only through a proposal; a direct call is refused", async function () {
    const { accessManager, gfl } = fx.protocol;
    const sel = gfl.interface.getFunction("setBalance")!.selector;
    const data = accessManager.interface.encodeFunctionData("setTargetFunctionRole", [
      await gfl.getAddress(),
      [sel],
      Roles.KEEPER,
    ]);
    await expect(
      fx.users[0]!.sendTransaction({ to: await accessManager.getAddress(), data }),
    ).to.be.revertedWithCustomError(accessManager, "AccessManagerUnauthorizedAccount");
    expect(await accessManager.getTargetFunctionRole(await gfl.getAddress(), sel)).to.equal(Roles.EMISSION);
    await proposeAndExecute(fx, [{ target: await accessManager.getAddress(), data }]);
    expect(await accessManager.getTargetFunctionRole(await gfl.getAddress(), sel)).to.equal(Roles.KEEPER);
  });

  it("refuses to execute a proposal that did not reach quorum", async function () {
    const { governor, dps, accessManager } = fx.protocol;
    const { time } = fx.connection.networkHelpers;
    // a small holder proposes and votes alone: 1 DPS of 10M is far below the 4 % quorum
    const small = fx.users[1]!;
    await dps.transfer(small.address, 10n ** 18n);
    await dps.connect(small).delegate(small.address);
    await time.increase(2);
    const data = accessManager.interface.encodeFunctionData("grantRole", [Roles.ADMIN, small.address, 0]);
    const target = await accessManager.getAddress();
    await governor.connect(small).propose([target], [0n], [data], "seize admin");
    const pid = await governor.hashProposal([target], [0n], [data], id("seize admin"));
    await time.increase(Number(await governor.votingDelay()) + 1);
    await governor.connect(small).castVote(pid, 1);
    await time.increase(Number(await governor.votingPeriod()) + 1);
    expect(await governor.state(pid)).to.equal(3n); // Defeated
    await expect(governor.queue([target], [0n], [data], id("seize admin"))).to.be.revertedWithCustomError(
      governor,
      "GovernorUnexpectedProposalState",
    );
  });
});
