/**
 * Typed handles on a deployed CHX protocol, from a deployment record. Scripts, tasks, tests, keepers and the
 * demo all connect through here, so a contract's name maps to one TypeChain type everywhere.
 */
import type { ContractRunner } from "ethers";
import {
  ChxAccessManager__factory,
  ClearingHouse__factory,
  GuarantorPool__factory,
  LiquidationEngine__factory,
  RiskEngine__factory,
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
  ComputePriceOracle__factory,
  InsuranceFund__factory,
  MockAggregatorV3__factory,
  SpotMarket__factory,
  PerpMarket__factory,
  LiquidityVault__factory,
  type PerpMarket,
  type LiquidityVault,
  FuturesMarket__factory,
  type FuturesMarket,
  OptionsMarket__factory,
  type ChxAccessManager,
  type ClearingHouse,
  type GuarantorPool,
  type LiquidationEngine,
  type RiskEngine,
  type ChxGovernor,
  type ChxTimelock,
  type CHToken,
  type DPSToken,
  type Emission,
  type GFLToken,
  type MockERC20,
  type ComputePriceOracle,
  type InsuranceFund,
  type MockAggregatorV3,
  type SpotMarket,
  type OptionsMarket,
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
  /** The CH index oracle (Chainlink feed, sequencer and spot-deviation gates). */
  oracle: ComputePriceOracle;
  /** The mock CH/USD feed behind the oracle on local networks (undefined on real networks). */
  chIndexFeed: MockAggregatorV3 | undefined;
  /** The insurance fund (USDC staking, bad-debt cover). */
  insuranceFund: InsuranceFund;
  clearingHouse: ClearingHouse;
  guarantorPool: GuarantorPool;
  riskEngine: RiskEngine;
  liquidationEngine: LiquidationEngine;
  /** CH/USDC spot market (signed orders, OTC deals, seats, TWAP). */
  spot: SpotMarket;
  /** European options on the CH index and on futures series (docs/options.md). */
  options: OptionsMarket;
  taskRegistry: TaskRegistry;
  streamTasks: StreamTasks;
  /** CH perpetual against the LP vault. */
  perpMarket: PerpMarket;
  /** ERC-4626 USDC vault: the perpetual's (and futures') counterparty. */
  liquidityVault: LiquidityVault;
  /** Dated CH futures with physical delivery (the FuturesDelivery module runs behind it). */
  futures: FuturesMarket;
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
    oracle: ComputePriceOracle__factory.connect(addr(record, "ComputePriceOracle"), runner),
    chIndexFeed:
      record.contracts.CHIndexFeed?.contract === "MockAggregatorV3"
        ? MockAggregatorV3__factory.connect(record.contracts.CHIndexFeed.address, runner)
        : undefined,
    insuranceFund: InsuranceFund__factory.connect(addr(record, "InsuranceFund"), runner),
    clearingHouse: ClearingHouse__factory.connect(addr(record, "ClearingHouse"), runner),
    guarantorPool: GuarantorPool__factory.connect(addr(record, "GuarantorPool"), runner),
    riskEngine: RiskEngine__factory.connect(addr(record, "RiskEngine"), runner),
    liquidationEngine: LiquidationEngine__factory.connect(addr(record, "LiquidationEngine"), runner),
    spot: SpotMarket__factory.connect(addr(record, "SpotMarket"), runner),
    options: OptionsMarket__factory.connect(addr(record, "OptionsMarket"), runner),
    taskRegistry: TaskRegistry__factory.connect(addr(record, "TaskRegistry"), runner),
    streamTasks: StreamTasks__factory.connect(addr(record, "StreamTasks"), runner),
    perpMarket: PerpMarket__factory.connect(addr(record, "PerpMarket"), runner),
    liquidityVault: LiquidityVault__factory.connect(addr(record, "LiquidityVault"), runner),
    futures: FuturesMarket__factory.connect(addr(record, "FuturesMarket"), runner),
  };
}
