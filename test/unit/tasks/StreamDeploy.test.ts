import { expect } from "chai";
import { connectionFor, deployAll, type Fixture } from "../../helpers/fixture.js";
import { streamConsensusParams, STREAM_SUBSCRIPTION_LOCK_DPS } from "../../../scripts/deploy/modules/tasks.js";
import { Roles, selectorOf } from "@chx/sdk";

// Issue 21 item 4: the deploy wires StreamTasks' on-chain consensus: the StreamConsensus library linked, the slasher
// role for members at fault (and nothing more), and the consensus parameters.
describe("tasks deploy module: stream consensus", function () {
  let fx: Fixture;

  async function setup(): Promise<Fixture> {
    return deployAll(await connectionFor("stream-deploy"));
  }

  beforeEach(async function () {
    fx = await (await connectionFor("stream-deploy")).networkHelpers.loadFixture(setup);
  });

  it("grants StreamTasks PROVIDER_SLASHER and sets the consensus parameters", async function () {
    const { accessManager: am, streamTasks, providerRegistry, guarantorPool } = fx.protocol;
    const s = await streamTasks.getAddress();
    const r = await providerRegistry.getAddress();
    expect((await am.hasRole(Roles.PROVIDER_SLASHER, s))[0]).to.equal(true);
    expect((await am.canCall(s, r, selectorOf("slash(address,uint256,address,bytes32)")))[0]).to.equal(true);
    expect(
      (await am.canCall(s, await guarantorPool.getAddress(), selectorOf("slashDps(address,uint256,address)")))[0],
      "a stream slashes no guarantor",
    ).to.equal(false);
    expect((await am.canCall(s, r, selectorOf("recordTaskOutcome(address,bool)")))[0], "no task hooks").to.equal(false);
    const p = await streamTasks.consensusParams();
    expect(p.answerWindowSec).to.equal(BigInt(streamConsensusParams.answerWindowSec));
    expect(p.clientPenaltyBps).to.equal(BigInt(streamConsensusParams.clientPenaltyBps));
    expect(p.slashDps).to.equal(STREAM_SUBSCRIPTION_LOCK_DPS);
    expect(
      await am.getTargetFunctionRole(
        s,
        selectorOf("setConsensusParams((uint32,uint32,uint32,uint32,uint32,uint16,uint16,uint96))"),
      ),
    ).to.equal(Roles.ADMIN);
  });
});
