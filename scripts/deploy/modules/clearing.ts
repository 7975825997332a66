import { parseUnits, ZeroAddress } from "ethers";
import {
  ClearingHouse__factory,
  GuarantorPool__factory,
  IMarketAccountRisk__factory,
  InsuranceFund__factory,
  LiquidationEngine__factory,
} from "../../../types/ethers-contracts/index.js";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";

/**
 * Clearing parameters (docs/clearing.md). Governance changes them later through setParams / setVolatilityParams.
 * σ is per volatility-update interval (1 h); the market multiples (RiskEngine.setMarketParams) are set when a
 * market is listed.
 */
export const clearingParams = {
  initialSigmaWad: parseUnits("0.02", 18),
  lambdaWad: parseUnits("0.94", 18),
  volUpdateIntervalSec: 3_600n,
  volBountyUsdc: parseUnits("1", 6),
  guarantorMinDps: parseUnits("1000", 18),
  guarantorMaxLeverageWad: parseUnits("10", 18),
  /** Guarantor capital leaves by notice (CLR-02): 3 days, then a 2-day window. */
  guarantorNoticeSec: 3n * 86_400n,
  guarantorNoticeWindowSec: 2n * 86_400n,
  /**
   * Guarantor backstops (docs/insurance.md "Guarantor requirement"): the insurance stake a guarantor needs is its
   * cleared exposure × CHX_GUARANTOR_STRESS_BPS (default 0: off until guarantors have staked; 500 = a 5 % stress
   * loss); a shortfall flagged for 3 days costs 5 % of the DPS bond (to the treasury); guarantors earn 20 % of
   * their customers' risk-increasing trade fees, vesting over 1 day.
   */
  guarantorStressBps: 0n,
  guarantorGraceSec: 3n * 86_400n,
  guarantorSlashBps: 500n,
  guarantorFeeShareBps: 2_000n,
  guarantorIncomeVestSec: 86_400n,
  liquidationBountyBps: 100n,
  liquidationMaxBountyUsdc: parseUnits("50", 6),
  liquidationDustUsdc: parseUnits("10", 6),
  /** Mock index price on local networks when no ComputePriceOracle is deployed: 10 USDC per CH. */
  mockPriceWad: parseUnits("10", 18),
  /**
   * Non-USDC collateral (docs/clearing.md "Non-USDC collateral"): CH valued at the index with h = 10 % + 1·σ ≤ 50 %;
   * DPS listed with h = 20 % + 2·σ ≤ 60 % but no feed — off until governance sets one (setCollateralToken).
   */
  chCollateral: {
    feed: ZeroAddress,
    heartbeatSec: 0n,
    indexPriced: true,
    baseHaircutWad: parseUnits("0.1", 18),
    sigmaMultipleWad: parseUnits("1", 18),
    maxHaircutWad: parseUnits("0.5", 18),
    depositCap: parseUnits("1000000", 18),
  },
  dpsCollateral: {
    feed: ZeroAddress,
    heartbeatSec: 86_400n,
    indexPriced: false,
    baseHaircutWad: parseUnits("0.2", 18),
    sigmaMultipleWad: parseUnits("2", 18),
    maxHaircutWad: parseUnits("0.6", 18),
    depositCap: parseUnits("10000000", 18),
  },
};

/** The ClearingHouse market flags governance sets (IClearingHouse.marketFlags / MarketFlagsSet). */
export type MarketFlag = "accountRisk" | "lossAbsorber" | "holdsAccounts";

const FLAG_SETTERS = {
  accountRisk: "setMarketAccountRisk",
  lossAbsorber: "setMarketLossAbsorber",
  holdsAccounts: "setMarketHoldsAccounts",
} as const;

/** Sets one ClearingHouse flag of `market` to `enabled` unless it already is (idempotent, ADMIN call). */
export async function ensureMarketFlag(
  ctx: DeployContext,
  market: string,
  flag: MarketFlag,
  enabled: boolean,
  label: string,
): Promise<void> {
  const ch = ctx.address("ClearingHouse");
  const house = ClearingHouse__factory.connect(ch, ctx.deployer);
  const [accountRisk, lossAbsorber, holdsAccounts] = await house.marketFlags(market);
  const current = { accountRisk, lossAbsorber, holdsAccounts }[flag];
  if (current === enabled) return;
  const setter = FLAG_SETTERS[flag];
  const data =
    setter === "setMarketAccountRisk"
      ? house.interface.encodeFunctionData("setMarketAccountRisk", [market, enabled])
      : setter === "setMarketLossAbsorber"
        ? house.interface.encodeFunctionData("setMarketLossAbsorber", [market, enabled])
        : house.interface.encodeFunctionData("setMarketHoldsAccounts", [market, enabled]);
  await ctx.adminCall(ch, data, `ClearingHouse: ${setter}(${label}, ${enabled})`);
}

