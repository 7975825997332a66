import { parseUnits } from "ethers";
import type { BenchSuite } from "./lib.js";
import { Roles } from "@chx/sdk";

const usdc = (v: string) => parseUnits(v, 6);

/** The oracle read (a pinning transaction, and the view's estimateGas) and the insurance fund's user paths. */
export const oracleBench: BenchSuite = {
  name: "oracle",
  async run(ctx) {
    const { oracle } = ctx.protocol;
    // A transaction that reads and validates the feed, then caches it for the rest of the transaction.
    await ctx.measure("ComputePriceOracle.pinIndexPrice", oracle.pinIndexPrice());
    // The views as a market would call them (estimateGas of a call = 21,000 base + the read).
    ctx.set("ComputePriceOracle.indexPrice:estimateGas", await oracle.indexPrice.estimateGas());
    ctx.set("ComputePriceOracle.riskPrice:estimateGas", await oracle.riskPrice.estimateGas());
  },
};

export const insuranceBench: BenchSuite = {
  name: "insurance",
  async run(ctx) {
    const { insuranceFund: fund, usdc: token, accessManager } = ctx.protocol;
    const [alice, bob, clearing] = ctx.users;
    if (alice === undefined || bob === undefined || clearing === undefined) throw new Error("bench needs three users");
    await (await accessManager.grantRole(Roles.CLEARING, clearing.address, 0)).wait();
    await (await accessManager.grantRole(Roles.FEE_SOURCE, clearing.address, 0)).wait();
    const fundAddress = await fund.getAddress();
    for (const u of [alice, bob, clearing]) {
      await (await token.mint(u.address, usdc("1000000"))).wait();
      await (await token.connect(u).approve(fundAddress, 2n ** 255n)).wait();
    }
    await ctx.measure("InsuranceFund.stake:first", fund.connect(alice).stake(usdc("1000")));
    await ctx.measure("InsuranceFund.stake", fund.connect(bob).stake(usdc("1000")));
    await ctx.measure("InsuranceFund.stake:topUp", fund.connect(bob).stake(usdc("500")));
    await ctx.measure("InsuranceFund.depositFees", fund.connect(clearing).depositFees(usdc("10")));
    await ctx.measure("InsuranceFund.coverBadDebt", fund.connect(clearing).coverBadDebt(usdc("100"), clearing.address));
    const shares = await fund.sharesOf(alice.address);
    await ctx.measure("InsuranceFund.requestWithdraw", fund.connect(alice).requestWithdraw(shares / 2n));
    await ctx.connection.networkHelpers.time.increase(7 * 86_400);
    await ctx.measure("InsuranceFund.withdraw:partial", fund.connect(alice).withdraw(shares / 4n, alice.address));
    await ctx.measure("InsuranceFund.withdraw:restOfRequest", fund.connect(alice).withdraw(shares / 4n, alice.address));
    await ctx.measure(
      "InsuranceFund.setGuarantorRequirement",
      fund.connect(clearing).setGuarantorRequirement(bob.address, usdc("100")),
    );
  },
};
