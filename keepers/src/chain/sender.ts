/**
 * Simulate-then-send with one signer: estimates gas at `latest` (a revert is decoded, and a typed "already done"
 * error counts as success), signs with a nonce from the signer's NonceManager, broadcasts through the failover
 * client, and watches the transaction: with no receipt after `replaceAfterMs` it re-signs the SAME nonce with
 * higher fees (a dropped or underpriced transaction never blocks the queue). A mined revert is replayed at its
 * block to recover the typed error, so a lost race reads as "already done" rather than as a failure (OPS-01).
 */
import { FetchRequest, JsonRpcProvider, Network, Transaction, type TransactionReceipt } from "ethers";
import type { TransactionRequest } from "ethers";
import type { Logger } from "pino";
import type { ChainClient } from "./client.js";
import { RpcUnavailableError } from "./client.js";
import type { ErrorDecoder, DecodedError } from "./errors.js";
import { classifySendError, describeSendError, shortMessage, type SendCause } from "./errors.js";
import { bumpFees, quoteFees, type FeeQuote } from "./gas.js";
import type { NonceManager } from "./nonce.js";
import type { FlightRow, KeeperStore } from "../store.js";
import { mapLimit } from "../util.js";

/** What the sender needs of a signer: its address and offline signing (an ethers Wallet; none in a keyless dry run). */
export interface KeeperSigner {
  readonly address: string;
  signTransaction(tx: TransactionRequest): Promise<string>;
}

/** EIP-7825 per-transaction gas cap (SPEC section 10). */
export const TX_GAS_CAP = 16_777_216n;

export interface TxRequest {
  to: string;
  data: string;
  value?: bigint;
}

export interface SenderSettings {
  chainId: number;
  replaceAfterMs: number;
  replaceBumpPercent: number;
  maxReplacements: number;
  txTimeoutMs: number;
  defaultPriorityFeeGwei: number;
  /** Ordinary work pending this long may be taken over by urgent work (default: replaceAfterMs). */
  preemptAfterMs?: number;
  /** Private / protected submission endpoint for contested actions. */
  protectedRpcUrl?: string;
}

export type Simulation = { ok: true; gas: bigint } | { ok: false; error: DecodedError; alreadyDone: boolean };

export type TxStatus =
  "success" | "already-done" | "reverted" | "timeout" | "nonce-consumed" | "preempted" | "reorged" | "failed";

export interface TxOutcome {
  status: TxStatus;
  nonce: number;
  txHash?: string;
  blockNumber?: number;
  blockHash?: string;
  gasUsed?: bigint;
  /** Gas × effective price paid (wei). */
  gasCostWei?: bigint;
  /** The receipt's logs (bounty accounting). */
  logs?: ReadonlyArray<{ address: string; topics: ReadonlyArray<string>; data: string }>;
  replacements: number;
  /** Every hash signed for this nonce by this action, first to last. */
  hashes: string[];
  error?: DecodedError;
  /** For "preempted": what took the nonce over. */
  preemptedBy?: string;
}

export interface Submitted {
  nonce: number;
  hash: string;
  done: Promise<TxOutcome>;
  /** True when this urgent action took over a stuck ordinary transaction's nonce. */
  tookOver?: boolean;
}

export interface SendOptions {
  priority: boolean;
  ceilingWei: bigint;
  gasLimit: bigint;
  quote: FeeQuote;
  isAlreadyDone: (name: string | undefined) => boolean;
  log: Logger;
  /** For the state store and preemption: the job, the keys and the description of the action. */
  job?: string;
  keys?: string[];
  description?: string;
  /** Broadcast through the protected submission endpoint first (contested work). */
  protected?: boolean;
}

export interface SenderHooks {
  onReplace?: (nonce: number, replacements: number) => void;
  onPreempt?: (nonce: number, from: string, to: string) => void;
  onProtectedFallback?: (error: string) => void;
}

/** A send that failed before any transaction was broadcast, with its cause (insufficient funds, nonce, …). */
export class SendError extends Error {
  constructor(
    readonly sendCause: SendCause,
    message: string,
  ) {
    super(message);
  }
}

type Fees = { maxFeeWei: bigint; priorityFeeWei: bigint };

