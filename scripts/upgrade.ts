/**
 * Upgrades core contracts the only way CHX allows: through governance.
 *
 *   CHX_UPGRADE="CHToken=CHTokenV2" npm run upgrade -- --network <name>
 *
 * For each `Name=NewContract` pair: OpenZeppelin's plugin validates NewContract's storage layout against the
 * implementation the proxy runs now (prepareUpgrade; a layout break stops the script) and deploys the new
 * implementation; then one Governor proposal is made whose execution (after the vote and the timelock delay)
 * calls `upgradeToAndCall` on every proxy. CHX_UPGRADE_CALLS="Name=0x…" gives migration calldata per proxy.
 * On local networks CHX_UPGRADE_DRIVE=1 votes with the deployer's DPS, time-travels, queues and executes.
 */
import hre from "hardhat";
import { id } from "ethers";
import { upgrades as upgradesFactory } from "@openzeppelin/hardhat-upgrades";
import { linkedFactory, readDeployment } from "./lib/deployer.js";
import { connectProtocol } from "./lib/protocol.js";
import { isLocalNetwork } from "./deploy/config.js";

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
const calls = pairs(process.env.CHX_UPGRADE_CALLS);
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

for (const [name, contract] of wanted) {
  const rec = record.contracts[name];
  if (rec === undefined || rec.kind !== "uups") {
    console.error(`✖ "${name}" is not an upgradeable contract of this deployment`);
    process.exit(1);
  }
  // External libraries (ProviderRegistry's, TaskRegistry's) are deployed once per build and linked.
  const { factory, linked } = await linkedFactory(hre, connection, contract, signer, record, console.log);
  try {
    // The plugin's manifest (.openzeppelin/) is the layout reference; import the proxy if this machine lacks it.
    const current = await linkedFactory(hre, connection, rec.contract, signer, record, console.log);
    await u.forceImport(rec.address, current.factory, {
      kind: "uups",
      ...(current.linked ? { unsafeAllow: ["external-library-linking" as const] } : {}),
    });
  } catch {
    /* already registered */
  }
  console.log(`validating ${name}: ${rec.contract} → ${contract} (storage layout, upgrade safety)`);
  const impl = (await u.prepareUpgrade(rec.address, factory, {
    kind: "uups",
    unsafeAllow: [
      "missing-initializer",
      "missing-initializer-call",
      ...(linked ? (["external-library-linking"] as const) : []),
    ],
  })) as string;
  console.log(`  new implementation ${impl}`);
  targets.push(rec.address);
  datas.push(factory.interface.encodeFunctionData("upgradeToAndCall", [impl, calls.get(name) ?? "0x"]));
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
  }
  const { writeFile } = await import("node:fs/promises");
  await writeFile(`deployments/${network}.json`, JSON.stringify(record, null, 2) + "\n");
  console.log("executed through Governor → Timelock; deployment record updated");
} else {
  console.log("next: vote (castVote), then queue and execute after the voting period and the timelock delay");
}
await connection.close();
