import { expect } from "chai";
import { connectionFor, deployAll, type Fixture } from "../../helpers/fixture.js";
import { defaultTaskParams } from "../../../scripts/deploy/modules/tasks.js";
import { Roles, selectorOf } from "@chx/sdk";

describe("tasks deploy module", function () {
  let fx: Fixture;

  async function setup(): Promise<Fixture> {
    return deployAll(await connectionFor("tasks-deploy"));
  }

  beforeEach(async function () {
    fx = await (await connectionFor("tasks-deploy")).networkHelpers.loadFixture(setup);
  });

  it("grants the TaskRegistry COMPUTE, PROVIDER_SLASHER (TSK-03) and REWARD_SOURCE and lets the guardian pause both contracts", async function () {
    const { accessManager: am, taskRegistry: tasks, streamTasks } = fx.protocol;
    const t = await tasks.getAddress();
    expect((await am.hasRole(Roles.COMPUTE, t))[0]).to.equal(true);
    expect((await am.hasRole(Roles.PROVIDER_SLASHER, t))[0]).to.equal(true);
    expect((await am.hasRole(Roles.REWARD_SOURCE, t))[0]).to.equal(true);
    for (const c of [t, await streamTasks.getAddress()]) {
      expect(await am.getTargetFunctionRole(c, selectorOf("pauseFeature(bytes32)"))).to.equal(Roles.GUARDIAN);
    }
    expect(await am.getTargetFunctionRole(t, selectorOf("resolveDispute(uint256,bool)"))).to.equal(Roles.ADMIN);
  });

  // Issue 17 item 19: one role per capability. The TaskRegistry's powers are exactly its hooks; it cannot record
  // any provider's capacity in Emission nor slash a guarantor, and the ProviderRegistry cannot call task hooks.
  it("test_taskRegistry_cannotRecordCapacityOrSlashGuarantors: one role per capability", async function () {
    const { accessManager: am, taskRegistry, providerRegistry, emission, guarantorPool } = fx.protocol;
    const t = await taskRegistry.getAddress();
    const r = await providerRegistry.getAddress();
    const e = await emission.getAddress();
    const g = await guarantorPool.getAddress();
    const can = async (caller: string, target: string, sig: string) =>
      (await am.canCall(caller, target, selectorOf(sig)))[0];
    // what each holds
    expect(await can(t, r, "slash(address,uint256,address,bytes32)")).to.equal(true);
    expect(await can(t, r, "recordTaskOutcome(address,bool)")).to.equal(true);
    expect(await can(t, e, "replenish(uint256)")).to.equal(true);
    expect(await can(r, e, "recordCapacity(address,uint256)")).to.equal(true);
    // what each must not hold
    expect(await can(t, e, "recordCapacity(address,uint256)"), "tasks record capacity").to.equal(false);
    expect(await can(t, g, "slashDps(address,uint256,address)"), "tasks slash a guarantor").to.equal(false);
    expect(await can(r, r, "recordTaskOutcome(address,bool)"), "registry calls task hooks").to.equal(false);
    expect(await can(r, e, "replenish(uint256)"), "registry replenishes").to.equal(false);
    expect(await am.getTargetFunctionRole(g, selectorOf("slashDps(address,uint256,address)"))).to.equal(
      Roles.GUARANTOR_SLASHER,
    );
  });

  it("starts empty with the default parameters", async function () {
    const { taskRegistry: tasks } = fx.protocol;
    const p = await tasks.params();
    expect(p.councilFeeBps).to.equal(defaultTaskParams.councilFeeBps);
    expect(p.slashDps).to.equal(defaultTaskParams.slashDps);
    expect(await tasks.taskCount()).to.equal(0n);
  });

  it("cannot be re-initialised (SEC-02); only the admin sets parameters or resolves disputes (SEC-01)", async function () {
    const { taskRegistry: tasks, streamTasks } = fx.protocol;
    const stranger = fx.users[0]!;
    const zero = "0x0000000000000000000000000000000000000000";
    await expect(
      tasks.initialize(zero, zero, zero, [zero, zero, zero], zero, defaultTaskParams),
    ).to.be.revertedWithCustomError(tasks, "InvalidInitialization");
    await expect(streamTasks.initialize(zero, zero, [zero, zero, zero], 0)).to.be.revertedWithCustomError(
      streamTasks,
      "InvalidInitialization",
    );
    await expect(tasks.connect(stranger).setParams(defaultTaskParams)).to.be.revertedWithCustomError(
      tasks,
      "AccessManagedUnauthorized",
    );
    await expect(tasks.connect(stranger).resolveDispute(1, true)).to.be.revertedWithCustomError(
      tasks,
      "AccessManagedUnauthorized",
    );
  });
});
