/** The CLI as an operator runs it: a child process against the real node, --once, graceful SIGTERM, one-sentence failures. */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { account, addItems, deployTarget, node } from "./harness.js";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const BIN = path.join(ROOT, "keepers", "bin", "chx-keeper.mjs");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(
  args: string[],
  env: Record<string, string>,
  onStdout?: (s: string, kill: (sig: NodeJS.Signals) => void) => void,
) {
  return new Promise<Run>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, CHX_KEEPER_DATA_DIR: env.CHX_KEEPER_DEPLOYMENTS_DIR ?? os.tmpdir(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), 40_000);
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(stdout + stderr, (sig) => child.kill(sig));
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      onStdout?.(stdout + stderr, (sig) => child.kill(sig));
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("chx-keeper CLI (child process, real node)", function () {
  it("--once prints the startup summary, does the due work and exits 0", async function () {
    const { target, dir } = await deployTarget("cli");
    await addItems(target, 2);
    const r = await cli(["--network", "keepertest", "--once", "--metrics-port", "-1"], {
      CHX_KEEPER_DEPLOYMENTS_DIR: dir,
      CHX_KEEPER_RPC_URLS: node().url,
      CHX_KEEPER_KEY: account(1).privateKey,
      CHX_KEEPER_CONFIRMATIONS: "0",
    });
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.match(/CHX keeper 0x[0-9a-fA-F]{40} on keepertest \(chain 31337/);
    expect(r.stderr).to.include("job mock-target: execute due items of MockKeeperTarget");
    expect(r.stderr).to.include('job checker: off — no "targets" configured for the checker job');
    expect(r.stderr).to.match(/tick at block \d+: 2 success/);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { job?: string; key?: string; msg: string });
    const done = lines.filter((l) => l.job === "mock-target" && l.key !== undefined);
    expect(done.map((l) => l.key).sort()).to.deep.equal(["mock.execute:0:-", "mock.execute:1:-"]);
    expect(await target.executedCount()).to.equal(2n);
  });

  it("stops gracefully on SIGTERM and serves /health meanwhile on the configured bind address (--metrics-host)", async function () {
    const { target, dir } = await deployTarget("cli-signal");
    await addItems(target, 1);
    let port: number | undefined;
    let healthStatus: number | undefined;
    let signalled = false;
    const r = await cli(
      ["--network", "keepertest", "--metrics-port", "0", "--metrics-host", "127.0.0.2"],
      {
        CHX_KEEPER_DEPLOYMENTS_DIR: dir,
        CHX_KEEPER_RPC_URLS: node().url,
        CHX_KEEPER_KEY: account(2).privateKey,
        CHX_KEEPER_POLL_MS: "300",
        CHX_KEEPER_CONFIRMATIONS: "0",
      },
      (out, kill) => {
        const m = /http:\/\/127\.0\.0\.2:(\d+)\/metrics/.exec(out);
        if (m !== null) port = Number(m[1]);
        if (!signalled && port !== undefined && out.includes("execute item 0: done")) {
          signalled = true;
          // the tick that sent the transaction may still be finishing: poll /health briefly
          void (async () => {
            for (let i = 0; i < 20 && healthStatus !== 200; i++) {
              healthStatus = (await fetch(`http://127.0.0.2:${port}/health`)).status;
              if (healthStatus !== 200) await new Promise((r) => setTimeout(r, 100));
            }
          })().finally(() => kill("SIGTERM"));
        }
      },
    );
    expect(r.code, r.stderr).to.equal(0);
    expect(healthStatus).to.equal(200);
    expect(r.stdout).to.include('"msg":"keeper stopped"');
    expect(await target.executedCount()).to.equal(1n);
  });

  it("fails with one clear sentence and exit 1 on a configuration error", async function () {
    const { dir } = await deployTarget("cli-bad");
    const noKey = await cli(["--network", "keepertest", "--once"], {
      CHX_KEEPER_DEPLOYMENTS_DIR: dir,
      CHX_KEEPER_RPC_URLS: node().url,
      CHX_KEEPER_KEY: "",
    });
    expect(noKey.code).to.equal(1);
    expect(noKey.stderr.trim()).to.equal(
      "chx-keeper: No keeper key: set CHX_KEEPER_KEY, or CHX_KEEPER_KEYSTORE with CHX_KEEPER_KEYSTORE_PASSWORD.",
    );
    const file = path.join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ pollIntervalMS: 1000 }));
    const typo = await cli(["--network", "keepertest", "--config", file], {
      CHX_KEEPER_DEPLOYMENTS_DIR: dir,
      CHX_KEEPER_KEY: account(3).privateKey,
    });
    expect(typo.code).to.equal(1);
    expect(typo.stderr.trim()).to.equal(
      'chx-keeper: Unknown config key "pollIntervalMS" (check the spelling against docs/keepers.md).',
    );
    const noDeploy = await cli(["--network", "nowhere", "--once"], {
      CHX_KEEPER_RPC_URLS: node().url,
      CHX_KEEPER_KEY: account(3).privateKey,
    });
    expect(noDeploy.code).to.equal(1);
    expect(noDeploy.stderr.trim()).to.equal(
      "chx-keeper: No deployment record at deployments/nowhere.json: deploy first (npm run deploy -- --network <name>).",
    );
  });
});

