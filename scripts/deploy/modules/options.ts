import { ClearingHouse__factory } from "../../../types/ethers-contracts/index.js";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";

/** Runs an ADMIN-only call now when the deployer may, else queues it for governance. */
async function adminCall(ctx: DeployContext, target: string, data: string, description: string): Promise<void> {
  if (await ctx.isAdmin()) {
    await (await ctx.deployer.sendTransaction({ to: target, data })).wait();
    ctx.txCount += 1;
    ctx.log(`  ${description}`);
  } else {
    ctx.pending.push({ target, data, description });
    ctx.log(`  pending governance: ${description}`);
  }
}

/**
 * Options market (docs/options.md): OptionsMarket behind a UUPS proxy plus its stateless settlement module
 * (OptionsSettlement, run by delegatecall). Collateral, premiums and fees live in the market's ClearingHouse PnL
 * pool, so the market is registered in the ClearingHouse and holds Roles.MARKET (settle, withdrawMarketPool).
 * It never opens ClearingHouse positions itself, so it needs no RiskEngine parameters. Fee income goes to the
 * treasury (CHX_TREASURY, else the Timelock). The futures market that futures options exercise into is set later by
 * governance (`setFuturesMarket`), which must also give the OptionsMarket the function role of
 * `openFromExercise` on it.
 */
export const optionsModule: DeployModule = {
  name: "options",
  async deploy(ctx: DeployContext) {
    const ch = ctx.address("ClearingHouse");
    const house = ClearingHouse__factory.connect(ch, ctx.deployer);
    const [, oracle] = await house.modules();
    const treasury = ctx.config.dps.genesisRecipient ?? ctx.address("Timelock");
    const settlement = await ctx.plain("OptionsSettlement", "OptionsSettlement");
    const market = await ctx.proxy("OptionsMarket", "OptionsMarket", () => [
      ctx.address("AccessManager"),
      ch,
      oracle,
      treasury,
      settlement,
    ]);
    const [registered] = await house.marketInfo(market);
    if (!registered) {
      await adminCall(
        ctx,
        ch,
        house.interface.encodeFunctionData("registerMarket", [market]),
        "ClearingHouse: registerMarket(OptionsMarket)",
      );
    }
    await ctx.grantRole(Roles.MARKET, market, "OptionsMarket");
    // listing by governance, parameters and module addresses stay ADMIN (the default); the guardian corrects a
    // settlement price inside its dispute window and may pause "options.list", "options.write", "options.trade".
    await ctx.setFunctionRole("OptionsMarket", ["correctSettlementPrice(uint256,uint256)"], Roles.GUARDIAN);
    await ctx.guardianMayPause("OptionsMarket", Roles.GUARDIAN);
  },
};
