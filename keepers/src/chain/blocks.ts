import type { ChainClient } from "./client.js";

/**
 * The hash block `n` has on the endpoint's chain now ("" when the node has no such block). The tick's head answers for
 * itself without a read. Reorg checks compare it with the hash a block had when it was read (keeper, scans).
 */
export async function blockHash(
  client: ChainClient,
  head: { number: number; hash: string },
  n: number,
): Promise<string> {
  if (n === head.number) return head.hash;
  return (await client.read("getBlock", (p) => p.getBlock(n)))?.hash ?? "";
}
