import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits, ZeroAddress } from "ethers";
import { openProtocol, runTask } from "../../lib.js";
import { describeError, errorDecoder } from "@chx/sdk";

export default async function status(_args: Record<string, unknown>, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    const { oracle } = protocol;
    const feed = await oracle.feedConfig();
    const [minWad, maxWad] = await oracle.priceBounds();
    const seq = await oracle.sequencerConfig();
    const dev = await oracle.deviationConfig();
    const now = (await connection.ethers.provider.getBlock("latest"))?.timestamp ?? 0;
    console.log(`ComputePriceOracle ${await oracle.getAddress()}`);
    console.log(`  feed ${feed.feed} (${feed.decimals} decimals, heartbeat ${feed.heartbeatSec} s)`);
    try {
      const [roundId, answer, updatedAt] = await oracle.latestRound();
      console.log(
        `  latest round ${roundId}: ${formatUnits(answer, feed.decimals)} USDC/CH, ${BigInt(now) - updatedAt} s old`,
      );
    } catch (e) {
      console.log(`  latest round: unreadable (${describeError(e)})`);
    }
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
    try {
      console.log(`\nindex price: ${formatUnits(await oracle.indexPrice(), 18)} USDC/CH (closing, liquidation)`);
    } catch (e) {
      console.log(`\nindex price: INVALID — ${describeError(e)}`);
    }
    const [allowed, reason] = await oracle.riskIncreaseAllowed();
    if (allowed) {
      console.log("new risk: allowed");
    } else {
      const frag = errorDecoder().iface.getError(reason);
      console.log(`new risk: BLOCKED (${frag?.name ?? reason})`);
    }
    await connection.close();
  });
}
