/**
 * A deterministic chain clock for the gas bench (issue 18, round 38): every bench network starts at a fixed date and
 * every block it mines is stamped one second after its parent unless the suite set the time itself
 * (`evm_setNextBlockTimestamp`, `time.increase` / `increaseTo`, `evm_mine` with a timestamp). Without it the blocks
 * follow the wall clock, so block hashes — and with them every figure that depends on a block-hash seed (the council
 * draw's rejected samples, the executor tie-break) — change from run to run. With it two runs give identical figures.
 */
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { JsonRpcRequest, JsonRpcResponse } from "hardhat/types/providers";

/** Genesis of every bench network (a past date: the chain's clock never needs the wall clock). */
export const BENCH_GENESIS = "2026-01-01T00:00:00.000Z";

/** Requests that mine a block on an automining network. */
const MINES = new Set(["eth_sendTransaction", "eth_sendRawTransaction", "evm_mine", "hardhat_mine"]);

/**
 * Registers the clock on `hre`'s network hooks (once per process): before a request that mines, unless the next
 * block's time is already set, it sets it to the latest block's time + 1 s plus any pending `evm_increaseTime`.
 */
export function useDeterministicClock(hre: HardhatRuntimeEnvironment): void {
  /** Per connection: the next block's time is set (true) and seconds added by evm_increaseTime since. */
  const state = new Map<number, { pinned: boolean; extra: bigint }>();
  hre.hooks.registerHandlers("network", {
    async onRequest(context, conn, req, next) {
      const s = state.get(conn.id) ?? { pinned: false, extra: 0n };
      state.set(conn.id, s);
      const params = Array.isArray(req.params) ? req.params : [];
      const call = (method: string, p: unknown[]): Promise<JsonRpcResponse> =>
        next(context, conn, { jsonrpc: "2.0", id: req.id, method, params: p } as JsonRpcRequest);
      if (req.method === "evm_setNextBlockTimestamp" || (req.method === "evm_mine" && params.length > 0)) {
        s.pinned = true;
      } else if (req.method === "evm_increaseTime") {
        s.extra += BigInt(params[0] as string | number);
      } else if (MINES.has(req.method) && !s.pinned) {
        const latest = await call("eth_getBlockByNumber", ["latest", false]);
        if ("result" in latest && latest.result !== null) {
          const ts = BigInt((latest.result as { timestamp: string }).timestamp) + 1n + s.extra;
          await call("evm_setNextBlockTimestamp", ["0x" + ts.toString(16)]);
        }
      }
      const res = await next(context, conn, req);
      if (MINES.has(req.method)) {
        s.pinned = false;
        s.extra = 0n;
      }
      return res;
    },
  });
}
