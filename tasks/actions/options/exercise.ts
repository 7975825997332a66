import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { requireSeries, signerAt, usdc } from "./common.js";

export default async function optionsExercise(
  args: { series: bigint; account: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const signer = await signerAt(connection, args.signer);
    const options = protocol.options.connect(signer);
    const id = args.series;
    await requireSeries(options, id);
    const account = args.account === "" ? signer.address : args.account;
    const payout = await options.exercise.staticCall(id, account);
    await (await options.exercise(id, account)).wait();
    console.log(`settled ${account} in series #${id}: ${usdc(payout)} USDC paid for its options (collateral released)`);
    await connection.close();
  });
}
