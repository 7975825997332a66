import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { isAddress } from "ethers";
import { openProtocol, runTask, TaskError, resolveSigner } from "../../lib.js";
import { fmtShares, fmtUsdc, usdc } from "./common.js";

interface Args {
  amount: string;
  for: string;
  signer: string;
}

export default async function stake(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const { insuranceFund: fund, usdc: token } = protocol;
    const signer = await resolveSigner(connection, args.signer);
    const me = await signer!.getAddress();
    const beneficiary = args.for === "" ? me : args.for;
    if (!isAddress(beneficiary)) throw new TaskError(`--for "${args.for}" is not an address.`);
    const amount = usdc(args.amount);
    const balance = await token.balanceOf(me);
    if (balance < amount) {
      const hint =
        protocol.chIndexFeed !== undefined ? " (local network: the mock USDC has an open mint(to, amount))" : "";
      throw new TaskError(
        `Your USDC balance is ${fmtUsdc(balance)}, less than the ${fmtUsdc(amount)} to stake${hint}.`,
      );
    }
    const fundAddress = await fund.getAddress();
    if ((await token.allowance(me, fundAddress)) < amount) await (await token.approve(fundAddress, amount)).wait();
    const expected = await fund.previewStake(amount);
    const tx = beneficiary === me ? await fund.stake(amount) : await fund.stakeFor(beneficiary, amount);
    await tx.wait();
    console.log(`✔ staked ${fmtUsdc(amount)} for ${beneficiary}: ~${fmtShares(expected)} (tx ${tx.hash})`);
    console.log(`  stake now worth ${fmtUsdc(await fund.guarantorStake(beneficiary))}`);
    await connection.close();
  });
}
