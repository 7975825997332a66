/**
 * The clearing cast every market scene shares (docs/clearing.md): the insurance fund's stakers, two clearing
 * members (guarantors) and the traders' margin accounts. Set up once, on first use, with the landed clearing
 * contracts only (ClearingHouse, GuarantorPool, InsuranceFund).
 *
 * - Heidi stakes USDC in the insurance fund (the last layer before socialised loss).
 * - Grace is a well-capitalised OPEN guarantor: any trader may join her within her default limit.
 * - Ivan is a thin CLOSED guarantor at close to his maximum leverage: he admits Frank only — the shock walks
 *   Frank's deficit through Ivan's capital into the insurance fund.
 */
import { formatUnits, parseUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { DemoContext } from "../types.js";

export const usdc6 = (x: string | number) => parseUnits(typeof x === "number" ? x.toFixed(6) : x, 6);
export const wad = (x: string | number) => parseUnits(typeof x === "number" ? x.toFixed(18) : x, 18);
export const fmtUsdc = (x: bigint) => Number(formatUnits(x, 6));

export interface ClearingCast {
  insuranceStaker: HardhatEthersSigner;
  /** The open, well-capitalised guarantor. */
  grace: HardhatEthersSigner;
  /** The thin, closed guarantor (Frank's). */
  ivan: HardhatEthersSigner;
}

const cast = new WeakMap<DemoContext, ClearingCast>();
const funded = new WeakMap<DemoContext, Set<string>>();

/** USDC for `who` (MockERC20 on local networks) and approval of `spender`. */
export async function fundUsdc(
  ctx: DemoContext,
  who: HardhatEthersSigner,
  amountUsdc: bigint,
  spender: string,
): Promise<void> {
  const { usdc } = ctx.protocol;
  await (await usdc.connect(who).mint(who.address, amountUsdc)).wait();
  await (await usdc.connect(who).approve(spender, amountUsdc)).wait();
}

/** Insurance stakers and guarantors, once per run. */
export async function clearingCast(ctx: DemoContext): Promise<ClearingCast> {
  const done = cast.get(ctx);
  if (done !== undefined) return done;
  const { insuranceFund, guarantorPool, dps } = ctx.protocol;
  const pool = await guarantorPool.getAddress();
  const insuranceStaker = ctx.actor("heidi");
  await fundUsdc(ctx, insuranceStaker, usdc6(20_000), await insuranceFund.getAddress());
  await (await insuranceFund.connect(insuranceStaker).stake(usdc6(20_000))).wait();

  const [minDps] = await guarantorPool.params();
  const members: Array<[HardhatEthersSigner, boolean, bigint, bigint]> = [
    [ctx.actor("grace"), true, usdc6(60_000), usdc6(40_000)],
    [ctx.actor("ivan"), false, usdc6(1_500), 0n],
  ];
  for (const [g, open, capital, defaultLimit] of members) {
    await (await dps.connect(ctx.deployer).transfer(g.address, minDps)).wait();
    await (await dps.connect(g).approve(pool, minDps)).wait();
    await (await guarantorPool.connect(g).registerGuarantor(open, defaultLimit)).wait();
    await (await guarantorPool.connect(g).stakeDps(minDps)).wait();
    await fundUsdc(ctx, g, capital, pool);
    await (await guarantorPool.connect(g).depositCapital(g.address, capital)).wait();
  }
  ctx.log(
    `clearing: Heidi staked 20,000 USDC in the insurance fund; guarantors Grace (open, 60,000 USDC capital, ` +
      `${formatUnits(minDps, 18)} DPS bond) and Ivan (closed, 1,500 USDC) registered`,
  );
  const c = { insuranceStaker, grace: ctx.actor("grace"), ivan: ctx.actor("ivan") };
  cast.set(ctx, c);
  return c;
}

/**
 * A trader with `marginUsdc` deposited in the ClearingHouse and a guarantor: Frank goes to Ivan (closed, admitted
 * with `limitUsdc`), everyone else joins Grace (open).
 */
export async function trader(
  ctx: DemoContext,
  name: string,
  marginUsdc: bigint,
  limitUsdc = usdc6(40_000),
): Promise<HardhatEthersSigner> {
  const { clearingHouse, guarantorPool } = ctx.protocol;
  const c = await clearingCast(ctx);
  const t = ctx.actor(name);
  const seen = funded.get(ctx) ?? new Set<string>();
  funded.set(ctx, seen);
  await fundUsdc(ctx, t, marginUsdc, await clearingHouse.getAddress());
  await (await clearingHouse.connect(t).deposit(marginUsdc)).wait();
  if (!seen.has(name)) {
    seen.add(name);
    if ((await guarantorPool.guarantorOf(t.address)) === "0x0000000000000000000000000000000000000000") {
      if (name === "frank") await (await guarantorPool.connect(c.ivan).admitCustomer(t.address, limitUsdc)).wait();
      else await (await guarantorPool.connect(t).joinOpenGuarantor(c.grace.address)).wait();
    }
  }
  return t;
}

/** Insurance fund assets and guarantor capital (USDC): the two layers of the waterfall after margin. */
export async function backstops(ctx: DemoContext): Promise<{ insuranceUsdc: number; guarantorsUsdc: number }> {
  const { insuranceFund, guarantorPool } = ctx.protocol;
  const c = await clearingCast(ctx);
  let g = 0n;
  for (const m of [c.grace, c.ivan]) g += (await guarantorPool.guarantorInfo(m.address)).capitalUsdc;
  return { insuranceUsdc: fmtUsdc(await insuranceFund.totalAssets()), guarantorsUsdc: fmtUsdc(g) };
}
