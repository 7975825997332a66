/**
 * Simulate-then-send with one signer: estimates gas at `latest` (a revert is decoded, and a typed "already done"
 * error counts as success), signs with a nonce from the signer's NonceManager, broadcasts through the failover
 * client, and watches the transaction: with no receipt after `replaceAfterMs` it re-signs the SAME nonce with
 * higher fees (a dropped or underpriced transaction never blocks the queue). A mined revert is replayed at its
 * block to recover the typed error, so a lost race reads as "already done" rather than as a failure (OPS-01).
 */
import { Transaction, type TransactionReceipt, type Wallet } from "ethers";
import type { Logger } from "pino";
import type { ChainClient } from "./client.js";
import { RpcUnavailableError } from "./client.js";
import type { ErrorDecoder, DecodedError } from "./errors.js";
import { shortMessage } from "./errors.js";
import { bumpFees, quoteFees, type FeeQuote } from "./gas.js";
import type { NonceManager } from "./nonce.js";

/** EIP-7825 per-transaction gas cap (SPEC section 10). */
export const TX_GAS_CAP = 16_777_216n;

const NONCE_TOO_LOW = /nonce too low|nonce has already been used|nonce expired|NONCE_EXPIRED|already been used/i;

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
}

export type Simulation = { ok: true; gas: bigint } | { ok: false; error: DecodedError; alreadyDone: boolean };

export type TxStatus = "success" | "already-done" | "reverted" | "timeout" | "nonce-consumed" | "failed";

export interface TxOutcome {
  status: TxStatus;
  nonce: number;
  txHash?: string;
  blockNumber?: number;
  blockHash?: string;
  gasUsed?: bigint;
  replacements: number;
  /** Every hash signed for this nonce, first to last. */
  hashes: string[];
  error?: DecodedError;
}

export interface Submitted {
  nonce: number;
  hash: string;
  done: Promise<TxOutcome>;
}

export interface SendOptions {
  priority: boolean;
  ceilingWei: bigint;
  gasLimit: bigint;
  quote: FeeQuote;
  isAlreadyDone: (name: string | undefined) => boolean;
  log: Logger;
}

