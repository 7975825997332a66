import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { signerAt, wad } from "./common.js";

export default async function optionsSettle(
  args: { series: string; steps: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const signer = await signerAt(connection, args.signer);
    const options = protocol.options.connect(signer);
    if (args.series === "") {
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
    const id = BigInt(args.series);
    const s = await options.series(id);
    if (s.priceFixedAt === 0n) {
      const price = await options.fixSettlementPrice.staticCall(id);
      await (await options.fixSettlementPrice(id)).wait();
      console.log(
        `series #${id}: settlement price fixed at ${wad(price)} USDC per CH (final after the dispute window)`,
      );
    } else {
      const [steps, done] = await options.settleSeries.staticCall(id, BigInt(args.steps));
      await (await options.settleSeries(id, BigInt(args.steps))).wait();
      console.log(`series #${id}: settled ${steps} step(s)${done ? ", series fully settled" : ", more pages remain"}`);
    }
    await connection.close();
  });
}
