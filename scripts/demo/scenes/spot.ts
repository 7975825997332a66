import { formatUnits, parseUnits } from "ethers";
import type { Scene } from "../types.js";
import { signOrder, legacyDomain, type SpotOrder } from "@chx/sdk";

const HOUR = 3_600;

/**
 * Providers sell the CH they minted on the spot market with EIP-712 limit orders; clients (Alice, a studio) fill
 * them on chain over a day; the fills build the TWAP the oracle uses as its sanity check.
 */
export const spotScene: Scene = {
  title: "Spot: providers sell minted CH with signed limit orders; clients fill them; the TWAP forms",
  requires: ["SpotMarket", "ProviderRegistry"],
  async run(ctx) {
    const { spot, ch, usdc, providerRegistry: reg } = ctx.protocol;
    const { chainId } = await ctx.connection.ethers.provider.getNetwork();
    const domain = legacyDomain("SpotMarket", chainId, await spot.getAddress());
    const market = await spot.getAddress();
    const buyers = ["alice", "erin"].map((n) => ctx.actor(n));
    for (const b of buyers) {
      await (await usdc.connect(b).mint(b.address, parseUnits("100000", 6))).wait();
      await (await usdc.connect(b).approve(market, parseUnits("100000", 6))).wait();
    }
    const sellers = [];
    for (let i = 0; i < Math.max(1, ctx.opts.providers); i++) {
      const p = ctx.actor(`provider${i}`);
      const bal = await ch.balanceOf(p.address);
      if (bal > 0n && (await reg.liabilityOf(p.address)) > 0n) sellers.push({ p, bal });
    }
    if (sellers.length === 0) throw new Error("no provider holds CH to sell (the providers scene mints it)");
    const now = (await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp;
    let filledCh = 0n;
    let volumeUsdc = 0n;
    for (let hour = 0; hour < 24; hour++) {
      const { p, bal } = sellers[hour % sellers.length]!;
      const price = 2 + 0.1 * Math.sin(hour / 3) + (ctx.rng.next() - 0.5) * 0.05; // around the 2 USDC index
      const order: SpotOrder = {
        maker: p.address,
        isBuy: false,
        amountCh: bal / 48n,
        priceWad: parseUnits(price.toFixed(6), 18),
        nonce: BigInt(now + hour),
        expiry: BigInt(now + 2 * 86_400),
        taker: "0x0000000000000000000000000000000000000000",
      };
      await (await ch.connect(p).approve(market, order.amountCh)).wait();
      const signature = await signOrder(p, domain, order);
      const buyer = buyers[hour % buyers.length]!;
      const usdcBefore = await usdc.balanceOf(buyer.address);
      // a partial fill, then the rest
      await (await spot.connect(buyer).fillOrder(order, signature, order.amountCh / 2n)).wait();
      await (await spot.connect(buyer).fillOrder(order, signature, order.amountCh - order.amountCh / 2n)).wait();
      filledCh += order.amountCh;
      volumeUsdc += usdcBefore - (await usdc.balanceOf(buyer.address));
      await ctx.advance(HOUR);
      const [twap] = await spot.twapPrice(HOUR);
      ctx.series("spot", { hour, price, twap: Number(formatUnits(twap, 18)) });
    }
    const [twap24] = await spot.twapPrice(12 * HOUR);
    ctx.log(
      `24 orders filled (48 fills): ${formatUnits(filledCh, 18)} CH for ${formatUnits(volumeUsdc, 6)} USDC; 12 h TWAP ${formatUnits(twap24, 18)} USDC/CH`,
    );
    ctx.figure("spot.filledCh", formatUnits(filledCh, 18));
    ctx.figure("spot.volumeUsdc", formatUnits(volumeUsdc, 6));
    ctx.figure("spot.twap12h", formatUnits(twap24, 18));
  },
};
