import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { writeFile } from "node:fs/promises";
import { isAddress, parseUnits, ZeroAddress } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { parseCh, parseSeries, requireSeries, signerAt } from "./common.js";
import { signFuturesOrder } from "@chx/sdk";

interface Args {
  series: bigint;
  side: string;
  size: string;
  price: string;
  nonce: bigint;
  expiry: number;
  taker: string;
  out: string;
  signer: string;
}

/** `chx:futures:order`: signs a trader-against-trader order on one series (EIP-712, off chain) and saves it as JSON. */
export default async function futuresOrder(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    if (args.side !== "buy" && args.side !== "sell")
      throw new TaskError(`--side must be buy or sell, not "${args.side}".`);
    if (args.expiry <= 0) throw new TaskError(`--expiry ${args.expiry}: give the order's lifetime in seconds (> 0).`);
    if (args.taker !== "" && !isAddress(args.taker)) throw new TaskError(`--taker "${args.taker}" is not an address.`);
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const maker = await signerAt(connection, args.signer);
    const futures = protocol.futures;
    const seriesId = parseSeries(args.series);
    await requireSeries(futures, seriesId);
    const now = BigInt((await connection.ethers.provider.getBlock("latest"))?.timestamp ?? 0);
    const order = {
      maker: maker.address,
      seriesId,
      isBuy: args.side === "buy",
      sizeCh: parseCh(args.size, "--size"),
      priceWad: parseUnits(args.price === "" ? "0" : args.price, 18),
      nonce: args.nonce === 0n ? BigInt(Date.now()) : args.nonce,
      expiry: now + BigInt(args.expiry),
      taker: args.taker === "" ? ZeroAddress : args.taker,
    };
    if (order.sizeCh === 0n || order.priceWad === 0n) throw new TaskError("--size and --price must be > 0.");
    // the domain as the market states it (ERC-5267 eip712Domain())
    const d = await futures.eip712Domain();
    const domain = { name: d.name, version: d.version, chainId: d.chainId, verifyingContract: d.verifyingContract };
    const signature = await signFuturesOrder(maker, domain, order);
    const json = JSON.stringify(
      { order: Object.fromEntries(Object.entries(order).map(([k, v]) => [k, String(v)])), signature },
      null,
      2,
    );
    await writeFile(args.out, json + "\n");
    console.log(`signed ${args.side} order on series ${seriesId}: ${args.size} CH at ${args.price} → ${args.out}`);
    console.log(`order digest ${await futures.orderDigest(order)}`);
    await connection.close();
  });
}
