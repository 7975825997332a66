import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { keccak256, toUtf8Bytes } from "ethers";
import { openProtocol, runTask, TaskError, resolveSigner } from "../../lib.js";
import { wad } from "./common.js";

interface Args {
  region: number;
  classes: string;
  hardware: string;
  price: string;
  signer: string;
}

export default async function register(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const reg = protocol.providerRegistry;
    let mask = 0n;
    for (const c of args.classes.split(",").map((s) => s.trim())) {
      const n = Number(c);
      if (!Number.isInteger(n) || n < 0 || n > 63) throw new TaskError(`Workload class "${c}" must be 0–63.`);
      mask |= 1n << BigInt(n);
    }
    const hash = args.hardware === "" ? "0x" + "00".repeat(32) : keccak256(toUtf8Bytes(args.hardware));
    await (await reg.register(args.region, mask, hash, args.hardware)).wait();
    const me = await (await resolveSigner(connection, args.signer)).getAddress();
    console.log(`✔ registered ${me} in region ${args.region} for classes ${args.classes}`);
    if (args.price !== "") {
      await (await reg.setAskPrice(wad(args.price, "price"))).wait();
      console.log(`✔ ask price ${args.price} USDC per CH`);
    }
    await connection.close();
  });
}
