/**
 * Upgrades core contracts the only way CHX allows: through governance.
 *
 *   CHX_UPGRADE="CHToken=CHTokenV2" npm run upgrade -- --network <name>
 *
 * For each `Name=NewContract` pair: OpenZeppelin's plugin validates NewContract's storage layout against the
 * implementation the proxy runs now (prepareUpgrade; a layout break stops the script) and deploys the new
 * implementation; then one Governor proposal is made whose execution (after the vote and the timelock delay)
 * calls `upgradeToAndCall` on every proxy. CHX_UPGRADE_CALLS="Name=0x…" gives migration calldata per proxy; a proxy
 * whose new implementation has `syncPauseMirror()` (ClearingHouse, SpotMarket) is given that call by default.
 * On local networks CHX_UPGRADE_DRIVE=1 votes with the deployer's DPS, time-travels, queues and executes.
 * An implementation whose configuration is immutables (ComputePriceOracle: IComputePriceOracle.Config) takes
 * constructor arguments: CHX_UPGRADE_ARGS='{"ComputePriceOracle":[["0xFeed…",86400,…]]}' (JSON, per proxy name;
 * numbers may be decimal strings), else the recorded `implementationArgs` are reused (a code-only upgrade). A new
 * configuration is announced with CHX_UPGRADE_CALLS="ComputePriceOracle=<announceConfig() calldata>".
 */
import hre from "hardhat";
import { id } from "ethers";
import { upgrades as upgradesFactory } from "@openzeppelin/hardhat-upgrades";
import { linkedLibraries, sameCode, upgradeConstructorArgs } from "./lib/deployer.js";
import { isLocalNetwork } from "./deploy/config.js";
import { connectProtocol, readDeployment } from "@chx/sdk";

function pairs(env: string | undefined): Map<string, string> {
  const m = new Map<string, string>();
  for (const part of (env ?? "").split(",").filter((s) => s.trim().length > 0)) {
    const [k, v] = part.split("=").map((s) => s.trim());
    if (k === undefined || v === undefined || k === "" || v === "")
      throw new Error(`bad pair "${part}" (want Name=Value)`);
    m.set(k, v);
  }
  return m;
}

const connection = await hre.network.create();
const network = connection.networkName;
const record = await readDeployment(network);
if (record === undefined) {
  console.error(`✖ Nothing is deployed on "${network}": run \`npm run deploy -- --network ${network}\` first.`);
  process.exit(1);
}
const wanted = pairs(process.env.CHX_UPGRADE);
const ctorArgsByName = JSON.parse(process.env.CHX_UPGRADE_ARGS ?? "{}") as Record<string, unknown[]>;
const calls = pairs(process.env.CHX_UPGRADE_CALLS);
/** `syncPauseMirror()` calldata: the default migration call of a proxy whose implementation has it. */
const SYNC_PAUSE_MIRROR = id("syncPauseMirror()").slice(0, 10);
if (wanted.size === 0) {
  console.error('✖ Say what to upgrade: CHX_UPGRADE="CHToken=CHTokenV2[,Other=OtherV2]"');
  process.exit(1);
}

const u = await upgradesFactory(hre, connection);
const [signer] = await connection.ethers.getSigners();
if (signer === undefined) throw new Error("no signer");
const protocol = connectProtocol(record, signer);
const targets: string[] = [];
const datas: string[] = [];

/**
 * The external libraries `contract` links: the recorded copies when their code is this build's, else fresh copies
 * (a library holds no state, so a new implementation may link new ones; the old implementation keeps its own).
 */
async function libraryLinks(contract: string): Promise<Record<string, string>> {
  const artifact = await hre.artifacts.readArtifact(contract);
  const out: Record<string, string> = {};
  for (const [source, libs] of Object.entries(artifact.linkReferences ?? {})) {
    for (const lib of Object.keys(libs)) {
      const fqn = `${source.replace(/^project\//, "")}:${lib}`;
      const built = await hre.artifacts.readArtifact(fqn);
      const rec = record!.contracts[lib];
      if (rec !== undefined) {
        // a library's code starts with PUSH20 <its own address> (call protection): compare without it
        const onChain = await connection.ethers.provider.getCode(rec.address);
        const own = (hex: string) => hex.slice(0, 4) + "0".repeat(40) + hex.slice(44);
        if (sameCode(own(onChain), own(built.deployedBytecode), built.immutableReferences)) {
          out[lib] = rec.address;
          continue;
        }
      }
      const c = await (await connection.ethers.getContractFactory(fqn, signer)).deploy();
      await c.waitForDeployment();
      out[lib] = await c.getAddress();
      console.log(`  library ${lib}: deployed ${out[lib]} for ${contract}`);
    }
  }
  return out;
}

