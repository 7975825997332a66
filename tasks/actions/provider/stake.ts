import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, runTask, resolveSigner } from "../../lib.js";
import { TIERS, wad } from "./common.js";

export default async function stake(
  args: { amount: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const { providerRegistry: reg, dps } = protocol;
    const amount = wad(args.amount, "DPS amount");
    await (await dps.approve(await reg.getAddress(), amount)).wait();
    await (await reg.stake(amount)).wait();
    const me = await (await resolveSigner(connection, args.signer)).getAddress();
    const info = await reg.providerInfo(me);
    console.log(
      `✔ staked ${args.amount} DPS — stake ${formatUnits(info.stakedDps, 18)} DPS, tier ${TIERS[Number(info.tier)]}`,
    );
    await connection.close();
  });
}