/**
 * Whether `market`'s code answers IMarketAccountRisk.accountRisk (a static call for an account that holds nothing
 * must succeed and return three words). The deploy flags a market for the account-risk hook only then, so a market
 * without the hook is never asked (its margin checks would revert).
 */
export async function answersAccountRisk(ctx: DeployContext, market: string): Promise<boolean> {
  const iface = IMarketAccountRisk__factory.createInterface();
  const data = iface.encodeFunctionData("accountRisk", [ZeroAddress, 10n ** 18n]);
  try {
    const out = await ctx.deployer.provider!.call({ to: market, data });
    iface.decodeFunctionResult("accountRisk", out);
    return true;
  } catch {
    return false;
  }
}

/**
 * Clearing layer: ClearingHouse (customer collateral), GuarantorPool (guarantor capital; links the GuarantorBackstop
 * library, deployed once by ctx.proxy), RiskEngine (margin), LiquidationEngine (liquidation and waterfall). Uses the ComputePriceOracle and InsuranceFund when their module
 * ran first; on local networks falls back to MockPriceIndex / MockInsuranceFund.
 */
export const clearingModule: DeployModule = {
  name: "clearing",
  async deploy(ctx: DeployContext) {
    const p = clearingParams;
    const manager = ctx.address("AccessManager");
    const usdc = ctx.address("USDC");
    let oracle: string;
    if (ctx.has("ComputePriceOracle")) oracle = ctx.address("ComputePriceOracle");
    else if (ctx.config.useMocks) oracle = await ctx.plain("MockPriceIndex", "MockPriceIndex", [p.mockPriceWad]);
    else throw new Error("deploy: the clearing module needs ComputePriceOracle (run the oracle module first)");
    let insurance: string;
    if (ctx.has("InsuranceFund")) insurance = ctx.address("InsuranceFund");
    else if (ctx.config.useMocks) insurance = await ctx.plain("MockInsuranceFund", "MockInsuranceFund", [usdc]);
    else insurance = ZeroAddress;

    // the collateral token is an implementation immutable too (docs/clearing.md "USDC as an immutable")
    const ch = await ctx.proxy(
      "ClearingHouse",
      "ClearingHouse",
      () => [manager, usdc],
      () => [usdc],
    );
    const risk = await ctx.proxy("RiskEngine", "RiskEngine", () => [
      manager,
      oracle,
      ch,
      usdc,
      p.initialSigmaWad,
      p.lambdaWad,
      p.volUpdateIntervalSec,
      p.volBountyUsdc,
    ]);
    const pool = await ctx.proxy("GuarantorPool", "GuarantorPool", () => [
      manager,
      usdc,
      ctx.address("DPSToken"),
      ch,
      p.guarantorMinDps,
      p.guarantorMaxLeverageWad,
    ]);
    await ctx.proxy("LiquidationEngine", "LiquidationEngine", () => [
      manager,
      ch,
      p.liquidationBountyBps,
      p.liquidationMaxBountyUsdc,
      p.liquidationDustUsdc,
    ]);

    const house = ClearingHouse__factory.connect(ch, ctx.deployer);
    const [, curOracle, curRisk, curPool, curFund, curLiq] = await house.modules();
    const liq = ctx.address("LiquidationEngine");
    const want = [oracle, risk, pool, insurance, liq].map((a) => a.toLowerCase());
    const have = [curOracle, curRisk, curPool, curFund, curLiq].map((a) => a.toLowerCase());
    if (want.some((a, i) => a !== have[i])) {
      const data = house.interface.encodeFunctionData("setModules", [oracle, risk, pool, insurance, liq]);
      await ctx.adminCall(
        ch,
        data,
        "ClearingHouse: setModules(oracle, risk engine, guarantor pool, insurance fund, liquidation engine)",
      );
    }

    await ctx.setFunctionRole(
      "ClearingHouse",
      ["fundMarketPool(uint256)", "withdrawMarketPool(uint256,address)"],
      Roles.MARKET,
    );
    // modifyPosition/settle/modifyPositionAndSettle are not AccessManaged: the ClearingHouse admits registered
    // markets itself (pausable per market, docs/clearing.md) — a role mapping for them would be dead configuration.
    // liquidationClose/absorbDeficit (ClearingHouse) and onExposureChanged (GuarantorPool) check their one caller
    // by address (set above / at initialisation): they are on the trade and liquidation hot paths.
    const guarantors = GuarantorPool__factory.connect(pool, ctx.deployer);
    const [noticeSec, windowSec] = await guarantors.capitalNotice();
    if (noticeSec !== p.guarantorNoticeSec || windowSec !== p.guarantorNoticeWindowSec) {
      const data = guarantors.interface.encodeFunctionData("setCapitalNotice", [
        p.guarantorNoticeSec,
        p.guarantorNoticeWindowSec,
      ]);
      await ctx.adminCall(pool, data, "GuarantorPool: setCapitalNotice(3 days, 2 days)");
    }
    if (ctx.has("InsuranceFund")) {
      // The requirement reads real stakes, so it is wired only to the real fund; the fund's withdrawal floor reads
      // the pool's computed requirement back (CLR-01).
      const fund = InsuranceFund__factory.connect(insurance, ctx.deployer);
      if ((await fund.guarantorPool()).toLowerCase() !== pool.toLowerCase()) {
        const data = fund.interface.encodeFunctionData("setGuarantorPool", [pool]);
        await ctx.adminCall(insurance, data, "InsuranceFund: setGuarantorPool(GuarantorPool)");
      }
      const treasury =
        ctx.config.dps.genesisRecipient ?? (ctx.has("Timelock") ? ctx.address("Timelock") : ctx.deployerAddress);
      const want = {
        insuranceFund: insurance,
        stressWad: BigInt(process.env.CHX_GUARANTOR_STRESS_BPS ?? p.guarantorStressBps) * 10n ** 14n,
        dpsSink: treasury,
        graceSec: p.guarantorGraceSec,
        slashBps: p.guarantorSlashBps,
        feeShareBps: p.guarantorFeeShareBps,
        vestSec: p.guarantorIncomeVestSec,
      };
      const have = await guarantors.backstopParams();
      const same =
        have.insuranceFund.toLowerCase() === want.insuranceFund.toLowerCase() &&
        have.stressWad === want.stressWad &&
        have.dpsSink.toLowerCase() === want.dpsSink.toLowerCase() &&
        have.graceSec === want.graceSec &&
        have.slashBps === want.slashBps &&
        have.feeShareBps === want.feeShareBps &&
        have.vestSec === want.vestSec;
      if (!same) {
        const data = guarantors.interface.encodeFunctionData("setBackstopParams", [want]);
        await ctx.adminCall(pool, data, "GuarantorPool: setBackstopParams(requirement, grace, slash, fee share)");
      }
    }
    // Collateral beyond USDC: CH at the index, DPS listed but off (no feed) — each listed once (ADMIN call).
    for (const [name, config] of [
      ["CHToken", p.chCollateral],
      ["DPSToken", p.dpsCollateral],
    ] as const) {
      if (!ctx.has(name)) continue;
      const token = ctx.address(name);
      const [, id] = await house.collateralToken(token);
      if (id !== 0n) continue;
      const data = house.interface.encodeFunctionData("setCollateralToken", [token, config]);
      await ctx.adminCall(ch, data, `ClearingHouse: setCollateralToken(${name})`);
    }
    await ctx.setFunctionRole("GuarantorPool", ["coverLoss(address,uint256,address)"], Roles.CLEARING);
    await ctx.setFunctionRole("GuarantorPool", ["slashDps(address,uint256,address)"], Roles.GUARANTOR_SLASHER);
    await ctx.grantRole(Roles.CLEARING, ctx.address("LiquidationEngine"), "LiquidationEngine");
    // the waterfall pays from the engine's copy of the ClearingHouse's pool and fund (one SLOAD instead of a call)
    const engine = LiquidationEngine__factory.connect(liq, ctx.deployer);
    const [syncedPool, syncedFund] = await engine.waterfallModules();
    if (syncedPool.toLowerCase() !== pool.toLowerCase() || syncedFund.toLowerCase() !== insurance.toLowerCase()) {
      await (await engine.syncModules()).wait();
    }
    // coverLoss admits the registered engine with one SLOAD (docs/clearing.md "Trusted engine"); the CLEARING role
    // stays for InsuranceFund.coverBadDebt and keeps other role holders on the AccessManager path.
    const guarantorPool = GuarantorPool__factory.connect(pool, ctx.deployer);
    if ((await guarantorPool.trustedEngine()).toLowerCase() !== liq.toLowerCase()) {
      const data = guarantorPool.interface.encodeFunctionData("setTrustedEngine", [liq]);
      await ctx.adminCall(pool, data, "GuarantorPool: setTrustedEngine(LiquidationEngine)");
    }
    for (const name of ["ClearingHouse", "GuarantorPool", "RiskEngine", "LiquidationEngine"]) {
      await ctx.guardianMayPause(name, Roles.GUARDIAN);
    }
  },
};
