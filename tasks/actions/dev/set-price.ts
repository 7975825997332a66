import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatWad, parseWad, UnitError } from "@chx/sdk";
import { isLocalNetwork } from "../../../scripts/deploy/config.js";
import { openProtocol, runTask, TaskError } from "../../lib.js";

export default async function setPrice(
  args: { price: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    try {
      const feed = protocol.chIndexFeed;
      if (!isLocalNetwork(connection.networkName) || feed === undefined) {
        throw new TaskError(
          `chx:dev:set-price runs on local chains only (the mock feed), not "${connection.networkName}".`,
        );
      }
      if (args.price === "") throw new TaskError("Pass --price (USDC per CH, e.g. 2.5).");
      let priceWad: bigint;
      try {
        priceWad = parseWad(args.price);
      } catch (e) {
        throw new TaskError(e instanceof UnitError ? e.message : String(e));
      }
      if (priceWad <= 0n) throw new TaskError("--price must be positive.");
      const decimals = await feed.decimals();
      await (await feed.setAnswer(priceWad / 10n ** (18n - decimals))).wait();
      console.log(
        `CH index feed set to ${formatWad(priceWad)} USDC/CH; the oracle reads ${formatWad(await protocol.oracle.indexPrice())}`,
      );
    } finally {
      await connection.close();
    }
  });
}
