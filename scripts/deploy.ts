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
// The RPC URL may live in the Hardhat keystore rather than the environment: resolve the network's own setting.
const env = { ...process.env };
const nc = hre.config.networks[network] as { type?: string; url?: { get(): Promise<string> } } | undefined;
if (nc?.type === "http" && nc.url !== undefined && typeof nc.url.get === "function" && env.CHX_RPC_URL === undefined) {
  try {
    env.CHX_RPC_URL = await nc.url.get();
  } catch {
    // unset in both the keystore and the environment: checkSettings reports it
  }
}
const problems = checkSettings(network, env);
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
