import { Signature } from "ethers";
import type { BenchSuite } from "./lib.js";

export const tokensBench: BenchSuite = {
  name: "tokens",
  async run(ctx) {
    const { dps } = ctx.protocol;
    const [a, b] = ctx.users;
    if (a === undefined || b === undefined) throw new Error("bench needs two users");
    await (await dps.transfer(a.address, 10n ** 21n)).wait();
    await ctx.measure("DPSToken.transfer", dps.connect(a).transfer(b.address, 10n ** 18n));
    await ctx.measure("DPSToken.delegate:self", dps.connect(a).delegate(a.address));
    await ctx.measure("DPSToken.transfer:delegated", dps.connect(a).transfer(b.address, 10n ** 18n));

    const { chainId } = await ctx.connection.ethers.provider.getNetwork();
    const deadline = 2n ** 40n;
    const sig = Signature.from(
      await a.signTypedData(
        { name: "CHX Reward Share", version: "1", chainId, verifyingContract: await dps.getAddress() },
        {
          Permit: [
            { name: "owner", type: "address" },
            { name: "spender", type: "address" },
            { name: "value", type: "uint256" },
            { name: "nonce", type: "uint256" },
            { name: "deadline", type: "uint256" },
          ],
        },
        { owner: a.address, spender: b.address, value: 5n, nonce: await dps.nonces(a.address), deadline },
      ),
    );
    await ctx.measure(
      "DPSToken.permit",
      dps.connect(b).permit(a.address, b.address, 5n, deadline, sig.v, sig.r, sig.s),
    );
  },
};
