import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { ZeroHash } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { amount, currencyIndex } from "./common.js";

interface Args {
  currency: string;
  max: string;
  council: number;
  quorum: number;
  checkpoints: number;
  window: number;
  maxBids: number;
  hours: number;
  workload: number;
  capacity: string;
  uri: string;
  payment: string;
  declared: string;
  minShare: number;
  mode: number;
  signer: string;
}

const PAYMENT_KINDS: Record<string, bigint> = { flat: 0n, metered: 1n, proportional: 2n };

/** The `paymentParams` word (docs/tasks.md "Payment functions and response modes"): kind in bits 0..7, the declared
 *  work / items of I in bits 8..71, PROPORTIONAL's least share (bps) in bits 72..87. The contract validates bounds. */
export function paymentWord(payment: string, declared: string, minShareBps: number): bigint {
  const kind = PAYMENT_KINDS[payment.toLowerCase()];
  if (kind === undefined) throw new TaskError(`--payment ${payment}: use flat, metered or proportional.`);
  if (kind === 0n) return 0n;
  const units = BigInt(declared);
  if (units <= 0n || units >= 1n << 64n) throw new TaskError(`--declared ${declared}: give 1..2^64 − 1 units.`);
  const share = kind === 2n ? BigInt(minShareBps) : 0n;
  if (share < 0n || share > 10_000n) throw new TaskError(`--min-share ${minShareBps}: give 0..10000 bps.`);
  return kind | (units << 8n) | (share << 72n);
}

export default async function submit(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const { taskRegistry: tasks } = protocol;
    if (!(args.hours > 0)) throw new TaskError(`--hours ${args.hours}: give the deadline in hours from now (> 0).`);
    const cur = currencyIndex(args.currency);
    const max = amount(args.max, cur);
    const token = [protocol.ch, protocol.usdc, protocol.dps][cur]!;
    await (await token.approve(await tasks.getAddress(), max)).wait();
    const block = await connection.ethers.provider.getBlock("latest");
    const terms = {
      currency: cur,
      responseMode: args.mode >= 0 ? args.mode : args.checkpoints > 1 ? 1 : 0,
      councilSize: args.council,
      quorum: args.quorum,
      checkpoints: args.checkpoints,
      maxBids: args.maxBids,
      workloadClass: args.workload,
      region: 0,
      bidWindowSec: args.window,
      deadline: BigInt(block!.timestamp) + BigInt(Math.round(args.hours * 3600)),
      maxPayment: max,
      capacityPflopsWad: amount(args.capacity, 0),
      paymentParams: paymentWord(args.payment, args.declared, args.minShare),
    };
    const pr = {
      dataHash: ZeroHash,
      modelHash: ZeroHash,
      inputHash: ZeroHash,
      outputFnHash: ZeroHash,
      evalHash: ZeroHash,
      uri: args.uri,
    };
    await (await tasks.submit(terms, pr)).wait();
    const id = await tasks.taskCount();
    console.log(`Task ${id} submitted: ${args.max} ${args.currency.toUpperCase()} escrowed, council ${args.council}.`);
  });
}