const newImplementationArgs = new Map<string, string>();

for (const [name, contract] of wanted) {
  const rec = record.contracts[name];
  if (rec === undefined || rec.kind !== "uups") {
    console.error(`✖ "${name}" is not an upgradeable contract of this deployment`);
    process.exit(1);
  }
  const factory = await connection.ethers.getContractFactory(contract, {
    signer,
    libraries: await libraryLinks(contract),
  });
  try {
    // The plugin's manifest (.openzeppelin/) is the layout reference; import the proxy if this machine lacks it.
    const current = await connection.ethers.getContractFactory(rec.contract, {
      signer,
      libraries: await linkedLibraries(hre, record, rec.contract),
    });
    await u.forceImport(rec.address, current, { kind: "uups" });
  } catch {
    /* already registered */
  }
  console.log(`validating ${name}: ${rec.contract} → ${contract} (storage layout, upgrade safety)`);
  let ctorArgs: unknown[];
  try {
    ctorArgs = upgradeConstructorArgs(record.contracts[name], factory.interface, ctorArgsByName[name]);
  } catch (e) {
    console.error(`✖ ${name} (${contract}): ${(e as Error).message}`);
    process.exit(1);
  }
  if (ctorArgs.length > 0 && ctorArgsByName[name] === undefined)
    console.log(`  ${name}: reusing the recorded implementation arguments (code-only upgrade)`);
  const impl = (await u.prepareUpgrade(rec.address, factory, {
    kind: "uups",
    unsafeAllow: ["missing-initializer", "missing-initializer-call", "external-library-linking"],
    ...(ctorArgs.length > 0 ? { constructorArgs: ctorArgs } : {}),
  })) as string;
  if (ctorArgs.length > 0) newImplementationArgs.set(name, factory.interface.encodeDeploy(ctorArgs));
  console.log(`  new implementation ${impl}`);
  targets.push(rec.address);
  // A contract that keeps copies of its pause flags (ClearingHouse, SpotMarket: docs/clearing.md "Pause flags beside
  // the oracle address") re-syncs them from the flags in the upgrade call itself, unless CHX_UPGRADE_CALLS names another call.
  const sync = factory.interface.getFunction("syncPauseMirror") === null ? "0x" : SYNC_PAUSE_MIRROR;
  datas.push(factory.interface.encodeFunctionData("upgradeToAndCall", [impl, calls.get(name) ?? sync]));
}

const description = `Upgrade ${[...wanted].map(([n, c]) => `${n} to ${c}`).join(", ")} (${new Date().toISOString()})`;
const values = targets.map(() => 0n);
const { governor, dps, timelock } = protocol;
await (await governor.propose(targets, values, datas, description)).wait();
const proposalId = await governor.hashProposal(targets, values, datas, id(description));
console.log(`proposal ${proposalId} submitted: "${description}"`);

if (process.env.CHX_UPGRADE_DRIVE === "1") {
  if (!isLocalNetwork(network)) throw new Error("CHX_UPGRADE_DRIVE only works on local networks");
  const { time } = connection.networkHelpers;
  if ((await dps.delegates(signer.address)) !== signer.address) await (await dps.delegate(signer.address)).wait();
  await time.increase(Number(await governor.votingDelay()) + 1);
  await (await governor.castVote(proposalId, 1)).wait();
  await time.increase(Number(await governor.votingPeriod()) + 1);
  await (await governor.queue(targets, values, datas, id(description))).wait();
  await time.increase(Number(await timelock.getMinDelay()) + 1);
  await (await governor.execute(targets, values, datas, id(description))).wait();
  for (const [name] of wanted) {
    const rec = record.contracts[name]!;
    rec.implementation = await u.erc1967.getImplementationAddress(rec.address);
    rec.contract = wanted.get(name)!;
    const args = newImplementationArgs.get(name);
    if (args !== undefined) rec.implementationArgs = args;
    else delete rec.implementationArgs;
  }
  const { writeFile } = await import("node:fs/promises");
  await writeFile(`deployments/${network}.json`, JSON.stringify(record, null, 2) + "\n");
  console.log("executed through Governor → Timelock; deployment record updated");
} else {
  console.log("next: vote (castVote), then queue and execute after the voting period and the timelock delay");
}
await connection.close();
