import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { fmtPrice, fmtTime, fmtUsdc, parseSeries, requireSeries, settlementHints, signerAt } from "./common.js";

export default async function futuresSettle(
  args: { series: bigint; account: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const keeper = await signerAt(connection, args.signer);
    const futures = protocol.futures.connect(keeper);
    const id = parseSeries(args.series);
    await requireSeries(futures, id);
    const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
    let s = await futures.seriesInfo(id);
    if (now < s.expiry) throw new TaskError(`Series ${id} expires at ${fmtTime(s.expiry)}; nothing to settle yet.`);
    if (s.finalAt === 0n) {
      // the index TWAP over the hour before expiry, from feed rounds the market verifies (docs/futures.md)
      const { first, changes } = await settlementHints(protocol, futures, id, s.expiry);
      await (await futures.fixSettlementPriceAt(id, first, changes)).wait();
      s = await futures.seriesInfo(id);
      console.log(`settlement price proposed: ${fmtPrice(s.settlementPriceWad)}, final at ${fmtTime(s.finalAt)}`);
    }
    if (s.deliveryDeadline === 0n) {
      if (now < s.finalAt) {
        console.log(`dispute window open until ${fmtTime(s.finalAt)}; run again after it`);
        await connection.close();
        return;
      }
      await (await futures.finalizeSettlement(id)).wait();
      s = await futures.seriesInfo(id);
      console.log(`final price ${fmtPrice(s.settlementPriceWad)}; delivery deadline ${fmtTime(s.deliveryDeadline)}`);
    }
    if (args.account !== "") {
      await (await futures.settlePosition(id, args.account)).wait();
      console.log(`settled ${args.account} in series ${id}`);
    } else {
      let settled = 0n;
      for (let offset = 0n; ; offset += 64n) {
        const [page, total] = await futures.seriesAccounts(id, offset, 64n);
        if (page.length === 0) break;
        try {
          const n = await futures.settlePositions.staticCall(id, [...page]);
          await (await futures.settlePositions(id, [...page])).wait();
          settled += n;
        } catch {
          // nothing settleable in this page (shorts still inside their delivery window, or already settled)
        }
        if (offset + 64n >= total) break;
      }
      s = await futures.seriesInfo(id);
      console.log(`settled ${settled} position(s); ${s.openPositions} still open in series ${id}`);
    }
    const [owed] = await futures.bountiesOwed(keeper.address);
    if (owed > 0n) console.log(`keeper bounties owed to ${keeper.address}: ${fmtUsdc(owed)} (claimBounties)`);
    await connection.close();
  });
}
