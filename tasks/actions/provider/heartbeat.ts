import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, runTask, resolveSigner } from "../../lib.js";
import { wad } from "./common.js";

export default async function heartbeat(
  args: { capacity: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const reg = protocol.providerRegistry;
    await (await reg.heartbeat(wad(args.capacity, "capacity"))).wait();
    const me = await (await resolveSigner(connection, args.signer)).getAddress();
    console.log(`✔ heartbeat sent — uptime ${formatUnits((await reg.uptimeWad(me)) * 100n, 18)} %`);
    await connection.close();
  });
}
