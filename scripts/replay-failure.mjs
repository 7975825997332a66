#!/usr/bin/env node
// Turns a persisted invariant failure into a Solidity regression test.
//
// The deep profile (`npm run test:deep`, docs/invariants.md "Stateful profiles") writes a failing campaign's shrunk
// call sequence to `cache/invariant/failures/<Contract>/<test>` (`failurePersistDir`) as soon as it is found:
// `{"call_sequence":[{"sender","addr","calldata","contract_name","func_name","signature","args","raw_args"}, ...]}`.
// That file lives in cache/ and is overwritten by the next failing campaign of the same suite, so a finding is kept
// by turning it into a `test_regression_deep<round>_<what>()` function in the suite's .t.sol: the calldata of each
// call, in order, sent to the handler by a helper of the suite that then checks the suite (VaultLimits.t.sol's
// `_replay(bytes memory call)`: `address(handler).call(call)`, a revert ignored as in the campaign, then
// `invariant_suite()`). This script prints that function, formatted as prettier-plugin-solidity formats it (print
// width 120, a call whose one-line form is longer is wrapped), with a `/// @dev` naming the source file, the number
// of calls and the handler functions they call; paste it into the suite, rename it and write the diagnosis into its
// NatSpec. `--handler-check` refuses a sequence whose calls target more than one address (Protocol.t.sol's three
// handlers): a one-helper replay sends every call to one handler.
//
// Exit codes: 0 printed; 1 bad input or usage (one line on stderr); 2 refused by --handler-check.
// Tests: scripts/test/replay-failure.test.mjs (`npm run gates`).
import { readFileSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";

const USAGE = `Usage: node scripts/replay-failure.mjs <failure-json-path> [--name <test>] [--helper <fn>] [--handler-check]

Prints a Solidity regression test that replays a persisted invariant failure
(cache/invariant/failures/<Contract>/<test>, written by the deep profile) call by call.

  <failure-json-path>  the persisted file, e.g. cache/invariant/failures/VaultLimitsInvariantTest/invariant_suite
  --name <test>        the test function's name (default: test_regression_persistedFailure)
  --helper <fn>        the suite's helper that sends one call's calldata to the handler and checks the suite
                       (default: _replay, as in test/invariant/VaultLimits.t.sol)
  --handler-check      refuse (exit 2) when the calls do not all target the same address
  -h, --help           this text

Exit codes: 0 printed, 1 bad input or usage, 2 refused by --handler-check.`;

const WIDTH = 120; // .prettierrc.json printWidth (the .sol override too)
const BODY = " ".repeat(8); // a statement inside a contract's function (tabWidth 4)
const DEFAULT_NAME = "test_regression_persistedFailure";
const DEFAULT_HELPER = "_replay";
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const HEX = /^0x(?:[0-9a-fA-F]{2})*$/;
const NBSP = "\u00a0";

class InputError extends Error {
  constructor(message, code = 1) {
    super(message);
    this.code = code;
  }
}

function oneLine(s) {
  return String(s).replace(/\s+/g, " ").trim();
}

function shown(value) {
  const s = typeof value === "string" ? JSON.stringify(value) : oneLine(JSON.stringify(value) ?? String(value));
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

/** The path as the NatSpec names it: relative to the working directory when inside it, else absolute. */
function displayPath(path) {
  const abs = resolve(path);
  const rel = relative(process.cwd(), abs);
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  return (inside ? rel : abs).split(sep).join("/");
}

function readSequence(path) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const why =
      err.code === "ENOENT"
        ? "no such file"
        : err.code === "EISDIR"
          ? "is a directory"
          : err.code === "EACCES"
            ? "permission denied"
            : oneLine(err.message);
    throw new InputError(`cannot read ${path}: ${why}`);
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${path}: invalid JSON (${oneLine(err.message)})`);
  }
  const seq = json !== null && typeof json === "object" ? json.call_sequence : undefined;
  if (!Array.isArray(seq)) throw new InputError(`${path}: no "call_sequence" array`);
  if (seq.length === 0) throw new InputError(`${path}: "call_sequence" is empty`);
  return seq.map((call, i) => {
    const where = `${path}: call ${i + 1} of ${seq.length}`;
    if (call === null || typeof call !== "object" || Array.isArray(call))
      throw new InputError(`${where} is not an object`);
    if (typeof call.calldata !== "string" || !HEX.test(call.calldata))
      throw new InputError(`${where}: calldata ${shown(call.calldata)} is not 0x-prefixed hex (whole bytes)`);
    const hex = call.calldata.slice(2).toLowerCase();
    const fromSignature = typeof call.signature === "string" ? call.signature.split("(")[0] : "";
    const func =
      typeof call.func_name === "string" && call.func_name !== ""
        ? call.func_name
        : fromSignature !== ""
          ? fromSignature
          : hex.length >= 8
            ? `0x${hex.slice(0, 8)}`
            : "(no selector)";
    const addr = typeof call.addr === "string" ? call.addr.toLowerCase() : undefined;
    const contract = typeof call.contract_name === "string" ? call.contract_name.split(":").at(-1) : undefined;
    return { hex, func, addr, contract };
  });
}

/**
 * `/// @dev` text wrapped at WIDTH, continuation lines aligned under the text as the repository writes them; words
 * joined by NBSP (a count and its noun) stay on one line.
 */
function natspec(text, indent) {
  const first = `${indent}/// @dev `;
  const next = `${indent}///      `;
  const lines = [];
  let line = first;
  let empty = true;
  for (const word of text.split(" ")) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = next + word;
    } else {
      line += (empty ? "" : " ") + word;
    }
    empty = false;
  }
  lines.push(line);
  return lines.map((l) => l.replaceAll(NBSP, " "));
}

