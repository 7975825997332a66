/**
 * Many view calls in one `eth_call`, without deploying anything: the creation code of the periphery `BatchReader`
 * runs every call as a STATICCALL at the same block (bounded gas each) and returns `(ok, data)` per call.
 */
import { AbiCoder, type BlockTag, type Provider } from "ethers";
import { BatchReaderBytecode } from "./generated/bytecode.js";

export interface BatchCall {
  target: string;
  data: string;
}

export interface BatchResult {
  /** The call returned (false: it reverted, ran out of its gas, or — `data` empty — the target has no code). */
  ok: boolean;
  /** Return data, or revert data. */
  data: string;
}

export interface BatchReadOptions {
  /** Block to read at (default "latest"). Every call of every page reads this block. */
  blockTag?: BlockTag;
  /** Gas each call may use (default 150,000: an ERC-1271 wallet cannot burn the batch). */
  gasPerCall?: bigint;
  /**
   * Calls per `eth_call` (default 100); pages run in parallel. The result comes back as the "code" the creation
   * returns, which EIP-170 caps at 24,576 bytes: about 150 one-word results (160 bytes each) fit in one page.
   */
  pageSize?: number;
}

const coder = AbiCoder.defaultAbiCoder();
const RESULT = ["uint256", "uint256", "tuple(bool ok, bytes data)[]"];

export interface BatchReadResult {
  /** The block every call read (with `blockTag` "latest": the head the node used). */
  blockNumber: number;
  timestamp: number;
  results: BatchResult[];
}

async function page(provider: Provider, calls: readonly BatchCall[], gasPerCall: bigint, blockTag: BlockTag) {
  const args = coder.encode(
    ["address[]", "bytes[]", "uint256"],
    [calls.map((c) => c.target), calls.map((c) => c.data), gasPerCall],
  );
  const ret = await provider.call({ data: BatchReaderBytecode + args.slice(2), blockTag });
  const [n, ts, rows] = coder.decode(RESULT, ret) as unknown as [bigint, bigint, Array<{ ok: boolean; data: string }>];
  return { blockNumber: Number(n), timestamp: Number(ts), results: rows.map((r) => ({ ok: r.ok, data: r.data })) };
}

/**
 * Runs `calls` (read-only) in as few `eth_call`s as the page size allows, all at one block; results in the order of
 * `calls`, with the block they were read at. At "latest" the first page fixes the block and the others read it.
 */
export async function batchReadAt(
  provider: Provider,
  calls: readonly BatchCall[],
  opts: BatchReadOptions = {},
): Promise<BatchReadResult> {
  const pageSize = opts.pageSize ?? 100;
  const gasPerCall = opts.gasPerCall ?? 150_000n;
  const first = await page(provider, calls.slice(0, pageSize), gasPerCall, opts.blockTag ?? "latest");
  const rest: Promise<BatchResult[]>[] = [];
  for (let i = pageSize; i < calls.length; i += pageSize) {
    rest.push(page(provider, calls.slice(i, i + pageSize), gasPerCall, first.blockNumber).then((p) => p.results));
  }
  return { ...first, results: [...first.results, ...(await Promise.all(rest)).flat()] };
}

/** Runs `calls` (read-only) in as few `eth_call`s as the page size allows; results in the order of `calls`. */
export async function batchRead(
  provider: Provider,
  calls: readonly BatchCall[],
  opts: BatchReadOptions = {},
): Promise<BatchResult[]> {
  if (calls.length === 0) return [];
  return (await batchReadAt(provider, calls, opts)).results;
}
