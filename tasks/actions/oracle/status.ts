import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits, ZeroAddress } from "ethers";
import { openProtocol, printJson, runTask } from "../../lib.js";
import { describeError, errorDecoder } from "@chx/sdk";

export default async function status(args: { json: boolean }, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    try {
      const { oracle } = protocol;
      const feed = await oracle.feedConfig();
      const [minWad, maxWad] = await oracle.priceBounds();
      const seq = await oracle.sequencerConfig();
      const dev = await oracle.deviationConfig();
      const now = BigInt((await connection.ethers.provider.getBlock("latest"))?.timestamp ?? 0);
      let round: { roundId: bigint; answer: bigint; updatedAt: bigint } | { error: string };
      try {
        const [roundId, answer, updatedAt] = await oracle.latestRound();
        round = { roundId, answer, updatedAt };
      } catch (e) {
        round = { error: describeError(e) };
      }
      let index: { priceWad: bigint } | { error: string };
      try {
        index = { priceWad: await oracle.indexPrice() };
      } catch (e) {
        index = { error: describeError(e) };
      }
      const [allowed, reason] = await oracle.riskIncreaseAllowed();
      const blockedBy = allowed ? null : (errorDecoder().iface.getError(reason)?.name ?? reason);
      if (args.json) {
        printJson({
          oracle: await oracle.getAddress(),
          feed: { address: feed.feed, decimals: feed.decimals, heartbeatSec: feed.heartbeatSec },
          latestRound: "error" in round ? { error: round.error } : { ...round, ageSec: now - round.updatedAt },
          bounds: { minWad, maxWad },
          sequencer: seq.feed === ZeroAddress ? null : { feed: seq.feed, gracePeriodSec: seq.gracePeriodSec },
          deviation:
            dev.source === ZeroAddress
              ? null
              : { source: dev.source, windowSec: dev.windowSec, maxDeviationBps: dev.maxDeviationBps },
          indexPriceWad: "error" in index ? null : index.priceWad,
          indexError: "error" in index ? index.error : null,
          riskIncreaseAllowed: allowed,
          riskBlockedBy: blockedBy,
        });
        return;
      }
      console.log(`ComputePriceOracle ${await oracle.getAddress()}`);
      console.log(`  feed ${feed.feed} (${feed.decimals} decimals, heartbeat ${feed.heartbeatSec} s)`);
      console.log(
        "error" in round
          ? `  latest round: unreadable (${round.error})`
          : `  latest round ${round.roundId}: ${formatUnits(round.answer, feed.decimals)} USDC/CH, ${now - round.updatedAt} s old`,
      );
      console.log(`  bounds ${formatUnits(minWad, 18)} … ${formatUnits(maxWad, 18)} USDC/CH`);
      console.log(
        seq.feed === ZeroAddress
          ? "  sequencer feed: none (L1)"
          : `  sequencer feed ${seq.feed}, grace ${seq.gracePeriodSec} s`,
      );
      console.log(
        dev.source === ZeroAddress
          ? "  spot deviation check: no spot source registered"
          : `  spot source ${dev.source}: TWAP ${dev.windowSec} s, max deviation ${dev.maxDeviationBps} bps`,
      );
      console.log(
        "error" in index
          ? `\nindex price: INVALID — ${index.error}`
          : `\nindex price: ${formatUnits(index.priceWad, 18)} USDC/CH (closing, liquidation)`,
      );
      console.log(allowed ? "new risk: allowed" : `new risk: BLOCKED (${blockedBy})`);
    } finally {
      await connection.close();
    }
  });
}
