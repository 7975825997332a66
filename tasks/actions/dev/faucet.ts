import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { getAddress, isAddress, parseEther } from "ethers";
import { formatCh, formatUsdc, parseCh, parseUsdc, Roles } from "@chx/sdk";
import { isLocalNetwork } from "../../../scripts/deploy/config.js";
import { openProtocol, runTask, TaskError } from "../../lib.js";

export default async function faucet(
  args: { to: string; usdc: string; ch: string; eth: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol, signer } = await openProtocol(hre, { signer: args.signer });
    try {
      if (!isLocalNetwork(connection.networkName) || protocol.chIndexFeed === undefined) {
        throw new TaskError(`chx:dev:faucet runs on local chains only (mock USDC), not "${connection.networkName}".`);
      }
      if (!isAddress(args.to)) throw new TaskError(`Pass --to <address> (got "${args.to}").`);
      const to = getAddress(args.to);
      const usdc = parseUsdc(args.usdc);
      const ch = parseCh(args.ch);
      const eth = parseEther(args.eth);
      if (usdc === 0n && ch === 0n && eth === 0n)
        throw new TaskError("Nothing to send: pass --usdc, --ch and/or --eth.");
      if (usdc > 0n) await (await protocol.usdc.mint(to, usdc)).wait();
      if (ch > 0n) {
        const [has] = await protocol.accessManager.hasRole(Roles.CH_MINTER, signer.address);
        if (!has) await (await protocol.accessManager.grantRole(Roles.CH_MINTER, signer.address, 0)).wait();
        await (await protocol.ch.mint(to, ch)).wait();
      }
      if (eth > 0n) await (await signer.sendTransaction({ to, value: eth })).wait();
      console.log(`${to}: +${formatUsdc(usdc)} USDC, +${formatCh(ch)} CH, +${args.eth} ETH`);
    } finally {
      await connection.close();
    }
  });
}
