/**
 * Spot matcher job (docs/relay.md, issue 23): reads the order relay's CH/USDC book — signed orders, best first, as
 * the relay serves them (fillable at its last block) — walks bids against asks while they cross, and calls
 * `SpotMarket.matchOrders(buy, buySig, sell, sellSig, amount)` for each pair. The matcher earns the spread
 * `⌊amount · (buy − sell) / 1e30⌋` USDC (docs/spot.md); that is the job's bounty (`rewardWei`, converted at
 * `nativePriceUsdc`), so the keeper's gas policy sends a match only when the spread pays its gas × minProfitFactor —
 * a cross at one price pays nothing and is left to takers. Ordinary work: never priority.
 *
 * Keys: `spot.match:<buyHash>:<sellHash>:<buyFilled>-<sellFilled>` — after a match both filled amounts move, so the
 * next match of the same pair is new work, and a match in flight is not sent twice. Racing matchers: the loser's
 * simulation reverts `SignedOrderOverfill` (nothing left): already done. A pair whose maker can no longer pay reverts in
 * simulation and is never sent; the relay drops such orders within a block.
 *
 * Options: relayUrl (default CHX_RELAY_URL, else http://127.0.0.1:8547), nativePriceUsdc (USDC per native token,
 * default 3000), minMatchCh (default 10^15), ordersPerSide (default 50), maxMatchesPerTick (default 20).
 */
import {
  orderFromJson,
  parseUsdc,
  RelayClient,
  SpotMarket__factory,
  type RelayOrderView,
  type SpotOrder,
} from "@chx/sdk";
import { ConfigError } from "../config.js";
import { addressOf, JobUnavailable } from "../deployments.js";
import type { Action, Candidate, JobContext, JobFactory, KeeperJob } from "./types.js";

export const SPOT_MATCH_ACTION = "spot.match";
const E30 = 10n ** 30n;

export interface SpotMatcherOptions {
  relayUrl?: string;
  /** Smallest match, CH wei (default 10^15 = 0.001 CH): smaller pairs are dust. */
  minMatchCh?: number | string;
  nativePriceUsdc?: number | string;
  ordersPerSide?: number;
  maxMatchesPerTick?: number;
}

export interface SpotMatch {
  buy: SpotOrder;
  buySignature: string;
  buyHash: string;
  sell: SpotOrder;
  sellSignature: string;
  sellHash: string;
  amountCh: bigint;
  spreadUsdc: bigint;
}

const KNOWN = ["relayUrl", "minMatchCh", "nativePriceUsdc", "ordersPerSide", "maxMatchesPerTick"];

const decode = (v: RelayOrderView, market: string, chainId: bigint) =>
  orderFromJson({ market, chainId: chainId.toString(), order: v.order as never, signature: v.signature });

/**
 * Crossing pairs of a book, best prices first, each order used up to its fillable amount, a maker never matched with
 * itself, and each maker's pairs together kept within what it can pay or deliver: the relay's `fillable` is per order
 * (two orders of one maker may count the same balance), so a maker's total per side is capped by the largest
 * fillable among its orders (in CH for sellers, in USDC at each order's price for buyers). Pairs below `minAmount`
 * are dust a fill would refuse (SpotFillTooSmall). Pure (exported for tests).
 */
export function crossings(
  bids: RelayOrderView[],
  asks: RelayOrderView[],
  max: number,
  minAmount = 0n,
): Array<{ bid: RelayOrderView; ask: RelayOrderView; amount: bigint; spreadUsdc: bigint }> {
  const left = new Map<string, bigint>();
  const rem = (v: RelayOrderView) => left.get(v.hash) ?? BigInt(v.fillable);
  // per maker and side: what it can still pay (buyers, USDC·1e30 units) or deliver (sellers, CH)
  const cap = new Map<string, bigint>();
  const usdc = (v: RelayOrderView, amount: bigint) => amount * BigInt(v.price);
  for (const v of bids) {
    const k = `b:${v.maker.toLowerCase()}`;
    const c = usdc(v, BigInt(v.fillable));
    if ((cap.get(k) ?? 0n) < c) cap.set(k, c);
  }
  for (const v of asks) {
    const k = `s:${v.maker.toLowerCase()}`;
    if ((cap.get(k) ?? 0n) < BigInt(v.fillable)) cap.set(k, BigInt(v.fillable));
  }
  const out: Array<{ bid: RelayOrderView; ask: RelayOrderView; amount: bigint; spreadUsdc: bigint }> = [];
  for (const bid of bids) {
    for (const ask of asks) {
      if (out.length >= max) return out;
      if (BigInt(bid.price) < BigInt(ask.price)) break; // asks ascend: no later ask crosses this bid
      if (bid.maker.toLowerCase() === ask.maker.toLowerCase()) continue;
      const bk = `b:${bid.maker.toLowerCase()}`;
      const sk = `s:${ask.maker.toLowerCase()}`;
      let amount = rem(bid) < rem(ask) ? rem(bid) : rem(ask);
      const buyerRoom = cap.get(bk)! / BigInt(bid.price);
      if (amount > buyerRoom) amount = buyerRoom;
      if (amount > cap.get(sk)!) amount = cap.get(sk)!;
      if (amount === 0n || amount < minAmount) continue;
      left.set(bid.hash, rem(bid) - amount);
      left.set(ask.hash, rem(ask) - amount);
      cap.set(bk, cap.get(bk)! - usdc(bid, amount));
      cap.set(sk, cap.get(sk)! - amount);
      out.push({ bid, ask, amount, spreadUsdc: (amount * (BigInt(bid.price) - BigInt(ask.price))) / E30 });
      if (rem(bid) === 0n) break;
    }
  }
  return out;
}

