/**
 * Source verification of a deployment on the network's block explorer (hardhat-verify: Etherscan, with Blockscout /
 * Sourcify when enabled in hardhat.config.ts):
 *   npm run verify -- --network <name>          (CHX_ETHERSCAN_API_KEY from the keystore or the environment)
 *   CHX_VERIFY_DRY_RUN=1 npm run verify -- --network <name>   lists what would be verified, sends nothing
 * For every contract of deployments/<network>.json: the implementation (a UUPS proxy's logic, with its recorded
 * `implementationArgs` when its configuration is immutables) or the plain contract (its recorded constructor
 * arguments), then each proxy as an ERC1967Proxy with its recorded (implementation, initializer call). External contracts (USDC, feeds) are skipped. Already verified
 * contracts count as done; the script ends with a count and exits 1 if any failed.
 */
import hre from "hardhat";
import { AbiCoder } from "ethers";
import { verifyContract } from "@nomicfoundation/hardhat-verify/verify";
import { readDeployment } from "./lib/deployer.js";

const PROXY = "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol:ERC1967Proxy";

interface Job {
  label: string;
  address: string;
  contract: string;
  constructorArgs: unknown[];
}

const network = hre.globalOptions.network ?? "default";
const record = await readDeployment(network, process.env.CHX_DEPLOYMENTS_DIR ?? "deployments");
if (record === undefined) {
  console.error(`verify: deployments/${network}.json does not exist — deploy first`);
  process.exit(1);
}
if (!record.complete)
  console.warn(`verify: the deployment on ${network} is incomplete (re-run the deploy to finish it)`);

const jobs: Job[] = [];
const coder = AbiCoder.defaultAbiCoder();
for (const [name, c] of Object.entries(record.contracts)) {
  if (c.kind === "external") continue;
  const artifact = await hre.artifacts.readArtifact(c.contract);
  const fq = `${artifact.sourceName}:${artifact.contractName}`;
  const ctor = artifact.abi.find((f: { type: string }) => f.type === "constructor") as
    { inputs: Array<{ type: string }> } | undefined;
  // recorded ABI-encoded constructor arguments → values, by the artifact's constructor
  const decoded = (encoded: string | undefined): unknown[] =>
    ctor === undefined || encoded === undefined || encoded === "0x"
      ? []
      : [
          ...coder.decode(
            ctor.inputs.map((i) => i.type),
            encoded,
          ),
        ];
  if (c.kind === "plain") {
    jobs.push({ label: name, address: c.address, contract: fq, constructorArgs: decoded(c.constructorArgs) });
  } else {
    // an implementation takes no arguments unless its configuration is immutables (recorded `implementationArgs`)
    jobs.push({
      label: `${name} implementation`,
      address: c.implementation,
      contract: fq,
      constructorArgs: decoded(c.implementationArgs),
    });
    if (c.constructorArgs !== undefined) {
      const [impl, data] = coder.decode(["address", "bytes"], c.constructorArgs);
      jobs.push({ label: `${name} proxy`, address: c.address, contract: PROXY, constructorArgs: [impl, data] });
    }
  }
}

if (process.env.CHX_VERIFY_DRY_RUN === "1") {
  for (const j of jobs)
    console.log(`${j.label.padEnd(36)} ${j.address}  ${j.contract}  (${j.constructorArgs.length} arg(s))`);
  console.log(`verify: ${jobs.length} contract(s) would be verified on ${network} (dry run)`);
  process.exit(0);
}

let ok = 0;
let failed = 0;
for (const j of jobs) {
  try {
    await verifyContract({ address: j.address, contract: j.contract, constructorArgs: j.constructorArgs }, hre);
    ok++;
    console.log(`✔ ${j.label} ${j.address}`);
  } catch (e) {
    const msg = (e as Error).message.split("\n")[0] ?? String(e);
    if (/already verified/i.test(msg)) {
      ok++;
      console.log(`✔ ${j.label} ${j.address} (already verified)`);
    } else {
      failed++;
      console.log(`✖ ${j.label} ${j.address}: ${msg}`);
    }
  }
}
console.log(`verify: ${ok} verified, ${failed} failed on ${network}`);
process.exitCode = failed === 0 ? 0 : 1;
