// Every query of docs/queries.md, executed over the subgraph the OPS-03 end-to-end run indexed (its replay's store,
// not a second indexing), with tools/graph-host/query.mjs — a local stand-in for graph-node's query layer that
// validates each query against the query schema graph-node derives from schema.graphql and executes it over the
// store. Each query has checks on its result in subgraph/queries/*.mjs (keyed by the operation name): a query
// without checks, or checks without a query, fail. Prints `queries: N passed, M failed` (N + M = the queries in the
// file).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { JsonRpcProvider } from "ethers";
import { QueryLayer, queriesInMarkdown, GRAPH_NODE_VERSION } from "../../tools/graph-host/query.mjs";
import { contractOf } from "./e2e.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const subgraphDir = path.resolve(here, "..");
const repoRoot = path.resolve(subgraphDir, "..");
export const QUERIES_MD = path.join(repoRoot, "docs", "queries.md");

/** The checks of subgraph/queries/*.mjs, merged: operation name -> { variables?(ctx), check(data, ctx) }. */
export async function loadQueryChecks(dir = path.join(subgraphDir, "queries")) {
  const all = new Map();
  for (const f of fs
    .readdirSync(dir)
    .filter((x) => x.endsWith(".mjs"))
    .sort()) {
    const mod = await import(pathToFileURL(path.join(dir, f)).href);
    for (const [name, spec] of Object.entries(mod.queries ?? {})) {
      if (all.has(name)) throw new Error(`queries: ${name} is checked in two files`);
      all.set(name, { ...spec, file: f });
    }
  }
  return all;
}

/** Assertions a check makes; each failure is collected (a check goes on after one). */
function assertions(fail) {
  const show = (v) => (typeof v === "string" ? v : JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}` : x)));
  const a = {
    ok: (cond, what) => (cond ? true : (fail(what), false)),
    eq: (actual, expected, what) =>
      String(actual) === String(expected) ? true : (fail(`${what}: ${show(actual)} ≠ ${show(expected)}`), false),
    /** at least `n` rows (the scenario produced them: an empty answer proves nothing) */
    rows: (list, n, what) =>
      Array.isArray(list) && list.length >= n
        ? true
        : (fail(`${what}: ${Array.isArray(list) ? list.length : show(list)} rows, expected ≥ ${n}`), false),
    every: (list, pred, what) => {
      const bad = (list ?? []).filter((x) => !pred(x));
      return bad.length === 0 ? true : (fail(`${what}: ${bad.length} rows do not hold, e.g. ${show(bad[0])}`), false);
    },
    /** rows ordered by key(row) (BigInt-like strings compare numerically), "asc" or "desc" */
    sorted: (list, key, dir, what) => {
      const num = (v) => (typeof v === "string" && /^-?\d+$/.test(v) ? BigInt(v) : v);
      for (let i = 1; i < (list ?? []).length; i++) {
        const [x, y] = [num(key(list[i - 1])), num(key(list[i]))];
        if (dir === "asc" ? x > y : x < y)
          return fail(`${what}: not ${dir} at row ${i} (${show(key(list[i - 1]))} then ${show(key(list[i]))})`), false;
      }
      return true;
    },
    sum: (list, key) => (list ?? []).reduce((s, x) => s + BigInt(key(x) ?? 0), 0n),
  };
  return a;
}

/**
 * Runs every query of docs/queries.md over `replay` (a SubgraphReplay the e2e run filled).
 * @returns {Promise<{passed:number, failed:number, total:number}>}
 */
export async function runDocQueries({ replay, record, url, checkpoints, out = console.log, markdown = QUERIES_MD }) {
  const text = fs.readFileSync(markdown, "utf8");
  const docs = queriesInMarkdown(text, path.relative(repoRoot, markdown));
  const checks = await loadQueryChecks();
  const layer = new QueryLayer({ schema: replay.schema, history: replay.history, deployment: "chx-local" });
  const provider = new JsonRpcProvider(url, undefined, { cacheTimeout: -1, staticNetwork: true });
  const head = replay.history.head.number;
  const cache = new Map();
  const ctx = {
    replay,
    record,
    checkpoints,
    head,
    at: { blockTag: head },
    provider,
    layer,
    /** read-only contract by deployment name (call getters with ctx.at) */
    contract: (name) => {
      if (!cache.has(name)) cache.set(name, contractOf(record, name, provider));
      return cache.get(name);
    },
    address: (name) => record.contracts[name].address.toLowerCase(),
    /** runs another query (e.g. to pick a variable); throws on errors */
    query: (q, variables = {}) => {
      const r = layer.run(q, variables);
      if (r.errors?.length) throw new Error(r.errors.map((e) => e.message).join("; "));
      return r.data;
    },
  };
  let passed = 0;
  let failed = 0;
  out(`  ${docs.length} queries in ${path.relative(repoRoot, markdown)}; local query layer for graph-node ${GRAPH_NODE_VERSION}`);
  try {
    for (const q of docs) {
      const spec = checks.get(q.name);
      const problems = [];
      if (!spec) problems.push("no checks in subgraph/queries/*.mjs");
      else {
        try {
          const variables = spec.variables ? await spec.variables(ctx) : {};
          const r = layer.run(q.text, variables);
          if (r.errors?.length) problems.push(...r.errors.map((e) => `error: ${e.message}`));
          else await spec.check(r.data, { ...ctx, ...assertions((m) => problems.push(m)), variables });
        } catch (e) {
          problems.push(`${e.constructor.name}: ${e.message}`);
        }
      }
      if (problems.length === 0) passed++;
      else failed++;
      out(`  ${problems.length ? "✖" : "✔"} ${q.name} (line ${q.line})`);
      for (const p of problems) out(`      ${p}`);
    }
    const documented = new Set(docs.map((q) => q.name));
    for (const [name, spec] of checks)
      if (!documented.has(name)) {
        failed++;
        out(`  ✖ ${name}: checked in subgraph/queries/${spec.file} but not in the documentation`);
      }
  } finally {
    provider.destroy();
  }
  return { passed, failed, total: docs.length };
}
