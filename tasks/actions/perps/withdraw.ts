import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { parseAmount, signerAt, usd } from "./common.js";

export default async function vaultWithdraw(
  args: { amount: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const lp = await signerAt(connection, args.signer);
    const vault = protocol.liquidityVault.connect(lp);
    const shares = await vault.balanceOf(lp.address);
    if (shares === 0n) throw new TaskError(`${lp.address} holds no vault shares.`);
    const before = await protocol.usdc.balanceOf(lp.address);
    if (args.amount === "all") {
      await (await vault.redeem(shares, lp.address, lp.address)).wait();
    } else {
      const amount = parseAmount(args.amount, 6, "--amount");
      if (amount === 0n) throw new TaskError("--amount must be more than 0.");
      await (await vault.withdraw(amount, lp.address, lp.address)).wait();
    }
    const got = (await protocol.usdc.balanceOf(lp.address)) - before;
    const left = await vault.balanceOf(lp.address);
    console.log(`${lp.address} received ${usd(got)} USDC; ${formatUnits(left, 12)} shares left`);
    await connection.close();
  });
}
