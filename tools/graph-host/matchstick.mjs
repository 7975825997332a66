#!/usr/bin/env node
// Runs matchstick-as tests (<subgraph>/tests/*.test.ts) without the matchstick binary: each file is compiled with
// the AssemblyScript compiler graph-cli itself uses (same flags as matchstick: --explicitStart --exportTable
// --runtime stub --debug, graph-ts global.ts) and executed on the host in host.mjs, which also implements
// matchstick's own host functions (_registerTest/_registerDescribe/_registerHook, _assert.*, clearStore,
// countEntities, mockFunction, dataSourceMock...). The same files run unchanged under real `graph test`.
//
// The subgraph directory (holding schema.graphql, src/, generated/, tests/) is an argument: nothing here knows one.
//   node tools/graph-host/matchstick.mjs <subgraph-dir> [file-filter...]   -> "N passed, N failed", exit 1 on failure
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { SubgraphHost, plain, hex } from "./host.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The `asc` that graph-cli compiles mappings with (its own dependency, not whichever copy is hoisted). */
export function graphCliAsc(from = here) {
  const require = createRequire(import.meta.url);
  const cliPkg = require.resolve("@graphprotocol/graph-cli/package.json", { paths: [from] });
  const fromCli = createRequire(cliPkg);
  const ascPath = fromCli.resolve("assemblyscript/cli/asc");
  const version = JSON.parse(fs.readFileSync(path.join(path.dirname(ascPath), "..", "package.json"), "utf8")).version;
  return { asc: fromCli(ascPath), ascPath, version };
}

export function graphTsGlobal(from = here) {
  const require = createRequire(import.meta.url);
  return path.join(
    path.dirname(require.resolve("@graphprotocol/graph-ts/package.json", { paths: [from] })),
    "global/global.ts",
  );
}

/**
 * Compiles one AssemblyScript file (a test, or a mapping for a host test) to WASM bytes with matchstick's flags;
 * throws with the compiler's diagnostics. `root` is the base directory imports resolve from.
 */
export async function compileTest(file, outFile, root = path.dirname(file)) {
  const { asc } = graphCliAsc(root);
  await asc.ready;
  let stderr = "";
  const sink = { write: (c) => (stderr += String(c)) };
  const nodeModules = nearestNodeModules(root);
  const argv = [
    file,
    graphTsGlobal(root),
    "--lib",
    nodeModules,
    "--explicitStart",
    "--exportTable",
    "--runtime",
    "stub",
    "--debug",
    "--baseDir",
    root,
    "--outFile",
    outFile,
  ];
  let code = 0;
  asc.main(argv, { stdout: sink, stderr: sink }, (err) => {
    if (err) {
      stderr += String(err);
      code = 1;
    }
    return 0;
  });
  if (code !== 0 || !fs.existsSync(outFile))
    throw new Error(`asc failed on ${path.relative(root, file)}\n${stderr}`);
  return fs.readFileSync(outFile);
}

function nearestNodeModules(dir) {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, "node_modules"))) return path.join(d, "node_modules");
    if (path.dirname(d) === d) throw new Error("no node_modules above " + dir);
  }
}

const fmt = (v) => {
  const p = plain(v);
  return Array.isArray(p) ? `[${p.join(", ")}]` : String(p);
};
const rep = (_k, v) => (typeof v === "bigint" ? v.toString() : v instanceof Uint8Array ? hex(v) : v);

/**
 * Runs one compiled test module. Returns { passed, failed, lines }.
 * @param {Uint8Array} wasm
 * @param {string} schema  schema.graphql text
 */
