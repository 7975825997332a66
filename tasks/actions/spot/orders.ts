import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits, isAddress } from "ethers";
import { printJson, runTask, TaskError } from "../../lib.js";
import { relayClient, viaRelay } from "./common.js";

/** A maker's orders on the relay (live: open or unfunded; --all: every status), newest first. */
export default async function spotOrders(
  args: { relay: string; maker: string; all: boolean; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    if (!isAddress(args.maker)) throw new TaskError(`--maker must be an address (got "${args.maker}").`);
    const { orders } = await viaRelay(`the orders of ${args.maker}`, () =>
      relayClient(args.relay).makerOrders(args.maker, { status: args.all ? "all" : "live", limit: 1000 }),
    );
    if (args.json) return printJson(orders);
    if (orders.length === 0) console.log(`no ${args.all ? "" : "live "}orders of ${args.maker} on the relay`);
    for (const o of orders) {
      console.log(
        `${o.hash} ${o.book} ${o.side} ${formatUnits(BigInt(o.amount), 18)} at ${formatUnits(BigInt(o.price), 18)}: ` +
          `${o.status}${o.reason === null ? "" : ` (${o.reason})`}, filled ${formatUnits(BigInt(o.filled), 18)}, ` +
          `fillable ${formatUnits(BigInt(o.fillable), 18)}${o.softCancelled ? ", cancel notice sent" : ""}`,
      );
    }
  });
}
