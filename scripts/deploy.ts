/**
 * One deploy script for every network:
 *   npx hardhat run scripts/deploy.ts --network <name>      (npm run deploy -- --network <name>)
 * Local networks deploy mocks; real networks need CHX_RPC_URL, the deployer key (Hardhat keystore:
 * `npx hardhat keystore set CHX_DEPLOYER_KEY`), CHX_USDC, CHX_CH_FEED, CHX_GUARDIAN and CHX_TREASURY — all checked
 * before the first transaction (scripts/deploy/preflight.ts). The record is journaled: running it again after a
 * crash resumes; running it again after success changes nothing.
 */
import hre from "hardhat";
import { deployProtocol } from "./deploy/index.js";
import { checkSettings, PreflightError } from "./deploy/preflight.js";

const network = hre.globalOptions.network ?? "default";
const problems = checkSettings(network);
if (problems.length > 0) {
  console.error(new PreflightError(problems).message);
  process.exit(1);
}
const connection = await hre.network.create();
try {
  const ctx = await deployProtocol(hre, connection, {
    write: connection.networkName !== "default",
    dir: process.env.CHX_DEPLOYMENTS_DIR, // default deployments/
  });
  console.log(
    ctx.txCount === 0
      ? `deploy: nothing to do on ${connection.networkName} — everything is deployed and wired`
      : `deploy: ${ctx.txCount} transaction(s) sent on ${connection.networkName}`,
  );
} catch (e) {
  if (e instanceof PreflightError) {
    console.error(e.message);
    process.exitCode = 1;
  } else throw e;
} finally {
  await connection.close();
}