export async function runTestModule(wasm, schema, { name = "tests", out = console.log, root = process.cwd() } = {}) {
  const reg = { stack: [{ name: "", tests: [], describes: [], hooks: {} }] };
  const cur = () => reg.stack[reg.stack.length - 1];
  const failures = [];
  let host;
  const S = (p) => host.mem.readString(p);
  const report = (msg) => {
    failures.push(msg);
    return 0;
  };
  const fieldEquals = (t, id, f, exp, msg) => {
    const e = host.store.get(S(t))?.get(S(id));
    if (!e) return report(`fieldEquals: ${S(t)}[${S(id)}] is not in the store${msg ? " — " + S(msg) : ""}`);
    const v = e.get(S(f));
    const actual = v ? fmt(v) : "null";
    if (actual !== S(exp))
      return report(
        `fieldEquals ${S(t)}[${S(id)}].${S(f)}: expected ${S(exp)}, got ${actual}${msg ? " — " + S(msg) : ""}`,
      );
    return 1;
  };
  const equals = (a, b, msg) => {
    const x = JSON.stringify(host.readEthValue(a), rep);
    const y = JSON.stringify(host.readEthValue(b), rep);
    return x === y ? 1 : report(`equals: expected ${x}, got ${y}${msg ? " — " + S(msg) : ""}`);
  };
  const notInStore = (t, id, msg) =>
    host.store.get(S(t))?.has(S(id))
      ? report(`notInStore: ${S(t)}[${S(id)}] is in the store${msg ? " — " + S(msg) : ""}`)
      : 1;
  const dsCount = (t, n, msg) => {
    const c = host.createdDataSources.filter((d) => d.template === S(t)).length;
    return c === n ? 1 : report(`dataSourceCount ${S(t)}: expected ${n}, got ${c}${msg ? " — " + S(msg) : ""}`);
  };
  const dsExists = (t, a, msg) =>
    host.createdDataSources.some((d) => d.template === S(t) && d.params[0]?.toLowerCase() === S(a).toLowerCase())
      ? 1
      : report(`dataSourceExists ${S(t)} ${S(a)}: not created${msg ? " — " + S(msg) : ""}`);
  const matchstickImports = {
    _registerTest: (n, shouldFail, idx) => cur().tests.push({ name: S(n), shouldFail: !!shouldFail, idx }),
    _registerDescribe: (n, idx) => cur().describes.push({ name: S(n), idx }),
    _registerHook: (idx, type) => (cur().hooks[S(type)] ??= []).push(idx),
    clearStore: () => {
      host.store.clear();
      host.blockStore.clear();
      host.createdDataSources.length = 0;
    },
    clearInBlockStore: () => host.blockStore.clear(),
    logStore: () => out(JSON.stringify(host.dump(), null, 1)),
    logEntity: (t, id) => out(JSON.stringify(host.entity(S(t), S(id)))),
    logDataSources: (t) => out(JSON.stringify(host.createdDataSources.filter((d) => d.template === S(t)))),
    countEntities: (t) => host.count(S(t)),
    mockInBlockStore: (t, id, data) => {
      if (!host.blockStore.has(S(t))) host.blockStore.set(S(t), new Map());
      host.blockStore.get(S(t)).set(S(id), host.readEntity(data));
    },
    mockIpfsFile: () => {
      throw new Error("mockIpfsFile is not supported by this runner");
    },
    readFile: (p) => host.mem.newUint8Array(fs.readFileSync(path.resolve(root, S(p)))),
    mockFunction: (addr, _fnName, sig, args, ret, reverts) => {
      host.mockCall(
        hex(host.mem.readBytes(addr)),
        S(sig),
        host.mem.readPtrArray(args).map((p) => host.readEthValue(p)),
        host.mem.readPtrArray(ret).map((p) => host.readEthValue(p)),
        !!reverts,
      );
    },
    "dataSourceMock.setReturnValues": (a, n, ctx) => {
      host.dataSource = { address: S(a), network: S(n), context: host.readEntity(ctx) };
    },
    "_assert.fieldEquals": (t, id, f, e) => fieldEquals(t, id, f, e),
    "_assert.fieldEqualsWithMessage": fieldEquals,
    "_assert.equals": (a, b) => equals(a, b),
    "_assert.equalsWithMessage": equals,
    "_assert.notInStore": (t, id) => notInStore(t, id),
    "_assert.notInStoreWithMessage": notInStore,
    "_assert.dataSourceCount": (t, n) => dsCount(t, n),
    "_assert.dataSourceCountWithMessage": dsCount,
    "_assert.dataSourceExists": (t, a) => dsExists(t, a),
    "_assert.dataSourceExistsWithMessage": dsExists,
  };
  host = new SubgraphHost({
    wasm,
    schema,
    extraImports: matchstickImports,
    onLog: (l, t) => {
      if (l !== "DEBUG" && l !== "INFO") out(`      [${l}] ${t}`);
    },
  });
  await host.init(); // runs _start: registers the top-level tests, describes and hooks
  const call = (idx) => host.x.table.get(idx)();
  let passed = 0;
  let failed = 0;
  out(name);
  const runGroup = (g, indent, inherited) => {
    const hooks = {
      beforeEach: [...(inherited.beforeEach ?? []), ...(g.hooks.beforeEach ?? [])],
      afterEach: [...(g.hooks.afterEach ?? []), ...(inherited.afterEach ?? [])],
    };
    (g.hooks.beforeAll ?? []).forEach(call);
    for (const t of g.tests) {
      failures.length = 0;
      let err = null;
      try {
        hooks.beforeEach.forEach(call);
        call(t.idx);
      } catch (e) {
        err = e;
      }
      try {
        hooks.afterEach.forEach(call);
      } catch (e) {
        err ??= e;
      }
      const ok = t.shouldFail ? !!err : !err;
      if (ok) passed++;
      else failed++;
      out(`${indent}${ok ? "✔" : "✖"} ${t.name}`);
      if (!ok) {
        for (const f of failures) out(`${indent}    ${f}`);
        if (err) out(`${indent}    ${err.message}`);
        if (t.shouldFail && !err) out(`${indent}    expected the test to fail, it passed`);
      }
    }
    for (const d of g.describes) {
      const sub = { name: d.name, tests: [], describes: [], hooks: {} };
      reg.stack.push(sub);
      call(d.idx);
      reg.stack.pop();
      out(`${indent}${d.name}`);
      runGroup(sub, indent + "  ", hooks);
    }
    (g.hooks.afterAll ?? []).forEach(call);
  };
  runGroup(reg.stack[0], "  ", {});
  if (host.unimplementedCalls.size) out(`  host functions not implemented: ${[...host.unimplementedCalls].join(", ")}`);
  return { passed, failed };
}

