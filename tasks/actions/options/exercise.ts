import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { signerAt, usdc } from "./common.js";

export default async function optionsExercise(
  args: { series: string; account: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const signer = await signerAt(connection, args.signer);
    const options = protocol.options.connect(signer);
    const id = BigInt(args.series);
    const account = args.account === "" ? signer.address : args.account;
    const payout = await options.exercise.staticCall(id, account);
    await (await options.exercise(id, account)).wait();
    console.log(`settled ${account} in series #${id}: ${usdc(payout)} USDC paid for its options (collateral released)`);
    await connection.close();
  });
}
