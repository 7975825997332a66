import { parseUnits } from "ethers";

/** Parameters of one deployment. Local networks get short governance periods so tests and the demo can vote. */
export interface ProtocolConfig {
  /** Hand ADMIN_ROLE and timelock admin to governance and drop the deployer's powers at the end. */
  handover: boolean;
  /** Deploy mocks (USDC, Chainlink aggregator) instead of reading external addresses. */
  useMocks: boolean;
  governance: {
    votingDelaySec: number;
    votingPeriodSec: number;
    proposalThreshold: bigint;
    quorumPercent: number;
    timelockMinDelaySec: number;
  };
  dps: { genesisAmount: bigint; genesisRecipient?: string };
  /** Address granted GUARDIAN (pause only). Defaults to the deployer on local networks. */
  guardian?: string;
  /** External token addresses on real networks. */
  external: { usdc?: string };
}

const LOCAL = new Set(["hardhat", "localhost", "hardhatMainnet", "default"]);

export function isLocalNetwork(name: string): boolean {
  return LOCAL.has(name);
}

export function protocolConfig(network: string, env: NodeJS.ProcessEnv = process.env): ProtocolConfig {
  const local = isLocalNetwork(network);
  const handoverEnv = env.CHX_HANDOVER;
  return {
    handover: handoverEnv !== undefined ? handoverEnv === "1" || handoverEnv === "true" : !local,
    useMocks: local,
    governance: local
      ? {
          votingDelaySec: 1,
          votingPeriodSec: 3_600,
          proposalThreshold: 0n,
          quorumPercent: 4,
          timelockMinDelaySec: 3_600,
        }
      : {
          votingDelaySec: 86_400,
          votingPeriodSec: 5 * 86_400,
          proposalThreshold: parseUnits("100000", 18),
          quorumPercent: 4,
          timelockMinDelaySec: 2 * 86_400,
        },
    dps: {
      genesisAmount: parseUnits(env.CHX_DPS_GENESIS ?? "10000000", 18),
      genesisRecipient: env.CHX_TREASURY,
    },
    guardian: env.CHX_GUARDIAN,
    external: { usdc: env.CHX_USDC },
  };
}
