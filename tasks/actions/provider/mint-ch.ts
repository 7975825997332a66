import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, runTask, resolveSigner } from "../../lib.js";
import { wad } from "./common.js";

export default async function mintCh(
  args: { amount: string; to: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const reg = protocol.providerRegistry;
    const me = await (await resolveSigner(connection, args.signer)).getAddress();
    await (await reg.mintCH(wad(args.amount, "CH amount"), args.to === "" ? me : args.to)).wait();
    console.log(
      `✔ minted ${args.amount} CH — liability ${formatUnits(await reg.liabilityOf(me), 18)} CH, still mintable ${formatUnits(await reg.mintableCh(me), 18)} CH`,
    );
    await connection.close();
  });
}
