/**
 * The emission job's collect step (issue 18, round 38) against the real protocol on the shared node: five attested
 * providers heartbeat in epoch 1 (the ProviderRegistry keeps their samples, Emission's sample source), time moves
 * past the epoch's end, and the keeper — batch 2, so the collection needs three batches — pages `collect(2)` until
 * every provider is collected (EMI-01/EMI-04: the close runs on the exact total), then closes and rebalances on the
 * next tick. Each test starts from the same snapshot.
 */
import { expect } from "chai";
import { parseUnits, toBeHex, type Wallet } from "ethers";
import { collectBatches, decodeCollectWord, EMISSION_COLLECT_SLOT, type CollectState } from "../src/jobs/emission.js";
import { account, counts, makeKeeper, node } from "./harness.js";
import { type DeployedProtocol } from "./protocol.js";
import { onboardProvider, protocolSuite } from "./fixtures.js";
import { type Protocol } from "@chx/sdk";

const KEEPER_A = 20;
const FIRST_PROVIDER = 80;
const PROVIDERS = 5;
const BATCH = 2;
const DAY = 86_400;
const EPOCH = 15 * DAY;
const wad = (x: string) => parseUnits(x, 18);

describe("emission job: collect step (registry samples, real protocol, real node)", function () {
  let deployed: DeployedProtocol;
  let protocol: Protocol;
  let providers: Wallet[];
  let epoch1Start: number;

  const latest = async () => (await node().provider.getBlock("latest"))!.timestamp;
  const mineAt = async (ts: number) => {
    await node().rpc("evm_setNextBlockTimestamp", [ts]);
    await node().rpc("evm_mine", []);
  };
  const collectWord = async () =>
    decodeCollectWord(await node().provider.getStorage(await protocol.emission.getAddress(), EMISSION_COLLECT_SLOT));

  protocolSuite(120_000, async (d) => {
    deployed = d;
    protocol = d.protocol;
    const p = node().provider;
    const admin = account(0).connect(p);
    for (const i of [KEEPER_A, ...Array.from({ length: PROVIDERS }, (_, k) => FIRST_PROVIDER + k)]) {
      await node().rpc("hardhat_setBalance", [account(i).address, toBeHex(10n ** 22n)]);
    }
    const { providerRegistry: reg, dps, emission } = protocol;
    await (await emission.setMinSamples(1)).wait(); // from epoch 1: one sample gives a GFL
    await (await dps.approve(await emission.getAddress(), wad("100"))).wait();
    await (await emission.fundKeeperBudget(wad("100"))).wait();
    epoch1Start = Number(await emission.epochStart(1n));
    await mineAt(Math.max((await latest()) + 1, epoch1Start + 60));
    await (await emission.closeEpoch()).wait(); // epoch 0: nothing sampled, closes at once
    expect(await emission.currentEpoch()).to.equal(1n);
    providers = Array.from({ length: PROVIDERS }, (_, k) => account(FIRST_PROVIDER + k).connect(p));
    for (const pr of providers) {
      await onboardProvider(protocol, admin, pr, "keeper-collect", await latest());
      await (await reg.connect(pr).heartbeat(wad("0.5"))).wait();
    }
    // Past the end of epoch 1: its samples wait in the registry's rings.
    await mineAt(epoch1Start + EPOCH + 60);
    expect(await emission.epochDue()).to.equal(true);
  });

  it("pages collect(2) until the epoch is collected (one tick), then closes on the exact total and rebalances", async function () {
    const { emission, gfl } = protocol;
    const state = await collectWord();
    expect(state.source).to.equal(await protocol.providerRegistry.getAddress());
    expect([state.cursor, state.collected, state.done]).to.deep.equal([0n, 0n, false]);
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { jobs: { emission: { batchSize: BATCH, gasCeilingGwei: 20 } } },
    });
    try {
      const from = (await node().provider.getBlockNumber()) + 1;
      const first = await k.tick();
      expect(first.errors).to.deep.equal([]);
      // Only the collection this tick: a close now would collect one batch and not close.
      expect(first.results.map((x) => [x.key, x.outcome])).to.have.deep.members([
        ["emission.collect:0:1", "success"],
        ["emission.collect:2:1", "success"],
        ["emission.collect:4:1", "success"],
      ]);
      const batches = await emission.queryFilter(emission.filters.CollectionBatch(), from, "latest");
      expect(batches.map((b) => [b.args.epoch, b.args.collected])).to.deep.equal([
        [1n, 2n],
        [1n, 2n],
        [1n, 1n],
      ]);
      expect(await emission.currentEpoch()).to.equal(1n); // not closed by the collection itself
      const after = await collectWord();
      expect([after.collected, after.done]).to.deep.equal([5n, true]);

      const second = await k.tick();
      expect(second.errors).to.deep.equal([]);
      expect(second.results.map((x) => [x.key, x.outcome])).to.have.deep.members([
        ["emission.closeEpochs:-:1", "success"],
        ["emission.rebalance:0:2", "success"],
        ["emission.rebalance:2:2", "success"],
        ["emission.rebalance:4:2", "success"],
      ]);
      expect(await emission.currentEpoch()).to.equal(2n);
      // EMI-01/EMI-04: the closed total is every provider's median (one sample of 0.5 PFLOPS each), no more.
      expect((await emission.epochInfo(1n)).totalGfl).to.equal(wad("2.5"));
      for (const pr of providers) expect(await gfl.balanceOf(pr.address)).to.equal(wad("0.5"));
      // Nothing left: no candidate, no transaction.
      expect((await k.tick()).results).to.deep.equal([]);
    } finally {
      await k.stop(0);
    }
  });

  it("a collection half done by someone else: the keeper plans only the batches left, from the on-chain cursor", async function () {
    const { emission } = protocol;
    await (await emission.collect(BATCH)).wait(); // another keeper collected providers 0-1
    expect((await collectWord()).cursor).to.equal(2n);
    const k = makeKeeper({
      deployment: deployed.deployment,
      accountIndex: KEEPER_A,
      config: { jobs: { emission: { batchSize: BATCH, gasCeilingGwei: 20 } } },
    });
    try {
      const r = await k.tick();
      expect(r.results.map((x) => [x.key, x.outcome])).to.have.deep.members([
        ["emission.collect:2:1", "success"],
        ["emission.collect:4:1", "success"],
      ]);
      expect(counts((await k.tick()).results)).to.deep.equal({ success: 4 }); // the close and three batches
      expect((await emission.epochInfo(1n)).totalGfl).to.equal(wad("2.5"));
    } finally {
      await k.stop(0);
    }
  });

  it("plans no surplus batch: the fewer of the list left and the samples left, none once done", function () {
    const s = (cursor: bigint, collected: bigint, done = false): CollectState => ({
      source: "0x0000000000000000000000000000000000000001",
      cursor,
      collected,
      done,
    });
    expect(collectBatches(s(0n, 0n), 5n, 5n, 2)).to.equal(3);
    expect(collectBatches(s(2n, 2n), 5n, 5n, 2)).to.equal(2);
    // 1,000 listed, 10 with samples: one batch may collect them all; a sparse list goes on next tick.
    expect(collectBatches(s(0n, 0n), 1_000n, 10n, 100)).to.equal(1);
    expect(collectBatches(s(600n, 0n), 1_000n, 1_000n, 100)).to.equal(4);
    expect(collectBatches(s(0n, 10n), 1_000n, 10n, 100)).to.equal(0);
    expect(collectBatches(s(3n, 0n, true), 5n, 5n, 2)).to.equal(0);
    const w = decodeCollectWord(
      "0x" + ((1n << 224n) | (7n << 192n) | (9n << 160n) | 0xabcdefn).toString(16).padStart(64, "0"),
    );
    expect([w.source.toLowerCase(), w.cursor, w.collected, w.done]).to.deep.equal([
      "0x0000000000000000000000000000000000abcdef",
      9n,
      7n,
      true,
    ]);
  });
});
