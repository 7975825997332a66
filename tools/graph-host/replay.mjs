// Replays raw chain logs through a BUILT subgraph (build/subgraph.yaml + build/<DataSource>/*.wasm) the way
// graph-node would for event handlers: one WASM instance per data source, one shared entity store, triggers in
// (block, log index) order, a fresh per-block cache at each new block, logs matched by address and topic0, and
// decoded with the data source's ABI. Inputs are plain JSON-RPC objects (eth_getLogs, eth_getBlockByNumber,
// eth_getTransactionByHash), so a replay can be recorded and re-run offline. Every write is kept by block
// (history.mjs) so the result can be queried at any processed block (query.mjs); every handler call is timed and
// its store operations counted (stats()).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { Interface, id as keccakId } from "ethers";
import { SubgraphHost } from "./host.mjs";
import { EntityHistory } from "./history.mjs";
import { StoreKind } from "./asc-memory.mjs";

const require = createRequire(import.meta.url);

export function loadYaml(file) {
  // js-yaml as graph-cli resolves it (graph-cli parses manifests with it)
  const cli = require.resolve("@graphprotocol/graph-cli/package.json", { paths: [path.dirname(file)] });
  const yaml = createRequire(cli)("js-yaml");
  return yaml.load(fs.readFileSync(file, "utf8"));
}

/** "Transfer(indexed address,indexed address,uint256)" -> topic0 of "Transfer(address,address,uint256)" */
export function topic0(manifestEventSignature) {
  return keccakId(manifestEventSignature.replace(/indexed /g, ""));
}

/** A manifest data source `context:` ({ key: { type, data } }) as the store values dataSource.context() returns. */
export function contextEntity(context) {
  const kinds = { String: StoreKind.String, Bool: StoreKind.Bool, Int: StoreKind.Int, BigInt: StoreKind.BigInt };
  const out = new Map();
  for (const [k, v] of Object.entries(context ?? {})) {
    const kind = kinds[v.type];
    if (kind === undefined) throw new Error(`replay: context ${k}: type ${v.type} is not supported`);
    out.set(k, { kind, value: kind === StoreKind.BigInt ? BigInt(v.data) : v.data });
  }
  return out;
}

const big = (x) => (x === null || x === undefined ? null : BigInt(x));

export class SubgraphReplay {
  /**
   * @param {string} buildDir  the `graph build` output directory (holds subgraph.yaml, schema.graphql, *.wasm)
   * @param {object} [o]
   * @param {Object<string,{address:string,startBlock?:number|bigint}>} [o.targets]  per data source name, the
   *   address and start block to use instead of the manifest's (the WASM does not depend on them, so one build
   *   serves any chain); data sources missing from `targets` are left inactive.
   * @param {(level:string, msg:string)=>void} [o.onLog]
   */
  constructor(buildDir, { onLog, targets } = {}) {
    this.buildDir = buildDir;
    this.targets = targets;
    this.manifest = loadYaml(path.join(buildDir, "subgraph.yaml"));
    this.schema = fs.readFileSync(path.join(buildDir, "schema.graphql"), "utf8");
    this.store = new Map();
    this.blockStore = new Map();
    this.history = new EntityHistory();
    this.onLog = onLog ?? (() => {});
    this.sources = [];
    this.handled = 0;
    this.skipped = 0;
    /** handler name -> { calls, ms, maxMs, maxOps } */
    this.handlerStats = new Map();
    this.replayMs = 0;
  }

  async init() {
    // Data sources may share one mapping module (CHX's build compiles all of its handlers into one): compile each
    // file once, instantiate it once per data source as graph-node does.
    const modules = new Map();
    const moduleOf = async (file) => {
      if (!modules.has(file))
        modules.set(file, await WebAssembly.compile(fs.readFileSync(path.join(this.buildDir, file))));
      return modules.get(file);
    };
    for (const ds of this.manifest.dataSources) {
      if (this.targets && !this.targets[ds.name]) continue; // not deployed on this chain
      const abiEntry = ds.mapping.abis.find((a) => a.name === ds.source.abi);
      const iface = new Interface(JSON.parse(fs.readFileSync(path.join(this.buildDir, abiEntry.file), "utf8")));
      const handlers = new Map();
      for (const h of ds.mapping.eventHandlers ?? []) handlers.set(topic0(h.event), h.handler);
      if ((ds.mapping.blockHandlers ?? []).length || (ds.mapping.callHandlers ?? []).length)
        throw new Error(`replay: ${ds.name} uses block or call handlers, which this host does not run`);
      const target = this.targets?.[ds.name];
      const address = target?.address ?? ds.source.address;
      const host = new SubgraphHost({
        wasm: await moduleOf(ds.mapping.file),
        schema: this.schema,
        store: this.store,
        blockStore: this.blockStore,
        history: this.history,
        dataSource: { address, network: ds.network, context: contextEntity(ds.context) },
        onLog: this.onLog,
      });
      await host.init();
      this.sources.push({
        name: ds.name,
        address: address.toLowerCase(),
        startBlock: BigInt(target?.startBlock ?? ds.source.startBlock ?? 0),
        iface,
        handlers,
        host,
      });
    }
    this.host = this.sources[0]?.host; // any host reads the shared store
    return this;
  }

