import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, plain, printJson, runTask, TaskError } from "../../lib.js";
import { describeSeries, parseAmount, signerAt } from "./common.js";
import { OptionKind, SeriesStatusNames } from "@chx/sdk";

export default async function optionsList(
  args: {
    kind: string;
    strike: string;
    cap: string;
    expiry: string;
    futures: bigint;
    standard: boolean;
    json: boolean;
    signer: string;
  },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    if (args.strike === "") {
      // a read: no key needed
      const { connection, protocol } = await openProtocol(hre);
      try {
        const options = protocol.options;
        const n = await options.seriesCount();
        if (args.json) {
          const list = [];
          for (let id = 1n; id <= n; id++) {
            const status = SeriesStatusNames[Number(await options.seriesStatus(id))] ?? null;
            list.push({ id, status, ...(plain(await options.series(id)) as object) });
          }
          printJson(list);
          return;
        }
        if (n === 0n) console.log("no option series listed yet");
        for (let id = 1n; id <= n; id++) console.log(await describeSeries(options, id));
      } finally {
        await connection.close();
      }
      return;
    }
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const signer = await signerAt(connection, args.signer);
    const options = protocol.options.connect(signer);
    if (args.kind !== "call" && args.kind !== "put")
      throw new TaskError(`--kind must be call or put, not "${args.kind}".`);
    const kind = args.kind === "call" ? OptionKind.Call : OptionKind.Put;
    const strikeWad = parseAmount("--strike", args.strike, 18);
    const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
    const expiry = args.expiry.startsWith("+")
      ? now + BigInt(Math.round(Number(args.expiry.slice(1)) * 86_400))
      : BigInt(args.expiry);
    if (args.standard) {
      await (await options.listStandardSeries(kind, strikeWad, expiry)).wait();
    } else {
      if (kind === OptionKind.Call && args.cap === "")
        throw new TaskError("A call needs --cap (its maximum payoff per CH).");
      const capWad = args.cap === "" ? 0n : parseAmount("--cap", args.cap, 18);
      await (
        await options.listSeries({
          kind,
          onFutures: args.futures !== 0n,
          futuresSeriesId: args.futures,
          expiry,
          strikeWad,
          capWad,
        })
      ).wait();
    }
    console.log(`listed ${await describeSeries(options, await options.seriesCount())}`);
    await connection.close();
  });
}
