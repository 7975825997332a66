import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { parseAmount, px, signerAt, usd } from "./common.js";

export default async function vaultDeposit(
  args: { amount: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const amount = parseAmount(args.amount, 6, "--amount");
    if (amount === 0n) throw new TaskError("--amount must be more than 0.");
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const lp = await signerAt(connection, args.signer);
    const vault = protocol.liquidityVault.connect(lp);
    const balance = await protocol.usdc.balanceOf(lp.address);
    if (balance < amount) throw new TaskError(`${lp.address} holds ${usd(balance)} USDC, less than ${usd(amount)}.`);
    await (await protocol.usdc.connect(lp).approve(await vault.getAddress(), amount)).wait();
    const before = await vault.balanceOf(lp.address);
    await (await vault.deposit(amount, lp.address)).wait();
    const minted = (await vault.balanceOf(lp.address)) - before;
    console.log(
      `${lp.address} deposited ${usd(amount)} USDC for ${formatUnits(minted, 12)} shares at ${px(await vault.sharePriceWad())} ` +
        `USDC per share; locked until ${(await vault.lockOf(lp.address))[1]}`,
    );
    await connection.close();
  });
}
