import { writeFile } from "node:fs/promises";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { ZeroAddress } from "ethers";
import { openProtocol, runTask } from "../../lib.js";
import { parseAmount, positiveInt, requireSeries, signerAt, usdc } from "./common.js";
import { offerToJson, domainOf, signOffer, type OptionsOffer } from "@chx/sdk";

export default async function optionsWrite(
  args: {
    series: bigint;
    size: string;
    premium: string;
    expiry: number;
    out: string;
    margined: boolean;
    signer: string;
  },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const writer = await signerAt(connection, args.signer);
    const options = protocol.options.connect(writer);
    const id = args.series;
    await requireSeries(protocol.options, id);
    const sizeCh = parseAmount("--size", args.size, 18);
    if (args.margined) {
      // no collateral moves: the ClearingHouse's portfolio margin must cover the short (docs/options.md)
      await (await options.writeMargined(id, sizeCh)).wait();
      console.log(`wrote ${args.size} CH of series #${id} margined (no collateral posted)`);
    } else {
      const collateral = await options.collateralFor(id, sizeCh);
      await (await options.write(id, sizeCh)).wait();
      console.log(`wrote ${args.size} CH of series #${id}: ${usdc(collateral)} USDC of collateral posted`);
    }
    if (args.premium !== "") {
      const market = await options.getAddress();
      const { chainId } = await connection.ethers.provider.getNetwork();
      const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
      const offer: OptionsOffer = {
        maker: writer.address,
        seriesId: id,
        isBuy: false,
        sizeCh,
        premiumWad: parseAmount("--premium", args.premium, 18),
        nonce: BigInt(Date.now()),
        expiry: now + BigInt(positiveInt("--expiry", args.expiry)),
        taker: ZeroAddress,
      };
      const signature = await signOffer(writer, await domainOf(writer, "OptionsMarket", market), offer);
      await writeFile(args.out, JSON.stringify(offerToJson(market, chainId, offer, signature), null, 2));
      console.log(`signed a sell offer for them at ${args.premium} USDC per CH → ${args.out}`);
    }
    await connection.close();
  });
}
