import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { writeFile } from "node:fs/promises";
import { formatUnits, isAddress, parseUnits, ZeroAddress } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { relayUrl, signerAt, viaRelay } from "./common.js";
import { domainOf, orderToJson, RelayClient, signOrder, type SpotOrder } from "@chx/sdk";

interface Args {
  side: string;
  amount: string;
  price: string;
  nonce: bigint;
  expiry: number;
  taker: string;
  out: string;
  relay: string;
  signer: string;
}

export default async function spotOrder(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    if (args.side !== "buy" && args.side !== "sell")
      throw new TaskError(`--side must be buy or sell, not "${args.side}".`);
    if (args.expiry <= 0) throw new TaskError(`--expiry ${args.expiry}: give the order's lifetime in seconds (> 0).`);
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
      nonce: args.nonce === 0n ? BigInt(Date.now()) : args.nonce,
      expiry: now + BigInt(args.expiry),
      taker: args.taker === "" ? ZeroAddress : args.taker,
    };
    if (order.amountCh === 0n) throw new TaskError("--amount must be greater than zero.");
    if (await protocol.spot.nonceUsed(maker.address, order.nonce)) {
      throw new TaskError(`Nonce ${order.nonce} is already used by ${maker.address}; pick another --nonce.`);
    }
    // the domain as the market states it (eip712Domain(), through the SDK's reader)
    const signature = await signOrder(maker, await domainOf(connection.ethers.provider, "SpotMarket", market), order);
    const signed = orderToJson(market, chainId, order, signature);
    const json = JSON.stringify(signed, null, 2);
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
    const relay = relayUrl(args.relay);
    if (relay !== undefined) {
      const r = await viaRelay("the order", () => new RelayClient(relay).postOrder(signed));
      console.log(
        `relay ${relay}: ${r.created ? "accepted" : "already had it"} — ${r.order.status}, fillable ` +
          `${formatUnits(BigInt(r.order.fillable), 18)} CH${r.order.reason === null ? "" : ` (${r.order.reason})`}`,
      );
    }
    if (allowance === 0n) {
      console.log(
        `note: approve the market (${market}) for your ${order.isBuy ? "USDC" : "CH"} before it can be filled`,
      );
    }
    await connection.close();
  });
}
