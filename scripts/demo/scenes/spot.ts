import { formatUnits, parseUnits, ZeroAddress } from "ethers";
import type { Scene } from "../types.js";
import { domainOf, orderToJson, RelayClient, signOrder, type SpotOrder } from "@chx/sdk";

const HOUR = 3_600;

/**
 * Providers sell the CH they minted on the spot market: each hour one posts a signed limit sell order to the order
 * relay (relay/), and two clients (Alice, Erin) post buy orders above it. Nobody fills by hand: the
 * keeper's spot-matcher job reads the relay's book, matches the crossing orders through `matchOrders` (it earns the
 * spread), and the relay follows the fills; the matches build the TWAP the oracle uses as its sanity check.
 */
export const spotScene: Scene = {
  title: "Spot: providers and clients post signed orders to the relay; the keeper's matcher fills them; the TWAP forms",
  requires: ["SpotMarket", "ProviderRegistry"],
  async run(ctx) {
    const { spot, ch, usdc, providerRegistry: reg } = ctx.protocol;
    const provider = ctx.connection.ethers.provider;
    const { chainId } = await provider.getNetwork();
    const market = await spot.getAddress();
    const domain = await domainOf(provider, "SpotMarket", market);
    const relay = ctx.keeper.relay;
    const client = new RelayClient(relay.url);
    const buyers = ["alice", "erin"].map((n) => ctx.actor(n));
    for (const b of buyers) {
      await (await usdc.connect(b).mint(b.address, parseUnits("100000", 6))).wait();
      await (await usdc.connect(b).approve(market, parseUnits("100000", 6))).wait();
    }
    const holders = [];
    for (let i = 0; i < Math.max(1, ctx.opts.providers); i++) {
      const p = ctx.actor(`provider${i}`);
      const bal = await ch.balanceOf(p.address);
      if (bal > 0n && (await reg.liabilityOf(p.address)) > 0n) holders.push({ p, bal });
    }
    if (holders.length === 0) throw new Error("no provider holds CH to sell (the providers scene mints it)");
    // the providers with enough CH for lots whose spread pays a match's gas (≥ 480 CH: lots of ≥ 60 CH), else the
    // richest one
    holders.sort((a, b) => (a.bal > b.bal ? -1 : a.bal < b.bal ? 1 : 0));
    const big = holders.filter((h) => h.bal >= parseUnits("480", 18));
    const sellers = big.length > 0 ? big : holders.slice(0, 1);
    const now = (await provider.getBlock("latest"))!.timestamp;
    const matcher = ctx.keeper.address;
    const spreadBefore = await usdc.balanceOf(matcher);
    const matchesBefore = ctx.keeper.actions("spot.match");
    const usdcBefore = await Promise.all(buyers.map((b) => usdc.balanceOf(b.address)));
    const asks: string[] = [];
    let nonce = BigInt(now);
    for (let hour = 0; hour < 24; hour++) {
      const { p, bal } = sellers[hour % sellers.length]!;
      // lots of up to 100 CH, never more than the seller holds over its turns
      const price = 2 + 0.1 * Math.sin(hour / 3) + (ctx.rng.next() - 0.5) * 0.05; // around the 2 USDC index
      const turns = BigInt(Math.ceil(24 / sellers.length));
      const cap = parseUnits("100", 18);
      const amountCh = bal / turns < cap ? bal / turns : cap;
      const post = async (signer: typeof p, isBuy: boolean, amount: bigint, priceUsdc: number) => {
        const order: SpotOrder = {
          maker: signer.address,
          isBuy,
          amountCh: amount,
          priceWad: parseUnits(priceUsdc.toFixed(6), 18),
          nonce: nonce++,
          expiry: BigInt(now + 2 * 86_400),
          taker: ZeroAddress,
        };
        const signature = await signOrder(signer, domain, order);
        return (await client.postOrder(orderToJson(market, chainId, order, signature))).order.hash;
      };
      // allowances add up over the seller's open asks (approve replaces the allowance)
      await (await ch.connect(p).approve(market, (await ch.allowance(p.address, market)) + amountCh)).wait();
      asks.push(await post(p, false, amountCh, price));
      // two clients in a hurry bid for half each, 3 % and 4 % above the ask: the matcher earns the difference, which
      // pays its gas (~250k gas at the node's 1 gwei tip ≈ 1.2 USDC with ETH at the job's 3,000 USDC)
      await post(buyers[0]!, true, amountCh / 2n, price * 1.03);
      await post(buyers[1]!, true, amountCh - amountCh / 2n, price * 1.04);
      await relay.engine.syncToHead();
      await ctx.advance(HOUR); // the keeper ticks: its spot-matcher job matches the crossing orders
      await relay.engine.syncToHead();
      const [twap] = await spot.twapPrice(HOUR);
      ctx.series("spot", { hour, price, twap: Number(formatUnits(twap, 18)) });
    }
    let filledCh = 0n;
    let open = 0;
    for (const h of asks) {
      const { order } = await client.order(h);
      filledCh += BigInt(order.filled);
      if (order.status === "open") open++;
    }
    const matches = ctx.keeper.actions("spot.match") - matchesBefore;
    const skipped = ctx.keeper.jobStats().find((j) => j.job === "spot-matcher")?.outcomes["skipped-gas"] ?? 0;
    const spreadUsdc = (await usdc.balanceOf(matcher)) - spreadBefore;
    let volumeUsdc = 0n;
    for (const [i, b] of buyers.entries()) volumeUsdc += usdcBefore[i]! - (await usdc.balanceOf(b.address));
    const [twap24] = await spot.twapPrice(12 * HOUR);
    const book = await client.book("spot", { depth: 5 });
    // the day is over: everyone voids what is left of its orders on chain (the relay drops them with the block), so
    // later scenes, which move these accounts' USDC and CH, leave no stale crossing orders for the matcher
    for (const a of [...buyers, ...sellers.map((x) => x.p)]) {
      if ((await client.makerOrders(a.address)).orders.length > 0) {
        await (await spot.connect(a).raiseMinNonce(nonce)).wait();
      }
    }
    await relay.engine.syncToHead();
    const left =
      (await client.book("spot", { depth: 1 })).bids.length + (await client.book("spot", { depth: 1 })).asks.length;
    if (left !== 0) throw new Error(`${left} spot levels still served after every maker raised its minimum nonce`);
    ctx.log(
      `24 sell orders and 48 bids posted to the relay; the keeper matched ${matches} pairs: ${formatUnits(filledCh, 18)} CH ` +
        `for ${formatUnits(volumeUsdc, 6)} USDC (the matcher earned ${formatUnits(spreadUsdc, 6)} USDC of spread); ` +
        `${open} asks were still open (book ${book.bids.length} bid / ${book.asks.length} ask levels) when the makers ` +
        `voided the rest with raiseMinNonce; 12 h TWAP ${formatUnits(twap24, 18)} USDC/CH`,
    );
    ctx.figure("spot.filledCh", formatUnits(filledCh, 18));
    ctx.figure("spot.volumeUsdc", formatUnits(volumeUsdc, 6));
    ctx.figure("spot.matchedByKeeper", matches);
    ctx.figure("spot.matcherSpreadUsdc", formatUnits(spreadUsdc, 6));
    ctx.figure("spot.matcherSkippedForGas", skipped);
    ctx.figure("spot.twap12h", formatUnits(twap24, 18));
  },
};