function walkTs(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== ".bin") walkTs(p, out);
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** Hash of everything a test module is compiled from (its file, the helpers, src/, generated/, the compiler). */
function sourcesHash(file, root) {
  const require = createRequire(import.meta.url);
  const h = crypto.createHash("sha256").update(graphCliAsc(root).version);
  for (const p of ["@graphprotocol/graph-ts/package.json", "matchstick-as/package.json"])
    h.update(JSON.parse(fs.readFileSync(require.resolve(p, { paths: [root] }), "utf8")).version);
  const shared = [path.join(root, "src"), path.join(root, "generated")].flatMap((d) => walkTs(d));
  const tests = walkTs(path.join(root, "tests")).filter((f) => !f.endsWith(".test.ts") || f === file);
  for (const f of [...shared, ...tests]) h.update(path.relative(root, f)).update(fs.readFileSync(f));
  return h.digest("hex");
}

/** Compiles a test file unless its compiled module is current. */
export async function compileCached(file, outFile, root) {
  const stamp = outFile + ".sha256";
  const hash = sourcesHash(file, root);
  if (fs.existsSync(outFile) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === hash)
    return { wasm: fs.readFileSync(outFile), cached: true };
  fs.rmSync(stamp, { force: true });
  const wasm = await compileTest(file, outFile, root);
  fs.writeFileSync(stamp, hash);
  return { wasm, cached: false };
}

/** Compiles and runs every <root>/tests/*.test.ts (optionally filtered); compiled modules in tests/.bin/. */
export async function runMatchstick({ root, filters = [], out = console.log } = {}) {
  if (!root) throw new Error("runMatchstick: the subgraph directory (root) is required");
  const testsDir = path.join(root, "tests");
  const binDir = path.join(testsDir, ".bin");
  fs.mkdirSync(binDir, { recursive: true });
  const schemaPath = path.join(root, "schema.graphql");
  if (!fs.existsSync(schemaPath)) throw new Error(`${schemaPath} is missing: generate the manifest first`);
  const schema = fs.readFileSync(schemaPath, "utf8");
  const files = fs
    .readdirSync(testsDir)
    .filter((f) => f.endsWith(".test.ts"))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort();
  let passed = 0;
  let failed = 0;
  for (const f of files) {
    const t0 = performance.now();
    let compiled;
    try {
      compiled = await compileCached(path.join(testsDir, f), path.join(binDir, f.replace(/\.ts$/, ".wasm")), root);
    } catch (e) {
      out(`${f}: compile error\n${e.message}`);
      failed++;
      continue;
    }
    const ms = (performance.now() - t0).toFixed(0);
    try {
      const label = compiled.cached ? `${f} (unchanged, compiled earlier)` : `${f} (compiled in ${ms} ms)`;
      const r = await runTestModule(compiled.wasm, schema, { name: label, out, root });
      passed += r.passed;
      failed += r.failed;
    } catch (e) {
      out(`${f}: ${e.message}`);
      failed++;
    }
  }
  return { passed, failed };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [root, ...filters] = process.argv.slice(2);
  if (!root) {
    console.error("usage: node tools/graph-host/matchstick.mjs <subgraph-dir> [file-filter...]");
    process.exit(2);
  }
  const { passed, failed } = await runMatchstick({ root: path.resolve(root), filters });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
