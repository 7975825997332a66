// scripts/replay-failure.mjs: a persisted invariant failure (cache/invariant/failures/<Contract>/<test>) printed as a
// Solidity regression test. Runs the script as the CLI it is (child process), on fixtures written to a temp dir.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCRIPT = join(ROOT, "scripts", "replay-failure.mjs");
const TMP = mkdtempSync(join(tmpdir(), "replay-failure-"));
after(() => rmSync(TMP, { recursive: true, force: true }));

const HANDLER = "0x00000000000000000000000000000000000c0ffe";
const OTHER = "0x000000000000000000000000000000000000beef";
const word = (hex) => hex.padStart(64, "0");
const call = (calldata, func, addr = HANDLER, contract = "FooHandler") => ({
  sender: "0x0000000000000000000000000000000000001234",
  addr,
  calldata,
  contract_name: `project/test/invariant/handlers/${contract}.sol:${contract}`,
  func_name: func,
  signature: `${func}()`,
  args: "",
  raw_args: "",
});
const STALE = "0x54cc6e18";
const PAUSE_OFF = `0x57d159c6${word("0")}`;
// 68 bytes: `        _replay(hex"…");` is 159 columns, so prettier-plugin-solidity wraps it
const TRADE = `0x0e88e615${word("2ee9ffb30290a487982e7906b7df61bc119bf27")}${word("1")}`;
// upper case in the file, lower case in the test
const PAUSE_ON = `0x57D159C6${word("1")}`;
// 48 bytes (96 hex digits): 119 columns through `_replay`, 120 through `_replay_` (fits), 121 through `_replay__`
const WARP = `0xe5d6bf02${word("ab")}${"cd".repeat(12)}`;
const CALLS = [
  call(STALE, "toggleStale"),
  call(PAUSE_OFF, "togglePause"),
  call(TRADE, "trade"),
  call(PAUSE_ON, "togglePause"),
  call(WARP, "warp"),
];

function write(rel, content) {
  const path = join(TMP, rel);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return rel;
}
const FIXTURE = write("failures/FooInvariantTest/invariant_suite", { call_sequence: CALLS, driver_bytecode: "0x" });

function run(args, cwd = TMP) {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { cwd, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stdout.split("\n").slice(0, -1) };
}
// the NatSpec's text on one line
const natspec = (text) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("    ///"))
    .map((l) => l.replace(/^\s*\/\/\/(?: @dev)?\s*/, ""))
    .join(" ");
const hexes = (text) => [...text.matchAll(/hex"([0-9a-f]*)"/g)].map((m) => m[1]);

const EXPECTED = [
  "    /// @dev Replays the persisted invariant failure failures/FooInvariantTest/invariant_suite: 5 calls to FooHandler —",
  "    ///      togglePause × 2, toggleStale × 1, trade × 1, warp × 1 — each sent as calldata through `_replay`.",
  "    function test_regression_persistedFailure() public {",
  '        _replay(hex"54cc6e18");',
  `        _replay(hex"${PAUSE_OFF.slice(2)}");`,
  "        _replay(",
  `            hex"${TRADE.slice(2)}"`,
  "        );",
  `        _replay(hex"${PAUSE_ON.slice(2).toLowerCase()}");`,
  `        _replay(hex"${WARP.slice(2)}");`,
  "    }",
];

test("prints the regression function: NatSpec, one statement per call in order, the long call wrapped", () => {
  const r = run([FIXTURE]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "");
  assert.deepEqual(r.lines, EXPECTED);
  assert.ok(r.stdout.endsWith("}\n"));
  assert.ok(
    r.lines.every((l) => l.length <= 120 || l.startsWith('            hex"')),
    "only a wrapped hex literal may pass 120 columns",
  );
  assert.equal(r.lines.find((l) => l.includes(WARP.slice(2))).length, 119);
  assert.deepEqual(
    hexes(r.stdout),
    CALLS.map((c) => c.calldata.slice(2).toLowerCase()),
  );
});

