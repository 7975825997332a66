/** Gas benchmark plumbing: every figure is the gasUsed of a real transaction on a deployed proxy. */
import type { ContractTransactionResponse, TransactionResponse } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { type DeployContext } from "../lib/deployer.js";
import { type Protocol } from "@chx/sdk";

export interface BenchContext {
  hre: HardhatRuntimeEnvironment;
  connection: NetworkConnection;
  deploy: DeployContext;
  protocol: Protocol;
  deployer: HardhatEthersSigner;
  users: HardhatEthersSigner[];
  /** Records `gasUsed` of a mined transaction under `<Contract>.<function>[:<case>]`. */
  measure(key: string, tx: Promise<ContractTransactionResponse | TransactionResponse>): Promise<bigint>;
  /** Records a derived figure (e.g. an amortised per-item cost) under `key`. */
  set(key: string, gas: bigint): void;
}

export interface BenchSuite {
  name: string;
  run(ctx: BenchContext): Promise<void>;
}