  /** The `address` filter and block range for eth_getLogs. */
  get addresses() {
    return this.sources.map((s) => s.address);
  }
  get startBlock() {
    return this.sources.reduce((m, s) => (s.startBlock < m ? s.startBlock : m), BigInt(Number.MAX_SAFE_INTEGER));
  }

  /** Marks a block without triggers as processed (the query layer's head and block numbers follow it). */
  advance(block) {
    this.history.advance({
      number: BigInt(block.number),
      hash: block.hash ?? null,
      timestamp: block.timestamp === undefined ? null : BigInt(block.timestamp),
      parentHash: block.parentHash ?? null,
    });
  }

  /**
   * Runs every log of one block through its handler.
   * @param {object} block  eth_getBlockByNumber result
   * @param {object[]} logs  eth_getLogs results of this block
   * @param {(hash:string)=>object} txOf  eth_getTransactionByHash result by hash
   */
  runBlock(block, logs, txOf) {
    const t0 = performance.now();
    this.blockStore.clear();
    this.advance(block);
    const b = {
      hash: block.hash,
      parentHash: block.parentHash,
      unclesHash: block.sha3Uncles,
      author: block.miner,
      stateRoot: block.stateRoot,
      transactionsRoot: block.transactionsRoot,
      receiptsRoot: block.receiptsRoot,
      number: big(block.number),
      gasUsed: big(block.gasUsed),
      gasLimit: big(block.gasLimit),
      timestamp: big(block.timestamp),
      difficulty: big(block.difficulty ?? 0),
      totalDifficulty: big(block.totalDifficulty ?? 0),
      size: big(block.size),
      baseFeePerGas: big(block.baseFeePerGas),
    };
    const sorted = [...logs].sort((x, y) => Number(BigInt(x.logIndex) - BigInt(y.logIndex)));
    for (const log of sorted) {
      const src = this.sources.find((s) => s.address === log.address.toLowerCase());
      if (!src || BigInt(log.blockNumber) < src.startBlock) continue;
      const handler = src.handlers.get(log.topics[0]);
      if (!handler) {
        this.skipped++;
        continue;
      }
      const parsed = src.iface.parseLog({ topics: log.topics, data: log.data });
      if (!parsed) throw new Error(`replay: ${src.name} cannot decode log ${log.transactionHash}:${log.logIndex}`);
      const t = txOf(log.transactionHash);
      const txLogIndex = logs.filter(
        (l) => l.transactionHash === log.transactionHash && BigInt(l.logIndex) < BigInt(log.logIndex),
      ).length;
      const ev = {
        address: log.address,
        logIndex: big(log.logIndex),
        transactionLogIndex: BigInt(txLogIndex),
        logType: null,
        block: b,
        transaction: {
          hash: t.hash,
          index: big(t.transactionIndex),
          from: t.from,
          to: t.to,
          value: big(t.value),
          gasLimit: big(t.gas),
          gasPrice: big(t.gasPrice ?? 0),
          input: t.input,
          nonce: big(t.nonce),
        },
        params: parsed.fragment.inputs.map((p, i) => ({
          name: p.name,
          value: SubgraphHost.abiToEth(p, parsed.args[i]),
        })),
      };
      const ptr = src.host.newEvent(ev);
      const ops0 = opsOf(src.host);
      const h0 = performance.now();
      try {
        src.host.run(handler, ptr);
      } catch (e) {
        throw new Error(
          `replay: ${src.name}.${handler} failed on ${log.transactionHash}:${BigInt(log.logIndex)}: ${e.message}`,
        );
      }
      const ms = performance.now() - h0;
      const ops = opsOf(src.host) - ops0;
      // a handler exported under `<DataSource>_<handler>` (one shared mapping module) is reported by its own name
      const key = `${src.name}.${handler.startsWith(`${src.name}_`) ? handler.slice(src.name.length + 1) : handler}`;
      const s = this.handlerStats.get(key) ?? { calls: 0, ms: 0, maxMs: 0, maxOps: 0 };
      s.calls++;
      s.ms += ms;
      if (ms > s.maxMs) s.maxMs = ms;
      if (ops > s.maxOps) s.maxOps = ops;
      this.handlerStats.set(key, s);
      this.handled++;
    }
    this.replayMs += performance.now() - t0;
  }

  /**
   * Indexing speed: triggers per second over the time spent in runBlock (decoding, building the event, the
   * handler), and per handler its calls, mean and max time and the most store operations one call made.
   */
  stats() {
    const handlers = [...this.handlerStats].map(([name, s]) => ({ name, ...s, meanMs: s.ms / s.calls }));
    handlers.sort((a, b) => b.meanMs - a.meanMs);
    return {
      events: this.handled,
      ms: this.replayMs,
      eventsPerSecond: this.replayMs > 0 ? (this.handled * 1000) / this.replayMs : 0,
      handlers,
    };
  }

  entity(type, id) {
    return this.host.entity(type, id);
  }
  entities(type) {
    return this.host.entities(type);
  }
  counts() {
    return Object.fromEntries([...this.store].map(([t, m]) => [t, m.size]).sort());
  }
}

const opsOf = (host) => host.storeOps.get + host.storeOps.set + host.storeOps.remove + host.storeOps.related;
