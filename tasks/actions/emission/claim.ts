import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits, isAddress } from "ethers";
import { openProtocol, runTask, TaskError, resolveSigner } from "../../lib.js";

export default async function emissionClaim(
  args: { to: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    if (args.to !== "" && !isAddress(args.to)) throw new TaskError(`--to "${args.to}" is not an address.`);
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const { emission } = protocol;
    const from = (await resolveSigner(connection, args.signer)).address;
    const to = args.to === "" ? from : args.to;
    const amount = await emission.claim.staticCall(to);
    if (amount === 0n) {
      console.log(`nothing to claim for ${from}`);
    } else {
      await (await emission.claim(to)).wait();
      console.log(`claimed ${formatUnits(amount, 18)} DPS for ${from} → ${to}`);
    }
    await connection.close();
  });
}
