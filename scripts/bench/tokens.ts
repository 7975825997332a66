import type { BenchSuite } from "./lib.js";
import { signPermit } from "@chx/sdk";

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
    const sig = await signPermit(a, dps, b.address, 5n, deadline, chainId);
    await ctx.measure(
      "DPSToken.permit",
      dps.connect(b).permit(a.address, b.address, 5n, deadline, sig.v, sig.r, sig.s),
    );
  },
};
