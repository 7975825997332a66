import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { isAddress } from "ethers";
import { SeriesStatusNames } from "@chx/sdk";
import { openProtocol, plain, printJson, runTask, TaskError } from "../../lib.js";
import { describeSeries, requireSeries, usdc, wad } from "./common.js";

export default async function optionsStatus(
  args: { series: bigint; account: string; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    if (args.account !== "" && !isAddress(args.account))
      throw new TaskError(`--account ${args.account}: not an address.`);
    if (args.account !== "" && args.series === 0n) throw new TaskError("--account needs --series <id>.");
    const { connection, protocol } = await openProtocol(hre);
    try {
      const { options } = protocol;
      if (args.series !== 0n) await requireSeries(options, args.series);
      const p = await options.params();
      const [fees, reserved] = await options.poolClaims();
      const count = await options.seriesCount();
      const live = await options.liveSeries();
      const position = args.account === "" ? undefined : await options.positionOf(args.series, args.account);
      if (args.json) {
        const series =
          args.series === 0n
            ? null
            : {
                id: args.series,
                status: SeriesStatusNames[Number(await options.seriesStatus(args.series))] ?? null,
                ...(plain(await options.series(args.series)) as object),
              };
        printJson({
          market: await options.getAddress(),
          seriesCount: count,
          liveSeries: live,
          params: plain(p),
          poolClaims: { reservedUsdc: reserved, feesUsdc: fees },
          series,
          ...(position === undefined
            ? {}
            : {
                account: args.account,
                position: {
                  longCh: position.longCh,
                  shortCh: position.shortCh,
                  collateralUsdc: position.collateralUsdc,
                },
              }),
        });
        return;
      }
      console.log(
        `OptionsMarket ${await options.getAddress()}: ${count} series (${live} live), ` +
          `fees maker ${p.makerFeeBps} / taker ${p.takerFeeBps} bps of premium, dispute window ${p.disputeWindowSec} s, ` +
          `bounty ${usdc(p.bountyUsdc)} USDC; pool claims: ${usdc(reserved)} USDC collateral, ${usdc(fees)} USDC fees`,
      );
      if (args.series !== 0n) {
        console.log(await describeSeries(options, args.series));
        if (position !== undefined) {
          console.log(
            `  ${args.account}: long ${wad(position.longCh)} CH, short ${wad(position.shortCh)} CH, ` +
              `collateral ${usdc(position.collateralUsdc)} USDC`,
          );
        }
      }
    } finally {
      await connection.close();
    }
  });
}
