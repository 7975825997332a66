import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { printJson, runTask, TaskError } from "../../lib.js";
import { relayClient, viaRelay } from "./common.js";

/** The relay's CH/USDC book (or an option series' with --book option:<id>): levels best first. */
export default async function spotBook(
  args: { relay: string; book: string; depth: number; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const depth = args.depth;
    if (!Number.isInteger(depth) || depth < 1 || depth > 10_000) throw new TaskError("--depth must be 1 … 10000.");
    const client = relayClient(args.relay);
    const book = await viaRelay(`the book ${args.book}`, () => client.book(args.book, { depth }));
    if (args.json) return printJson(book);
    console.log(`${args.book} at block ${book.block} (relay ${client.baseUrl})`);
    const fmt = (l: { price: string; amount: string; orders: number }) =>
      `${formatUnits(BigInt(l.price), 18).padStart(14)}  ${formatUnits(BigInt(l.amount), 18).padStart(22)}  (${l.orders})`;
    console.log(`  asks (price USDC/CH, amount, orders), best last`);
    for (const l of [...book.asks].reverse()) console.log(`    ${fmt(l)}`);
    console.log(`  bids, best first`);
    for (const l of book.bids) console.log(`    ${fmt(l)}`);
    if (book.bids.length === 0 && book.asks.length === 0) console.log("  (empty)");
  });
}
