/**
 * `npm run relay -- [--network localhost] [--db <url>] [--port 8547] [--rpc <url>] [--deployment <file>]`: serves the
 * relay until SIGINT/SIGTERM. Environment: CHX_RELAY_DB, CHX_RELAY_PORT, CHX_RELAY_HOST, CHX_RELAY_RPC_URL (else
 * CHX_LOCAL_RPC), CHX_DEPLOYMENTS_DIR, CHX_RELAY_CONFIRMATIONS, CHX_RELAY_POLL_MS, CHX_RELAY_LOG_LEVEL.
 */
import { Command } from "commander";
import { defaultRelayConfig, relayEnv, startRelay } from "./index.js";

const program = new Command()
  .name("chx-relay")
  .description("CHX order relay: signed spot orders and option offers, validated and kept in step with the chain")
  .option("--network <name>", "deployment network (deployments/<name>.json)", "localhost")
  .option("--db <url>", "sqlite:<file> | sqlite::memory: | postgres://… | pglite:<dir>|memory")
  .option("--port <n>", "HTTP port (0: any free port)")
  .option("--host <host>", "listen address")
  .option("--rpc <url>", "JSON-RPC endpoint of the node")
  .option("--deployment <file>", "deployment record (default deployments/<network>.json)")
  .parse();
const o = program.opts<{
  network: string;
  db?: string;
  port?: string;
  host?: string;
  rpc?: string;
  deployment?: string;
}>();
try {
  const cfg = relayEnv(defaultRelayConfig(o.network));
  if (o.db !== undefined) cfg.database = o.db;
  if (o.port !== undefined) cfg.port = Number(o.port);
  if (o.host !== undefined) cfg.host = o.host;
  if (o.rpc !== undefined) cfg.rpcUrl = o.rpc;
  if (o.deployment !== undefined) cfg.deploymentFile = o.deployment;
  const relay = await startRelay(cfg);
  console.log(`chx relay listening on ${relay.url} (database ${relay.engine.store.database.label})`);
  const shutdown = async (sig: string) => {
    console.log(`${sig}: stopping the relay`);
    await relay.stop();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
} catch (e) {
  console.error(`relay: ${(e as Error).message}`);
  process.exit(1);
}
