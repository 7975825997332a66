import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { readOrder, signerAt } from "./common.js";

export default async function spotCancel(
  args: { order: string; minNonce: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    if ((args.order === "") === (args.minNonce === "")) {
      throw new TaskError("Give exactly one of --order <file> or --min-nonce <n>.");
    }
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const maker = await signerAt(connection, args.signer);
    const spot = protocol.spot.connect(maker);
    if (args.minNonce !== "") {
      await (await spot.raiseMinNonce(BigInt(args.minNonce))).wait();
      console.log(`every order and deal of ${maker.address} with a nonce below ${args.minNonce} is now void`);
    } else {
      const { order } = await readOrder(args.order, await spot.getAddress());
      await (await spot.cancelOrder(order)).wait();
      console.log(`cancelled order ${await spot.orderDigest(order)} (nonce ${order.nonce})`);
    }
    await connection.close();
  });
}
