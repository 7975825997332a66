#!/usr/bin/env node
// `chx-keeper` bin: runs the TypeScript CLI through tsx's loader (no build step; tsx is a dependency of the repo).
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
