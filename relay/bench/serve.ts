/**
 * The relay bench's server process: the relay alone in its own Node process (as it runs in production), configured
 * by relay/bench/relay.ts through CHX_BENCH_RELAY_CONFIG (JSON; bigints as decimal strings). Prints `url <url>` when
 * it listens and `stats <json>` (intake batching) when it stops on SIGTERM.
 */
import { pino } from "pino";
import { defaultRelayConfig, startRelay, type RelayConfig } from "../src/index.js";

const raw = JSON.parse(process.env.CHX_BENCH_RELAY_CONFIG ?? "{}") as Record<string, unknown>;
const cfg: RelayConfig = {
  ...defaultRelayConfig("localhost"),
  ...(raw as Partial<RelayConfig>),
  minAmount: BigInt(String(raw.minAmount ?? 10n ** 12n)),
  maxPriceWad: BigInt(String(raw.maxPriceWad ?? 10n ** 30n)),
};
const relay = await startRelay(cfg, { logger: pino({ level: "silent" }) });
console.log(`url ${relay.url}`);
process.once("SIGTERM", () => {
  void relay.stop().then(() => {
    console.log(`stats ${JSON.stringify(relay.engine.intakeStats)}`);
    process.exit(0);
  });
});
