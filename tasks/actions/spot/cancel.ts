import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { orderFromRelay, readOrder, relayClient, signerAt, viaRelay } from "./common.js";
import { signCancelNotice } from "@chx/sdk";

export default async function spotCancel(
  args: { order: string; hash: string; minNonce: bigint; notice: boolean; relay: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    if ([args.order !== "", args.hash !== "", args.minNonce !== 0n].filter((x) => x).length !== 1) {
      throw new TaskError("Give exactly one of --order <file>, --hash <order hash on the relay> or --min-nonce <n>.");
    }
    if (args.notice && args.hash === "") throw new TaskError("--notice needs --hash (the order on the relay).");
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const maker = await signerAt(connection, args.signer);
    const spot = protocol.spot.connect(maker);
    if (args.minNonce !== 0n) {
      await (await spot.raiseMinNonce(args.minNonce)).wait();
      console.log(`every order and deal of ${maker.address} with a nonce below ${args.minNonce} is now void`);
    } else if (args.notice) {
      // off chain only: the relay stops serving it; it stays valid on chain for anyone who copied it
      const { chainId } = await connection.ethers.provider.getNetwork();
      const signature = await signCancelNotice(maker, chainId, args.hash);
      const r = await viaRelay("the cancel notice", () => relayClient(args.relay).cancelNotice(args.hash, signature));
      console.log(
        `relay no longer serves ${r.order.hash}; it is still valid ON CHAIN until you cancel it there ` +
          `(chx:spot:cancel --hash ${args.hash})`,
      );
    } else {
      const market = await spot.getAddress();
      const { order } =
        args.hash !== "" ? await orderFromRelay(args.relay, args.hash, market) : await readOrder(args.order, market);
      await (await spot.cancelOrder(order)).wait();
      console.log(`cancelled order ${await spot.orderDigest(order)} (nonce ${order.nonce})`);
    }
    await connection.close();
  });
}
