import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { parseAmount, readOffer, signerAt, usdc, wad } from "./common.js";

export default async function optionsBuy(
  args: { offer: string; size: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const taker = await signerAt(connection, args.signer);
    const options = protocol.options.connect(taker);
    const { offer, signature } = await readOffer(args.offer, await options.getAddress());
    const [filled] = await options.offerState(await options.offerHash(offer));
    const remaining = offer.sizeCh - filled;
    const sizeCh = args.size === "" ? remaining : parseAmount("--size", args.size, 18);
    if (sizeCh === 0n) throw new TaskError("This offer is fully filled.");
    const receipt = await (await options.fillOffer(offer, signature, sizeCh)).wait();
    const ev = receipt?.logs
      .map((l) => {
        try {
          return options.interface.parseLog(l);
        } catch {
          return null;
        }
      })
      .find((e) => e?.name === "OfferFilled");
    const side = offer.isBuy ? "sold" : "bought";
    const paid = ev ? ` (buyer paid ${usdc(ev.args.buyerPaidUsdc as bigint)} USDC)` : "";
    console.log(
      `${side} ${wad(sizeCh)} CH of series #${offer.seriesId} at ${wad(offer.premiumWad)} USDC per CH${paid}`,
    );
    await connection.close();
  });
}
