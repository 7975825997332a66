// Guards on the built CHX subgraph (subgraph/build): properties the design depends on that no single test shows.
//   - no mapping imports ethereum.call, getBalance or hasCode: the events carry the state (docs/subgraph.md, Design);
//   - no data source uses block or call handlers, which graph-host's replay (and so the OPS-03 check) does not run;
//   - every handler a data source names is exported by the WASM it points to.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadYaml } from "../../tools/graph-host/replay.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const buildDir = path.resolve(here, "..", "build");

export async function runGuards({ out = console.log } = {}) {
  let passed = 0;
  let failed = 0;
  const check = async (name, fn) => {
    try {
      await fn();
      passed++;
      out(`✔ ${name}`);
    } catch (e) {
      failed++;
      out(`✖ ${name}\n      ${e.message}`);
    }
  };
  await check("no built mapping imports ethereum.call, getBalance or hasCode (events carry the state)", async () => {
    const banned = ["ethereum.call", "ethereum.getBalance", "ethereum.hasCode"];
    for (const dir of fs.readdirSync(buildDir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      for (const f of fs.readdirSync(path.join(buildDir, dir.name)).filter((x) => x.endsWith(".wasm"))) {
        const mod = await WebAssembly.compile(fs.readFileSync(path.join(buildDir, dir.name, f)));
        const used = WebAssembly.Module.imports(mod)
          .map((i) => i.name)
          .filter((n) => banned.includes(n));
        if (used.length) throw new Error(`${dir.name}/${f} imports ${used.join(", ")}`);
      }
    }
  });
  await check("every data source has only event handlers, and a context naming it", async () => {
    const manifest = loadYaml(path.join(buildDir, "subgraph.yaml"));
    for (const ds of manifest.dataSources) {
      if ((ds.mapping.blockHandlers ?? []).length || (ds.mapping.callHandlers ?? []).length)
        throw new Error(`${ds.name} has block or call handlers`);
      if (ds.context?.name?.data !== ds.name) throw new Error(`${ds.name}: context.name is ${ds.context?.name?.data}`);
    }
  });
  // graph-cli checks a data source's handlers against its WASM only when it compiles that file: with one mapping module
  // for every data source (subgraph/scripts/manifest.mjs MAPPING_ENTRY) only the first data source would be checked.
  await check("every handler the manifest names is an export of its data source's WASM", async () => {
    const manifest = loadYaml(path.join(buildDir, "subgraph.yaml"));
    const exportsOf = new Map();
    for (const ds of manifest.dataSources) {
      const file = ds.mapping.file;
      if (!exportsOf.has(file)) {
        const mod = await WebAssembly.compile(fs.readFileSync(path.join(buildDir, file)));
        exportsOf.set(file, new Set(WebAssembly.Module.exports(mod).map((e) => e.name)));
      }
      const missing = (ds.mapping.eventHandlers ?? []).map((h) => h.handler).filter((h) => !exportsOf.get(file).has(h));
      if (missing.length) throw new Error(`${ds.name}: ${file} does not export ${missing.join(", ")}`);
    }
  });
  return { passed, failed };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { passed, failed } = await runGuards();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