export function spotMatcherJob(market: string, chainId: bigint, opts: SpotMatcherOptions = {}): KeeperJob<SpotMatch> {
  for (const k of Object.keys(opts)) {
    if (!KNOWN.includes(k))
      throw new ConfigError(`Unknown option "jobs.spot-matcher.${k}" (known: ${KNOWN.join(", ")}).`);
  }
  const relayUrl = opts.relayUrl ?? process.env.CHX_RELAY_URL ?? "http://127.0.0.1:8547";
  const nativePrice = parseUsdc(String(opts.nativePriceUsdc ?? 3000));
  if (nativePrice <= 0n) throw new ConfigError(`jobs.spot-matcher.nativePriceUsdc must be positive.`);
  const perSide = opts.ordersPerSide ?? 50;
  const maxMatches = opts.maxMatchesPerTick ?? 20;
  const minMatch = BigInt(opts.minMatchCh ?? 10n ** 15n);
  const client = new RelayClient(relayUrl, { timeoutMs: 5_000 });
  const iface = SpotMarket__factory.createInterface();
  return {
    name: "spot-matcher",
    summary: `match crossing spot orders from the relay at ${relayUrl} on SpotMarket ${market} when the spread pays the gas`,
    alreadyDoneErrors: ["SignedOrderOverfill"],
    async scan(ctx: JobContext): Promise<Candidate<SpotMatch>[]> {
      let book;
      try {
        book = await client.book("spot", { depth: 1, orders: perSide });
      } catch (e) {
        ctx.log.warn(
          { relay: relayUrl, err: (e as Error).message },
          "spot-matcher: relay unreachable; nothing to match",
        );
        return [];
      }
      const pairs = crossings(book.orders?.bids ?? [], book.orders?.asks ?? [], maxMatches, minMatch);
      return pairs.map((p) => {
        const buy = decode(p.bid, market, chainId);
        const sell = decode(p.ask, market, chainId);
        return {
          key: {
            action: SPOT_MATCH_ACTION,
            id: `${p.bid.hash}:${p.ask.hash}`,
            epoch: `${p.bid.filled}-${p.ask.filled}`,
          },
          priority: false,
          rewardWei: (p.spreadUsdc * 10n ** 18n) / nativePrice,
          data: {
            buy: buy.order,
            buySignature: buy.signature,
            buyHash: p.bid.hash,
            sell: sell.order,
            sellSignature: sell.signature,
            sellHash: p.ask.hash,
            amountCh: p.amount,
            spreadUsdc: p.spreadUsdc,
          },
        };
      });
    },
    async plan(_ctx, candidates): Promise<Action[]> {
      return candidates.map((c) => ({
        key: c.key,
        priority: false,
        rewardWei: c.rewardWei,
        to: market,
        data: iface.encodeFunctionData("matchOrders", [
          c.data.buy,
          c.data.buySignature,
          c.data.sell,
          c.data.sellSignature,
          c.data.amountCh,
        ]),
        description:
          `matchOrders(${c.data.buyHash.slice(0, 10)}… @ ${c.data.buy.priceWad}, ${c.data.sellHash.slice(0, 10)}… @ ` +
          `${c.data.sell.priceWad}, ${c.data.amountCh} CH wei): spread ${c.data.spreadUsdc} USDC units`,
      }));
    },
  };
}

export const spotMatcherFactory: JobFactory = {
  name: "spot-matcher",
  description: "SpotMarket: match crossing orders from the order relay (matchOrders) when the spread pays the gas.",
  create({ deployment, config }) {
    if (deployment.contracts.SpotMarket === undefined)
      throw new JobUnavailable(`SpotMarket is not in ${deployment.file}`);
    const opts = config.options as SpotMatcherOptions;
    if (opts.relayUrl === undefined && process.env.CHX_RELAY_URL === undefined) {
      throw new JobUnavailable("no relay configured (jobs.spot-matcher.relayUrl or CHX_RELAY_URL)");
    }
    return spotMatcherJob(addressOf(deployment, "SpotMarket"), BigInt(deployment.chainId), opts);
  },
};
