// OPS-03 checks for the InsuranceFund and the ComputePriceOracle. Loaded by scripts/e2e.mjs after the earlier parts.
// Signers: 0 deployer (ADMIN on local networks; given CLEARING and FEE_SOURCE here), 5-7 stakers (USDC only). The cooldown is
// set to 0 for the scenario (no clock moves, so the earlier parts' time-derived getters are not disturbed) and
// restored at the end.
import { Contract } from "ethers";

const CLEARING = 8n;
const FEE_SOURCE = 11n;
const usdc = (n) => BigInt(Math.round(n * 1e6));

export async function scenario(ctx) {
  const { send, checkpoint } = ctx;
  if (!ctx.record.contracts.InsuranceFund) return;
  const [deployer, a, b, c] = [ctx.signers[0], ctx.signers[5], ctx.signers[6], ctx.signers[7]];
  const fundAddress = ctx.record.contracts.InsuranceFund.address;
  const token = (s) =>
    new Contract(
      ctx.record.contracts.USDC.address,
      [
        "function mint(address,uint256)",
        "function approve(address,uint256) returns (bool)",
        "function transfer(address,uint256) returns (bool)",
      ],
      s,
    );
  const fund = (s) => ctx.as(s)("InsuranceFund");
  const d = ctx.as(deployer);
  const [cooldownSec, windowSec] = await fund(deployer).cooldown();

  // phase 1: roles, two stakers, fees, a request and its cancellation, a guarantor requirement
  await send(d("AccessManager").grantRole(CLEARING, deployer.address, 0));
  await send(d("AccessManager").grantRole(FEE_SOURCE, deployer.address, 0));
  for (const [s, n] of [
    [a, 1000],
    [b, 500],
    [deployer, 1000],
  ]) {
    await send(token(deployer).mint(s.address, usdc(n)));
    await send(token(s).approve(fundAddress, usdc(n)));
  }
  await send(fund(a).stake(usdc(1000)));
  await send(fund(b).stake(usdc(500)));
  await send(fund(deployer).depositFees(usdc(150)));
  await send(fund(b).requestWithdraw((await fund(b).sharesOf(b.address)) / 2n));
  await send(fund(b).cancelWithdraw());
  await send(fund(deployer).setGuarantorRequirement(c.address, usdc(100)));
  await checkpoint();

  // phase 2: no cooldown, a partial withdrawal to another receiver, bad debt cover, stakeFor, a surplus sweep
  await send(fund(deployer).setCooldown(0, 3600));
  const aShares = await fund(a).sharesOf(a.address);
  await send(fund(a).requestWithdraw(aShares / 2n));
  await send(fund(a).withdraw(aShares / 4n, c.address));
  await send(fund(deployer).coverBadDebt(usdc(200.5), deployer.address));
  await send(fund(deployer).stakeFor(c.address, usdc(10)));
  await send(token(deployer).transfer(fundAddress, usdc(3)));
  await send(fund(deployer).sweepSurplus(deployer.address));
  await send(fund(deployer).setCooldown(cooldownSec, windowSec));
  await checkpoint();
}

const big = (x) => BigInt(x ?? 0);
const sum = (rows, f) => rows.reduce((s, x) => s + big(x[f]), 0n);

