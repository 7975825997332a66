/**
 * @chx/relay — the order relay (docs/relay.md). `startRelay(config)` opens the database (migrating it), connects to
 * the node, loads the live orders, starts the chain follower and serves HTTP + WebSocket; `stop()` undoes it all.
 */
import { readFileSync } from "node:fs";
import { pino, type Logger } from "pino";
import { parseDeployment, type DeploymentRecord } from "@chx/sdk";
import { Chain } from "./chain.js";
import { deploymentPath, type RelayConfig } from "./config.js";
import { openDatabase } from "./db.js";
import { Engine } from "./engine.js";
import { buildServer } from "./server.js";
import { Store } from "./store.js";

export { defaultRelayConfig, relayEnv, deploymentPath, type RelayConfig } from "./config.js";
export { Engine, type PostBody, type SyncReport } from "./engine.js";
export { buildServer } from "./server.js";
export { openDatabase, type Database, type Engine as DatabaseEngine } from "./db.js";
export { Chain, recoverEoa } from "./chain.js";
export { Store } from "./store.js";
export { RelayHttpError, STATUS } from "./errors.js";
export { spotHasher, offerHasher, pad, unpad } from "./codec.js";

export interface RunningRelay {
  url: string;
  engine: Engine;
  stop(): Promise<void>;
}

export async function startRelay(
  cfg: RelayConfig,
  opts: { logger?: Logger; sync?: boolean; listen?: boolean; record?: DeploymentRecord } = {},
): Promise<RunningRelay> {
  const log = opts.logger ?? pino({ level: cfg.logLevel, base: { svc: "chx-relay" } });
  let record = opts.record;
  if (record === undefined) {
    const file = deploymentPath(cfg);
    record = parseDeployment(readFileSync(file, "utf8"), file);
  }
  const chain = await Chain.connect(cfg.rpcUrl, record);
  chain.minAmount = cfg.minAmount;
  const database = await openDatabase(cfg.database);
  const store = new Store(database, chain.chainId);
  const engine = new Engine(cfg, chain, store, log);
  await engine.load();
  if (opts.sync !== false) {
    await engine.sync();
    engine.start();
  }
  const app = await buildServer(engine, cfg, log);
  let url = "";
  if (opts.listen !== false) url = await app.listen({ host: cfg.host, port: cfg.port });
  else await app.ready();
  log.info(
    {
      url,
      database: database.label,
      chainId: chain.chainId.toString(),
      markets: Object.keys(record.contracts).filter((n) => n === "SpotMarket" || n === "OptionsMarket"),
    },
    "relay up",
  );
  let stopped = false;
  return {
    url,
    engine,
    async stop() {
      if (stopped) return;
      stopped = true;
      await engine.stop();
      await app.close();
      await database.close();
      chain.destroy();
    },
  };
}
