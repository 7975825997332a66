/**
 * `npm run test:keepers`: every keepers/test/*.test.ts against one real local node (keepers/test/mocha-run.ts), ending
 * with ONE line `N passed, N failed`. `npx tsx keepers/test/run.ts tasks` runs the files whose name contains "tasks".
 */
import { runMochaWithNode } from "./mocha-run.js";
import { startNode } from "./harness.js";

await runMochaWithNode({ dir: import.meta.dirname, label: "keeper tests", timeoutMs: 60_000, startNode });
