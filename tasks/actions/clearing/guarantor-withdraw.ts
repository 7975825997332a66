import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError, resolveSigner } from "../../lib.js";
import { address, fmtUsdc } from "./common.js";

/**
 * Redeems guarantor shares. Once governance set a capital notice (CLR-02, docs/clearing.md), a first run gives notice
 * for the shares and prints when they can leave; a run inside the notice's window redeems them.
 */
export default async function guarantorWithdraw(
  args: { guarantor: string; shares: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const signer = await resolveSigner(connection, args.signer);
    const me = signer!.address;
    const pool = protocol.guarantorPool;
    const guarantor = address(args.guarantor, "--guarantor", me);
    const held = await pool.sharesOf(guarantor, me);
    const shares = args.shares === "" ? held : BigInt(args.shares);
    if (shares === 0n) throw new TaskError(`You hold no shares of guarantor ${guarantor}.`);
    const [, windowSec] = await pool.capitalNotice();
    if (windowSec !== 0n) {
      const notice = await pool.withdrawalNotice(guarantor, me);
      const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
      if (notice.shares < shares || now > notice.expiresAt) {
        await (await pool.requestCapitalWithdrawal(guarantor, shares)).wait();
        const fresh = await pool.withdrawalNotice(guarantor, me);
        const when = (t: bigint) => new Date(Number(t) * 1000).toISOString();
        console.log(
          `✔ notice given for ${shares} shares of ${guarantor}: run this again between ${when(fresh.readyAt)} and ` +
            `${when(fresh.expiresAt)} (the capital keeps bearing its customers' losses until then)`,
        );
        await connection.close();
        return;
      }
      if (now < notice.readyAt) {
        throw new TaskError(
          `The notice for these shares runs until ${new Date(Number(notice.readyAt) * 1000).toISOString()}.`,
        );
      }
    }
    const value = await pool.convertToAssets(guarantor, shares);
    await (await pool.withdrawCapital(guarantor, shares, me)).wait();
    console.log(`✔ redeemed ${shares} shares of ${guarantor} for about ${fmtUsdc(value)}`);
    await connection.close();
  });
}
