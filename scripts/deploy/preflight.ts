/**
 * Everything a deploy needs is checked before its first transaction, and every problem is reported at once:
 *   checkSettings  the environment (addresses, numbers), before connecting;
 *   checkChain     the chain (expected chain id, the external contracts exist, the deployer can pay), read-only.
 * Real networks (anything but the local ones) refuse to run without their RPC URL, treasury and guardian: nothing
 * silently falls back to 127.0.0.1 or to the deployer.
 */
import { isAddress, ZeroAddress } from "ethers";
import type { NetworkConnection } from "hardhat/types/network";
import { isLocalNetwork } from "./config.js";

export class PreflightError extends Error {
  constructor(readonly problems: string[]) {
    super(`deploy: not started — fix these first:\n${problems.map((p) => `  • ${p}`).join("\n")}`);
  }
}

const ADDRESS_SETTINGS: Array<{ name: string; what: string; required: boolean }> = [
  { name: "CHX_TREASURY", what: "the treasury (receives the DPS genesis allocation and fee income)", required: true },
  { name: "CHX_GUARDIAN", what: "the pause-only guardian (a multisig)", required: true },
  { name: "CHX_USDC", what: "the USDC token on this network", required: true },
  { name: "CHX_CH_FEED", what: "the CH/USD Chainlink feed", required: true },
  { name: "CHX_SEQUENCER_FEED", what: "the L2 sequencer uptime feed (L2s only)", required: false },
];

const INT_SETTINGS = [
  "CHX_CH_HEARTBEAT_SEC",
  "CHX_SEQUENCER_GRACE_SEC",
  "CHX_INSURANCE_COOLDOWN_SEC",
  "CHX_INSURANCE_WINDOW_SEC",
  "CHX_EMISSION_MIN_SAMPLES",
];
const DECIMAL_SETTINGS = ["CHX_DPS_GENESIS", "CHX_CH_MIN_PRICE", "CHX_CH_MAX_PRICE", "CHX_EMISSION_HALVING_SPAN_GFL"];

const set = (env: NodeJS.ProcessEnv, k: string): string | undefined => {
  const v = env[k];
  return v === undefined || v.trim() === "" ? undefined : v.trim();
};

/** Problems with the settings of a deploy to `network` (empty: fine). Pure: reads only `env`. */
export function checkSettings(network: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const problems: string[] = [];
  const local = isLocalNetwork(network);
  if (!local && set(env, "CHX_RPC_URL") === undefined) {
    problems.push(`CHX_RPC_URL is not set: the JSON-RPC endpoint of ${network} (nothing falls back to 127.0.0.1)`);
  }
  for (const s of ADDRESS_SETTINGS) {
    const v = set(env, s.name);
    if (v === undefined) {
      if (!local && s.required) problems.push(`${s.name} is not set: ${s.what}`);
      continue;
    }
    if (!isAddress(v) || v.toLowerCase() === ZeroAddress) problems.push(`${s.name}="${v}" is not an address`);
  }
  for (const k of INT_SETTINGS) {
    const v = set(env, k);
    if (v !== undefined && !/^\d+$/.test(v)) problems.push(`${k}="${v}" must be a whole number`);
  }
  for (const k of DECIMAL_SETTINGS) {
    const v = set(env, k);
    if (v !== undefined && !/^\d+(\.\d+)?$/.test(v)) problems.push(`${k}="${v}" must be a non-negative decimal number`);
  }
  const lo = set(env, "CHX_CH_MIN_PRICE");
  const hi = set(env, "CHX_CH_MAX_PRICE");
  if (lo !== undefined && hi !== undefined && Number(lo) >= Number(hi)) {
    problems.push(`CHX_CH_MIN_PRICE (${lo}) must be below CHX_CH_MAX_PRICE (${hi})`);
  }
  const h = set(env, "CHX_HANDOVER");
  if (h !== undefined && !["0", "1", "true", "false"].includes(h))
    problems.push(`CHX_HANDOVER="${h}" must be 1/0/true/false`);
  if (!local && (h === "0" || h === "false")) {
    problems.push(`CHX_HANDOVER=${h} on ${network}: a real network must hand every power to governance`);
  }
  return problems;
}

/** Read-only checks on the connected chain: the chain id the network is configured for, code at the external
 *  addresses, and a deployer that can pay for gas. */
export async function checkChain(
  connection: NetworkConnection,
  network: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const problems: string[] = [];
  const provider = connection.ethers.provider;
  let chainId: bigint;
  try {
    chainId = (await provider.getNetwork()).chainId;
  } catch (e) {
    return [`cannot reach the node of ${network}: ${(e as Error).message.split("\n")[0]}`];
  }
  const expected = (connection.networkConfig as { chainId?: number }).chainId;
  if (expected !== undefined && BigInt(expected) !== chainId) {
    problems.push(`the node at CHX_RPC_URL is chain ${chainId}, but ${network} is chain ${expected}`);
  }
  if (!isLocalNetwork(network)) {
    for (const s of ADDRESS_SETTINGS) {
      const v = set(env, s.name);
      if (v === undefined || !isAddress(v) || s.name === "CHX_TREASURY" || s.name === "CHX_GUARDIAN") continue;
      if ((await provider.getCode(v)) === "0x")
        problems.push(`${s.name}=${v}: no contract at that address on chain ${chainId}`);
    }
    let signers;
    try {
      signers = await connection.ethers.getSigners();
    } catch (e) {
      problems.push(
        `no deployer key: ${(e as Error).message.split("\n")[0]} (npx hardhat keystore set CHX_DEPLOYER_KEY)`,
      );
      return problems;
    }
    const deployer = signers[0];
    if (deployer === undefined) {
      problems.push("no deployer key: `npx hardhat keystore set CHX_DEPLOYER_KEY` (or set CHX_DEPLOYER_KEY)");
    } else if ((await provider.getBalance(deployer.address)) === 0n) {
      problems.push(`the deployer ${deployer.address} has no ${network} ether for gas`);
    }
  }
  return problems;
}
