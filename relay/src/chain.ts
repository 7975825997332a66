/**
 * Everything the relay reads from the chain: the markets of the deployment, their EIP-712 domains (through the SDK's
 * `domainOf`, which reads ERC-5267 `eip712Domain()`), signatures (EOA: secp256k1 recovery with OpenZeppelin's rules;
 * contracts: ERC-1271 `isValidSignature`), and the state that decides whether an order can be filled now — order
 * state, nonces, balances, allowances, ClearingHouse collateral, option series — read in one `eth_call` per page
 * through the SDK's `batchRead` (the deployless BatchReader) at one block, maker-level values cached per block.
 */
import { createRequire } from "node:module";
import {
  AbiCoder,
  getAddress,
  getBytes,
  Interface,
  JsonRpcProvider,
  keccak256,
  Network,
  recoverAddress,
  type TypedDataDomain,
} from "ethers";
import {
  batchRead,
  batchReadAt,
  ClearingHouseAbi,
  domainOf,
  MockERC20Abi,
  OptionsMarketAbi,
  SpotMarketAbi,
  type BatchCall,
  type DeploymentRecord,
  type RelayOrderStatus,
} from "@chx/sdk";
import { DigestHasher, offerHasher, spotHasher, type RelayOrder } from "./codec.js";

const require = createRequire(import.meta.url);
const coder = AbiCoder.defaultAbiCoder();
const SECP_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const ERC1271_MAGIC = "0x1626ba7e";

interface NativeSecp {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
}
let native: NativeSecp | null | undefined;
function secp(): NativeSecp | null {
  if (native === undefined) {
    try {
      native = require("secp256k1") as NativeSecp;
    } catch {
      native = null;
    }
  }
  return native;
}

/**
 * The signer of `digest` as OpenZeppelin's ECDSA.tryRecover sees it: 65 bytes, v ∈ {27, 28}, s in the lower half
 * order, r and s non-zero; null otherwise (then the contract tries ERC-1271 for a contract maker).
 */
export function recoverEoa(digest: string, signature: string): string | null {
  const sig = getBytes(signature);
  if (sig.length !== 65) return null;
  const v = sig[64] as number;
  if (v !== 27 && v !== 28) return null;
  const r = BigInt("0x" + Buffer.from(sig.subarray(0, 32)).toString("hex"));
  const s = BigInt("0x" + Buffer.from(sig.subarray(32, 64)).toString("hex"));
  if (r === 0n || s === 0n || r >= SECP_N || s > SECP_N / 2n) return null;
  const lib = secp();
  try {
    if (lib === null) return recoverAddress(digest, signature);
    const pub = lib.ecdsaRecover(sig.subarray(0, 64), v - 27, getBytes(digest), false);
    return getAddress("0x" + keccak256(pub.subarray(1)).slice(-40));
  } catch {
    return null;
  }
}

// ───────────────────────────── hand-encoded hot calls (selector + 32-byte words)

const spotIface = new Interface(SpotMarketAbi);
const optIface = new Interface(OptionsMarketAbi);
const chIface = new Interface(ClearingHouseAbi);
const ercIface = new Interface(MockERC20Abi);
const sel = (iface: Interface, fn: string) => iface.getFunction(fn)!.selector;
const SEL = {
  orderState: sel(spotIface, "orderState"),
  nonceUsed: sel(spotIface, "nonceUsed"),
  spotMinNonce: sel(spotIface, "minNonce"),
  balanceOf: sel(ercIface, "balanceOf"),
  allowance: sel(ercIface, "allowance"),
  offerState: sel(optIface, "offerState"),
  optMinNonce: sel(optIface, "minNonce"),
  positionOf: sel(optIface, "positionOf"),
  collateralOf: sel(chIface, "collateralOf"),
  isValidSignature: "0x1626ba7e",
};
const word = (v: bigint | string): string =>
  (typeof v === "string" ? v.slice(2).toLowerCase() : v.toString(16)).padStart(64, "0");
const call = (target: string, selector: string, ...args: Array<bigint | string>): BatchCall => ({
  target,
  data: selector + args.map(word).join(""),
});
const u = (data: string, i = 0): bigint => BigInt("0x" + (data.slice(2 + 64 * i, 2 + 64 * (i + 1)) || "0"));
const i256 = (data: string): bigint => BigInt.asIntN(256, u(data));

export interface Head {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
}

export interface SpotMarketInfo {
  address: string;
  ch: string;
  usdc: string;
  domain: TypedDataDomain;
  hasher: DigestHasher;
}

