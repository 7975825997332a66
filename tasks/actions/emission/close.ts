import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";

export default async function emissionClose(args: { signer: string }, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const { emission } = protocol;
    const before = await emission.currentEpoch();
    if (!(await emission.epochDue())) {
      console.log(`epoch ${before} is not over yet: nothing to close`);
    } else {
      const receipt = await (await emission.closeEpochs(256n)).wait();
      console.log(`closed epochs ${before}..${(await emission.currentEpoch()) - 1n} (gas ${receipt?.gasUsed})`);
    }
    await connection.close();
  });
}
