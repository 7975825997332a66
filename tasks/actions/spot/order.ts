import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { writeFile } from "node:fs/promises";
import { isAddress, parseUnits, ZeroAddress } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { signerAt } from "./common.js";
import { orderToJson, signOrder, legacyDomain, type SpotOrder } from "@chx/sdk";

interface Args {
  side: string;
  amount: string;
  price: string;
  nonce: string;
  expiry: string;
  taker: string;
  out: string;
  signer: string;
}

export default async function spotOrder(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    if (args.side !== "buy" && args.side !== "sell")
      throw new TaskError(`--side must be buy or sell, not "${args.side}".`);
    if (args.taker !== "" && !isAddress(args.taker)) throw new TaskError(`--taker "${args.taker}" is not an address.`);
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const maker = await signerAt(connection, args.signer);
    const market = await protocol.spot.getAddress();
    const { chainId } = await connection.ethers.provider.getNetwork();
    const now = BigInt((await connection.ethers.provider.getBlock("latest"))?.timestamp ?? 0);
    const order: SpotOrder = {
      maker: maker.address,
      isBuy: args.side === "buy",
      amountCh: parseUnits(args.amount, 18),
      priceWad: parseUnits(args.price, 18),
      nonce: args.nonce === "" ? BigInt(Date.now()) : BigInt(args.nonce),
      expiry: now + BigInt(args.expiry),
      taker: args.taker === "" ? ZeroAddress : args.taker,
    };
    if (order.amountCh === 0n) throw new TaskError("--amount must be greater than zero.");
    if (await protocol.spot.nonceUsed(maker.address, order.nonce)) {
      throw new TaskError(`Nonce ${order.nonce} is already used by ${maker.address}; pick another --nonce.`);
    }
    const signature = await signOrder(maker, legacyDomain("SpotMarket", chainId, market), order);
    const json = JSON.stringify(orderToJson(market, chainId, order, signature), null, 2);
    // the maker's side moves at fill time: warn when the market may not pull it yet
    const token = order.isBuy ? protocol.usdc : protocol.ch;
    const allowance = await token.allowance(maker.address, market);
    if (args.out !== "") {
      await writeFile(args.out, json + "\n");
      console.log(`signed ${args.side} order for ${args.amount} CH at ${args.price} USDC → ${args.out}`);
    } else {
      console.log(json);
    }
    console.log(`order hash ${await protocol.spot.orderDigest(order)}`);
    if (allowance === 0n) {
      console.log(
        `note: approve the market (${market}) for your ${order.isBuy ? "USDC" : "CH"} before it can be filled`,
      );
    }
    await connection.close();
  });
}