/** One statement `helper(hex"…");`, wrapped as prettier-plugin-solidity wraps a call that does not fit. */
function statement(helper, hex) {
  const flat = `${BODY}${helper}(hex"${hex}");`;
  if (flat.length <= WIDTH) return [flat];
  return [`${BODY}${helper}(`, `${BODY}    hex"${hex}"`, `${BODY});`];
}

function render(calls, { file, name, helper }) {
  const counts = new Map();
  for (const c of calls) counts.set(c.func, (counts.get(c.func) ?? 0) + 1);
  // most called first; ties in the order of first call (a Map keeps insertion order and sort is stable)
  const funcs = [...counts].sort((a, b) => b[1] - a[1]).map(([f, n]) => `${f}${NBSP}×${NBSP}${n}`);
  const targets = [...new Set(calls.map((c) => c.addr ?? "?"))];
  const label = (addr) => calls.find((c) => (c.addr ?? "?") === addr && c.contract !== undefined)?.contract ?? addr;
  const to =
    targets.length === 1
      ? label(targets[0])
      : `${targets.length}${NBSP}targets (${targets.map((t) => (label(t) === t ? t : `${label(t)} ${t}`)).join(", ")})`;
  const n = calls.length;
  const text =
    `Replays the persisted invariant failure ${file}: ${n}${NBSP}${n === 1 ? "call" : "calls"} to ${to} — ` +
    `${funcs.join(", ")} — each sent as calldata through \`${helper}\`.`;
  return [
    ...natspec(text, "    "),
    `    function ${name}() public {`,
    ...calls.flatMap((c) => statement(helper, c.hex)),
    "    }",
  ];
}

function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: "string" },
        helper: { type: "string" },
        "handler-check": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new InputError(`${oneLine(err.message)} (--help for usage)`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals.length !== 1)
    throw new InputError(
      `expected one failure file, got ${positionals.length} (--help for usage; e.g. ` +
        "cache/invariant/failures/VaultLimitsInvariantTest/invariant_suite)",
    );
  const name = values.name ?? DEFAULT_NAME;
  const helper = values.helper ?? DEFAULT_HELPER;
  if (!IDENTIFIER.test(name)) throw new InputError(`--name ${shown(name)} is not a Solidity identifier`);
  if (!IDENTIFIER.test(helper)) throw new InputError(`--helper ${shown(helper)} is not a Solidity identifier`);

  const path = positionals[0];
  const calls = readSequence(path);
  if (values["handler-check"]) {
    const missing = calls.findIndex((c) => c.addr === undefined);
    if (missing !== -1)
      throw new InputError(`--handler-check: call ${missing + 1} of ${calls.length} has no "addr"`, 2);
    const targets = [...new Set(calls.map((c) => c.addr))];
    if (targets.length > 1) {
      const per = targets
        .map((t) => {
          const of = calls.filter((c) => c.addr === t);
          const contract = of.find((c) => c.contract !== undefined)?.contract;
          return `${contract === undefined ? "" : `${contract} `}${t} (${of.length} ${of.length === 1 ? "call" : "calls"})`;
        })
        .join(", ");
      throw new InputError(
        `--handler-check: the ${calls.length} calls target ${targets.length} addresses, ${per}; ` +
          "a replay through one handler needs one target",
        2,
      );
    }
  } else {
    const targets = new Set(calls.map((c) => c.addr));
    if (targets.size > 1)
      process.stderr.write(
        `replay-failure: warning: the calls target ${targets.size} addresses; \`${helper}\` sends them all to one ` +
          "handler (--handler-check refuses such a sequence)\n",
      );
  }
  const lines = render(calls, { file: displayPath(path), name, helper });
  process.stdout.write(`${lines.join("\n")}\n`);
}

process.stdout.on("error", (err) => {
  if (err.code === "EPIPE") process.exit(0); // `… | head`
  throw err;
});
try {
  main(process.argv.slice(2));
} catch (err) {
  if (err instanceof InputError) {
    process.stderr.write(`replay-failure: ${err.message}\n`);
    process.exit(err.code);
  }
  process.stderr.write(`replay-failure: unexpected error: ${oneLine(err?.message ?? err)}\n`);
  process.exit(1);
}
