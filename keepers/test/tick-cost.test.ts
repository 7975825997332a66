/**
 * What one tick costs (docs/keepers.md, "Cost of a tick"): the checker job reads its targets at once, not one after
 * the other, and the tick's fee quote takes the base fee from the head block it has just read instead of reading
 * `latest` again (fakes of the JSON-RPC client); a tick's transactions on an automining node settle without a poll
 * sleep (the real node).
 */
import { expect } from "chai";
import { AbiCoder, Interface, parseEther } from "ethers";
import type { Logger } from "pino";
import type { ChainClient } from "../src/chain/client.js";
import { quoteFees } from "../src/chain/gas.js";
import { checkerJob } from "../src/jobs/checker-job.js";
import type { JobContext } from "../src/jobs/types.js";
import { account, addItems, counts, deployTarget, makeKeeper, node } from "./harness.js";

const CHECKER = new Interface(["function checker() view returns (bool canExec, bytes execPayload)"]);

/** A client whose checker() answers come back after `delayMs`, counting reads in flight at once. */
function slowCheckerClient(answers: Map<string, [boolean, string]>, delayMs: number) {
  let inFlight = 0;
  let maxInFlight = 0;
  const order: string[] = [];
  const client = {
    async read<T>(_label: string, fn: (p: unknown) => Promise<T>): Promise<T> {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        const runner = {
          provider: null,
          async call(tx: { to: string; data: string }): Promise<string> {
            await new Promise((r) => setTimeout(r, delayMs));
            order.push(tx.to.toLowerCase());
            const [canExec, payload] = answers.get(tx.to.toLowerCase())!;
            return AbiCoder.defaultAbiCoder().encode(["bool", "bytes"], [canExec, payload]);
          },
        };
        return await fn(runner);
      } finally {
        inFlight--;
      }
    },
  };
  return { client: client as unknown as ChainClient, maxInFlight: () => maxInFlight, order };
}

function ctxOf(client: ChainClient): JobContext {
  const log = { child: () => log, debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;
  return {
    client,
    deployment: { network: "test", chainId: 31337, file: "test", contracts: {} },
    config: { enabled: true, gasCeilingGwei: 50, minProfitFactor: 1, options: {} } as unknown as JobContext["config"],
    log,
    keeper: "0x0000000000000000000000000000000000000001",
    head: { number: 10, hash: "0x" + "00".repeat(32), timestamp: 1_000 },
    safeBlock: 10,
  };
}

describe("cost of a tick", function () {
  it("the checker job reads every target's checker() at once and keeps the targets' order in its candidates", async function () {
    const targets = ["A", "B", "C", "D"].map((contract, i) => ({
      contract,
      address: `0x${String(i + 1).padStart(40, "0")}`,
      priority: i % 2 === 0,
    }));
    const payload = (i: number) => CHECKER.getFunction("checker")!.selector + String(i).padStart(8, "0");
    const answers = new Map<string, [boolean, string]>(
      targets.map((t, i) => [t.address.toLowerCase(), [i !== 1, i === 3 ? "0x" : payload(i)]]),
    );
    const fake = slowCheckerClient(answers, 40);
    const job = checkerJob(targets);
    const t0 = performance.now();
    const candidates = await job.scan(ctxOf(fake.client));
    const ms = performance.now() - t0;
    expect(fake.maxInFlight()).to.equal(4);
    expect(ms).to.be.lessThan(4 * 40); // one round trip, not four
    // B cannot exec, D has an empty payload: the same decisions as one read after the other
    expect(candidates.map((c) => c.data.contract)).to.deep.equal(["A", "C"]);
    expect(candidates.map((c) => c.priority)).to.deep.equal([true, true]);
    expect(candidates.map((c) => c.data.payload)).to.deep.equal([payload(0), payload(2)]);
    expect(candidates.every((c) => c.key.action === `checker:${c.data.contract}`)).to.equal(true);
  });

  it("the checker job's scan fails as before when one target's read fails (the job backs off, nothing half-planned)", async function () {
    const client = {
      async read<T>(_l: string, fn: (p: unknown) => Promise<T>): Promise<T> {
        return fn({
          provider: null,
          async call(tx: { to: string }): Promise<string> {
            if (tx.to.endsWith("2")) throw new Error("node down");
            return AbiCoder.defaultAbiCoder().encode(["bool", "bytes"], [true, "0x12345678"]);
          },
        });
      },
    } as unknown as ChainClient;
    const job = checkerJob([
      { contract: "A", address: `0x${"1".padStart(40, "0")}` },
      { contract: "B", address: `0x${"2".padStart(40, "0")}` },
    ]);
    let err: unknown;
    await job.scan(ctxOf(client)).catch((e: unknown) => (err = e));
    expect(String(err)).to.match(/node down/);
  });

  it("the fee quote takes the base fee of the head block it is given: no second eth_getBlockByNumber, the same quote", async function () {
    const calls: string[] = [];
    const client = {
      async send<T>(method: string): Promise<T> {
        calls.push(method);
        if (method === "eth_getBlockByNumber") return { baseFeePerGas: "0x3b9aca00" } as T; // 1 gwei
        if (method === "eth_maxPriorityFeePerGas") return "0x77359400" as T; // 2 gwei
        if (method === "eth_gasPrice") return "0xb2d05e00" as T; // 3 gwei
        throw new Error(method);
      },
    } as unknown as ChainClient;
    const read = await quoteFees(client, 1.5);
    expect(calls).to.deep.equal(["eth_getBlockByNumber", "eth_maxPriorityFeePerGas"]);
    calls.length = 0;
    const given = await quoteFees(client, 1.5, { baseFeePerGas: 1_000_000_000n });
    expect(calls).to.deep.equal(["eth_maxPriorityFeePerGas"]);
    expect(given).to.deep.equal(read);
    // a pre-London head (no base fee): priced by eth_gasPrice, as a block read without one
    calls.length = 0;
    const legacy = await quoteFees(client, 1.5, { baseFeePerGas: null });
    expect(calls).to.deep.equal(["eth_gasPrice"]);
    expect(legacy).to.deep.equal({
      baseFeeWei: 3_000_000_000n,
      priorityFeeWei: 0n,
      maxFeeWei: 3_000_000_000n,
      effectiveWei: 3_000_000_000n,
      legacy: true,
    });
  });

  it("a tick sending several transactions settles them without a receipt-poll sleep (the watcher's first poll reads afresh)", async function () {
    const { target, deployment } = await deployTarget("tick-cost");
    await addItems(target, 3);
    // a fresh signer (index 70), funded here; replaceAfterMs 20 s: one poll sleep would cost 2 s
    const funder = account(0).connect(node().provider);
    await (await funder.sendTransaction({ to: account(70).address, value: parseEther("1") })).wait();
    const k = makeKeeper({ deployment, accountIndex: 70, config: { replaceAfterMs: 20_000, maxInFlight: 1 } });
    try {
      await k.tick({ wait: true }); // start-up (genesis, nonces) out of the measurement
      await addItems(target, 3);
      const t0 = performance.now();
      const r = await k.tick({ wait: true });
      const ms = performance.now() - t0;
      expect(counts(r.results)).to.deep.equal({ success: 3 });
      // one after the other (maxInFlight 1): the second and third watchers found the first one's count cached
      // (younger than pollMs / 2 = 1 s) and slept 2 s each before reading again
      expect(ms, `tick took ${Math.round(ms)} ms`).to.be.lessThan(2_000);
    } finally {
      await k.stop(1_000);
    }
  });
});
