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
const RESULT = ["tuple(bool ok, bytes data)[]"];

/** Runs `calls` (read-only) in as few `eth_call`s as the page size allows; results in the order of `calls`. */
export async function batchRead(
  provider: Provider,
  calls: readonly BatchCall[],
  opts: BatchReadOptions = {},
): Promise<BatchResult[]> {
  if (calls.length === 0) return [];
  const pageSize = opts.pageSize ?? 100;
  const gasPerCall = opts.gasPerCall ?? 150_000n;
  const blockTag = opts.blockTag ?? "latest";
  const pages: Promise<BatchResult[]>[] = [];
  for (let i = 0; i < calls.length; i += pageSize) {
    const page = calls.slice(i, i + pageSize);
    const args = coder.encode(
      ["address[]", "bytes[]", "uint256"],
      [page.map((c) => c.target), page.map((c) => c.data), gasPerCall],
    );
    pages.push(
      provider.call({ data: BatchReaderBytecode + args.slice(2), blockTag }).then((ret) => {
        const [rows] = coder.decode(RESULT, ret) as unknown as [Array<{ ok: boolean; data: string }>];
        return rows.map((r) => ({ ok: r.ok, data: r.data }));
      }),
    );
  }
  return (await Promise.all(pages)).flat();
}
