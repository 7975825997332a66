import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError, resolveSigner } from "../../lib.js";
import { fmtShares, fmtUsdc, shares, when } from "./common.js";

interface Args {
  shares: string;
  signer: string;
}

export default async function requestWithdraw(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const fund = protocol.insuranceFund;
    const signer = await resolveSigner(connection, args.signer);
    const me = await signer!.getAddress();
    const held = await fund.sharesOf(me);
    if (held === 0n) throw new TaskError(`${me} holds no insurance shares.`);
    const amount = args.shares === "" ? held : shares(args.shares);
    const tx = await fund.requestWithdraw(amount);
    await tx.wait();
    const req = await fund.withdrawRequest(me);
    console.log(`✔ requested ${fmtShares(amount)} (now worth ${fmtUsdc(await fund.previewWithdraw(amount))})`);
    console.log(`  withdraw between ${when(req.readyAt)} and ${when(req.expiresAt)} (tx ${tx.hash})`);
    console.log("  the shares keep earning fees and bearing losses until withdrawn");
    await connection.close();
  });
}
