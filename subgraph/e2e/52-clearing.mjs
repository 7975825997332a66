// OPS-03 checks for the clearing layer (margin accounts, the uncovered collateral total, guarantors). Loaded by
// scripts/e2e.mjs after the earlier parts. Signers: 0 deployer (mints mock USDC), 4 a margin trader who also funds
// a guarantor, 9 the guarantor.
import { Contract } from "ethers";

const usdc = (n) => BigInt(Math.round(n * 1e6));

export async function scenario(ctx) {
  const { send, checkpoint } = ctx;
  if (
    !ctx.record.contracts.ClearingHouse ||
    !ctx.record.contracts.GuarantorPool
  )
    return;
  const [deployer, trader, guarantor] = [
    ctx.signers[0],
    ctx.signers[4],
    ctx.signers[9],
  ];
  const house = ctx.record.contracts.ClearingHouse.address;
  const pool = ctx.record.contracts.GuarantorPool.address;
  const token = (s) =>
    new Contract(
      ctx.record.contracts.USDC.address,
      [
        "function mint(address,uint256)",
        "function approve(address,uint256) returns (bool)",
      ],
      s,
    );
  await send(token(deployer).mint(trader.address, usdc(1000)));
  await send(token(trader).approve(house, usdc(1000)));
  await send(token(trader).approve(pool, usdc(1000)));
  await send(ctx.as(trader)("ClearingHouse").deposit(usdc(100)));
  await send(
    ctx.as(trader)("ClearingHouse").withdraw(usdc(30), trader.address),
  );
  await send(
    ctx.as(guarantor)("GuarantorPool").registerGuarantor(true, usdc(500)),
  );
  await send(
    ctx
      .as(trader)("GuarantorPool")
      .depositCapital(guarantor.address, usdc(200)),
  );
  await checkpoint();
}

const big = (x) => BigInt(x ?? 0);
/** ClearingStats' id (UTF-8 "clearing"). */
const CLEARING = "0x" + Buffer.from("clearing").toString("hex");

export async function compare(ctx) {
  const { replay, at, tag, check } = ctx;
  if (
    !ctx.record.contracts.ClearingHouse ||
    !ctx.record.contracts.GuarantorPool
  )
    return;
  const house = ctx.contract("ClearingHouse");
  const pool = ctx.contract("GuarantorPool");
  const bad = [];
  for (const a of replay.entities("MarginAccount")) {
    const c = await house.collateralOf(a.id, at);
    if (big(a.collateralUsdc) !== c)
      bad.push(`${a.id} collateral ${a.collateralUsdc} ≠ ${c}`);
  }
  for (const g of replay.entities("Guarantor")) {
    const info = await pool.guarantorInfo(g.id, at);
    const pairs = [
      ["capitalUsdc", g.capitalUsdc, info.capitalUsdc],
      ["totalShares", g.totalShares, info.totalShares],
      ["exposureUsdc", g.exposureUsdc, info.exposureUsdc],
      ["dpsStaked", g.dpsStaked, info.dpsStaked],
      ["defaultLimitUsdc", g.defaultLimitUsdc, info.defaultLimitUsdc],
    ];
    for (const [f, x, y] of pairs)
      if (big(x) !== big(y)) bad.push(`${g.id} ${f} ${x} ≠ ${y}`);
    if (g.open !== info.open) bad.push(`${g.id} open ${g.open} ≠ ${info.open}`);
  }
  for (const h of replay.entities("GuarantorShareholder")) {
    const shares = await pool.sharesOf(h.guarantor, h.holder, at);
    if (big(h.shares) !== shares)
      bad.push(`${h.id} shares ${h.shares} ≠ ${shares}`);
  }
  // The uncovered total (docs/clearing.md "Uncovered collateral and pool cash"): rebuilt by the subgraph from the
  // collateral post-states, booked by the ClearingHouse; and the count of accounts below zero. Before any deficit
  // there is no ClearingStats row (zero).
  const stats = replay.entity("ClearingStats", CLEARING) ?? {};
  const below = replay
    .entities("MarginAccount")
    .filter((a) => big(a.collateralUsdc) < 0n);
  ctx.eq(
    `ClearingStats.uncoveredCollateralUsdc = uncoveredCollateralUsdc() ${tag}`,
    stats.uncoveredCollateralUsdc,
    await house.uncoveredCollateralUsdc(at),
  );
  ctx.eq(
    `ClearingStats.uncoveredCollateralUsdc = Σ max(0, −collateral) ${tag}`,
    stats.uncoveredCollateralUsdc,
    below.reduce((s, a) => s - big(a.collateralUsdc), 0n),
  );
  // The chain's own post-state (UncoveredCollateralChanged, round 47): the last report indexed equals the view (no
  // report yet: zero).
  const reports = replay
    .entities("ClearingEvent")
    .filter((e) => e.kind === "uncoveredChanged")
    .sort(
      (a, b) =>
        Number(big(a.blockNumber) - big(b.blockNumber)) ||
        Number(big(a.logIndex) - big(b.logIndex)),
    );
  ctx.eq(
    `last UncoveredCollateralChanged = uncoveredCollateralUsdc() ${tag}`,
    reports.length ? reports[reports.length - 1].amountUsdc : 0n,
    await house.uncoveredCollateralUsdc(at),
  );
  ctx.eq(
    `ClearingStats.accountsInDeficit ${tag}`,
    stats.accountsInDeficit,
    below.length,
  );
  check(
    `clearing margin accounts and guarantors ${tag}`,
    bad.length === 0,
    bad.join("; "),
  );
}
