import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, runTask } from "../../lib.js";
import { wad } from "./common.js";

export default async function heartbeat(args: { capacity: string }, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    const reg = protocol.providerRegistry;
    await (await reg.heartbeat(wad(args.capacity, "capacity"))).wait();
    const me = await (await connection.ethers.getSigners())[0]!.getAddress();
    console.log(`✔ heartbeat sent — uptime ${formatUnits((await reg.uptimeWad(me)) * 100n, 18)} %`);
    await connection.close();
  });
}