export interface OptionsMarketInfo {
  address: string;
  clearingHouse: string;
  domain: TypedDataDomain;
  hasher: DigestHasher;
}

/** What the chain says about an order now. */
export interface Assessment {
  status: RelayOrderStatus;
  filled: bigint;
  fillable: bigint;
  reason: string | null;
}

export interface SeriesInfo {
  expiry: bigint;
  capWad: bigint;
  settled: boolean;
  exists: boolean;
}

/** ⌈a·b/d⌉ */
const mulDivUp = (a: bigint, b: bigint, d: bigint) => (a * b + d - 1n) / d;
const E30 = 10n ** 30n;
const BPS = 10_000n;

/** What `x` costs a buyer at `price` (quote, rounded up) plus the maker fee on it (rounded up), as the markets charge. */
function costWithFee(x: bigint, price: bigint, feeBps: bigint): bigint {
  const q = mulDivUp(x, price, E30);
  return q + mulDivUp(q, feeBps, BPS);
}

/** The largest x ≤ cap with cost(x) ≤ budget (cost non-decreasing). */
function maxAffordable(cap: bigint, budget: bigint, cost: (x: bigint) => bigint): bigint {
  if (budget <= 0n || cap <= 0n) return 0n;
  if (cost(cap) <= budget) return cap;
  let lo = 0n;
  let hi = cap;
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n;
    if (cost(mid) <= budget) lo = mid;
    else hi = mid - 1n;
  }
  return lo;
}

export class Chain {
  readonly provider: JsonRpcProvider;
  spot?: SpotMarketInfo;
  options?: OptionsMarketInfo;
  /** The newest head the relay knows (set by the sync loop). */
  head: Head = { number: 0, hash: "", parentHash: "", timestamp: 0 };
  /** When `head` was last read (ms). */
  headAt = 0;
  private cacheBlock = -1;
  private cache = new Map<string, Promise<string>>();
  private fees = new Map<number, Promise<{ spotMakerBps: bigint; optionsMakerBps: bigint }>>();
  private series = new Map<string, Promise<SeriesInfo>>();
  private codeCache = new Map<string, boolean>();

  /** Below this an amount is dust (the relay's minimum order amount). */
  minAmount = 1n;

  constructor(
    readonly rpcUrl: string,
    readonly chainId: bigint,
    readonly record: DeploymentRecord,
  ) {
    const network = Network.from(chainId);
    this.provider = new JsonRpcProvider(rpcUrl, network, { staticNetwork: network, batchMaxCount: 50 });
  }

