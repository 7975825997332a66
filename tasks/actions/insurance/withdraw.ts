import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { isAddress } from "ethers";
import { openProtocol, runTask, TaskError, resolveSigner } from "../../lib.js";
import { fmtShares, fmtUsdc, shares } from "./common.js";

interface Args {
  shares: string;
  to: string;
  signer: string;
}

export default async function withdraw(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const fund = protocol.insuranceFund;
    const signer = await resolveSigner(connection, args.signer);
    const me = await signer!.getAddress();
    const to = args.to === "" ? me : args.to;
    if (!isAddress(to)) throw new TaskError(`--to "${args.to}" is not an address.`);
    const req = await fund.withdrawRequest(me);
    if (req.shares === 0n) {
      throw new TaskError(`${me} has no withdrawal request: run chx:insurance:request-withdraw first.`);
    }
    const amount = args.shares === "" ? req.shares : shares(args.shares);
    const tx = await fund.withdraw(amount, to);
    const receipt = await tx.wait();
    const ev = receipt?.logs
      .map((l) => {
        try {
          return fund.interface.parseLog(l);
        } catch {
          return null;
        }
      })
      .find((p) => p?.name === "InsuranceWithdrawn");
    const paid = ev === undefined || ev === null ? 0n : (ev.args.amountUsdc as bigint);
    console.log(`✔ withdrew ${fmtShares(amount)} for ${fmtUsdc(paid)} to ${to} (tx ${tx.hash})`);
    await connection.close();
  });
}
