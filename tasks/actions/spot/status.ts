import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, printJson, runTask, TaskError } from "../../lib.js";
import { readOrder, relayClient, viaRelay } from "./common.js";

export default async function spotStatus(
  args: { order: string; hash: string; relay: string; window: number; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    if (args.window <= 0) throw new TaskError(`--window ${args.window}: give a TWAP window in seconds (> 0).`);
    const { connection, protocol } = await openProtocol(hre);
    try {
      const { spot } = protocol;
      const market = await spot.getAddress();
      const [maker, taker, share] = await spot.fees();
      const [, , , treasury, fund] = await spot.addresses();
      const pendingFees = await spot.pendingFeesUsdc();
      const [staked, unstaking] = await spot.totalSeatDps();
      const [last, , count] = await spot.twapState();
      const [twap, since] = await spot.twapPrice(args.window);
      const now = BigInt((await connection.ethers.provider.getBlock("latest"))?.timestamp ?? 0);
      const mature = now - since >= BigInt(args.window);
      const relayed =
        args.hash === ""
          ? undefined
          : await viaRelay(`order ${args.hash}`, () => relayClient(args.relay).order(args.hash));
      let onChain;
      if (args.order !== "") {
        const { order } = await readOrder(args.order, market);
        const hash = await spot.orderDigest(order);
        const state = await spot.orderState(order.maker, order.nonce, hash);
        onChain = {
          hash,
          order,
          filledCh: state.filledCh,
          cancelled: state.cancelled,
          expired: now > order.expiry,
          belowMinNonce: order.nonce < (await spot.minNonce(order.maker)),
        };
      }
      if (args.json) {
        printJson({
          market,
          fees: { makerBps: maker, takerBps: taker, insuranceShareBps: share },
          treasury,
          insuranceFund: fund,
          pendingFeesUsdc: pendingFees,
          seats: { stakedDps: staked, unstakingDps: unstaking },
          lastPriceWad: last,
          twap: { windowSec: args.window, priceWad: twap, since, observations: count, mature },
          ...(relayed === undefined ? {} : { relayOrder: { order: relayed.order, fills: relayed.fills } }),
          ...(onChain === undefined ? {} : { order: onChain }),
        });
        return;
      }
      console.log(`SpotMarket ${market}`);
      console.log(`  fees: maker ${maker} bps, taker ${taker} bps; ${Number(share) / 100}% of fee income to insurance`);
      console.log(`  treasury ${treasury}, insurance fund ${fund}${fund === treasury ? " (treasury stands in)" : ""}`);
      console.log(`  pending fees ${formatUnits(pendingFees, 6)} USDC`);
      console.log(`  seats: ${formatUnits(staked, 18)} DPS staked, ${formatUnits(unstaking, 18)} DPS unstaking`);
      console.log(
        `  last price ${formatUnits(last, 18)} USDC/CH; TWAP(${args.window}s) ${formatUnits(twap, 18)} ` +
          `(${count} observations since ${since}${mature ? "" : ", immature"})`,
      );
      if (relayed !== undefined) {
        const { order: v, fills } = relayed;
        console.log(`order ${v.hash} on the relay (${v.book})`);
        console.log(
          `  ${v.side} ${formatUnits(BigInt(v.amount), 18)} CH at ${formatUnits(BigInt(v.price), 18)} USDC by ${v.maker}: ` +
            `${v.status}${v.reason === null ? "" : ` (${v.reason})`}; filled ${formatUnits(BigInt(v.filled), 18)}, ` +
            `fillable ${formatUnits(BigInt(v.fillable), 18)}; ${fills.length} fill(s)${v.softCancelled ? "; cancel notice sent" : ""}`,
        );
      }
      if (onChain !== undefined) {
        const { hash, order } = onChain;
        console.log(`order ${hash}`);
        console.log(
          `  ${order.isBuy ? "buy" : "sell"} ${formatUnits(order.amountCh, 18)} CH at ${formatUnits(order.priceWad, 18)} ` +
            `USDC by ${order.maker}; filled ${formatUnits(onChain.filledCh, 18)}` +
            `${onChain.cancelled ? ", cancelled" : ""}${onChain.expired ? ", expired" : ""}` +
            `${onChain.belowMinNonce ? ", void (below min nonce)" : ""}`,
        );
      }
    } finally {
      await connection.close();
    }
  });
}
