import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { positiveInt, requireSeries, signerAt, wad } from "./common.js";

export default async function optionsSettle(
  args: { series: bigint; steps: number; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const signer = await signerAt(connection, args.signer);
    const options = protocol.options.connect(signer);
    const steps = BigInt(positiveInt("--steps", args.steps));
    if (args.series === 0n) {
      const [canExec, payload] = await options.checker();
      if (!canExec) {
        console.log("nothing to do: no series is waiting for its price or its settlement");
      } else {
        await (await signer.sendTransaction({ to: await options.getAddress(), data: payload })).wait();
        const call = options.interface.parseTransaction({ data: payload });
        console.log(`done: ${call?.name}(${call?.args.join(", ")})`);
      }
      await connection.close();
      return;
    }
    const id = args.series;
    await requireSeries(options, id);
    const s = await options.series(id);
    if (s.priceFixedAt === 0n) {
      const price = await options.fixSettlementPrice.staticCall(id);
      await (await options.fixSettlementPrice(id)).wait();
      console.log(
        `series #${id}: settlement price fixed at ${wad(price)} USDC per CH (final after the dispute window)`,
      );
    } else {
      const [settled, done] = await options.settleSeries.staticCall(id, steps);
      await (await options.settleSeries(id, steps)).wait();
      console.log(
        `series #${id}: settled ${settled} step(s)${done ? ", series fully settled" : ", more pages remain"}`,
      );
    }
    await connection.close();
  });
}
