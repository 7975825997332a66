import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits, isAddress } from "ethers";
import { openProtocol, printJson, runTask, TaskError } from "../../lib.js";
import { fmtCh, fmtPrice, fmtTime, fmtUsdc, parseSeries, requireSeries } from "./common.js";

export default async function futuresStatus(
  args: { series: bigint; account: string; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    if (args.account !== "" && !isAddress(args.account))
      throw new TaskError(`--account ${args.account}: not an address.`);
    const only = args.series === 0n ? undefined : parseSeries(args.series);
    const { connection, protocol } = await openProtocol(hre);
    try {
      const futures = protocol.futures;
      const [count, live] = await futures.seriesCount();
      if (only !== undefined) await requireSeries(futures, only);
      let vaultEquity: bigint | null = null;
      try {
        vaultEquity = await futures.vaultEquityUsdc();
      } catch {
        // index unavailable
      }
      const ids = only === undefined ? [...Array(Number(count)).keys()].map((i) => BigInt(i + 1)) : [only];
      const series = [];
      for (const id of ids) {
        const s = await futures.seriesInfo(id);
        let quote: { midWad: bigint; premiumWad: bigint } | null = null;
        try {
          const [mid, , prem] = await futures.quote(id, 0);
          quote = { midWad: mid, premiumWad: prem };
        } catch {
          // oracle unavailable
        }
        let position = null;
        if (args.account !== "") {
          const p = await futures.positionOf(id, args.account);
          if (p.open) {
            const [assigned, escrow] = await futures.deliveryObligation(id, args.account);
            position = {
              sizeCh: p.sizeCh,
              entryPriceWad: p.entryPriceWad,
              electedCh: p.electedCh,
              escrowCh: escrow,
              assignedCh: assigned,
            };
          }
        }
        const state = s.deliveryDeadline !== 0n ? "final" : s.finalAt !== 0n ? "proposed" : "trading";
        series.push({ id, s, quote, state, position });
      }
      if (args.json) {
        printJson({
          market: await futures.getAddress(),
          seriesCount: count,
          liveSeries: live,
          vaultEquityUsdc: vaultEquity,
          series: series.map(({ id, s, quote, state, position }) => ({
            id,
            state,
            expiry: s.expiry,
            midPriceWad: quote?.midWad ?? null,
            premiumWad: quote?.premiumWad ?? null,
            settlementPriceWad: s.settlementPriceWad,
            finalAt: s.finalAt,
            deliveryDeadline: s.deliveryDeadline,
            longOiCh: s.longOiCh,
            shortOiCh: s.shortOiCh,
            oiCapCh: s.oiCapCh,
            openPositions: s.openPositions,
            electedCh: s.electedCh,
            deliveredCh: s.deliveredCh,
            receivedCh: s.receivedCh,
            slashedUsdc: s.slashedUsdc,
            ...(args.account === "" ? {} : { account: args.account, position }),
          })),
        });
        return;
      }
      console.log(`FuturesMarket ${await futures.getAddress()}: ${count} series listed, ${live} live`);
      console.log(`  vault equity ${vaultEquity === null ? "index unavailable" : fmtUsdc(vaultEquity)}`);
      for (const { id, s, quote, state, position } of series) {
        const price =
          quote === null ? "—" : `${fmtPrice(quote.midWad)} (premium ${formatUnits(quote.premiumWad * 100n, 18)} %)`;
        const line =
          state === "final"
            ? `final at ${fmtPrice(s.settlementPriceWad)}, delivery deadline ${fmtTime(s.deliveryDeadline)}`
            : state === "proposed"
              ? `proposed ${fmtPrice(s.settlementPriceWad)}, final at ${fmtTime(s.finalAt)}`
              : `trading, price ${price}`;
        console.log(`series ${id}: expiry ${fmtTime(s.expiry)} — ${line}`);
        console.log(
          `  OI long ${fmtCh(s.longOiCh)} / short ${fmtCh(s.shortOiCh)} (cap ${fmtCh(s.oiCapCh)}), ` +
            `${s.openPositions} open positions, elected ${fmtCh(s.electedCh)}, delivered ${fmtCh(s.deliveredCh)}, ` +
            `received ${fmtCh(s.receivedCh)}, slashed ${fmtUsdc(s.slashedUsdc)}`,
        );
        if (position !== null) {
          console.log(
            `  ${args.account}: ${fmtCh(position.sizeCh)} at ${fmtPrice(position.entryPriceWad)}, elected ${fmtCh(position.electedCh)}, ` +
              `escrow ${fmtCh(position.escrowCh)}, assigned ${fmtCh(position.assignedCh)}`,
          );
        }
      }
    } finally {
      await connection.close();
    }
  });
}
