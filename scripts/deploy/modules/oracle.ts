import { parseUnits, ZeroAddress } from "ethers";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";

/** Initial mock CH index on local networks: 2 USDC per CH with Chainlink's usual 8 decimals. */
export const MOCK_CH_PRICE = 2n * 10n ** 8n;
export const MOCK_CH_DECIMALS = 8;

function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`deploy: ${name} must be a non-negative integer (got "${raw}")`);
  return n;
}

/**
 * The ComputePriceOracle constructor argument (IComputePriceOracle.Config) — the one place it is built; no spot
 * source (the deviation check is configured by an upgrade once the spot market's TWAP is live).
 */
export function oracleConfig(c: {
  feed: string;
  heartbeatSec: number;
  minPriceWad: bigint;
  maxPriceWad: bigint;
  sequencer: string;
  graceSec: number;
}): unknown[] {
  return [c.feed, c.heartbeatSec, c.minPriceWad, c.maxPriceWad, c.sequencer, c.graceSec, ZeroAddress, 0, 0];
}

/**
 * Oracle layer: the ComputePriceOracle over the CH/USDC Chainlink feed. Local networks deploy a MockAggregatorV3
 * ("CHIndexFeed", 2 USDC/CH, 8 decimals); real networks read CHX_CH_FEED and, on L2s, CHX_SEQUENCER_FEED.
 * Tunables: CHX_CH_HEARTBEAT_SEC (default 86,400), CHX_CH_MIN_PRICE / CHX_CH_MAX_PRICE in USDC (0.01 / 1,000),
 * CHX_SEQUENCER_GRACE_SEC (3,600). They are the implementation's constructor arguments (immutables: no price read
 * loads a configuration slot); governance changes them by upgrading to an implementation built with the new values
 * (`upgradeToAndCall(impl, announceConfig())`, docs/oracle.md "Configuration by upgrade").
 */
export const oracleModule: DeployModule = {
  name: "oracle",
  async deploy(ctx: DeployContext) {
    const env = process.env;
    let feed: string;
    let sequencer = ZeroAddress;
    if (ctx.config.useMocks) {
      feed = await ctx.plain("CHIndexFeed", "MockAggregatorV3", [MOCK_CH_DECIMALS, "CH / USD (mock)", MOCK_CH_PRICE]);
    } else {
      const f = env.CHX_CH_FEED;
      if (f === undefined || f === "") throw new Error("deploy: set CHX_CH_FEED to the CH/USD Chainlink feed address");
      ctx.external("CHIndexFeed", "AggregatorV3Interface", f);
      feed = f;
      const s = env.CHX_SEQUENCER_FEED;
      if (s !== undefined && s !== "") {
        ctx.external("SequencerUptimeFeed", "AggregatorV3Interface", s);
        sequencer = s;
      }
    }
    const heartbeatSec = envNumber(env, "CHX_CH_HEARTBEAT_SEC", 86_400);
    const graceSec = envNumber(env, "CHX_SEQUENCER_GRACE_SEC", 3_600);
    const minPriceWad = parseUnits(env.CHX_CH_MIN_PRICE ?? "0.01", 18);
    const maxPriceWad = parseUnits(env.CHX_CH_MAX_PRICE ?? "1000", 18);
    await ctx.proxy(
      "ComputePriceOracle",
      "ComputePriceOracle",
      () => [ctx.address("AccessManager")],
      () => [oracleConfig({ feed, heartbeatSec, minPriceWad, maxPriceWad, sequencer, graceSec })],
    );
    // Upgrades (the configuration) stay ADMIN (the timelock); the guardian may pause "oracle.risk" (new risk), never
    // unpause.
    await ctx.guardianMayPause("ComputePriceOracle", Roles.GUARDIAN);
  },
};
