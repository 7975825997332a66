/**
 * Deploys the protocol with the real deploy function (deployProtocol) and writes the resulting deployment
 * record to $CHX_SUBGRAPH_RECORD instead of deployments/<network>.json (which it never touches), so the
 * subgraph can be generated for a throw-away chain:
 *   CHX_SUBGRAPH_RECORD=/tmp/x.json npx hardhat run subgraph/scripts/deploy-record.ts [--network localhost]
 * Without --network it deploys on the in-process Hardhat network (manifest.mjs --network hardhat).
 */
import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import hre from "hardhat";
import { deployProtocol } from "../../scripts/deploy/index.js";

const out = process.env.CHX_SUBGRAPH_RECORD;
if (out === undefined || out === "") throw new Error("deploy-record: set CHX_SUBGRAPH_RECORD to the output file");
const connection = await hre.network.create();
const networkName = connection.networkName === "default" ? "hardhat" : connection.networkName;
const ctx = await deployProtocol(hre, connection, { networkName, write: false, quiet: true });
mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
writeFileSync(out, JSON.stringify({ ...ctx.record, network: networkName }, null, 2) + "\n");
console.log(`deploy-record: ${Object.keys(ctx.record.contracts).length} contracts (${ctx.txCount} txs) → ${out}`);
await connection.close();
