/**
 * The liquidation latency scenario (issue 9) for keepers/bench/latency.ts: the real protocol (deploy engine, every
 * module) on the bench node, a MockClearingMarket listed on the ClearingHouse (as test/helpers/clearing.ts does),
 * one guarantor, and 1,000 traders with 100 USDC of collateral each: 900 long 10 CH and 100 long 95 CH at 10 USDC
 * (IM 10 %, MM 5 %). The shock is ONE oracle round at 9 USDC: equity 100 − size against a maintenance margin of
 * 0.45 × size, so exactly the 100 long 95 CH are below it (5 < 42.75) and the 900 others are not (90 ≥ 4.5).
 * The figure is the blocks from the price update to the block holding the last of the 100 liquidations, with the
 * keeper's real `liquidations` job in a real run loop.
 *
 * Setup (≈ 5,000 transactions) is sent in bulk with automine off and done once; every run reverts to a snapshot
 * taken after it, so the three runs start from the same state.
 */
import { keccak256, parseUnits, toBeHex, toUtf8Bytes, Wallet, type TransactionRequest } from "ethers";
import { listTestMarket, setupGuarantor, usdc, wad, type ClearingSetup } from "../../test/helpers/clearing.js";
import { account, CHAIN_ID, node } from "../test/harness.js";
import { protocolOnNode, type DeployedProtocol } from "../test/protocol.js";
import type { liquidationJob } from "../src/jobs/liquidations.js";
import type { LatencyScenario } from "./latency.js";

const COLLATERAL = usdc("100");
const SMALL = wad("10");
const LARGE = wad("95");

/** Signs and sends every transaction with automine off, then mines until none is pending (hundreds per block). */
export async function sendBulk(
  txs: Array<{ from: Wallet; to: string; data: string; gasLimit?: bigint }>,
): Promise<void> {
  const p = node().provider;
  const nonces = new Map<string, number>();
  await node().rpc("evm_setAutomine", [false]);
  try {
    const hashes: string[] = [];
    for (const t of txs) {
      const a = t.from.address;
      // "latest", not "pending": the node would build a pending block of the whole mempool for every call (and
      // nothing is pending between bulk sends: each mines all it sent before returning)
      const nonce = nonces.get(a) ?? (await p.getTransactionCount(a, "latest"));
      nonces.set(a, nonce + 1);
      const req: TransactionRequest = {
        type: 2,
        chainId: CHAIN_ID,
        nonce,
        to: t.to,
        data: t.data,
        gasLimit: t.gasLimit ?? 600_000n,
        maxFeePerGas: parseUnits("100", "gwei"),
        maxPriorityFeePerGas: parseUnits("1", "gwei"),
      };
      hashes.push(await node().rpc<string>("eth_sendRawTransaction", [await t.from.signTransaction(req)]));
    }
    for (;;) {
      await node().rpc("evm_mine", []);
      const pending = await node().rpc<{ transactions: string[] }>("eth_getBlockByNumber", ["pending", false]);
      if (pending.transactions.length === 0) break;
    }
    const last = await p.getTransactionReceipt(hashes[hashes.length - 1] as string);
    if (last === null || last.status !== 1) throw new Error("bulk setup: the last transaction failed");
  } finally {
    await node().rpc("evm_setAutomine", [true]);
  }
}

export function liquidationScenario(total = 1_000, affected = 100): LatencyScenario {
  let deployed: DeployedProtocol | undefined;
  let cs: ClearingSetup | undefined;
  let snapshot: string | undefined;
  let shockBlock = 0;
  return {
    name: `liquidation:${affected}-of-${total}`,
    affected,
    async setup() {
      if (snapshot !== undefined) {
        if (!(await node().rpc<boolean>("evm_revert", [snapshot]))) throw new Error("snapshot lost");
        snapshot = await node().rpc<string>("evm_snapshot", []);
        return { deployment: deployed!.deployment, jobs: { liquidations: { concurrency: 16 } } };
      }
      deployed = await protocolOnNode();
      const p = deployed.protocol;
      const provider = node().provider;
      const admin = account(0).connect(provider);
      cs = await listTestMarket(undefined as never, deployed.record, p, admin);
      const g = account(9).connect(provider);
      await setupGuarantor(p, admin, g, false, usdc("10000000"));
      const traders = Array.from(
        { length: total },
        (_, i) => new Wallet(keccak256(toUtf8Bytes(`chx-bench-liquidation-${i}`)), provider),
      );
      for (const t of traders) await node().rpc("hardhat_setBalance", [t.address, toBeHex(10n ** 20n)]);
      const gp = await p.guarantorPool.getAddress();
      const ch = await p.clearingHouse.getAddress();
      const usdcAddr = await p.usdc.getAddress();
      const market = await cs.market.getAddress();
      const [gpI, usdcI, chI, mI] = [
        p.guarantorPool.interface,
        p.usdc.interface,
        p.clearingHouse.interface,
        cs.market.interface,
      ];
      void gp;
      await sendBulk(
        traders.flatMap((t) => [
          { from: g, to: gp, data: gpI.encodeFunctionData("admitCustomer", [t.address, usdc("1000000")]) },
          { from: admin, to: usdcAddr, data: usdcI.encodeFunctionData("mint", [t.address, COLLATERAL]) },
          { from: t, to: usdcAddr, data: usdcI.encodeFunctionData("approve", [ch, COLLATERAL]) },
        ]),
      );
      await sendBulk(traders.map((t) => ({ from: t, to: ch, data: chI.encodeFunctionData("deposit", [COLLATERAL]) })));
      // The last `affected` traders take the large long; the trades spread over the block like real order flow.
      await sendBulk(
        traders.map((t, i) => ({
          from: admin,
          to: market,
          data: mI.encodeFunctionData("tradeAt", [t.address, i >= total - affected ? LARGE : SMALL, wad("10")]),
          gasLimit: 1_000_000n,
        })),
      );
      const le = p.liquidationEngine;
      const sample = [traders[0]!, traders[total - 1]!];
      for (const t of sample) {
        if ((await le.isLiquidatable(t.address))[0])
          throw new Error("setup: an account is liquidatable before the shock");
      }
      snapshot = await node().rpc<string>("evm_snapshot", []);
      return { deployment: deployed.deployment, jobs: { liquidations: { concurrency: 16 } } };
    },
    async shock() {
      // Interval mining is on: the round lands in the next block, whose number is the origin of the count.
      const tx = await cs!.oracle.setPrice(wad("9"));
      const r = await tx.wait();
      shockBlock = r!.blockNumber;
      return shockBlock;
    },
    async warm(keeper) {
      // A keeper runs long before a shock: wait until it tracks every account and has fitted their margin models.
      const job = keeper.jobs.find((j) => j.name === "liquidations")!.job as ReturnType<typeof liquidationJob>;
      const deadline = Date.now() + 300_000;
      while (job.set.open().length < total || job.modelCount() < total) {
        if (Date.now() > deadline) throw new Error(`warm-up: ${job.modelCount()}/${total} margin models after 300 s`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async handledBlocks() {
      const le = deployed!.protocol.liquidationEngine;
      const logs = await le.queryFilter(le.filters.AccountLiquidated(), shockBlock, "latest");
      return logs.map((l) => l.blockNumber);
    },
  };
}
