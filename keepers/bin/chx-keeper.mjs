#!/usr/bin/env node
// `chx-keeper` bin: runs the TypeScript CLI in THIS process through tsx's loader (no child process, so a supervisor's
// SIGTERM reaches the keeper itself; no build step). Needs Node ≥ 22.13 for node:sqlite (the keeper's state):
// `npx chx-keeper` / `npm run keeper` from the workspace use the workspace's Node 22 (the `node` devDependency).
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `chx-keeper: needs Node 22.13 or later for its state database (node:sqlite); this is ${process.version}. Run it with \`npx chx-keeper\` from the workspace (its Node 22) or install Node 22.\n`,
  );
  process.exit(1);
}
const { register } = await import("tsx/esm/api");
register();
await import("../src/cli.ts");
