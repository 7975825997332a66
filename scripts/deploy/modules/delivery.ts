import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";
import { FuturesMarket__factory } from "../../../types/ethers-contracts/index.js";

/**
 * Delivery as compute (issue 19, docs/futures.md "Delivery as compute"): settled electing longs of the FuturesMarket
 * receive a delivery order in DeliveryOrders instead of bare CH, of `deliverySpec`'s workload class and minimum
 * performance grade, consumable within the window as TaskRegistry tasks paid in CH.
 */
export const deliverySpec = {
  workloadClass: 1, // ML training, the first class the ComputeStandard publishes
  minGrade: 2, // ComputeStandard PerformanceGrade C (A 0 … D 3): the assigned provider is at least "close"
  windowSec: 30 * 86_400, // a month to consume the delivered compute
};

/**
 * DeliveryOrders (proxy). Holds Roles.COMPUTE for the ProviderRegistry's `assignRedemption` / `releaseRedemption`
 * (the order's liability reservation) and `recordTaskOutcome` (a failing short's reputation), Roles.PROVIDER_SLASHER
 * for `slash` (a failing short's stake); `createOrder` / `slashFailedShort` accepts only the FuturesMarket, which is pointed at it through
 * `setDeliveryOrders` (ADMIN) when the proxy is first deployed.
 */
export const deliveryModule: DeployModule = {
  name: "delivery",
  async deploy(ctx: DeployContext) {
    const fresh = !ctx.has("DeliveryOrders");
    const market = ctx.address("FuturesMarket");
    const orders = await ctx.proxy("DeliveryOrders", "DeliveryOrders", () => [
      ctx.address("AccessManager"),
      market,
      ctx.address("ProviderRegistry"),
      ctx.address("ProviderMatcher"),
      ctx.address("TaskRegistry"),
      ctx.address("ComputeStandard"),
      ctx.address("CHToken"),
      ctx.address("DPSToken"),
      deliverySpec,
    ]);
    await ctx.grantRole(Roles.COMPUTE, orders, "DeliveryOrders");
    // a futures short that fails its delivery and is a provider is slashed (ProviderRegistry.slash, finder fee)
    await ctx.grantRole(Roles.PROVIDER_SLASHER, orders, "DeliveryOrders");
    await ctx.guardianMayPause("DeliveryOrders", Roles.GUARDIAN);
    if (fresh) {
      const futures = FuturesMarket__factory.connect(market, ctx.deployer);
      const data = futures.interface.encodeFunctionData("setDeliveryOrders", [orders]);
      await ctx.adminCall(market, data, "FuturesMarket: setDeliveryOrders(DeliveryOrders)");
    }
  },
};
