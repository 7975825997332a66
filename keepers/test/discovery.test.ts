/**
 * Checker discovery (keepers/src/discover.ts) with the mock target standing in for the markets: two MockKeeperTarget
 * deployments recorded as a PerpMarket and a FuturesMarket (an artifacts directory whose PerpMarket.json and
 * FuturesMarket.json carry the mock's ABI), so the keeper finds them by their `checker()` and names the jobs
 * `funding` (ordinary) and `futures-expiry` (liveness: priority) with no job configured; the Gelato dry run lists
 * one task per function each market's checker may return.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import type { MockKeeperTarget } from "../../types/ethers-contracts/index.js";
import { toRecord, type DeploymentInfo } from "../src/deployments.js";
import { checkerJobFactories, discoverCheckers, kebab, KNOWN_CHECKERS } from "../src/discover.js";
import { jobFactories } from "../src/jobs/index.js";
import { FaultProxy } from "./fault-proxy.js";
import { account, addItems, CHAIN_ID, deployTarget, makeKeeper, node } from "./harness.js";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const MOCK_ARTIFACT = path.join(
  ROOT,
  "artifacts",
  "contracts",
  "mocks",
  "MockKeeperTarget.sol",
  "MockKeeperTarget.json",
);

describe("checker discovery: every deployed contract with checker() becomes a job named per contract (mock target as the markets)", function () {
  let perp: MockKeeperTarget;
  let futures: MockKeeperTarget;
  let deployment: DeploymentInfo;
  let artifactsDir: string;

  before(async function () {
    const a = await deployTarget("discovery-perp");
    const b = await deployTarget("discovery-futures");
    perp = a.target;
    futures = b.target;
    const dir = mkdtempSync(path.join(os.tmpdir(), "chx-keeper-discovery-"));
    artifactsDir = path.join(dir, "artifacts");
    mkdirSync(artifactsDir);
    const mock = JSON.parse(readFileSync(MOCK_ARTIFACT, "utf8")) as Record<string, unknown>;
    for (const name of ["PerpMarket", "FuturesMarket"]) {
      writeFileSync(path.join(artifactsDir, `${name}.json`), JSON.stringify({ ...mock, contractName: name }));
    }
    deployment = {
      network: "keepertest",
      chainId: CHAIN_ID,
      file: path.join(dir, "keepertest.json"),
      contracts: {
        PerpMarket: { contract: "PerpMarket", address: await perp.getAddress() },
        FuturesMarket: { contract: "FuturesMarket", address: await futures.getAddress() },
        USDC: { contract: "MockERC20", address: account(5).address },
      },
    };
    writeFileSync(deployment.file, JSON.stringify(toRecord(deployment), null, 2));
  });

  it("names jobs per contract type, with the liveness ones priority; covered contracts and explicit targets are not discovered twice", function () {
    expect(kebab("LiquidityVault")).to.equal("liquidity-vault");
    expect(KNOWN_CHECKERS.PerpMarket?.job).to.equal("funding");
    expect(KNOWN_CHECKERS.OptionsMarket).to.deep.include({ job: "options-expiry", priority: true });
    const found = discoverCheckers(deployment, artifactsDir);
    expect(found.map((f) => [f.name, f.job, f.priority])).to.deep.equal([
      ["PerpMarket", "funding", false],
      ["FuturesMarket", "futures-expiry", true],
    ]);
    expect(checkerJobFactories(deployment, artifactsDir, jobFactories).map((f) => f.name)).to.deep.equal([
      "funding",
      "futures-expiry",
    ]);
    // An explicit checker target is the checker job's; a dedicated job's contract type is its own.
    expect(
      checkerJobFactories(deployment, artifactsDir, jobFactories, ["PerpMarket"]).map((f) => f.name),
    ).to.deep.equal(["futures-expiry"]);
    const covering = [{ ...jobFactories[0]!, name: "x", covers: ["FuturesMarket"] }];
    expect(checkerJobFactories(deployment, artifactsDir, covering).map((f) => f.name)).to.deep.equal(["funding"]);
  });

  it("with no job configured the keeper runs both; on a gas spike (100 gwei, ceiling 50) futures-expiry (priority) goes ahead and funding waits", async function () {
    await addItems(perp, 1);
    await addItems(futures, 1);
    await node().rpc("hardhat_setNextBlockBaseFeePerGas", ["0x3b9aca00"]); // 1 gwei
    await node().rpc("evm_mine", []);
    const px = await new FaultProxy(node().url).start();
    const k = makeKeeper({
      deployment,
      accountIndex: 7,
      urls: [px.url],
      config: { artifactsDir, jobs: {} },
    });
    try {
      const summary = k.summary().join("\n");
      expect(summary).to.match(
        /job funding: poll checker\(\) of PerpMarket and send execPayload \(gas ceiling 50 gwei/,
      );
      expect(summary).to.match(/job futures-expiry: poll checker\(\) of FuturesMarket \(priority\)/);
      expect(summary).to.match(/job mock-target: off — MockKeeperTarget is not in/);
      px.gasMultiplier(100); // 100 gwei base fee: above the default 50 gwei ceiling
      const spike = await k.tick();
      expect(spike.errors).to.deep.equal([]);
      expect(spike.results.map((r) => [r.job, r.outcome, r.priority])).to.have.deep.members([
        ["futures-expiry", "success", true],
        ["funding", "skipped-gas", false],
      ]);
      px.gasMultiplier(1);
      const calm = await k.tick();
      expect(calm.results.map((r) => [r.job, r.outcome])).to.deep.equal([["funding", "success"]]);
      expect((await k.tick()).results).to.deep.equal([]);
    } finally {
      await k.stop(0);
      await px.stop();
    }
  });

  it("per-job settings by the discovered name; liveness work cannot be made skippable; unknown options fail", function () {
    const only = makeKeeper({
      deployment,
      accountIndex: 7,
      config: { artifactsDir, jobs: { funding: { gasCeilingGwei: 5 } } },
    });
    expect(only.jobs.map((j) => [j.name, j.config.gasCeilingGwei])).to.deep.equal([["funding", 5]]);
    expect(() =>
      makeKeeper({
        deployment,
        accountIndex: 7,
        config: { artifactsDir, jobs: { "futures-expiry": { priority: false } } },
      }),
    ).to.throw(/"jobs.futures-expiry.priority" cannot be false: futures-expiry is liveness work/);
    expect(() =>
      makeKeeper({ deployment, accountIndex: 7, config: { artifactsDir, jobs: { funding: { interval: 5 } } } }),
    ).to.throw(/Unknown option "jobs.funding.interval"/);
    const off = makeKeeper({
      deployment,
      accountIndex: 7,
      config: { artifactsDir, discoverCheckers: false, jobs: {} },
    });
    expect(off.jobs.map((j) => j.name)).to.not.include("funding");
  });

  it("keeper:gelato dry run lists the discovered jobs: one task per function each market's checker may return", async function () {
    const cfgFile = path.join(path.dirname(deployment.file), "keeper.json");
    writeFileSync(cfgFile, JSON.stringify({ artifactsDir, deploymentsDir: path.dirname(deployment.file) }));
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          path.join(ROOT, "keepers", "src", "gelato.ts"),
          "--network",
          "keepertest",
          "--config",
          cfgFile,
        ],
        { cwd: ROOT, env: { ...process.env, CHX_KEEPER_RPC_URLS: node().url }, stdio: ["ignore", "pipe", "pipe"] },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("exit", (code) => resolve({ code, stdout, stderr }));
    });
    expect(out.code, out.stderr).to.equal(0);
    expect(out.stderr).to.include("dry run: 11 Gelato task(s) built");
    const json = JSON.parse(out.stdout) as {
      registrations: Array<{ contract: string; job: string; execFunction: string; selectorSource: string }>;
    };
    expect(json.registrations.map((r) => [r.job, r.contract, r.execFunction, r.selectorSource])).to.deep.equal([
      ["funding", "PerpMarket", "executeOrder(address,uint80)", "contract type"],
      ["funding", "PerpMarket", "cancelOrder(address)", "contract type"],
      ["funding", "PerpMarket", "pokeFunding()", "contract type"],
      ["futures-expiry", "FuturesMarket", "executeOrder(address,uint256,uint80)", "contract type"],
      ["futures-expiry", "FuturesMarket", "cancelOrder(address,uint256)", "contract type"],
      ["futures-expiry", "FuturesMarket", "fixSettlementPrice(uint256)", "contract type"],
      ["futures-expiry", "FuturesMarket", "fixSettlementPriceAt(uint256,uint80,uint64[])", "contract type"],
      [
        "futures-expiry",
        "FuturesMarket",
        "fixSettlementPriceFallback(uint256,uint80,uint64,uint80,uint64)",
        "contract type",
      ],
      ["futures-expiry", "FuturesMarket", "finalizeSettlement(uint256)", "contract type"],
      ["futures-expiry", "FuturesMarket", "settlePosition(uint256,address)", "contract type"],
      ["futures-expiry", "FuturesMarket", "listStandardSeriesAt(uint8,uint64)", "contract type"],
    ]);
  });
});
