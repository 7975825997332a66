import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { describeSeries, usdc, wad } from "./common.js";

export default async function optionsStatus(
  args: { series: string; account: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    const { options } = protocol;
    const p = await options.params();
    const [fees, reserved] = await options.poolClaims();
    console.log(
      `OptionsMarket ${await options.getAddress()}: ${await options.seriesCount()} series (${await options.liveSeries()} live), ` +
        `fees maker ${p.makerFeeBps} / taker ${p.takerFeeBps} bps of premium, dispute window ${p.disputeWindowSec} s, ` +
        `bounty ${usdc(p.bountyUsdc)} USDC; pool claims: ${usdc(reserved)} USDC collateral, ${usdc(fees)} USDC fees`,
    );
    if (args.series !== "") {
      const id = BigInt(args.series);
      console.log(await describeSeries(options, id));
      if (args.account !== "") {
        const pos = await options.positionOf(id, args.account);
        console.log(
          `  ${args.account}: long ${wad(pos.longCh)} CH, short ${wad(pos.shortCh)} CH, ` +
            `collateral ${usdc(pos.collateralUsdc)} USDC`,
        );
      }
    }
    await connection.close();
  });
}
