/**
 * One deploy script for every network:
 *   npx hardhat run scripts/deploy.ts --network <name>      (npm run deploy -- --network <name>)
 * Local networks deploy mocks; real networks read CHX_RPC_URL, CHX_DEPLOYER_KEY, CHX_USDC, CHX_GUARDIAN,
 * CHX_TREASURY. Running it again changes nothing.
 */
import hre from "hardhat";
import { deployProtocol } from "./deploy/index.js";

const connection = await hre.network.create();
const ctx = await deployProtocol(hre, connection, { write: connection.networkName !== "default" });
console.log(
  ctx.txCount === 0
    ? `deploy: nothing to do on ${connection.networkName} — everything is deployed and wired`
    : `deploy: ${ctx.txCount} transaction(s) sent on ${connection.networkName}`,
);
await connection.close();
