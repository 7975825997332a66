/**
 * Typed handles (TypeChain, ethers v6) on a deployed CHX protocol, from its deployment record. Keepers, tasks, the
 * demo, tests and wallets connect through here, so a deployment name maps to one contract type everywhere.
 */
import type { ContractRunner } from "ethers";
import {
  AccountLens__factory,
  CHToken__factory,
  ChxAccessManager__factory,
  ChxGovernor__factory,
  ChxTimelock__factory,
  ClearingHouse__factory,
  ComputePriceOracle__factory,
  ComputeStandard__factory,
  DPSToken__factory,
  Emission__factory,
  FuturesMarket__factory,
  GFLToken__factory,
  GuarantorPool__factory,
  InsuranceFund__factory,
  LiquidationEngine__factory,
  LiquidityVault__factory,
  MockAggregatorV3__factory,
  MockERC20__factory,
  OptionsMarket__factory,
  PerpMarket__factory,
  ProviderMatcher__factory,
  ProviderRegistry__factory,
  RiskEngine__factory,
  SpotMarket__factory,
  StreamTasks__factory,
  TaskKeeperLens__factory,
  TaskRegistry__factory,
  type AccountLens,
  type CHToken,
  type ChxAccessManager,
  type ChxGovernor,
  type ChxTimelock,
  type ClearingHouse,
  type ComputePriceOracle,
  type ComputeStandard,
  type DPSToken,
  type Emission,
  type FuturesMarket,
  type GFLToken,
  type GuarantorPool,
  type InsuranceFund,
  type LiquidationEngine,
  type LiquidityVault,
  type MockAggregatorV3,
  type MockERC20,
  type OptionsMarket,
  type PerpMarket,
  type ProviderMatcher,
  type ProviderRegistry,
  type RiskEngine,
  type SpotMarket,
  type StreamTasks,
  type TaskKeeperLens,
  type TaskRegistry,
} from "./generated/typechain/index.js";
import { addressOf, type DeploymentRecord } from "./deployment.js";

export interface Protocol {
  record: DeploymentRecord;
  accessManager: ChxAccessManager;
  timelock: ChxTimelock;
  governor: ChxGovernor;
  dps: DPSToken;
  ch: CHToken;
  gfl: GFLToken;
  emission: Emission;
  /** USDC. Typed as the local mock (its ERC-20 part is all a real network has; `mint` exists only on local chains). */
  usdc: MockERC20;
  computeStandard: ComputeStandard;
  providerRegistry: ProviderRegistry;
  providerMatcher: ProviderMatcher;
  /** The CH index oracle (Chainlink feed, sequencer and spot-deviation gates). */
  oracle: ComputePriceOracle;
  /** The mock CH/USD feed behind the oracle on local networks (undefined on real networks). */
  chIndexFeed: MockAggregatorV3 | undefined;
  insuranceFund: InsuranceFund;
  clearingHouse: ClearingHouse;
  guarantorPool: GuarantorPool;
  riskEngine: RiskEngine;
  liquidationEngine: LiquidationEngine;
  /** CH/USDC spot market (signed orders, OTC deals, seats, TWAP). */
  spot: SpotMarket;
  /** European options on the CH index and on futures series. */
  options: OptionsMarket;
  taskRegistry: TaskRegistry;
  streamTasks: StreamTasks;
  /** CH perpetual against the LP vault. */
  perpMarket: PerpMarket;
  /** ERC-4626 USDC vault: the perpetual's (and futures') counterparty. */
  liquidityVault: LiquidityVault;
  /** Dated CH futures with physical delivery. */
  futures: FuturesMarket;
  /** Wallet views: portfolio, markets, open guarantors, workload classes (undefined if not deployed). */
  accountLens: AccountLens | undefined;
  /** The keepers' task scan (undefined if not deployed). */
  taskKeeperLens: TaskKeeperLens | undefined;
}

const optional = <T>(record: DeploymentRecord, name: string, f: (a: string) => T): T | undefined =>
  record.contracts[name] === undefined ? undefined : f(record.contracts[name]!.address);

/** Connects every contract of `record` to `runner` (a provider for reads, a signer to send transactions). */
export function connectProtocol(record: DeploymentRecord, runner: ContractRunner): Protocol {
  const at = (name: string) => addressOf(record, name);
  return {
    record,
    accessManager: ChxAccessManager__factory.connect(at("AccessManager"), runner),
    timelock: ChxTimelock__factory.connect(at("Timelock"), runner),
    governor: ChxGovernor__factory.connect(at("Governor"), runner),
    dps: DPSToken__factory.connect(at("DPSToken"), runner),
    ch: CHToken__factory.connect(at("CHToken"), runner),
    gfl: GFLToken__factory.connect(at("GFLToken"), runner),
    emission: Emission__factory.connect(at("Emission"), runner),
    usdc: MockERC20__factory.connect(at("USDC"), runner),
    computeStandard: ComputeStandard__factory.connect(at("ComputeStandard"), runner),
    providerRegistry: ProviderRegistry__factory.connect(at("ProviderRegistry"), runner),
    providerMatcher: ProviderMatcher__factory.connect(at("ProviderMatcher"), runner),
    oracle: ComputePriceOracle__factory.connect(at("ComputePriceOracle"), runner),
    chIndexFeed:
      record.contracts.CHIndexFeed?.contract === "MockAggregatorV3"
        ? MockAggregatorV3__factory.connect(record.contracts.CHIndexFeed.address, runner)
        : undefined,
    insuranceFund: InsuranceFund__factory.connect(at("InsuranceFund"), runner),
    clearingHouse: ClearingHouse__factory.connect(at("ClearingHouse"), runner),
    guarantorPool: GuarantorPool__factory.connect(at("GuarantorPool"), runner),
    riskEngine: RiskEngine__factory.connect(at("RiskEngine"), runner),
    liquidationEngine: LiquidationEngine__factory.connect(at("LiquidationEngine"), runner),
    spot: SpotMarket__factory.connect(at("SpotMarket"), runner),
    options: OptionsMarket__factory.connect(at("OptionsMarket"), runner),
    taskRegistry: TaskRegistry__factory.connect(at("TaskRegistry"), runner),
    streamTasks: StreamTasks__factory.connect(at("StreamTasks"), runner),
    perpMarket: PerpMarket__factory.connect(at("PerpMarket"), runner),
    liquidityVault: LiquidityVault__factory.connect(at("LiquidityVault"), runner),
    futures: FuturesMarket__factory.connect(at("FuturesMarket"), runner),
    accountLens: optional(record, "AccountLens", (a) => AccountLens__factory.connect(a, runner)),
    taskKeeperLens: optional(record, "TaskKeeperLens", (a) => TaskKeeperLens__factory.connect(a, runner)),
  };
}