test("NatSpec names the file, the number of calls and each handler function with its count", () => {
  const doc = natspec(run([FIXTURE]).stdout);
  assert.match(doc, /failures\/FooInvariantTest\/invariant_suite/);
  assert.match(doc, /\b5 calls to FooHandler\b/);
  for (const f of ["togglePause × 2", "toggleStale × 1", "trade × 1", "warp × 1"]) assert.ok(doc.includes(f), f);
  const single = write("failures/One/invariant_suite", { call_sequence: [call(STALE, "toggleStale")] });
  assert.match(natspec(run([single]).stdout), /1 call to FooHandler — toggleStale × 1 —/);
});

test("--name and --helper; the wrap follows the helper's length (120 columns fit, 121 wrap)", () => {
  const r = run([FIXTURE, "--name", "test_regression_deep45_x", "--helper", "_replay_"]);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.lines.includes("    function test_regression_deep45_x() public {"));
  assert.ok(r.stdout.includes("through `_replay_`."));
  assert.ok(r.lines.includes('        _replay_(hex"54cc6e18");'));
  assert.equal(r.lines.find((l) => l.includes(WARP.slice(2))).length, 120);
  assert.ok(!r.stdout.includes("_replay("));

  const wide = run([FIXTURE, "--helper", "_replay__"]);
  assert.equal(wide.status, 0, wide.stderr);
  const i = wide.lines.findIndex((l) => l.includes(WARP.slice(2)));
  assert.deepEqual(wide.lines.slice(i - 1, i + 2), [
    "        _replay__(",
    `            hex"${WARP.slice(2)}"`,
    "        );",
  ]);
});

test("the output is what prettier-plugin-solidity prints (repository config)", async (t) => {
  let prettier;
  let solidity;
  try {
    prettier = await import("prettier");
    solidity = await import("prettier-plugin-solidity"); // from this file, not the working directory
  } catch {
    t.skip("prettier or prettier-plugin-solidity is not installed");
    return;
  }
  const sol = join(ROOT, "test", "invariant", "Replay.t.sol"); // only for resolving the .sol options
  const options = { ...(await prettier.resolveConfig(sol)), plugins: [solidity.default ?? solidity] };
  for (const helper of ["_replay", "_replay_", "_replay__"]) {
    const src = `contract C {\n${run([FIXTURE, "--helper", helper]).stdout}}\n`;
    const formatted = await prettier.format(src, { ...options, filepath: sol });
    assert.equal(formatted, src, `--helper ${helper}`);
  }
});

test("--handler-check: one target passes, two targets are refused with exit 2", () => {
  const one = run([FIXTURE, "--handler-check"]);
  assert.equal(one.status, 0, one.stderr);
  assert.deepEqual(one.lines, EXPECTED);

  const mixed = write("failures/Mixed/invariant_suite", {
    call_sequence: [
      call(STALE, "toggleStale"),
      call(PAUSE_OFF, "other", OTHER, "BarHandler"),
      call(STALE, "toggleStale"),
    ],
  });
  const r = run([mixed, "--handler-check"]);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^replay-failure: --handler-check: the 3 calls target 2 addresses/);
  assert.ok(r.stderr.includes(`FooHandler ${HANDLER} (2 calls)`) && r.stderr.includes(`BarHandler ${OTHER} (1 call)`));
  assert.match(r.stderr, /one target/);
  assert.doesNotMatch(r.stderr, /^\s+at /m);

  // without the check it prints, and warns
  const loose = run([mixed]);
  assert.equal(loose.status, 0);
  assert.equal(hexes(loose.stdout).length, 3);
  assert.match(loose.stderr, /warning: the calls target 2 addresses/);
  assert.match(natspec(loose.stdout), /3 calls to 2 targets \(FooHandler 0x/);
});

test("--help prints the usage", () => {
  const r = run(["--help"]);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^Usage: node scripts\/replay-failure\.mjs <failure-json-path>/);
  for (const o of ["--name", "--helper", "--handler-check"]) assert.ok(r.stdout.includes(o), o);
});

