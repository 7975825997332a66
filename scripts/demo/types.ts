import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { type DeployContext } from "../lib/deployer.js";
import type { DemoKeeper } from "./keeper.js";
import type { Rng } from "./rng.js";
import { type Protocol } from "@chx/sdk";

export interface DemoOptions {
  seed: number;
  days: number;
  providers: number;
  out: string;
}

/** A time series for a plot: one row per observation. */
export type Series = Array<Record<string, number | string>>;

export interface DemoContext {
  hre: HardhatRuntimeEnvironment;
  connection: NetworkConnection;
  deploy: DeployContext;
  protocol: Protocol;
  opts: DemoOptions;
  rng: Rng;
  deployer: HardhatEthersSigner;
  /** Named actors (alice, bob, carol, providers…), drawn from the node's funded accounts. */
  actor(name: string): HardhatEthersSigner;
  /** A line in the run log (and the report). */
  log(line: string): void;
  /** A key figure for the report summary (asserted by the demo test). */
  figure(key: string, value: string | number | bigint | boolean): void;
  /** Appends a row to a named series (plots). */
  series(name: string, row: Record<string, number | string>): void;
  /**
   * Moves chain time forward, lets the CH index move (the mock Chainlink feed publishes it, so it is never stale)
   * and runs one tick of the keeper program.
   */
  advance(seconds: number): Promise<void>;
  /** The real keeper program, running in-process against this chain (scripts/demo/keeper.ts). */
  keeper: DemoKeeper;
  /** The CH index (USDC per CH) the mock feed publishes; scenes may set it (the shock). */
  index(): number;
  setIndex(priceUsdc: number): Promise<void>;
}

export interface Scene {
  title: string;
  /** Deployment names the scene needs; missing ones make it "skipped", never faked. */
  requires: string[];
  run(ctx: DemoContext): Promise<void>;
}

export interface SceneResult {
  title: string;
  status: "done" | "skipped" | "failed";
  note: string;
  seconds: number;
}
