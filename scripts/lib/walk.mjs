// Recursive file listing shared by the build, gate and report scripts (plain Node, no dependencies).
import { readdirSync, statSync, existsSync } from "node:fs";
import path from "node:path";

const SKIP = new Set(["node_modules", "generated", "build"]);

/** Every file under `dir` (none if it does not exist) whose path passes `keep`, skipping generated folders. */
export function walk(dir, keep) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    if (SKIP.has(f)) return [];
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? walk(p, keep) : keep(p) ? [p] : [];
  });
}

/** Artifact JSON files (not debug files) under `dir`. */
export const artifactFiles = (dir) => walk(dir, (p) => p.endsWith(".json") && !p.endsWith(".dbg.json"));
