/**
 * `npm run test:relay`: starts one real local node, deploys the protocol on it once, runs every relay/test/*.test.ts
 * with mocha (each behavioural test against SQLite and against PostgreSQL's engine, PGlite), always stops the node,
 * and ends with ONE line `relay: N passed, N failed` (scripts/test.mjs sums it). Exit 1 on any failure.
 * `npx tsx relay/test/run.ts intake` runs the files whose name contains "intake". The runner is the keeper suite's
 * (keepers/test/mocha-run.ts).
 */
import { runMochaWithNode } from "../../keepers/test/mocha-run.js";
import { startNode } from "./harness.js";

await runMochaWithNode({
  dir: import.meta.dirname,
  label: "relay tests",
  prefix: "relay: ",
  timeoutMs: 120_000,
  stackLines: 14,
  startNode,
});
