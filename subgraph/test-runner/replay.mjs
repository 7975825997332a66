// Replays raw chain logs through the BUILT subgraph (build/subgraph.yaml + build/<DataSource>/*.wasm) the way
// graph-node would for event handlers: one WASM instance per data source, one shared entity store, triggers in
// (block, log index) order, a fresh per-block cache at each new block, logs matched by address and topic0, and
// decoded with the data source's ABI. Inputs are plain JSON-RPC objects (eth_getLogs, eth_getBlockByNumber,
// eth_getTransactionByHash), so a replay can be recorded and re-run offline.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { Interface, id as keccakId } from "ethers";
import { SubgraphHost } from "./host.mjs";

const require = createRequire(import.meta.url);

function loadYaml(file) {
  // js-yaml as graph-cli resolves it (graph-cli parses manifests with it)
  const cli = require.resolve("@graphprotocol/graph-cli/package.json", { paths: [path.dirname(file)] });
  const yaml = createRequire(cli)("js-yaml");
  return yaml.load(fs.readFileSync(file, "utf8"));
}

/** "Transfer(indexed address,indexed address,uint256)" -> topic0 of "Transfer(address,address,uint256)" */
export function topic0(manifestEventSignature) {
  return keccakId(manifestEventSignature.replace(/indexed /g, ""));
}

const big = (x) => (x === null || x === undefined ? null : BigInt(x));

export class SubgraphReplay {
  /**
   * @param {string} buildDir  the `graph build` output directory (holds subgraph.yaml, schema.graphql, *.wasm)
   * @param {object} [o.record]  a deployment record: each data source takes its address and start block from
   *   record.contracts[<data source name>] instead of the manifest (the WASM does not depend on them), so one
   *   build serves any chain the protocol is deployed on.
   */
  constructor(buildDir, { onLog, record } = {}) {
    this.buildDir = buildDir;
    this.record = record;
    this.manifest = loadYaml(path.join(buildDir, "subgraph.yaml"));
    this.schema = fs.readFileSync(path.join(buildDir, "schema.graphql"), "utf8");
    this.store = new Map();
    this.blockStore = new Map();
    this.onLog = onLog ?? (() => {});
    this.sources = [];
    this.handled = 0;
    this.skipped = 0;
  }

  async init() {
    for (const ds of this.manifest.dataSources) {
      // Data source names are deployment names; a module this deployment lacks (a market not launched) is inactive.
      if (this.record && !this.record.contracts?.[ds.name]) continue;
      const abiEntry = ds.mapping.abis.find((a) => a.name === ds.source.abi);
      const iface = new Interface(JSON.parse(fs.readFileSync(path.join(this.buildDir, abiEntry.file), "utf8")));
      const handlers = new Map();
      for (const h of ds.mapping.eventHandlers ?? []) handlers.set(topic0(h.event), h.handler);
      if ((ds.mapping.blockHandlers ?? []).length || (ds.mapping.callHandlers ?? []).length)
        throw new Error(`replay: ${ds.name} uses block or call handlers, which this host does not run`);
      const host = new SubgraphHost({
        wasm: fs.readFileSync(path.join(this.buildDir, ds.mapping.file)),
        schema: this.schema,
        store: this.store,
        blockStore: this.blockStore,
        dataSource: { address: ds.source.address, network: ds.network },
        onLog: this.onLog,
      });
      await host.init();
      let address = ds.source.address;
      let startBlock = BigInt(ds.source.startBlock ?? 0);
      if (this.record) {
        const c = this.record.contracts[ds.name];
        address = c.address;
        startBlock = BigInt(c.deployBlock ?? 0);
        host.dataSource.address = address;
      }
      this.sources.push({
        name: ds.name,
        address: address.toLowerCase(),
        startBlock,
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

  /**
   * Runs every log of one block through its handler.
   * @param {object} block  eth_getBlockByNumber result
   * @param {object[]} logs  eth_getLogs results of this block
   * @param {(hash:string)=>object} txOf  eth_getTransactionByHash result by hash
   */
  runBlock(block, logs, txOf) {
    this.blockStore.clear();
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
      try {
        src.host.run(handler, ptr);
      } catch (e) {
        throw new Error(
          `replay: ${src.name}.${handler} failed on ${log.transactionHash}:${BigInt(log.logIndex)}: ${e.message}`,
        );
      }
      this.handled++;
    }
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
