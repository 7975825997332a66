// OPS-03 end-to-end check: a local Hardhat node, the real deploy (deployProtocol), a scripted scenario, then the
// node's logs replayed through the BUILT subgraph and every aggregate compared with the contract getters at the
// same block. Used by subgraph/scripts/test.mjs; runnable alone:
//   node subgraph/scripts/e2e.mjs        (starts its own node on a free port, never 8545; stops it at the end)
import fs from "node:fs";
import os from "node:os";
import net from "node:net";
import path from "node:path";
import { spawn, execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Contract, JsonRpcProvider, ZeroAddress, id as keccakId, parseUnits, getAddress } from "ethers";
import { SubgraphReplay } from "../test-runner/replay.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const subgraphDir = path.resolve(here, "..");
const repoRoot = path.resolve(subgraphDir, "..");

// ------------------------------------------------------------------------------------------------ node lifecycle
export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => (port === 8545 ? freePort().then(resolve, reject) : resolve(port)));
    });
  });
}

/** Starts `hardhat node` on 127.0.0.1:<free port>; resolves once it answers JSON-RPC. stop() kills only it. */
export async function startNode({ log = () => {} } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn("npx", ["hardhat", "node", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // own process group: stop() ends npx and the node it started, nothing else
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  let exited = false;
  child.on("exit", () => (exited = true));
  const stop = () => {
    if (exited) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`hardhat node exited early:\n${output.slice(-2000)}`);
    try {
      const r = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`hardhat node did not answer on ${url} within 60 s`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  log(`node: ${url} (pid ${child.pid})`);
  return { url, port, pid: child.pid, stop };
}

/** Runs the real deploy against `url`, writing the record to a temp file (deployments/ is never touched). */
export async function deployTo(url, recordFile) {
  await new Promise((resolve, reject) => {
    execFile(
      "npx",
      ["hardhat", "run", "subgraph/scripts/deploy-record.ts", "--network", "localhost"],
      { cwd: repoRoot, env: { ...process.env, CHX_LOCAL_RPC: url, CHX_SUBGRAPH_RECORD: recordFile } },
      (err, stdout, stderr) =>
        err ? reject(new Error(`deploy failed: ${err.message}\n${stdout}\n${stderr}`)) : resolve(),
    );
  });
  return JSON.parse(fs.readFileSync(recordFile, "utf8"));
}

// ------------------------------------------------------------------------------------------------ scenario
const Roles = { ADMIN: 0n, GUARDIAN: 1n, CH_MINTER: 3n, EMISSION: 4n };
const wad = (n) => parseUnits(String(n), 18);

function abiOf(contract) {
  return JSON.parse(fs.readFileSync(path.join(subgraphDir, "abis", `${contract}.json`), "utf8"));
}

export function contracts(record, runner) {
  const c = (name) => new Contract(record.contracts[name].address, abiOf(record.contracts[name].contract), runner);
  return {
    manager: c("AccessManager"),
    dps: c("DPSToken"),
    ch: c("CHToken"),
    gfl: c("GFLToken"),
    governor: c("Governor"),
    timelock: c("Timelock"),
  };
}

/**
 * Token movements, burns, delegation, role grants, a pause, and a governance proposal through the timelock,
 * spread over several days. Returns the checkpoint blocks (end of each phase).
 */
export async function runScenario(url, record) {
  const provider = new JsonRpcProvider(url, undefined, { cacheTimeout: -1 });
  const [deployer, alice, bob, carol] = await Promise.all([0, 1, 2, 3].map((i) => provider.getSigner(i)));
  const as = (signer) => contracts(record, signer);
  const send = async (p) => (await p).wait();
  const mine = async (seconds) => {
    await provider.send("evm_increaseTime", [seconds]);
    await provider.send("evm_mine", []);
  };
  const checkpoints = [];
  const checkpoint = async () => checkpoints.push(await provider.getBlockNumber());
  const d = as(deployer);
  const [a, b, c] = [as(alice), as(bob), as(carol)];
  await checkpoint(); // right after the deploy

  // phase 1: roles, emission, CH mint/burn, GFL capacity
  await send(d.manager.grantRole(Roles.EMISSION, alice.address, 0));
  await send(d.manager.grantRole(Roles.CH_MINTER, bob.address, 0));
  await send(d.manager.labelRole(Roles.EMISSION, "EMISSION"));
  await send(a.dps.mint(alice.address, wad(1000)));
  await send(a.dps.mint(bob.address, wad(500)));
  await send(a.gfl.mint(carol.address, wad(120)));
  await send(a.gfl.setBalance(carol.address, wad(80)));
  await send(a.gfl.setBalance(bob.address, wad(40)));
  await send(a.gfl.burn(bob.address, wad(10)));
  await send(b.ch.mint(carol.address, wad(25)));
  await send(b.ch.mint(bob.address, wad(10)));
  await send(b.ch.burn(carol.address, wad(5)));
  await checkpoint();

  // phase 2 (next day): transfers, burns, delegation, a pause
  await mine(86_400);
  await send(d.dps.transfer(carol.address, wad(2000)));
  await send(c.dps.transfer(alice.address, wad(300)));
  await send(c.ch.transfer(alice.address, wad(5)));
  await send(a.dps.burn(wad(100)));
  await send(c.dps.approve(bob.address, wad(50)));
  await send(b.dps.burnFrom(carol.address, wad(50)));
  await send(d.dps.delegate(deployer.address));
  await send(a.dps.delegate(bob.address));
  await send(c.dps.delegate(carol.address));
  await send(d.ch.pauseFeature(keccakId("ch.transfer")));
  await send(d.ch.unpauseFeature(keccakId("ch.transfer")));
  await send(d.gfl.pauseFeature(keccakId("gfl.rebalance")));
  await send(a.dps.mint(carol.address, wad(42)));
  await send(d.manager.revokeRole(Roles.CH_MINTER, bob.address));
  await checkpoint();

  // phase 3 (days later): a proposal voted, queued in the timelock and executed
  await mine(3 * 86_400);
  const targets = [record.contracts.AccessManager.address];
  const values = [0n];
  const calldatas = [d.manager.interface.encodeFunctionData("labelRole", [Roles.CH_MINTER, "CH_MINTER"])];
  const description = "Label the CH_MINTER role";
  const descriptionHash = keccakId(description);
  await send(d.governor.propose(targets, values, calldatas, description));
  const proposalId = await d.governor.hashProposal(targets, values, calldatas, descriptionHash);
  await mine(2);
  await send(d.governor.castVote(proposalId, 1));
  await send(b.governor.castVoteWithReason(proposalId, 0, "not needed"));
  await send(c.governor.castVote(proposalId, 2));
  await checkpoint();
  await mine(3_601);
  await send(d.governor.queue(targets, values, calldatas, descriptionHash));
  await checkpoint();
  await mine(3_601);
  await send(d.governor.execute(targets, values, calldatas, descriptionHash));
  await send(a.dps.mint(alice.address, wad(7)));
  await checkpoint();
  provider.destroy();
  return { checkpoints, proposalIds: [proposalId] };
}

// ------------------------------------------------------------------------------------------------ replay + compare
async function rpc(provider, method, params) {
  return provider.send(method, params);
}

/**
 * Replays every log from the first start block to the last checkpoint through the built subgraph, and at each
 * checkpoint block compares the indexed aggregates with the contracts' getters called at that block.
 */
export async function replayAndCompare(
  url,
  record,
  { buildDir = path.join(subgraphDir, "build"), checkpoints, log = console.log, dropLog = () => false },
) {
  const provider = new JsonRpcProvider(url, undefined, { cacheTimeout: -1, staticNetwork: true });
  const replay = await new SubgraphReplay(buildDir, { record }).init();
  const k = contracts(record, provider);
  const last = checkpoints[checkpoints.length - 1];
  const from = replay.startBlock;
  const logs = (
    await rpc(provider, "eth_getLogs", [{ fromBlock: "0x" + from.toString(16), toBlock: "0x" + last.toString(16) }])
  ).filter((l, i, all) => !dropLog(l, i, all)); // dropLog: a test hook proving the comparison catches gaps
  const byBlock = new Map();
  for (const l of logs) {
    const n = Number(BigInt(l.blockNumber));
    if (!byBlock.has(n)) byBlock.set(n, []);
    byBlock.get(n).push(l);
  }
  const txs = new Map();
  for (const h of new Set(logs.map((l) => l.transactionHash)))
    txs.set(h, await rpc(provider, "eth_getTransactionByHash", [h]));

  const results = [];
  const check = (name, ok, detail) => {
    results.push({ name, ok, detail });
    if (!ok) log(`  ✖ ${name}: ${detail}`);
  };
  const eq = (name, indexed, onChain) =>
    check(name, BigInt(indexed ?? 0) === BigInt(onChain), `subgraph ${indexed} ≠ chain ${onChain}`);

  const tokenAddr = (c) => c.target.toLowerCase();
  const compareAt = async (block) => {
    const at = { blockTag: block };
    const tok = (c) => replay.entity("Token", tokenAddr(c)) ?? {};
    const dps = tok(k.dps);
    const ch = tok(k.ch);
    const gfl = tok(k.gfl);
    const tag = `@${block}`;
    eq(`DPS minted by emission ${tag}`, dps.totalEmitted, await k.dps.totalEmitted(at));
    eq(`DPS burned ${tag}`, dps.totalBurned, await k.dps.totalBurned(at));
    eq(`DPS genesis ${tag}`, dps.genesisSupply, await k.dps.genesisSupply(at));
    eq(`DPS supply ${tag}`, dps.totalSupply, await k.dps.totalSupply(at));
    eq(`CH outstanding ${tag}`, ch.totalSupply, await k.ch.totalSupply(at));
    eq(`total GFL ${tag}`, gfl.totalSupply, await k.gfl.totalSupply(at));

    // every balance the subgraph holds equals balanceOf at the block; holder counts match the non-zero balances
    let bad = [];
    for (const [name, c] of [
      ["DPS", k.dps],
      ["CH", k.ch],
      ["GFL", k.gfl],
    ]) {
      const balances = replay.entities("TokenBalance").filter((x) => x.token === tokenAddr(c));
      for (const x of balances) {
        const chain = await c.balanceOf(x.account, at);
        if (BigInt(x.balance) !== chain) bad.push(`${name} ${x.account}: ${x.balance} ≠ ${chain}`);
      }
      const holders = balances.filter((x) => BigInt(x.balance) !== 0n).length;
      const t = tok(c);
      if (t.holderCount !== undefined && t.holderCount !== holders)
        bad.push(`${name} holderCount ${t.holderCount} ≠ ${holders}`);
    }
    check(`balances and holders ${tag}`, bad.length === 0, bad.join("; "));

    // votes and delegates
    bad = [];
    for (const acc of replay.entities("Account")) {
      const votes = await k.dps.getVotes(acc.id, at);
      if (BigInt(acc.dpsVotes) !== votes) bad.push(`votes ${acc.id}: ${acc.dpsVotes} ≠ ${votes}`);
      const delegate = (await k.dps.delegates(acc.id, at)).toLowerCase();
      if ((acc.dpsDelegate ?? ZeroAddress.toLowerCase()) !== delegate)
        bad.push(`delegate ${acc.id}: ${acc.dpsDelegate} ≠ ${delegate}`);
    }
    check(`DPS votes and delegates ${tag}`, bad.length === 0, bad.join("; "));

    // daily / hourly aggregates add up to the totals and close at the current supply
    bad = [];
    for (const [name, c] of [
      ["DPS", k.dps],
      ["CH", k.ch],
      ["GFL", k.gfl],
    ]) {
      const t = tok(c);
      const supply = await c.totalSupply(at);
      for (const type of ["TokenDayData", "TokenHourData"]) {
        const rows = replay.entities(type).filter((x) => x.token === tokenAddr(c));
        if (rows.length === 0) continue;
        const sum = (f) => rows.reduce((s, x) => s + BigInt(x[f]), 0n);
        const start = (x) => x.date ?? x.periodStartUnix;
        const latest = rows.reduce((m, x) => (start(x) > start(m) ? x : m));
        if (sum("minted") !== BigInt(t.totalMinted))
          bad.push(`${name} ${type} minted ${sum("minted")} ≠ ${t.totalMinted}`);
        if (sum("burned") !== BigInt(t.totalBurned))
          bad.push(`${name} ${type} burned ${sum("burned")} ≠ ${t.totalBurned}`);
        if (sum("emitted") !== BigInt(t.totalEmitted))
          bad.push(`${name} ${type} emitted ${sum("emitted")} ≠ ${t.totalEmitted}`);
        if (BigInt(latest.totalSupply) !== supply) bad.push(`${name} ${type} close ${latest.totalSupply} ≠ ${supply}`);
        for (const x of rows)
          if (BigInt(x.supplyLow) > BigInt(x.totalSupply) || BigInt(x.supplyHigh) < BigInt(x.totalSupply))
            bad.push(`${name} ${type} ${start(x)} high/low`);
      }
    }
    check(`daily and hourly aggregates ${tag}`, bad.length === 0, bad.join("; "));

    // roles
    bad = [];
    for (const m of replay.entities("RoleMember")) {
      const roleId = BigInt(replay.entity("Role", m.role).roleId);
      const [isMember, delay] = await k.manager.hasRole(roleId, m.account, at);
      if (isMember !== m.active) bad.push(`role ${roleId} ${m.account}: active ${m.active} ≠ ${isMember}`);
      if (isMember && BigInt(delay) !== BigInt(m.executionDelay)) bad.push(`role ${roleId} ${m.account}: delay`);
    }
    for (const f of replay.entities("TargetFunctionRole")) {
      const role = await k.manager.getTargetFunctionRole(getAddress(f.target), f.selector, at);
      if (role !== BigInt(replay.entity("Role", f.role).roleId)) bad.push(`function role ${f.target}.${f.selector}`);
    }
    for (const r of replay.entities("Role")) {
      if (r.label === null || r.label === undefined) continue;
      // labels are events only (no getter): they must match what the scenario set
      if (!["EMISSION", "CH_MINTER"].includes(r.label)) bad.push(`label ${r.id}`);
    }
    check(`roles and function roles ${tag}`, bad.length === 0, bad.join("; "));

    // pauses
    bad = [];
    for (const p of replay.entities("FeaturePause")) {
      const c = [k.dps, k.ch, k.gfl].find((x) => tokenAddr(x) === p.contract);
      if (!c) continue;
      const paused = await c.isFeaturePaused(p.feature, at);
      if (paused !== p.paused) bad.push(`${p.contract} ${p.feature}: ${p.paused} ≠ ${paused}`);
    }
    check(`feature pauses ${tag}`, bad.length === 0, bad.join("; "));

    // governance: proposal tallies and status, timelock operations
    bad = [];
    const STATUS = { Created: [0n, 1n, 3n, 4n, 6n], Queued: [5n], Executed: [7n], Canceled: [2n] };
    for (const p of replay.entities("Proposal")) {
      const [against, forVotes, abstain] = await k.governor.proposalVotes(p.proposalId, at);
      if (BigInt(p.forVotes) !== forVotes || BigInt(p.againstVotes) !== against || BigInt(p.abstainVotes) !== abstain)
        bad.push(`proposal ${p.id} tallies`);
      const state = await k.governor.state(p.proposalId, at);
      if (!STATUS[p.status].includes(state)) bad.push(`proposal ${p.id}: status ${p.status}, state() ${state}`);
      if (p.eta != null && BigInt(p.eta) !== (await k.governor.proposalEta(p.proposalId, at)))
        bad.push(`proposal ${p.id} eta`);
    }
    for (const op of replay.entities("TimelockOperation")) {
      const done = await k.timelock.isOperationDone(op.id, at);
      const pending = await k.timelock.isOperationPending(op.id, at);
      if (done !== (op.status === "Executed") || pending !== (op.status === "Scheduled"))
        bad.push(`timelock ${op.id} ${op.status}`);
      if (op.status === "Scheduled" && BigInt(op.readyAt) !== (await k.timelock.getTimestamp(op.id, at)))
        bad.push(`timelock ${op.id} readyAt`);
    }
    check(`proposals and timelock operations ${tag}`, bad.length === 0, bad.join("; "));
  };

  const blocks = [...new Set([...byBlock.keys(), ...checkpoints])].sort((x, y) => x - y);
  const cps = new Set(checkpoints);
  for (const n of blocks) {
    const blockLogs = byBlock.get(n) ?? [];
    if (blockLogs.length) {
      const block = await rpc(provider, "eth_getBlockByNumber", ["0x" + n.toString(16), false]);
      replay.runBlock(block, blockLogs, (h) => txs.get(h));
    }
    if (cps.has(n)) await compareAt(n);
  }
  provider.destroy();
  return { results, counts: replay.counts(), handled: replay.handled, skipped: replay.skipped };
}

/** The whole check with its own node (used when running this file alone; test.mjs composes the phases). */
export async function runE2E({ log = console.log } = {}) {
  const { buildSubgraph } = await import("./build.mjs");
  if (!(await buildSubgraph({ synthetic: true, log })).ok) throw new Error("the subgraph does not build");
  const node = await startNode({ log });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "chx-subgraph-"));
  try {
    const record = await deployTo(node.url, path.join(tmp, "localhost.json"));
    const { checkpoints } = await runScenario(node.url, record);
    return await replayAndCompare(node.url, record, { checkpoints, log });
  } finally {
    node.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await runE2E();
  const failed = r.results.filter((x) => !x.ok).length;
  console.log(`e2e: ${r.handled} logs replayed; entities ${JSON.stringify(r.counts)}`);
  console.log(`${r.results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