export interface SenderHooks {
  onReplace?: (nonce: number, replacements: number) => void;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class Sender {
  constructor(
    readonly client: ChainClient,
    readonly wallet: Wallet,
    readonly nonces: NonceManager,
    readonly decoder: ErrorDecoder,
    readonly settings: SenderSettings,
    readonly hooks: SenderHooks = {},
  ) {}

  get address(): string {
    return this.wallet.address;
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

  private async sign(
    req: TxRequest,
    nonce: number,
    gasLimit: bigint,
    fees: { maxFeeWei: bigint; priorityFeeWei: bigint },
    legacy: boolean,
  ): Promise<string> {
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

  /** Broadcasts; "already known" is fine. Returns an error message for answers the watcher must handle. */
  private async broadcast(raw: string): Promise<string | undefined> {
    try {
      await this.client.send("eth_sendRawTransaction", [raw]);
      return undefined;
    } catch (e) {
      const msg = shortMessage(e);
      if (/already known|known transaction|already imported/i.test(msg)) return undefined;
      const code = (e as { code?: unknown })?.code;
      return typeof code === "string" ? `${code}: ${msg}` : msg;
    }
  }

  /** Takes a nonce, signs and broadcasts; `done` settles when a transaction for that nonce is mined (or abandoned). */
  async submit(req: TxRequest, opts: SendOptions): Promise<Submitted> {
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
      const err = await this.broadcast(raw);
      if (err !== undefined && NONCE_TOO_LOW.test(err) && attempt < 2) {
        // Someone else used this nonce (another process with the same key, a stale counter): resync and retry.
        opts.log.warn({ nonce, err }, "nonce already used: resyncing the nonce from the chain");
        this.nonces.release();
        this.nonces.invalidate();
        continue;
      }
      if (err !== undefined) opts.log.warn({ nonce, hash, err }, "broadcast failed; the watcher will re-send");
      const done = this.watch(req, opts, nonce, hash, fees).finally(() => this.nonces.release());
      return { nonce, hash, done };
    }
  }

  private minedCache: { at: number; value: Promise<number> } | undefined;

  /**
   * The signer's mined transaction count, shared by every watcher (one call per `maxAgeMs` instead of one receipt
   * poll per transaction in flight: with 100 transactions pipelined that was 100 calls per poll against the node).
   */
  private minedCount(maxAgeMs: number): Promise<number> {
    const now = Date.now();
    if (this.minedCache !== undefined && now - this.minedCache.at < maxAgeMs) return this.minedCache.value;
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

  private async watch(
    req: TxRequest,
    opts: SendOptions,
    nonce: number,
    firstHash: string,
    firstFees: { maxFeeWei: bigint; priorityFeeWei: bigint },
  ): Promise<TxOutcome> {
    const s = this.settings;
    const hashes = [firstHash];
    let fees = firstFees;
    let replacements = 0;
    const started = Date.now();
    let lastSent = started;
    const pollMs = Math.min(1_000, Math.max(50, Math.floor(s.replaceAfterMs / 10)));
    for (;;) {
      // Receipts only once the signer's mined count passed this nonce (or when it cannot be read).
      const minedNow = await this.minedCount(pollMs / 2).catch(() => undefined);
      if (minedNow === undefined || minedNow > nonce) {
        for (let i = hashes.length - 1; i >= 0; i--) {
          const r = await this.receipt(hashes[i] as string);
          if (r !== null) return this.settle(req, opts, nonce, r, hashes, replacements);
        }
      }
      if (Date.now() - started > s.txTimeoutMs) {
        this.nonces.invalidate();
        return { status: "timeout", nonce, replacements, hashes };
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
        if (mined > nonce) {
          // Something took this nonce; if it was not one of ours (checked once more), give the work back.
          for (const h of hashes) {
            const r = await this.receipt(h);
            if (r !== null) return this.settle(req, opts, nonce, r, hashes, replacements);
          }
          this.nonces.invalidate();
          return { status: "nonce-consumed", nonce, replacements, hashes };
        }
        if (replacements < s.maxReplacements) {
          let quote: FeeQuote;
          try {
            quote = await quoteFees(this.client, s.defaultPriorityFeeGwei);
          } catch {
            quote = opts.quote;
          }
          const next = bumpFees(fees, quote, s.replaceBumpPercent);
          if (!opts.priority && next.maxFeeWei > opts.ceilingWei) {
            opts.log.warn(
              { nonce, maxFeeWei: String(next.maxFeeWei) },
              "not replacing: the bumped fee is above the job ceiling",
            );
          } else {
            const raw = await this.sign(req, nonce, opts.gasLimit, next, quote.legacy);
            const hash = Transaction.from(raw).hash as string;
            const err = await this.broadcast(raw);
            if (err === undefined || !/underpriced/i.test(err)) {
              fees = next;
              hashes.push(hash);
              replacements++;
              this.hooks.onReplace?.(nonce, replacements);
              opts.log.warn(
                { nonce, hash, replacements, maxFeeWei: String(next.maxFeeWei), err },
                "no receipt in time: replaced with the same nonce and a higher fee",
              );
            } else {
              fees = next; // bump further next round
            }
          }
        }
      }
      await sleep(pollMs);
    }
  }

  private async settle(
    req: TxRequest,
    opts: SendOptions,
    nonce: number,
    r: TransactionReceipt,
    hashes: string[],
    replacements: number,
  ): Promise<TxOutcome> {
    const base = {
      nonce,
      txHash: r.hash,
      blockNumber: r.blockNumber,
      blockHash: r.blockHash,
      gasUsed: r.gasUsed,
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
}
