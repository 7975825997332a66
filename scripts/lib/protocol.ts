/**
 * Typed handles on a deployed CHX protocol, from a deployment record. Scripts, tasks, tests, keepers and the
 * demo all connect through here, so a contract's name maps to one TypeChain type everywhere.
 */
import type { ContractRunner } from "ethers";
import {
  ChxAccessManager__factory,
  ChxGovernor__factory,
  ChxTimelock__factory,
  CHToken__factory,
  DPSToken__factory,
  Emission__factory,
  GFLToken__factory,
  MockERC20__factory,
  ComputeStandard__factory,
  ProviderRegistry__factory,
  ProviderMatcher__factory,
  TaskRegistry__factory,
  type TaskRegistry,
  StreamTasks__factory,
  type StreamTasks,
  type ComputeStandard,
  type ProviderRegistry,
  type ProviderMatcher,
  type ChxAccessManager,
  type ChxGovernor,
  type ChxTimelock,
  type CHToken,
  type DPSToken,
  type Emission,
  type GFLToken,
  type MockERC20,
} from "../../types/ethers-contracts/index.js";
import type { DeploymentRecord } from "./deployer.js";

export interface Protocol {
  record: DeploymentRecord;
  accessManager: ChxAccessManager;
  timelock: ChxTimelock;
  governor: ChxGovernor;
  dps: DPSToken;
  ch: CHToken;
  gfl: GFLToken;
  emission: Emission;
  /** USDC: MockERC20 on local networks (the ERC-20 part of the ABI is all that is used elsewhere). */
  usdc: MockERC20;
  computeStandard: ComputeStandard;
  providerRegistry: ProviderRegistry;
  providerMatcher: ProviderMatcher;
  taskRegistry: TaskRegistry;
  streamTasks: StreamTasks;
}

function addr(record: DeploymentRecord, name: string): string {
  const c = record.contracts[name];
  if (c === undefined) throw new Error(`"${name}" is not in the ${record.network} deployment`);
  return c.address;
}

export function connectProtocol(record: DeploymentRecord, runner: ContractRunner): Protocol {
  return {
    record,
    accessManager: ChxAccessManager__factory.connect(addr(record, "AccessManager"), runner),
    timelock: ChxTimelock__factory.connect(addr(record, "Timelock"), runner),
    governor: ChxGovernor__factory.connect(addr(record, "Governor"), runner),
    dps: DPSToken__factory.connect(addr(record, "DPSToken"), runner),
    ch: CHToken__factory.connect(addr(record, "CHToken"), runner),
    gfl: GFLToken__factory.connect(addr(record, "GFLToken"), runner),
    emission: Emission__factory.connect(addr(record, "Emission"), runner),
    usdc: MockERC20__factory.connect(addr(record, "USDC"), runner),
    computeStandard: ComputeStandard__factory.connect(addr(record, "ComputeStandard"), runner),
    providerRegistry: ProviderRegistry__factory.connect(addr(record, "ProviderRegistry"), runner),
    providerMatcher: ProviderMatcher__factory.connect(addr(record, "ProviderMatcher"), runner),
    taskRegistry: TaskRegistry__factory.connect(addr(record, "TaskRegistry"), runner),
    streamTasks: StreamTasks__factory.connect(addr(record, "StreamTasks"), runner),
  };
}