const BAD = [
  [
    "a missing file",
    () => ["failures/none/invariant_suite"],
    /cannot read failures\/none\/invariant_suite: no such file/,
  ],
  ["a directory", () => ["failures"], /cannot read failures: is a directory/],
  ["invalid JSON", () => [write("bad/json", '{"call_sequence": [')], /bad\/json: invalid JSON \(/],
  ["no call_sequence", () => [write("bad/nokey", { calls: [] })], /no "call_sequence" array/],
  ["an empty call_sequence", () => [write("bad/empty", { call_sequence: [] })], /"call_sequence" is empty/],
  [
    "a calldata that is not hex",
    () => [write("bad/hex", { call_sequence: [call(STALE, "a"), call("0xzz6e18", "b")] })],
    /call 2 of 2: calldata "0xzz6e18" is not 0x-prefixed hex/,
  ],
  [
    "a calldata without 0x",
    () => [write("bad/prefix", { call_sequence: [call("54cc6e18", "a")] })],
    /call 1 of 1: calldata "54cc6e18" is not 0x-prefixed hex/,
  ],
  [
    "a calldata of an odd length",
    () => [write("bad/odd", { call_sequence: [call("0x54cc6e1", "a")] })],
    /calldata "0x54cc6e1" is not 0x-prefixed hex/,
  ],
  [
    "a calldata that is not a string",
    () => [write("bad/number", { call_sequence: [{ ...call(STALE, "a"), calldata: 7 }] })],
    /calldata 7 is not 0x-prefixed hex/,
  ],
  [
    "a call that is not an object",
    () => [write("bad/entry", { call_sequence: [null] })],
    /call 1 of 1 is not an object/,
  ],
  ["no file argument", () => [], /expected one failure file, got 0/],
  ["an unknown option", () => [FIXTURE, "--nme", "x"], /Unknown option '--nme'/],
  [
    "a --name that is not an identifier",
    () => [FIXTURE, "--name", "1test"],
    /--name "1test" is not a Solidity identifier/,
  ],
];
for (const [what, args, message] of BAD) {
  test(`bad input, exit 1 and one line: ${what}`, () => {
    const r = run(args());
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^replay-failure: [^\n]+\n$/);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /^\s+at /m);
  });
}

// The round 44 VaultLimits finding: test_regression_deep44_maxAmountAccepted was written from this file by hand.
test("the persisted VaultLimits failure gives the calls of test_regression_deep44_maxAmountAccepted", (t) => {
  const rel = "cache/invariant/failures/VaultLimitsInvariantTest/invariant_suite";
  const suite = join(ROOT, "test", "invariant", "VaultLimits.t.sol");
  if (!existsSync(join(ROOT, rel))) {
    t.skip(`${rel} does not exist (no deep campaign has failed in this checkout)`);
    return;
  }
  const r = run([rel, "--name", "test_regression_deep44_maxAmountAccepted"], ROOT);
  assert.equal(r.status, 0, r.stderr);
  const printed = hexes(r.stdout);
  assert.ok(printed.length > 0);
  const source = readFileSync(suite, "utf8");
  const body = /function test_regression_deep44_maxAmountAccepted\(\)[^{]*\{([\s\S]*?)\n    \}/.exec(source)?.[1];
  if (body === undefined) {
    t.skip("VaultLimits.t.sol has no test_regression_deep44_maxAmountAccepted");
    return;
  }
  const expected = hexes(body);
  if (printed.length === expected.length && printed.every((h) => source.includes(h))) {
    assert.deepEqual(printed, expected, "same calls, same order as the hand-written regression");
  } else if (printed.length === expected.length && printed[0] === expected[0]) {
    t.diagnostic(`${rel}: ${printed.length} calls and the first one match the regression; later calls differ`);
    assert.equal(printed.length, expected.length);
    assert.equal(printed[0], expected[0]);
  } else {
    t.skip(
      `${rel} is from a later campaign (${printed.length} calls, first ${printed[0].slice(0, 8)}; the regression ` +
        `has ${expected.length}, first ${expected[0]?.slice(0, 8)})`,
    );
  }
});
