/**
 * `npm run bench`: deploys the protocol through the real deploy script on Hardhat's in-process network and
 * writes bench/gas.json — `{ "<Contract>.<function>[:<case>]": gasUsed }`, measured on the deployed proxies.
 * `npm run bench -- <suite> …` runs only the named suites (merged into the existing file).
 */
import hre from "hardhat";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { deployProtocol } from "./deploy/index.js";
import type { BenchContext } from "./bench/lib.js";
import { suites } from "./bench/index.js";
import { traceGas } from "./bench/trace.js";
import { BENCH_GENESIS, useDeterministicClock } from "./bench/clock.js";
import { connectProtocol } from "@chx/sdk";

const OUT = "bench/gas.json";
const only = (process.env.CHX_BENCH ?? "").split(",").filter((s) => s.length > 0);
const trace = process.env.CHX_BENCH_TRACE === undefined ? undefined : new RegExp(process.env.CHX_BENCH_TRACE);
const results: Record<string, number> =
  existsSync(OUT) && only.length > 0 ? JSON.parse(await readFile(OUT, "utf8")) : {};

// Fixed genesis and block times (scripts/bench/clock.ts): two runs give identical figures, seeds included.
useDeterministicClock(hre);
for (const suite of suites) {
  if (only.length > 0 && !only.includes(suite.name)) continue;
  const connection = await hre.network.create({ override: { initialDate: BENCH_GENESIS } });
  const deploy = await deployProtocol(hre, connection, { write: false, quiet: true });
  const [deployer, ...users] = await connection.ethers.getSigners();
  if (deployer === undefined) throw new Error("no signer");
  const ctx: BenchContext = {
    hre,
    connection,
    deploy,
    protocol: connectProtocol(deploy.record, deployer),
    deployer,
    users,
    async measure(key, tx) {
      const receipt = await (await tx).wait();
      if (receipt === null || receipt.status !== 1) throw new Error(`bench ${key}: transaction failed`);
      results[key] = Number(receipt.gasUsed);
      console.log(`  ${key.padEnd(48)} ${receipt.gasUsed.toString().padStart(9)}`);
      if (trace?.test(key) === true) {
        const names = new Map<string, string>();
        for (const [name, rec] of Object.entries(deploy.record.contracts)) {
          names.set(rec.address.toLowerCase(), name);
          if (rec.implementation !== rec.address) names.set(rec.implementation.toLowerCase(), `${name} impl`);
        }
        await traceGas(connection, receipt.hash, names, receipt.gasUsed);
      }
      return receipt.gasUsed;
    },
    set(key, gas) {
      results[key] = Number(gas);
      console.log(`  ${key.padEnd(48)} ${gas.toString().padStart(9)}`);
    },
  };
  console.log(`[${suite.name}]`);
  await suite.run(ctx);
  await connection.close();
}

await mkdir("bench", { recursive: true });
const sorted = Object.fromEntries(Object.entries(results).sort(([a], [b]) => a.localeCompare(b)));
await writeFile(OUT, JSON.stringify(sorted, null, 2) + "\n");
console.log(`wrote ${OUT} (${Object.keys(sorted).length} figures)`);

// The keeper figures (scan and latency against a real local node: keepers/bench/keepers.ts, also `npm run
// bench:keepers`) and the keeper soak under faults (issue 25: section `soak`); both write bench/keepers.json and keep
// the other's sections, so `npm run bench` regenerates the whole file.
if (only.length === 0 || only.includes("keepers")) {
  const { spawnSync } = await import("node:child_process");
  console.log("[keepers] scan and latency (keepers/bench/keepers.ts)");
  const r = spawnSync("npx", ["tsx", "keepers/bench/keepers.ts"], { stdio: "inherit" });
  if (r.status !== 0) process.exitCode = 1;
}
if (only.length === 0 || only.includes("soak")) {
  const { spawnSync } = await import("node:child_process");
  console.log("[soak] keepers under faults (keepers/bench/soak.ts)");
  const r = spawnSync("npx", ["tsx", "keepers/bench/soak.ts"], { stdio: "inherit" });
  if (r.status !== 0) process.exitCode = 1;
}
