import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits, ZeroAddress } from "ethers";
import { openProtocol, printJson, runTask } from "../../lib.js";
import { address, fmtUsdc } from "./common.js";

/**
 * A bankrupt account's open auto-deleveraging claim (docs/clearing.md "Auto-deleveraging"): the market and side it
 * left, the CH still to deleverage, the round's nomination window and the nominees with their scores. An account
 * without a claim prints `open: false` (it is not an error: most accounts never have one).
 */
export default async function adlStatus(
  args: { account: string; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    try {
      const account = address(args.account, "--account");
      const engine = protocol.liquidationEngine;
      const claim = await engine.adlClaim(account);
      const windowSec = await engine.adlWindow();
      const open = claim.market !== ZeroAddress;
      const nominationsCloseAt = open ? claim.roundStartSec + windowSec : 0n;
      const nominees = claim.nominees.map((n, i) => ({ account: n, scoreUsdc: claim.scores[i] ?? 0n }));
      if (args.json) {
        printJson({
          account,
          open,
          market: claim.market,
          bankruptLong: claim.bankruptLong,
          sizeCh: claim.sizeCh,
          perChWad: claim.perChWad,
          roundStartSec: claim.roundStartSec,
          windowSec,
          nominationsCloseAt,
          nominees,
        });
        return;
      }
      if (!open) {
        console.log(`${account} has no open ADL claim`);
        return;
      }
      console.log(`ADL claim of ${account} in market ${claim.market}`);
      console.log(
        `  ${formatUnits(claim.sizeCh, 18)} CH of the bankrupt ${claim.bankruptLong ? "long" : "short"} still to deleverage ` +
          `at ${formatUnits(claim.perChWad, 18)} USDC per CH`,
      );
      console.log(`  round started at ${claim.roundStartSec}; nominations close at ${nominationsCloseAt}`);
      if (nominees.length === 0) console.log("  no nominee yet (keepers nominate opposite positions by score)");
      for (const n of nominees) console.log(`  nominee ${n.account}: score ${fmtUsdc(n.scoreUsdc)}`);
    } finally {
      await connection.close();
    }
  });
}
