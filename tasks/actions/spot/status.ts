import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, runTask } from "../../lib.js";
import { readOrder, relayClient, viaRelay } from "./common.js";

export default async function spotStatus(
  args: { order: string; hash: string; relay: string; window: string; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    const { spot } = protocol;
    const market = await spot.getAddress();
    const [maker, taker, share] = await spot.fees();
    const [, , , treasury, fund] = await spot.addresses();
    console.log(`SpotMarket ${market}`);
    console.log(`  fees: maker ${maker} bps, taker ${taker} bps; ${Number(share) / 100}% of fee income to insurance`);
    console.log(`  treasury ${treasury}, insurance fund ${fund}${fund === treasury ? " (treasury stands in)" : ""}`);
    console.log(`  pending fees ${formatUnits(await spot.pendingFeesUsdc(), 6)} USDC`);
    const [staked, pending] = await spot.totalSeatDps();
    console.log(`  seats: ${formatUnits(staked, 18)} DPS staked, ${formatUnits(pending, 18)} DPS unstaking`);
    const [last, , count] = await spot.twapState();
    const [twap, since] = await spot.twapPrice(Number(args.window));
    const now = BigInt((await connection.ethers.provider.getBlock("latest"))?.timestamp ?? 0);
    const mature = now - since >= BigInt(args.window);
    console.log(
      `  last price ${formatUnits(last, 18)} USDC/CH; TWAP(${args.window}s) ${formatUnits(twap, 18)} ` +
        `(${count} observations since ${since}${mature ? "" : ", immature"})`,
    );
    if (args.hash !== "") {
      const { order: v, fills } = await viaRelay(`order ${args.hash}`, () => relayClient(args.relay).order(args.hash));
      console.log(`order ${v.hash} on the relay (${v.book})`);
      console.log(
        `  ${v.side} ${formatUnits(BigInt(v.amount), 18)} CH at ${formatUnits(BigInt(v.price), 18)} USDC by ${v.maker}: ` +
          `${v.status}${v.reason === null ? "" : ` (${v.reason})`}; filled ${formatUnits(BigInt(v.filled), 18)}, ` +
          `fillable ${formatUnits(BigInt(v.fillable), 18)}; ${fills.length} fill(s)${v.softCancelled ? "; cancel notice sent" : ""}`,
      );
    }
    if (args.order !== "") {
      const { order } = await readOrder(args.order, market);
      const hash = await spot.orderDigest(order);
      const state = await spot.orderState(hash);
      const expired = now > order.expiry;
      const belowMin = order.nonce < (await spot.minNonce(order.maker));
      console.log(`order ${hash}`);
      console.log(
        `  ${order.isBuy ? "buy" : "sell"} ${formatUnits(order.amountCh, 18)} CH at ${formatUnits(order.priceWad, 18)} ` +
          `USDC by ${order.maker}; filled ${formatUnits(state.filledCh, 18)}` +
          `${state.cancelled ? ", cancelled" : ""}${expired ? ", expired" : ""}${belowMin ? ", void (below min nonce)" : ""}`,
      );
    }
    await connection.close();
  });
}
