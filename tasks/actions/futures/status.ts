import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, runTask } from "../../lib.js";
import { fmtCh, fmtPrice, fmtTime, fmtUsdc, parseSeries } from "./common.js";

export default async function futuresStatus(
  args: { series: string; account: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    const futures = protocol.futures;
    const [count, live] = await futures.seriesCount();
    console.log(`FuturesMarket ${await futures.getAddress()}: ${count} series listed, ${live} live`);
    try {
      console.log(`  vault equity ${fmtUsdc(await futures.vaultEquityUsdc())}`);
    } catch {
      console.log("  vault equity: index unavailable");
    }
    const ids =
      args.series === "" ? [...Array(Number(count)).keys()].map((i) => BigInt(i + 1)) : [parseSeries(args.series)];
    for (const id of ids) {
      const s = await futures.seriesInfo(id);
      let price = "—";
      try {
        const [mid, , prem] = await futures.quote(id, 0);
        price = `${fmtPrice(mid)} (premium ${formatUnits(prem * 100n, 18)} %)`;
      } catch {
        // oracle unavailable
      }
      const state =
        s.deliveryDeadline !== 0n
          ? `final at ${fmtPrice(s.settlementPriceWad)}, delivery deadline ${fmtTime(s.deliveryDeadline)}`
          : s.finalAt !== 0n
            ? `proposed ${fmtPrice(s.settlementPriceWad)}, final at ${fmtTime(s.finalAt)}`
            : `trading, price ${price}`;
      console.log(`series ${id}: expiry ${fmtTime(s.expiry)} — ${state}`);
      console.log(
        `  OI long ${fmtCh(s.longOiCh)} / short ${fmtCh(s.shortOiCh)} (cap ${fmtCh(s.oiCapCh)}), ` +
          `${s.openPositions} open positions, elected ${fmtCh(s.electedCh)}, delivered ${fmtCh(s.deliveredCh)}, ` +
          `received ${fmtCh(s.receivedCh)}, slashed ${fmtUsdc(s.slashedUsdc)}`,
      );
      if (args.account !== "") {
        const p = await futures.positionOf(id, args.account);
        if (p.open) {
          const [assigned, escrow] = await futures.deliveryObligation(id, args.account);
          console.log(
            `  ${args.account}: ${fmtCh(p.sizeCh)} at ${fmtPrice(p.entryPriceWad)}, elected ${fmtCh(p.electedCh)}, ` +
              `escrow ${fmtCh(escrow)}, assigned ${fmtCh(assigned)}`,
          );
        }
      }
    }
    await connection.close();
  });
}