/** One nonce in flight: the action that owns it now (an urgent action may take it over), its fees and hashes. */
interface Flight {
  nonce: number;
  owner: symbol;
  req: TxRequest;
  priority: boolean;
  ceilingWei: bigint;
  gasLimit: bigint;
  fees: Fees;
  legacy: boolean;
  hashes: string[];
  /** Hashes signed for this nonce by earlier owners (a preempted action's): if one is mined, the nonce is theirs. */
  foreign: string[];
  firstSentAt: number;
  job: string;
  keys: string[];
  description: string;
  /** Set while an urgent action is taking this nonce over (one at a time: the others take fresh nonces). */
  claimed?: boolean;
  /** Set by `reorged()`: a reorg removed its transaction; the nonce and the work were given back. */
  orphaned?: boolean;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class Sender {
  private readonly flights = new Map<number, Flight>();
  /** Set by `abandon()`: watchers stop where they are (the process is going away; the store keeps the flights). */
  private abandoned = false;
  private readonly protectedProvider: JsonRpcProvider | undefined;

  constructor(
    readonly client: ChainClient,
    readonly wallet: KeeperSigner,
    readonly nonces: NonceManager,
    readonly decoder: ErrorDecoder,
    readonly settings: SenderSettings,
    readonly hooks: SenderHooks = {},
    readonly store?: KeeperStore,
  ) {
    nonces.holdBy((n) => this.flights.has(n));
    if (settings.protectedRpcUrl !== undefined) {
      const network = Network.from(settings.chainId);
      const req = new FetchRequest(settings.protectedRpcUrl);
      req.timeout = 10_000;
      this.protectedProvider = new JsonRpcProvider(req, network, {
        staticNetwork: network,
        cacheTimeout: -1,
        batchMaxCount: 1,
      });
    }
  }

  get address(): string {
    return this.wallet.address;
  }

  /** Transactions in flight (nonce, job, priority, age), by nonce (sends of one tick may settle in any order). */
  inFlight(): Array<{ nonce: number; job: string; priority: boolean; ageMs: number; keys: string[] }> {
    const now = Date.now();
    return [...this.flights.values()]
      .sort((a, b) => a.nonce - b.nonce)
      .map((f) => ({
        nonce: f.nonce,
        job: f.job,
        priority: f.priority,
        ageMs: now - f.firstSentAt,
        keys: f.keys,
      }));
  }

  destroy(): void {
    this.protectedProvider?.destroy();
  }

  /** Stops every watcher at once, leaving the flights in the store for the next run to adopt (a hard stop). */
  abandon(): void {
    this.abandoned = true;
  }

  /** eth_estimateGas at `latest`: the gas, or the decoded reason it would revert. */
  async simulate(req: TxRequest, isAlreadyDone: (name: string | undefined) => boolean): Promise<Simulation> {
    try {
      const gas = await this.client.send<string>("eth_estimateGas", [this.rpcTx(req), "latest"]);
      return { ok: true, gas: BigInt(gas) };
    } catch (e) {
      if (e instanceof RpcUnavailableError) throw e;
      const error = this.decoder.decode(e);
      return { ok: false, error, alreadyDone: isAlreadyDone(error.name) };
    }
  }

  /** Gas limit for an estimate: +25 % and 10k headroom, never above the EIP-7825 cap. */
  static gasLimitFor(estimate: bigint): bigint {
    const limit = (estimate * 125n) / 100n + 10_000n;
    return limit > TX_GAS_CAP ? TX_GAS_CAP : limit;
  }

  private rpcTx(req: TxRequest): Record<string, string> {
    return {
      from: this.wallet.address,
      to: req.to,
      data: req.data,
      ...(req.value !== undefined && req.value > 0n ? { value: "0x" + req.value.toString(16) } : {}),
    };
  }

  private async sign(req: TxRequest, nonce: number, gasLimit: bigint, fees: Fees, legacy: boolean): Promise<string> {
    const base = {
      chainId: this.settings.chainId,
      nonce,
      to: req.to,
      data: req.data,
      value: req.value ?? 0n,
      gasLimit,
    };
    return this.wallet.signTransaction(
      legacy
        ? { ...base, type: 0, gasPrice: fees.maxFeeWei }
        : { ...base, type: 2, maxFeePerGas: fees.maxFeeWei, maxPriorityFeePerGas: fees.priorityFeeWei },
    );
  }

  /**
   * Broadcasts (protected endpoint first when asked, falling back to the public ones); "already known" is fine.
   * Returns undefined, or the error with its cause for the caller to handle.
   */
  private async broadcast(
    raw: string,
    viaProtected = false,
  ): Promise<{ cause: SendCause; message: string; error: unknown } | undefined> {
    if (viaProtected && this.protectedProvider !== undefined) {
      try {
        await this.protectedProvider.send("eth_sendRawTransaction", [raw]);
        return undefined;
      } catch (e) {
        const msg = shortMessage(e);
        if (/already known|known transaction|already imported/i.test(msg)) return undefined;
        const cause = classifySendError(e);
        if (cause !== "rpc") return { cause, message: msg, error: e };
        this.hooks.onProtectedFallback?.(msg);
      }
    }
    try {
      await this.client.send("eth_sendRawTransaction", [raw]);
      return undefined;
    } catch (e) {
      const msg = shortMessage(e);
      if (/already known|known transaction|already imported/i.test(msg)) return undefined;
      const code = (e as { code?: unknown })?.code;
      return {
        cause: classifySendError(e),
        message: typeof code === "string" ? `${code}: ${msg}` : msg,
        error: e,
      };
    }
  }

  private persist(f: Flight): void {
    this.store?.putFlight({
      nonce: f.nonce,
      job: f.job,
      keys: f.keys,
      priority: f.priority,
      to: f.req.to,
      data: f.req.data,
      value: String(f.req.value ?? 0n),
      gasLimit: String(f.gasLimit),
      maxFeeWei: String(f.fees.maxFeeWei),
      priorityFeeWei: String(f.fees.priorityFeeWei),
      legacy: f.legacy,
      hashes: f.hashes,
      firstSentAt: f.firstSentAt,
      description: f.description,
    });
  }

  private release(f: Flight, owner: symbol): void {
    if (f.owner !== owner || this.abandoned) return; // taken over: the new owner releases; abandoned: kept
    this.flights.delete(f.nonce);
    this.store?.deleteFlight(f.nonce);
    this.nonces.release();
  }

  /**
   * An ordinary transaction in flight that urgent work may take over: priced below the next block's base fee (it
   * cannot be mined at today's prices, and its ceiling may forbid the bump), or pending longer than
   * `preemptAfterMs`. The lowest such nonce first.
   */
  private stuckOrdinary(quote: FeeQuote): Flight | undefined {
    const now = Date.now();
    const nextBase = (quote.baseFeeWei * 1125n) / 1000n;
    const after = this.settings.preemptAfterMs ?? this.settings.replaceAfterMs;
    let best: Flight | undefined;
    for (const f of this.flights.values()) {
      if (f.priority || f.claimed) continue;
      const stuck = f.fees.maxFeeWei < nextBase || now - f.firstSentAt >= after;
      if (stuck && (best === undefined || f.nonce < best.nonce)) best = f;
    }
    return best;
  }

  /**
   * Takes a nonce, signs and broadcasts; `done` settles when a transaction for that nonce is mined (or abandoned).
   * Urgent (priority) work first takes over the lowest stuck ordinary transaction's nonce (re-signing it with the
   * urgent call and a fee that beats it), so it never queues behind work priced out by a spike (issue 25).
   */
  async submit(req: TxRequest, opts: SendOptions): Promise<Submitted> {
    if (opts.priority) {
      const stuck = this.stuckOrdinary(opts.quote);
      if (stuck !== undefined) {
        // Claimed at once: the other urgent actions of the tick, submitted concurrently, must not all re-sign this
        // nonce (each but the first was refused as underpriced, a wasted round trip before its fresh nonce).
        stuck.claimed = true;
        const taken = await this.takeOver(stuck, req, opts).finally(() => (stuck.claimed = false));
        if (taken !== undefined) return taken;
      }
    }
    return this.submitFresh(req, opts);
  }

  private async submitFresh(req: TxRequest, opts: SendOptions): Promise<Submitted> {
    const fees = { maxFeeWei: opts.quote.maxFeeWei, priorityFeeWei: opts.quote.priorityFeeWei };
    for (let attempt = 0; ; attempt++) {
      const nonce = await this.nonces.take();
      let raw: string;
      try {
        raw = await this.sign(req, nonce, opts.gasLimit, fees, opts.quote.legacy);
      } catch (e) {
        this.nonces.release();
        this.nonces.invalidate();
        throw e;
      }
      const hash = Transaction.from(raw).hash as string;
      const err = await this.broadcast(raw, opts.protected);
      if (err !== undefined && err.cause === "nonce" && attempt < 2) {
        // Someone else used this nonce (another process with the same key, a stale counter): resync and retry.
        opts.log.warn({ nonce, err: err.message }, "nonce already used: resyncing the nonce from the chain");
        this.nonces.release();
        this.nonces.invalidate();
        continue;
      }
      if (err !== undefined && (err.cause === "insufficient-funds" || err.cause === "rejected")) {
        // Nothing was broadcast: the nonce is free again, and no fee bump would help.
        this.nonces.release();
        this.nonces.invalidate();
        throw new SendError(err.cause, describeSendError(err.cause, err.error, this.address));
      }
      if (err !== undefined)
        opts.log.warn({ nonce, hash, err: err.message }, "broadcast failed; the watcher will re-send");
      const owner = Symbol(opts.description ?? "tx");
      const flight: Flight = {
        nonce,
        owner,
        req,
        priority: opts.priority,
        ceilingWei: opts.ceilingWei,
        gasLimit: opts.gasLimit,
        fees,
        legacy: opts.quote.legacy,
        hashes: [hash],
        foreign: [],
        firstSentAt: Date.now(),
        job: opts.job ?? "",
        keys: opts.keys ?? [],
        description: opts.description ?? "",
      };
      this.flights.set(nonce, flight);
      this.persist(flight);
      const done = this.watch(flight, owner, opts);
      return { nonce, hash, done };
    }
  }

  /** Re-signs `f`'s nonce with the urgent `req` at a fee that replaces it; undefined if the node refused. */
  private async takeOver(f: Flight, req: TxRequest, opts: SendOptions): Promise<Submitted | undefined> {
    const bumped = bumpFees(f.fees, opts.quote, Math.max(this.settings.replaceBumpPercent, 10));
    const raw = await this.sign(req, f.nonce, opts.gasLimit, bumped, f.legacy);
    const hash = Transaction.from(raw).hash as string;
    const err = await this.broadcast(raw, opts.protected);
    if (err !== undefined && err.cause !== "rpc") {
      opts.log.warn({ nonce: f.nonce, err: err.message }, "could not take over the stuck nonce; sending at a new one");
      return undefined;
    }
    const from = f.description;
    const owner = Symbol(opts.description ?? "urgent");
    f.foreign.push(...f.hashes);
    f.owner = owner;
    f.req = req;
    f.priority = true;
    f.ceilingWei = opts.ceilingWei;
    f.gasLimit = opts.gasLimit;
    f.fees = bumped;
    f.hashes = [hash];
    f.firstSentAt = Date.now();
    f.job = opts.job ?? "";
    f.keys = opts.keys ?? [];
    f.description = opts.description ?? "";
    this.persist(f);
    this.hooks.onPreempt?.(f.nonce, from, f.description);
    opts.log.warn(
      { nonce: f.nonce, hash, preempted: from },
      "urgent work took over the nonce of a stuck ordinary transaction",
    );
    const done = this.watch(f, owner, opts).then(async (o) => {
      // The ordinary transaction was mined before our replacement: send the urgent work at a fresh nonce at once.
      if (o.status !== "nonce-consumed" || o.preemptedBy !== "foreign") return o;
      opts.log.warn({ nonce: f.nonce }, "the preempted transaction was mined first: re-sending at a new nonce");
      const again = await this.submitFresh(req, opts);
      return again.done;
    });
    return { nonce: f.nonce, hash, done, tookOver: true };
  }

  private minedCache: { at: number; value: Promise<number> } | undefined;

  /**
   * The signer's mined transaction count, shared by every watcher (one call per `maxAgeMs` instead of one receipt
   * poll per transaction in flight: with 100 transactions pipelined that was 100 calls per poll against the node).
   */
  private minedCount(maxAgeMs: number, notBefore = 0): Promise<number> {
    const now = Date.now();
    // A count read before `notBefore` (the watcher's broadcast) cannot show that transaction mined: read again.
    const cached = this.minedCache;
    if (cached !== undefined && now - cached.at < maxAgeMs && cached.at >= notBefore) return cached.value;
    const value = this.client.read("getTransactionCount", (p) => p.getTransactionCount(this.address, "latest"));
    const entry = { at: now, value };
    this.minedCache = entry;
    value.catch(() => {
      if (this.minedCache === entry) this.minedCache = undefined;
    });
    return value;
  }

  private async receipt(hash: string): Promise<TransactionReceipt | null> {
    try {
      return await this.client.read("getTransactionReceipt", (p) => p.getTransactionReceipt(hash));
    } catch {
      return null;
    }
  }

  private async watch(f: Flight, owner: symbol, opts: SendOptions): Promise<TxOutcome> {
    try {
      return await this.watchLoop(f, owner, opts);
    } finally {
      this.release(f, owner);
    }
  }

  private async watchLoop(f: Flight, owner: symbol, opts: SendOptions): Promise<TxOutcome> {
    const s = this.settings;
    const nonce = f.nonce;
    let replacements = 0;
    const started = Date.now();
    let lastSent = started;
    let fundsWarned = false;
    const pollMs = Math.min(1_000, Math.max(50, Math.floor(s.replaceAfterMs / 10)));
    for (;;) {
      if (this.abandoned) return { status: "timeout", nonce, replacements, hashes: f.hashes };
      if (f.orphaned) return { status: "reorged", nonce, replacements, hashes: f.hashes };
      if (f.owner !== owner) {
        return { status: "preempted", nonce, replacements, hashes: f.foreign, preemptedBy: f.description };
      }
      // Receipts only once the signer's mined count passed this nonce (or when it cannot be read).
      // The first poll after the broadcast reads afresh (an automining node has mined it already: no poll sleep);
      // the later polls share one read per pollMs / 2 among every watcher.
      const minedNow = await this.minedCount(pollMs / 2, started).catch(() => undefined);
      if (f.owner !== owner) continue;
      if (minedNow === undefined || minedNow > nonce) {
        for (let i = f.hashes.length - 1; i >= 0; i--) {
          const r = await this.receipt(f.hashes[i] as string);
          if (r !== null) return this.settle(f.req, opts, nonce, r, f.hashes, replacements);
        }
        if (minedNow !== undefined) {
          for (const h of f.foreign) {
            if ((await this.receipt(h)) !== null) {
              return { status: "nonce-consumed", nonce, replacements, hashes: f.hashes, preemptedBy: "foreign" };
            }
          }
        }
      }
      if (Date.now() - started > s.txTimeoutMs) {
        this.nonces.invalidate();
        return { status: "timeout", nonce, replacements, hashes: f.hashes };
      }
      if (Date.now() - lastSent >= s.replaceAfterMs) {
        lastSent = Date.now();
        let mined: number;
        try {
          mined = await this.client.read("getTransactionCount", (p) => p.getTransactionCount(this.address, "latest"));
        } catch {
          await sleep(pollMs);
          continue;
        }
        if (f.owner !== owner) continue;
        if (mined > nonce) {
          // Something took this nonce; if it was not one of ours (checked once more), give the work back.
          for (const h of f.hashes) {
            const r = await this.receipt(h);
            if (r !== null) return this.settle(f.req, opts, nonce, r, f.hashes, replacements);
          }
          this.nonces.invalidate();
          const foreign = f.foreign.length > 0 ? "foreign" : undefined;
          return { status: "nonce-consumed", nonce, replacements, hashes: f.hashes, preemptedBy: foreign };
        }
        if (replacements < s.maxReplacements) {
          let quote: FeeQuote;
          try {
            quote = await quoteFees(this.client, s.defaultPriorityFeeGwei);
          } catch {
            quote = opts.quote;
          }
          const next = bumpFees(f.fees, quote, s.replaceBumpPercent);
          if (!f.priority && next.maxFeeWei > f.ceilingWei) {
            opts.log.warn(
              { nonce, maxFeeWei: String(next.maxFeeWei) },
              "not replacing: the bumped fee is above the job ceiling (urgent work may take this nonce over)",
            );
          } else if (f.owner === owner) {
            const raw = await this.sign(f.req, nonce, f.gasLimit, next, f.legacy);
            const hash = Transaction.from(raw).hash as string;
            const err = await this.broadcast(raw, opts.protected);
            if (f.owner !== owner) continue;
            if (err === undefined || err.cause === "rpc") {
              f.fees = next;
              f.hashes.push(hash);
              replacements++;
              this.persist(f);
              this.hooks.onReplace?.(nonce, replacements);
              opts.log.warn(
                { nonce, hash, replacements, maxFeeWei: String(next.maxFeeWei), err: err?.message },
                "no receipt in time: replaced with the same nonce and a higher fee",
              );
            } else if (err.cause === "insufficient-funds") {
              if (!fundsWarned) {
                opts.log.warn(
                  { nonce },
                  `${describeSendError(err.cause, err.error, this.address)}; keeping the current fee`,
                );
              }
              fundsWarned = true;
            } else {
              f.fees = next; // underpriced: bump further next round
            }
          }
        }
      }
      await sleep(pollMs);
    }
  }

  /**
   * After a reorg. A transaction of ours that the reorg removed and that the node no longer holds (neither mined nor
   * pending: hardhat's evm_revert drops the mempool with the blocks, and a node may not re-inject orphaned
   * transactions) leaves its nonce empty, and with the chain's count back below the nonces still in flight every
   * transaction above waits on that gap — no replacement at the same nonce fills it, and an urgent action taking over
   * one of the stale nonces lands behind it too. So such flights are given up at once (their watchers end with
   * "reorged", their keys are returned for the memo to forget: the jobs find the work again on the new branch) and
   * the nonce counter restarts at the chain's `pending` count: the work found again takes the freed nonces from the
   * lowest, in the same tick. Transactions the node still holds keep their nonces (never handed out again).
   */
  async reorged(): Promise<{
    orphaned: Array<{ nonce: number; job: string; keys: string[] }>;
    nonce: { from: number; to: number } | undefined;
  }> {
    const mined = await this.client.read("getTransactionCount", (p) => p.getTransactionCount(this.address, "latest"));
    this.minedCache = undefined;
    const orphaned: Array<{ nonce: number; job: string; keys: string[] }> = [];
    // a transaction the node cannot be asked about counts as held (kept: its watcher goes on as before)
    const known = (hash: string) =>
      this.client.send<unknown>("eth_getTransactionByHash", [hash]).then(
        (tx) => tx !== null,
        () => true,
      );
    // (flights at or above the chain's count: below it they are on the new branch too and their watchers read the
    // receipts; the checks run in parallel — this is on the path of the tick that re-sends the work)
    const above = [...this.flights.values()].filter((f) => f.nonce >= mined).sort((a, b) => a.nonce - b.nonce);
    const held = await mapLimit(above, 16, async (f) => {
      for (const h of [...f.hashes].reverse().concat(f.foreign)) if (await known(h)) return true;
      return false;
    });
    for (const [i, f] of above.entries()) {
      if (held[i] || this.flights.get(f.nonce) !== f) continue;
      f.orphaned = true;
      f.owner = Symbol("orphaned by a reorg"); // its watcher stops at its next step and releases nothing
      this.flights.delete(f.nonce);
      this.store?.deleteFlight(f.nonce);
      this.nonces.release();
      orphaned.push({ nonce: f.nonce, job: f.job, keys: f.keys });
    }
    return { orphaned, nonce: await this.nonces.realign() };
  }

  private async settle(
    req: TxRequest,
    opts: SendOptions,
    nonce: number,
    r: TransactionReceipt,
    hashes: string[],
    replacements: number,
  ): Promise<TxOutcome> {
    const price = r.gasPrice ?? 0n;
    const base = {
      nonce,
      txHash: r.hash,
      blockNumber: r.blockNumber,
      blockHash: r.blockHash,
      gasUsed: r.gasUsed,
      gasCostWei: r.gasUsed * price,
      logs: r.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data })),
      replacements,
      hashes,
    };
    if (r.status === 1) return { status: "success", ...base };
    // Replay at the block to recover the typed reason (a lost race reads as "already done").
    let error: DecodedError = { text: "reverted on chain" };
    try {
      await this.client.send("eth_call", [this.rpcTx(req), "0x" + r.blockNumber.toString(16)]);
    } catch (e) {
      error = this.decoder.decode(e);
    }
    return { status: opts.isAlreadyDone(error.name) ? "already-done" : "reverted", ...base, error };
  }

  /**
   * Start-up: the transactions a previous run left in flight (the state store) are adopted at their own nonces —
   * mined ones are read back, pending ones watched (and replaced with higher fees as usual); nonces the node holds
   * pending that no stored flight explains (another run whose state was lost) are cancelled by replacement with a
   * 0-value self-transfer, so nothing of ours sits in the mempool unknown. Returns one outcome per adopted flight.
   */
  async adopt(
    quote: FeeQuote,
    log: Logger,
    isAlreadyDone: (job: string) => (name: string | undefined) => boolean,
    ceilingOf: (job: string) => bigint,
  ): Promise<Array<{ flight: FlightRow; done: Promise<TxOutcome> }>> {
    const stored = this.store?.flights() ?? [];
    const [latest, pending] = await Promise.all([
      this.client.read("getTransactionCount", (p) => p.getTransactionCount(this.address, "latest")),
      this.client.read("getTransactionCount", (p) => p.getTransactionCount(this.address, "pending")),
    ]);
    const out: Array<{ flight: FlightRow; done: Promise<TxOutcome> }> = [];
    const known = new Set<number>();
    for (const row of stored) {
      known.add(row.nonce);
      const req: TxRequest = { to: row.to, data: row.data, value: BigInt(row.value) };
      const opts: SendOptions = {
        priority: row.priority,
        ceilingWei: ceilingOf(row.job),
        gasLimit: BigInt(row.gasLimit),
        quote,
        isAlreadyDone: isAlreadyDone(row.job),
        log: log.child({ job: row.job, nonce: row.nonce, adopted: true }),
        job: row.job,
        keys: row.keys,
        description: row.description,
      };
      const owner = Symbol(row.description);
      const f: Flight = {
        nonce: row.nonce,
        owner,
        req,
        priority: row.priority,
        ceilingWei: opts.ceilingWei,
        gasLimit: opts.gasLimit,
        fees: { maxFeeWei: BigInt(row.maxFeeWei), priorityFeeWei: BigInt(row.priorityFeeWei) },
        legacy: row.legacy,
        hashes: row.hashes,
        foreign: [],
        firstSentAt: row.firstSentAt,
        job: row.job,
        keys: row.keys,
        description: row.description,
      };
      this.nonces.adopt(row.nonce);
      this.flights.set(row.nonce, f);
      if (row.nonce >= latest) {
        // Still pending (or dropped by a restarted node): re-broadcast the last signed transaction as it was.
        const raw = await this.sign(req, row.nonce, f.gasLimit, f.fees, f.legacy);
        const err = await this.broadcast(raw, false);
        if (err !== undefined && err.cause !== "nonce")
          log.debug({ nonce: row.nonce, err: err.message }, "re-broadcast");
      }
      out.push({ flight: row, done: this.watch(f, owner, opts) });
    }
    for (let nonce = latest; nonce < pending; nonce++) {
      if (known.has(nonce)) continue;
      out.push({ flight: this.cancelRow(nonce), done: this.cancel(nonce, quote, log) });
    }
    return out;
  }

  private cancelRow(nonce: number): FlightRow {
    return {
      nonce,
      job: "",
      keys: [],
      priority: true,
      to: this.address,
      data: "0x",
      value: "0",
      gasLimit: "21000",
      maxFeeWei: "0",
      priorityFeeWei: "0",
      legacy: false,
      hashes: [],
      firstSentAt: Date.now(),
      description: `cancel unknown pending nonce ${nonce}`,
    };
  }

  /** Cancels a pending nonce by replacement: a 0-value self-transfer at twice the current fees (bumped as usual). */
  private async cancel(nonce: number, quote: FeeQuote, log: Logger): Promise<TxOutcome> {
    const req: TxRequest = { to: this.address, data: "0x" };
    const fees = { maxFeeWei: quote.maxFeeWei * 2n, priorityFeeWei: quote.priorityFeeWei * 2n + 1n };
    const raw = await this.sign(req, nonce, 21_000n, fees, quote.legacy);
    const hash = Transaction.from(raw).hash as string;
    await this.broadcast(raw, false);
    log.warn(
      { nonce, hash },
      "a pending transaction of this key is unknown to the state store: cancelling it by replacement",
    );
    const owner = Symbol("cancel");
    const f: Flight = {
      nonce,
      owner,
      req,
      priority: true,
      ceilingWei: 0n,
      gasLimit: 21_000n,
      fees,
      legacy: quote.legacy,
      hashes: [hash],
      foreign: [],
      firstSentAt: Date.now(),
      job: "",
      keys: [],
      description: `cancel of nonce ${nonce}`,
    };
    this.nonces.adopt(nonce);
    this.flights.set(nonce, f);
    const o = await this.watch(f, owner, {
      priority: true,
      ceilingWei: 0n,
      gasLimit: 21_000n,
      quote,
      isAlreadyDone: () => false,
      log,
    });
    // The original won the nonce: as good (either way the nonce is free of unknown work).
    return o.status === "nonce-consumed" ? { ...o, status: "success" } : o;
  }
}