  /** Connects, checks the chain id against the record and reads the markets' tokens and domains. */
  static async connect(rpcUrl: string, record: DeploymentRecord): Promise<Chain> {
    const probe = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true, batchMaxCount: 1 });
    let chainId: bigint;
    try {
      chainId = BigInt((await probe.send("eth_chainId", [])) as string);
    } catch (e) {
      throw new Error(`relay: no node at ${rpcUrl} (${(e as Error).message})`);
    } finally {
      probe.destroy();
    }
    if (chainId !== BigInt(record.chainId)) {
      throw new Error(
        `relay: the deployment record is for chain ${record.chainId}, the node at ${rpcUrl} is ${chainId}`,
      );
    }
    const chain = new Chain(rpcUrl, chainId, record);
    const p = chain.provider;
    const spotRec = record.contracts.SpotMarket;
    if (spotRec !== undefined) {
      const [ch, usdc] = spotIface.decodeFunctionResult(
        "addresses",
        await p.call({ to: spotRec.address, data: spotIface.encodeFunctionData("addresses") }),
      ) as unknown as [string, string];
      const domain = await domainOf(p, "SpotMarket", spotRec.address);
      chain.spot = { address: getAddress(spotRec.address), ch, usdc, domain, hasher: spotHasher(domain) };
    }
    const optRec = record.contracts.OptionsMarket;
    const chRec = record.contracts.ClearingHouse;
    if (optRec !== undefined && chRec !== undefined) {
      const domain = await domainOf(p, "OptionsMarket", optRec.address);
      chain.options = {
        address: getAddress(optRec.address),
        clearingHouse: getAddress(chRec.address),
        domain,
        hasher: offerHasher(domain),
      };
    }
    await chain.refreshHead();
    return chain;
  }

  private headRead: { started: number; p: Promise<Head> } | undefined;
  private headStarted = 0;

  async refreshHead(): Promise<Head> {
    const started = Date.now();
    const p = this.readHead(started);
    this.headRead = { started, p };
    try {
      return await p;
    } finally {
      if (this.headRead?.p === p) this.headRead = undefined;
    }
  }

  private async readHead(started: number): Promise<Head> {
    const b = (await this.provider.send("eth_getBlockByNumber", ["latest", false])) as RawBlock;
    const h = toHead(b);
    // reads finish out of order: keep the one that started last
    if (started >= this.headStarted) {
      this.head = h;
      this.headStarted = started;
      this.headAt = Date.now();
    }
    return h;
  }

  async block(n: number | "latest"): Promise<Head | null> {
    const tag = n === "latest" ? n : "0x" + n.toString(16);
    const b = (await this.provider.send("eth_getBlockByNumber", [tag, false])) as RawBlock | null;
    return b === null ? null : toHead(b);
  }

  /** Whether `address` has code (cached: an EOA stays an EOA for the relay's purposes until it posts again). */
  async isContract(address: string): Promise<boolean> {
    const key = address.toLowerCase();
    const hit = this.codeCache.get(key);
    if (hit === true) return true;
    const code = await this.provider.getCode(address, "latest");
    const is = code !== "0x";
    if (is) this.codeCache.set(key, true);
    return is;
  }

  /** ERC-1271: `isValidSignature(digest, signature)` of a contract maker returns the magic value at `blockTag`. */
  async valid1271(maker: string, digest: string, signature: string, blockTag: number): Promise<boolean> {
    const [r] = await batchRead(this.provider, [this.call1271(maker, digest, signature)], { blockTag });
    return r !== undefined && r.ok && r.data.slice(0, 10).toLowerCase() === ERC1271_MAGIC;
  }

  private call1271(maker: string, digest: string, signature: string): BatchCall {
    return {
      target: maker,
      data: new Interface(["function isValidSignature(bytes32,bytes) view returns (bytes4)"]).encodeFunctionData(
        "isValidSignature",
        [digest, signature],
      ),
    };
  }

  private feesAt(block: number) {
    let f = this.fees.get(block);
    if (f === undefined) {
      f = (async () => {
        let spotMakerBps = 0n;
        let optionsMakerBps = 0n;
        if (this.spot !== undefined) {
          const r = spotIface.decodeFunctionResult(
            "fees",
            await this.provider.call({
              to: this.spot.address,
              data: spotIface.encodeFunctionData("fees"),
              blockTag: block,
            }),
          );
          spotMakerBps = r[0] as bigint;
        }
        if (this.options !== undefined) {
          const r = optIface.decodeFunctionResult(
            "params",
            await this.provider.call({
              to: this.options.address,
              data: optIface.encodeFunctionData("params"),
              blockTag: block,
            }),
          );
          optionsMakerBps = BigInt((r[0] as { makerFeeBps: bigint }).makerFeeBps);
        }
        return { spotMakerBps, optionsMakerBps };
      })();
      this.fees.clear();
      this.fees.set(block, f);
      f.catch(() => this.fees.delete(block));
    }
    return f;
  }

  /** An option series as the relay needs it (cached per block). */
  seriesAt(seriesId: bigint, block: number): Promise<SeriesInfo> {
    const key = `${block}:${seriesId}`;
    let s = this.series.get(key);
    if (s === undefined) {
      const opt = this.options;
      if (opt === undefined) return Promise.resolve({ expiry: 0n, capWad: 0n, settled: false, exists: false });
      s = this.provider
        .call({ to: opt.address, data: optIface.encodeFunctionData("series", [seriesId]), blockTag: block })
        .then((ret) => {
          const [sr] = optIface.decodeFunctionResult("series", ret) as unknown as [
            { expiry: bigint; capWad: bigint; settled: boolean },
          ];
          return { expiry: sr.expiry, capWad: sr.capWad, settled: sr.settled, exists: sr.expiry !== 0n };
        })
        .catch(() => ({ expiry: 0n, capWad: 0n, settled: false, exists: false }));
      if (this.series.size > 1000) this.series.clear();
      this.series.set(key, s);
    }
    return s;
  }

  /**
   * Reads, at `block`, everything that decides each order's status and fillable amount, and assesses them against
   * the block's timestamp. Maker-level reads (balances, allowances, minimum nonces, collateral) are shared by the
   * orders of one maker and cached for the block; one `eth_call` per page of calls.
   */
  /**
   * Reads, at `at` (a block and its timestamp, or "latest": the block the node answers with, returned in `block`),
   * everything that decides each order's status and fillable amount, and assesses them against that block's
   * timestamp. Maker-level reads (balances, allowances, minimum nonces, collateral) are shared by the orders of one
   * maker, and cached per block when the block is given; one `eth_call` per page of calls, all at one block.
   */
  async assess(
    orders: RelayOrder[],
    at: { block: number; timestamp: number } | "latest",
    contracts: Set<string>,
    opts: { lazyState?: boolean } = {},
  ): Promise<{ assessments: Assessment[]; block: number; timestamp: number }> {
    const clock = at === "latest" ? { block: -1, timestamp: 0 } : { ...at };
    if (orders.length === 0) return { assessments: [], ...clock };
    let cache = this.cache;
    if (at === "latest") cache = new Map();
    else if (at.block !== this.cacheBlock) {
      this.cache.clear();
      this.cacheBlock = at.block;
    }
    const calls: BatchCall[] = [];
    const pending: Array<{ key: string; resolve: (v: string) => void; reject: (e: unknown) => void }> = [];
    const read = (c: BatchCall, cacheKey?: string): Promise<string> => {
      if (cacheKey !== undefined) {
        const hit = cache.get(cacheKey);
        if (hit !== undefined) return hit;
      }
      const p = new Promise<string>((resolve, reject) => {
        calls.push(c);
        pending.push({ key: cacheKey ?? "", resolve, reject });
      });
      if (cacheKey !== undefined) cache.set(cacheKey, p);
      return p;
    };
    const fees = this.feesAt(at === "latest" ? this.head.number : at.block);
    let settled = false;
    const all = Promise.all(
      orders.map((o) => this.assessOne(o, clock, contracts, read, fees, opts.lazyState === true)),
    ).finally(() => (settled = true));
    all.catch(() => undefined);
    // rounds: run every read queued so far in one batch; the answers may queue more (a second phase, at the block
    // the first one read)
    while (!settled) {
      if (calls.length === 0) {
        await Promise.race([all, new Promise((r) => setTimeout(r, 1))]).catch(() => undefined);
        continue;
      }
      const batch = calls.splice(0);
      const waiting = pending.splice(0);
      try {
        const r = await batchReadAt(this.provider, batch, { blockTag: clock.block < 0 ? "latest" : clock.block });
        if (clock.block < 0) {
          clock.block = r.blockNumber;
          clock.timestamp = r.timestamp;
        }
        r.results.forEach((x, i) => {
          // a reverted view (unknown series, a hostile wallet) reads as zeros / invalid
          waiting[i]!.resolve(x.ok ? x.data : "0x");
        });
      } catch (e) {
        for (const p of waiting) {
          if (p.key !== "") cache.delete(p.key);
          p.reject(e);
        }
      }
      await new Promise((r) => setImmediate(r));
    }
    return { assessments: await all, block: clock.block, timestamp: clock.timestamp };
  }

  private async assessOne(
    o: RelayOrder,
    clock: { block: number; timestamp: number },
    contracts: Set<string>,
    read: (c: BatchCall, cacheKey?: string) => Promise<string>,
    feesP: Promise<{ spotMakerBps: bigint; optionsMakerBps: bigint }>,
    lazyState: boolean,
  ): Promise<Assessment> {
    const maker = o.maker;
    const mk = maker.toLowerCase();
    const isContract = contracts.has(mk);
    if (o.kind === "spot") {
      const spot = this.spot!;
      const token = o.side === "sell" ? spot.ch : spot.usdc;
      // lazyState (intake): the first fill and cancelOrder both claim the nonce, so an unclaimed nonce proves the
      // order unfilled and not cancelled — its state is read only when the nonce is claimed (a second round)
      const usedP = read(call(spot.address, SEL.nonceUsed, maker, o.nonce));
      const stateP = lazyState
        ? usedP.then((used) =>
            u(used) === 0n ? "0x" : read(call(spot.address, SEL.orderState, maker, o.nonce, o.hash)),
          )
        : read(call(spot.address, SEL.orderState, maker, o.nonce, o.hash));
      const [state, used, minNonce, bal, allow, sig, fees] = await Promise.all([
        stateP,
        usedP,
        read(call(spot.address, SEL.spotMinNonce, maker), `spotMin:${mk}`),
        read(call(token, SEL.balanceOf, maker), `bal:${token}:${mk}`),
        read(call(token, SEL.allowance, maker, spot.address), `allow:${token}:${mk}`),
        isContract ? read(this.call1271(maker, o.hash, o.signature)) : Promise.resolve(""),
        feesP,
      ]);
      const closed = this.closedStatus(o, state, minNonce);
      if (closed !== null) return closed;
      const filled = u(state, 0);
      const base = { filled, fillable: 0n };
      if (filled === 0n && u(used) !== 0n) return { ...base, status: "cancelled", reason: "nonceUsed" };
      if (BigInt(clock.timestamp) > o.expiry) return { ...base, status: "expired", reason: null };
      if (isContract && filled === 0n && sig.slice(0, 10).toLowerCase() !== ERC1271_MAGIC) {
        return { ...base, status: "cancelled", reason: "signatureRevoked" };
      }
      const remaining = o.amount - filled;
      const balance = u(bal);
      const allowance = u(allow);
      const avail = balance < allowance ? balance : allowance;
      const short = balance < allowance ? "balance" : "allowance";
      let cap: bigint;
      if (o.side === "sell") cap = avail < remaining ? avail : remaining;
      else {
        cap = maxAffordable(remaining, avail, (x) => costWithFee(x, o.price, fees.spotMakerBps));
      }
      if (cap < this.minAmount) return { ...base, status: "unfunded", reason: short };
      return { filled, fillable: cap, status: "open", reason: cap < remaining ? `partly funded (${short})` : null };
    }
    if (o.kind === "option") {
      const opt = this.options!;
      const seriesId = o.seriesId!;
      const [state, minNonce, coll, pos, sig, series, fees] = await Promise.all([
        read(call(opt.address, SEL.offerState, o.hash)),
        read(call(opt.address, SEL.optMinNonce, maker), `optMin:${mk}`),
        read(call(opt.clearingHouse, SEL.collateralOf, maker), `coll:${mk}`),
        o.side === "sell"
          ? read(call(opt.address, SEL.positionOf, seriesId, maker), `pos:${seriesId}:${mk}`)
          : Promise.resolve("0x"),
        isContract ? read(this.call1271(maker, o.hash, o.signature)) : Promise.resolve(""),
        this.seriesAt(seriesId, clock.block < 0 ? this.head.number : clock.block),
        feesP,
      ]);
      const closed = this.closedStatus(o, state, minNonce);
      if (closed !== null) return closed;
      const filled = u(state, 0);
      const base = { filled, fillable: 0n };
      if (BigInt(clock.timestamp) > o.expiry) return { ...base, status: "expired", reason: null };
      if (!series.exists || series.settled || BigInt(clock.timestamp) >= series.expiry) {
        return { ...base, status: "expired", reason: "series expired" };
      }
      if (isContract && filled === 0n && sig.slice(0, 10).toLowerCase() !== ERC1271_MAGIC) {
        return { ...base, status: "cancelled", reason: "signatureRevoked" };
      }
      const remaining = o.amount - filled;
      const collateral = i256(coll);
      let cap: bigint;
      if (o.side === "buy") {
        cap = maxAffordable(remaining, collateral, (x) => costWithFee(x, o.price, fees.optionsMakerBps));
      } else {
        // a seller delivers its longs first, then writes the rest against ⌈size · cap⌉ of collateral
        const longs = u(pos, 0);
        const fromLongs = longs < remaining ? longs : remaining;
        cap = fromLongs + maxAffordable(remaining - fromLongs, collateral, (x) => mulDivUp(x, series.capWad, E30));
      }
      if (cap < this.minAmount) return { ...base, status: "unfunded", reason: "collateral" };
      return { filled, fillable: cap, status: "open", reason: cap < remaining ? "partly funded (collateral)" : null };
    }
    return { status: "cancelled", filled: 0n, fillable: 0n, reason: `unsupported kind ${o.kind}` };
  }

  /**
   * The checks a signed order of either kind passes first, on its on-chain state (filled, cancelled) and the maker's
   * minNonce: cancelled on chain, filled, a remainder below the minimum amount (it cannot be filled, *FillTooSmall:
   * done), below the maker's minNonce. Null while none of them ends the order.
   */
  private closedStatus(o: RelayOrder, state: string, minNonce: string): Assessment | null {
    const filled = u(state, 0);
    const base = { filled, fillable: 0n };
    if (u(state, 1) !== 0n) return { ...base, status: "cancelled", reason: "cancelled on chain" };
    if (filled >= o.amount) return { ...base, status: "filled", reason: null };
    if (filled > 0n && o.amount - filled < this.minAmount)
      return { ...base, status: "filled", reason: "dust remainder" };
    if (o.nonce < u(minNonce)) return { ...base, status: "cancelled", reason: "minNonce" };
    return null;
  }

  destroy(): void {
    this.provider.destroy();
  }
}

interface RawBlock {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
}
const toHead = (b: RawBlock): Head => ({
  number: Number(b.number),
  hash: b.hash,
  parentHash: b.parentHash,
  timestamp: Number(b.timestamp),
});

export { coder };
