/**
 * The job interface. A job finds due work from on-chain state (and events up to head − confirmations) and turns it
 * into transactions; the keeper runner does the rest generically: idempotency, simulation, the gas policy,
 * sending, replacement and metrics.
 *
 *   scan  → candidates (each with its idempotency key and priority)
 *   plan  → actions (calldata to send)
 *   simulate (runner; a job may override) → execute (runner)
 *
 * A module adds a job by writing keepers/src/jobs/<name>.ts exporting a JobFactory and adding it to
 * keepers/src/jobs/index.ts.
 */
import type { Logger } from "pino";
import type { ChainClient } from "../chain/client.js";
import type { JobConfig } from "../config.js";
import type { DeploymentInfo } from "../deployments.js";
import type { Simulation, TxRequest } from "../chain/sender.js";
import type { JobStore } from "../store.js";

/** Idempotency key: the same (action, id, epoch) is never sent twice while a transaction for it is live. */
export interface JobKey {
  action: string;
  id: string;
  /** Epoch, round or expiry the work belongs to ("-" when the action has none). */
  epoch: string;
}

export function keyString(k: JobKey): string {
  return `${k.action}:${k.id}:${k.epoch}`;
}

export interface Candidate<T = unknown> {
  key: JobKey;
  /** Bad-debt or liveness work: sent whatever the gas price (never skipped on a spike). */
  priority: boolean;
  /** Expected bounty in wei (native-token terms); undefined when unknown (then only the gas ceiling applies). */
  rewardWei?: bigint;
  data: T;
}

export interface Action extends TxRequest {
  key: JobKey;
  /** A batch action lists every key it covers (default: just `key`); the memo tracks each of them. */
  keys?: JobKey[];
  priority: boolean;
  rewardWei?: bigint;
  /** Human summary for logs and --dry-run ("execute item 4 on MockKeeperTarget"). */
  description: string;
}

export interface HeadInfo {
  number: number;
  hash: string;
  timestamp: number;
}

export interface JobContext {
  client: ChainClient;
  deployment: DeploymentInfo;
  config: JobConfig;
  log: Logger;
  keeper: string;
  head: HeadInfo;
  /** Highest block event scans may read (head − confirmations). */
  safeBlock: number;
  /**
   * This job's checkpoints, persisted in the keeper's state database across restarts (scan cursors, derived sets).
   * Absent in read-only passes (`chx:keeper:status`): a job must work without it (from scratch).
   */
  store?: JobStore;
}

export interface KeeperJob<T = unknown> {
  readonly name: string;
  /** One line for the startup summary: what this job will do, against which contracts. */
  readonly summary: string;
  /** Custom error names that mean "someone already did this": counted as success, not failure. */
  readonly alreadyDoneErrors: ReadonlyArray<string | RegExp>;
  /**
   * Errors a simulation may expect while the work waits on something outside the keeper (a stale oracle, a paused
   * market): logged as a warning once and the action retried with back-off ("deferred"), not an error every tick.
   */
  readonly expectedErrors?: ReadonlyArray<string | RegExp>;
  /**
   * Contested work (others race for it: liquidations): sent through the protected submission endpoint when one is
   * configured (`protectedRpcUrl`; `jobs.<name>.protectedSubmit` overrides).
   */
  readonly contested?: boolean;
  scan(ctx: JobContext): Promise<Candidate<T>[]>;
  plan(ctx: JobContext, candidates: Candidate<T>[]): Promise<Action[]>;
  /** Optional custom simulation; undefined falls back to the default (eth_estimateGas of the action at latest). */
  simulate?(ctx: JobContext, action: Action): Promise<Simulation | undefined>;
  /**
   * Stops work the job runs off the tick's critical path (background fits, re-validation) and resolves once it has
   * ended: the keeper awaits it on stop, before it closes its endpoints and state database, so nothing the job
   * started outlives the keeper.
   */
  close?(): Promise<void>;
}

export interface JobFactory {
  readonly name: string;
  readonly description: string;
  /** Contract types (artifact names) this job drives itself: checker discovery leaves them alone. */
  readonly covers?: string[];
  /** Made by checker discovery (keepers/src/discover.ts) from the deployment, not built into the keeper. */
  readonly discovered?: boolean;
  /** Builds the job, or throws JobUnavailable (e.g. its contracts are not deployed on this network). */
  create(args: { deployment: DeploymentInfo; config: JobConfig }): KeeperJob;
}
