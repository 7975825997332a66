import { parseUnits } from "ethers";
import { InsuranceFund__factory, MockERC20__factory } from "../../../types/ethers-contracts/index.js";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";

/** The insurance fund's clearing-facing functions, mapped to Roles.CLEARING. */
export const INSURANCE_CLEARING_FUNCTIONS = [
  "coverBadDebt(uint256,address)",
  "setGuarantorRequirement(address,uint256)",
];

/** Fee income: Roles.FEE_SOURCE (ClearingHouse, SpotMarket) — paying fees in must not grant drawing on the fund. */
export const INSURANCE_FEE_FUNCTIONS = ["depositFees(uint256)"];

/**
 * Clearing layer, part one: the InsuranceFund over USDC. Cooldown CHX_INSURANCE_COOLDOWN_SEC (default 7 days),
 * withdrawal window CHX_INSURANCE_WINDOW_SEC (default 2 days). Bad-debt cover, fee deposits and guarantor
 * requirements belong to Roles.CLEARING (the clearing module grants it to its ClearingHouse / LiquidationEngine).
 * The treasury's own stake (CHX_TREASURY_INSURANCE_USDC, default 0) is staked for the treasury (CHX_TREASURY, else
 * the Timelock) from the deployer's USDC (minted on local networks), once.
 */
export const insuranceModule: DeployModule = {
  name: "insurance",
  async deploy(ctx: DeployContext) {
    const env = process.env;
    const cooldownSec = Number(env.CHX_INSURANCE_COOLDOWN_SEC ?? 7 * 86_400);
    const windowSec = Number(env.CHX_INSURANCE_WINDOW_SEC ?? 2 * 86_400);
    await ctx.proxy("InsuranceFund", "InsuranceFund", () => [
      ctx.address("AccessManager"),
      ctx.address("USDC"),
      cooldownSec,
      windowSec,
    ]);
    await ctx.setFunctionRole("InsuranceFund", INSURANCE_CLEARING_FUNCTIONS, Roles.CLEARING);
    await ctx.setFunctionRole("InsuranceFund", INSURANCE_FEE_FUNCTIONS, Roles.FEE_SOURCE);
    await ctx.guardianMayPause("InsuranceFund", Roles.GUARDIAN);
    await stakeTreasury(ctx, parseUnits(env.CHX_TREASURY_INSURANCE_USDC ?? "0", 6));
  },
};

/** The treasury's insurance stake: `amountUsdc` staked for the treasury unless it already holds shares. */
async function stakeTreasury(ctx: DeployContext, amountUsdc: bigint): Promise<void> {
  if (amountUsdc === 0n) return;
  const treasury =
    ctx.config.dps.genesisRecipient ?? (ctx.has("Timelock") ? ctx.address("Timelock") : ctx.deployerAddress);
  const fundAddress = ctx.address("InsuranceFund");
  const fund = InsuranceFund__factory.connect(fundAddress, ctx.deployer);
  if ((await fund.sharesOf(treasury)) > 0n) return;
  const usdc = MockERC20__factory.connect(ctx.address("USDC"), ctx.deployer);
  if (ctx.config.useMocks) await (await usdc.mint(ctx.deployerAddress, amountUsdc)).wait();
  await (await usdc.approve(fundAddress, amountUsdc)).wait();
  await (await fund.stakeFor(treasury, amountUsdc)).wait();
  ctx.log(`  InsuranceFund: treasury stake ${amountUsdc} (6 dp) for ${treasury}`);
}