export async function compare(ctx) {
  const { replay, at, tag, eq, check } = ctx;
  if (!ctx.record.contracts.InsuranceFund) return;
  const fund = ctx.contract("InsuranceFund");
  const address = ctx.address("InsuranceFund");
  const s = replay.entity("InsuranceFundState", address);
  const [cooldownSec, windowSec] = await fund.cooldown(at);
  if (!s) {
    // nothing indexed yet but the deployment's cooldown: the fund must be empty
    eq(`InsuranceFund empty before the scenario ${tag}`, 0n, await fund.totalAssets(at));
    return;
  }
  eq(`InsuranceFund totalAssets ${tag}`, s.totalAssetsUsdc, await fund.totalAssets(at));
  eq(`InsuranceFund totalShares ${tag}`, s.totalShares, await fund.totalShares(at));
  eq(`InsuranceFund shareEpoch ${tag}`, s.shareEpoch, await fund.shareEpoch(at));
  eq(`InsuranceFund cooldownSec ${tag}`, s.cooldownSec, cooldownSec);
  eq(`InsuranceFund windowSec ${tag}`, s.windowSec, windowSec);
  // flows add up to the assets: staked + fees − withdrawn − covered
  eq(
    `InsuranceFund flows = assets ${tag}`,
    big(s.stakedUsdc) + big(s.feesUsdc) - big(s.withdrawnUsdc) - big(s.badDebtCoveredUsdc),
    await fund.totalAssets(at),
  );
  const bad = [];
  let shares = 0n;
  for (const st of replay.entities("InsuranceStaker")) {
    const held = big(st.shareEpoch) === big(s.shareEpoch) ? big(st.shares) : 0n;
    const onChain = await fund.sharesOf(st.id, at);
    if (held !== onChain) bad.push(`${st.id} shares ${held} ≠ ${onChain}`);
    shares += held;
    // A share reset voids older epochs' withdrawal requests too (withdrawRequest reads them as empty).
    const live = big(st.shareEpoch) === big(s.shareEpoch);
    const requested = live ? big(st.requestShares) : 0n;
    const req = await fund.withdrawRequest(st.id, at);
    if (requested !== big(req.shares)) bad.push(`${st.id} request ${requested} ≠ ${req.shares}`);
    if (requested > 0n && big(st.requestReadyAt) !== big(req.readyAt))
      bad.push(`${st.id} readyAt ${st.requestReadyAt} ≠ ${req.readyAt}`);
    const required = await fund.guarantorRequirement(st.id, at);
    if (big(st.requiredUsdc) !== required) bad.push(`${st.id} required ${st.requiredUsdc} ≠ ${required}`);
  }
  if (shares !== big(s.totalShares)) bad.push(`Σ staker shares ${shares} ≠ total ${s.totalShares}`);
  check(`InsuranceFund stakers (shares, requests, requirements) ${tag}`, bad.length === 0, bad.join("; "));
  // daily buckets: the last one closes at the current assets; flows sum to the totals
  const days = replay.entities("InsuranceFundDayData").sort((x, y) => x.date - y.date);
  if (days.length)
    eq(`InsuranceFund last day closes at totalAssets ${tag}`, days[days.length - 1].closeAssetsUsdc, s.totalAssetsUsdc);
  eq(`InsuranceFund Σ daily staked ${tag}`, sum(days, "stakedUsdc"), s.stakedUsdc);
  eq(
    `InsuranceFund Σ hourly covered ${tag}`,
    sum(replay.entities("InsuranceFundHourData"), "badDebtCoveredUsdc"),
    s.badDebtCoveredUsdc,
  );

  // oracle: the indexed configuration equals the getters
  if (ctx.record.contracts.ComputePriceOracle) {
    const oracle = ctx.contract("ComputePriceOracle");
    const o = replay.entity("OracleConfig", ctx.address("ComputePriceOracle"));
    if (!o) return check(`ComputePriceOracle config indexed ${tag}`, false, "no OracleConfig");
    const addr = (x) => String(x ?? "0x0000000000000000000000000000000000000000").toLowerCase();
    const feed = await oracle.feedConfig(at);
    const seq = await oracle.sequencerConfig(at);
    const dev = await oracle.deviationConfig(at);
    const [minPriceWad, maxPriceWad] = await oracle.priceBounds(at);
    const pairs = [
      ["feed", addr(o.feed), feed.feed.toLowerCase()],
      ["heartbeatSec", big(o.heartbeatSec), feed.heartbeatSec],
      ["decimals", big(o.decimals), feed.decimals],
      ["minPriceWad", big(o.minPriceWad), minPriceWad],
      ["maxPriceWad", big(o.maxPriceWad), maxPriceWad],
      ["sequencerFeed", addr(o.sequencerFeed), seq.feed.toLowerCase()],
      ["gracePeriodSec", big(o.gracePeriodSec), seq.gracePeriodSec],
      ["spotSource", addr(o.spotSource), dev.source.toLowerCase()],
      ["spotWindowSec", big(o.spotWindowSec), dev.windowSec],
      ["maxDeviationBps", big(o.maxDeviationBps), dev.maxDeviationBps],
    ];
    const diff = pairs.filter(([, x, y]) => x !== (typeof x === "bigint" ? BigInt(y) : y));
    check(
      `ComputePriceOracle config ${tag}`,
      diff.length === 0,
      diff.map(([f, x, y]) => `${f} ${x} ≠ ${y}`).join("; "),
    );
  }
}