describe("issue 25: what an operator hit, through the CLI (child process, real node)", function () {
  const base = (dir: string, key = account(3).privateKey) => ({
    CHX_KEEPER_DEPLOYMENTS_DIR: dir,
    CHX_KEEPER_RPC_URLS: node().url,
    CHX_KEEPER_KEY: key,
    CHX_KEEPER_CONFIRMATIONS: "0",
  });

  it("test_jobsSectionIsAnOverride_notAnAllowList: the README's one-job section leaves the other jobs on", async function () {
    const { target, dir } = await deployTarget("cli-override");
    await addItems(target, 2);
    const file = path.join(dir, "k.json");
    writeFileSync(file, JSON.stringify({ jobs: { checker: { gasCeilingGwei: 30 } } }));
    const r = await cli(["--network", "keepertest", "--config", file, "--once", "--metrics-port", "-1"], base(dir));
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.include("job mock-target: execute due items");
    expect(r.stderr).to.match(/tick at block \d+: 2 success/);
    expect(await target.executedCount()).to.equal(2n);
  });

  it("test_unknownJobName_failsAtStartup: a typo in --jobs or in the config is one sentence and exit 1", async function () {
    const { dir } = await deployTarget("cli-typo");
    const flag = await cli(["--network", "keepertest", "--jobs", "mock-targt", "--once"], base(dir));
    expect(flag.code).to.equal(1);
    expect(flag.stderr.trim()).to.match(
      /^chx-keeper: --jobs names "mock-targt", which is no job of this keeper \(known: .*mock-target.*\)\.$/,
    );
    const file = path.join(dir, "typo.json");
    writeFileSync(file, JSON.stringify({ jobs: { "mock-targt": { gasCeilingGwei: 30 } } }));
    const cfg = await cli(["--network", "keepertest", "--config", file, "--once"], base(dir));
    expect(cfg.code).to.equal(1);
    expect(cfg.stderr.trim()).to.match(
      /^chx-keeper: Config "jobs\.mock-targt" names no job of this keeper on .*keepertest\.json \(known: .*\)\.$/,
    );
  });

  it("test_noEnabledJob_failsAtStartup: a keeper that would do nothing exits 1 (and /health is never 200)", async function () {
    const { dir } = await deployTarget("cli-nojob");
    const r = await cli(["--network", "keepertest", "--jobs", "checker", "--once"], base(dir));
    expect(r.code).to.equal(1);
    expect(r.stderr.trim()).to.equal(
      'chx-keeper: No job is enabled on keepertest, so this keeper would do nothing (checker: no "targets" configured for the checker job).',
    );
  });

  it("test_dryRunNeedsNoKey: --dry-run simulates from no key at all", async function () {
    const { target, dir } = await deployTarget("cli-dry");
    await addItems(target, 1);
    const r = await cli(["--network", "keepertest", "--dry-run", "--once", "--metrics-port", "-1"], base(dir, ""));
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.match(/CHX keeper 0x0{40} \(no key: dry run\)/);
    expect(r.stdout).to.include("would send: execute item 0");
    expect(await target.executedCount()).to.equal(0n);
  });

  it("test_startupChecks_chainIdCodeBalance: each problem is one sentence naming what is wrong", async function () {
    const { dir, deployment } = await deployTarget("cli-checks");
    const record = JSON.parse(readFileSync(deployment.file, "utf8")) as {
      chainId: number;
      contracts: Record<string, { address: string }>;
    };
    const wrongChain = path.join(dir, "wrongchain");
    const noCode = path.join(dir, "nocode");
    for (const d of [wrongChain, noCode]) (await import("node:fs")).mkdirSync(d);
    writeFileSync(path.join(wrongChain, "keepertest.json"), JSON.stringify({ ...record, chainId: 1 }));
    const ghost = "0x000000000000000000000000000000000000dEaD";
    writeFileSync(
      path.join(noCode, "keepertest.json"),
      JSON.stringify({
        ...record,
        contracts: { MockKeeperTarget: { ...record.contracts.MockKeeperTarget, address: ghost } },
      }),
    );
    const chain = await cli(["--network", "keepertest", "--once"], base(wrongChain));
    expect(chain.code).to.equal(1);
    expect(chain.stderr.trim()).to.match(
      /keepertest\.json is for chain 1, but the node at http:\/\/127\.0\.0\.1:\d+ is chain 31337: wrong network or RPC URL\.$/,
    );
    const code = await cli(["--network", "keepertest", "--once"], base(noCode));
    expect(code.code).to.equal(1);
    expect(code.stderr.trim()).to.match(
      /names contracts with no code on chain 31337: MockKeeperTarget \(0x000000000000000000000000000000000000dEaD\) — a reset node or a stale record \(redeploy\)\.$/,
    );
    const poor = account(70);
    await node().rpc("hardhat_setBalance", [poor.address, "0x0"]);
    const broke = await cli(["--network", "keepertest", "--once"], base(dir, poor.privateKey));
    expect(broke.code).to.equal(1);
    expect(broke.stderr.trim()).to.equal(
      `chx-keeper: The keeper ${poor.address} has no ETH on chain 31337: fund it before starting (liquidations and deadlines need gas).`,
    );
  });

  it("test_npmRunKeeper_SIGTERM_reachesTheKeeper: a supervisor stopping `npm run keeper` leaves no orphan", async function () {
    const { target, dir } = await deployTarget("cli-npm");
    await addItems(target, 1);
    const child = spawn("npm", ["run", "--silent", "keeper", "--", "--network", "keepertest", "--metrics-port", "-1"], {
      cwd: ROOT,
      env: { ...process.env, ...base(dir, account(4).privateKey), CHX_KEEPER_DATA_DIR: dir, CHX_KEEPER_POLL_MS: "300" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    let keeperPid: number | undefined;
    const started = new Promise<void>((resolve) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /"pid":(\d+),[^\n]*"msg":"keeper started"/.exec(out);
        if (m !== null && keeperPid === undefined) {
          keeperPid = Number(m[1]);
          resolve();
        }
      });
    });
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    // 'close' fires once every holder of the stdout pipe (npm and the keeper it started) has closed it, so the
    // keeper's last log line has been read; 'exit' (npm alone) can come before that line is delivered.
    const closed = new Promise<void>((r) => child.on("close", () => r()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 40_000);
    try {
      await started;
      child.kill("SIGTERM"); // what systemd / docker / a supervisor sends to the process it started
      await exited;
      const alive = () => {
        try {
          process.kill(keeperPid!, 0);
          return true;
        } catch {
          return false;
        }
      };
      for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(alive(), `keeper pid ${keeperPid} still running after npm exited`).to.equal(false);
      await Promise.race([closed, new Promise((r) => setTimeout(r, 10_000))]);
      expect(out, `stdout tail: ${out.slice(-600)}\nstderr tail: ${err.slice(-600)}`).to.include(
        '"msg":"keeper stopped"',
      );
    } finally {
      clearTimeout(timer);
      if (keeperPid !== undefined) {
        try {
          process.kill(keeperPid, "SIGKILL");
        } catch {
          // gone
        }
      }
    }
  });
});

describe("keeper:gelato (child process, real node)", function () {
  it("dry run prints a Gelato task registration for every checker() contract, exec selector read from a live checker()", async function () {
    const { target, dir } = await deployTarget("gelato");
    await addItems(target, 1);
    const out = await new Promise<Run>((resolve) => {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", path.join(ROOT, "keepers", "src", "gelato.ts"), "--network", "keepertest"],
        {
          cwd: ROOT,
          env: { ...process.env, CHX_KEEPER_DEPLOYMENTS_DIR: dir, CHX_KEEPER_RPC_URLS: node().url },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("exit", (code) => resolve({ code, stdout, stderr }));
    });
    expect(out.code, out.stderr).to.equal(0);
    expect(out.stderr).to.include("dry run: 1 Gelato task(s) built");
    const json = JSON.parse(out.stdout) as {
      registrations: Array<{
        contract: string;
        selectorSource: string;
        options: Record<string, unknown>;
        moduleData: { modules: number[] };
      }>;
    };
    const [reg] = json.registrations;
    const address = await target.getAddress();
    expect(reg?.contract).to.equal("MockKeeperTarget");
    expect(reg?.selectorSource).to.equal("live checker()");
    expect(reg?.options).to.deep.include({
      execAddress: address,
      resolverAddress: address,
      execSelector: target.interface.getFunction("execute").selector,
      resolverData: target.interface.encodeFunctionData("checker"),
      dedicatedMsgSender: true,
    });
    expect(reg?.moduleData.modules).to.deep.equal([0, 2, 5]); // resolver, dedicated msg.sender proxy, trigger
  });
});
