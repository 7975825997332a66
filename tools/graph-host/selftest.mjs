#!/usr/bin/env node
// Tests of the host itself (the part matchstick tests cannot see): BigDecimal golden vectors, BigInt encoding,
// object alignment, immutability and schema enforcement as graph-node does them, ABI/keccak host functions,
// and a log replay through the BUILT DPSToken mapping. Needs `graph build` output (subgraph/build).
//   node subgraph/test-runner/selftest.mjs   -> "N passed, N failed", exit 1 on failure
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Interface, keccak256, toUtf8Bytes, getBytes, zeroPadValue, toBeHex } from "ethers";
import * as BD from "./bigdecimal.mjs";
import { bigintToSignedLE, signedLEToBigint } from "./asc-memory.mjs";
import { SubgraphHost, EthKind, StoreKind, HostError } from "./host.mjs";
import { SubgraphReplay } from "./replay.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const subgraphDir = path.resolve(here, "..");
const buildDir = path.join(subgraphDir, "build");

const tests = [];
const test = (name, fn) => tests.push({ name, fn });
const expectEq = (actual, expected, what = "") => {
  if (actual !== expected)
    throw new Error(`${what} expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
};
const expectThrow = (fn, re) => {
  try {
    fn();
  } catch (e) {
    if (re && !re.test(e.message)) throw new Error(`threw "${e.message}", expected ${re}`);
    return;
  }
  throw new Error(`expected an error matching ${re}`);
};

// ---------------------------------------------------------------- BigDecimal (bigdecimal 0.1.2 as graph-node)
const d = (s) => BD.fromString(s);
const str = (x) => BD.toString(x);
const GOLDEN = [
  // [expression, expected], hand-derived from bigdecimal 0.1.2's with_prec / impl_division / Display
  [() => BD.dividedBy(d("1"), d("3")), "0.3333333333333333333333333333333333"],
  [() => BD.dividedBy(d("2"), d("3")), "0.6666666666666666666666666666666667"],
  [() => BD.dividedBy(d("1"), d("7")), "0.1428571428571428571428571428571429"],
  [() => BD.dividedBy(d("-2"), d("3")), "-0.6666666666666666666666666666666666"],
  [() => BD.dividedBy(d("2"), d("-3")), "-0.6666666666666666666666666666666666"],
  [() => BD.dividedBy(d("-1"), d("-3")), "0.3333333333333333333333333333333333"],
  [() => BD.dividedBy(d("10"), d("4")), "2.5"],
  [() => BD.dividedBy(d("7"), d("7")), "1"],
  [() => BD.dividedBy(d("0"), d("7")), "0"],
  [
    () => BD.dividedBy(d("1e-30"), d("3e10")),
    "0.00000000000000000000000000000000000000003333333333333333333333333333333333",
  ],
  [() => d("12345678901234567890123456789012345"), "12345678901234567890123456789012350"],
  [() => d("-12345678901234567890123456789012345"), "-12345678901234567890123456789012340"],
  [() => d("12345678901234567890123456789012344"), "12345678901234567890123456789012340"],
  [() => d("0.99999999999999999999999999999999995"), "1"],
  [() => d("-0.99999999999999999999999999999999995"), "-0.9999999999999999999999999999999999"],
  [() => BD.times(d("1234567890.1234567890"), d("1234567890.1234567890")), "1524157875323883675.019051998750191"],
  [() => BD.times(d("-1234567890.1234567890"), d("1234567890.1234567890")), "-1524157875323883675.01905199875019"],
  [() => d("1.5e-40"), "0.00000000000000000000000000000000000000015"],
  [() => d("1e40"), "10000000000000000000000000000000000000000"],
  [() => d("1.000"), "1"],
  [() => d("-0.0"), "0"],
  [() => d("1."), "1"],
  [() => d(".5"), "0.5"],
  [() => d("+2.50E+2"), "250"],
  [() => BD.plus(d("0.1"), d("0.2")), "0.3"],
  [() => BD.minus(d("5"), d("7.25")), "-2.25"],
  [() => BD.times(d("0.1"), d("0.1")), "0.01"],
];
GOLDEN.forEach(([f, expected], i) =>
  test(`BigDecimal golden #${i + 1}: ${expected}`, () => expectEq(str(f()), expected)),
);
test("BigDecimal: invalid strings and division by zero are errors", () => {
  for (const s of ["", ".", "1e", "abc", "1.2.3", "--1"]) expectThrow(() => d(s), /invalid BigDecimal/);
  expectThrow(() => BD.dividedBy(d("1"), d("0")), /divide by zero/);
});
test("BigDecimal: equality ignores representation", () => {
  expectEq(BD.equals({ digits: 10n, exp: 0n }, { digits: 1n, exp: 1n }), true);
  expectEq(BD.equals(d("1.0"), d("1")), true);
  expectEq(BD.equals(d("1.0"), d("1.01")), false);
});

// ---------------------------------------------------------------- BigInt bytes (num-bigint signed LE)
test("BigInt: signed little-endian round trips at sign boundaries", () => {
  const cases = [0n, 1n, -1n, 127n, 128n, -128n, -129n, 255n, 256n, 2n ** 255n, -(2n ** 255n), 2n ** 256n - 1n];
  for (const n of cases) expectEq(signedLEToBigint(bigintToSignedLE(n)), n, `round trip ${n}`);
  expectEq(Buffer.from(bigintToSignedLE(128n)).toString("hex"), "8000", "128");
  expectEq(Buffer.from(bigintToSignedLE(-129n)).toString("hex"), "7fff", "-129");
});

// ---------------------------------------------------------------- host on the built DPSToken mapping
const isBuilt = () => fs.existsSync(path.join(buildDir, "DPSToken", "DPSToken.wasm"));
let schema = "";
async function dpsHost() {
  schema ||= fs.readFileSync(path.join(buildDir, "schema.graphql"), "utf8");
  return new SubgraphHost({
    wasm: fs.readFileSync(path.join(buildDir, "DPSToken", "DPSToken.wasm")),
    schema,
    onLog: () => {},
  }).init();
}
const TOKEN = "0x00000000000000000000000000000000000d0d05";
const ALICE = "0x000000000000000000000000000000000000a11a";
const block = {
  hash: "0x" + "11".repeat(32),
  number: 7n,
  timestamp: 1_767_225_600n,
  parentHash: "0x" + "22".repeat(32),
};
const tx = { hash: "0x" + "33".repeat(32), index: 0n, from: ALICE, to: TOKEN, value: 0n, input: "0x" };
const emitted = (logIndex) => ({
  address: TOKEN,
  logIndex: BigInt(logIndex),
  block,
  transaction: tx,
  params: [
    { name: "to", value: { kind: EthKind.Address, value: getBytes(ALICE) } },
    { name: "amount", value: { kind: EthKind.Uint, value: 5n } },
    { name: "totalEmitted", value: { kind: EthKind.Uint, value: 5n } },
    { name: "totalSupply", value: { kind: EthKind.Uint, value: 5n } },
  ],
});

test("host: objects the host allocates are 16-byte aligned (AS realloc asserts it)", async () => {
  const h = await dpsHost();
  for (const n of [0, 1, 3, 12, 13, 16, 20, 44, 100]) {
    const p = h.mem.newUint8Array(new Uint8Array(n));
    if (p % 16 !== 0) throw new Error(`Uint8Array(${n}) at ${p}`);
    const s = h.mem.newString("x".repeat(n));
    if (s % 16 !== 0) throw new Error(`String(${n}) at ${s}`);
  }
});

test("host: a second save of an immutable entity fails (replaying a log twice)", async () => {
  const h = await dpsHost();
  h.run("handleDPSEmitted", h.newEvent(emitted(4)));
  expectEq(h.count("DPSEmission"), 1);
  expectThrow(
    () => h.run("handleDPSEmitted", h.newEvent(emitted(4))),
    /entities of type `DPSEmission` can not be updated since they are immutable \(id 0x3{64}04000000\)/,
  );
  h.run("handleDPSEmitted", h.newEvent(emitted(5))); // another log index is another entity
  expectEq(h.count("DPSEmission"), 2);
});

test("host: immutable entities cannot be removed; mutable ones can", async () => {
  const h = await dpsHost();
  h.run("handleDPSEmitted", h.newEvent(emitted(1)));
  const f = h.hostFunctions();
  const id = "0x" + "33".repeat(32) + "00000001";
  expectThrow(
    () => f["store.remove"](h.mem.newString("DPSEmission"), h.mem.newString(id)),
    /can not be removed since they are immutable/,
  );
  f["store.remove"](h.mem.newString("Token"), h.mem.newString(TOKEN));
  expectEq(h.count("Token"), 0);
});

test("host: schema validation rejects missing, unknown, mistyped and derived fields", async () => {
  const h = await dpsHost();
  const v = (entries) => new Map(entries);
  const id = { kind: StoreKind.Bytes, value: getBytes(ALICE) };
  const big = { kind: StoreKind.BigInt, value: 1n };
  expectThrow(() => h.validate("Account", ALICE, v([["id", id]])), /missing value for non-nullable field `dpsVotes`/);
  expectThrow(
    () =>
      h.validate(
        "Account",
        ALICE,
        v([
          ["id", id],
          ["dpsVotes", big],
          ["firstSeenBlock", big],
          ["nope", big],
        ]),
      ),
    /unknown field `nope`/,
  );
  expectThrow(
    () =>
      h.validate(
        "Account",
        ALICE,
        v([
          ["id", id],
          ["dpsVotes", { kind: StoreKind.String, value: "1" }],
          ["firstSeenBlock", big],
        ]),
      ),
    /`dpsVotes` is a String, the schema declares BigInt/,
  );
  expectThrow(
    () =>
      h.validate(
        "Account",
        ALICE,
        v([
          ["id", id],
          ["dpsVotes", big],
          ["firstSeenBlock", big],
          ["votes", { kind: StoreKind.Array, value: [] }],
        ]),
      ),
    /derived and can not be set/,
  );
  expectThrow(() => h.validate("Nope", "1", v([])), /not defined in the schema/);
  h.validate(
    "Account",
    ALICE,
    v([
      ["id", id],
      ["dpsVotes", big],
      ["firstSeenBlock", big],
    ]),
  );
});

test("host: crypto.keccak256 and ethereum.encode/decode match ethers", async () => {
  const h = await dpsHost();
  const f = h.hostFunctions();
  const k = h.mem.readBytes(f["crypto.keccak256"](h.mem.newUint8Array(toUtf8Bytes("abc"))));
  expectEq("0x" + Buffer.from(k).toString("hex"), keccak256(toUtf8Bytes("abc")));
  const tuple = {
    kind: EthKind.Tuple,
    value: [
      { kind: EthKind.Uint, value: 7n },
      { kind: EthKind.Address, value: getBytes(ALICE) },
      {
        kind: EthKind.Array,
        value: [
          { kind: EthKind.Uint, value: 1n },
          { kind: EthKind.Uint, value: 2n },
        ],
      },
    ],
  };
  const enc = h.mem.readBytes(f["ethereum.encode"](h.writeEthValue(tuple)));
  const dec = h.readEthValue(
    f["ethereum.decode"](h.mem.newString("(uint256,address,uint256[])"), h.mem.newUint8Array(enc)),
  );
  expectEq(dec.value[0].value, 7n);
  expectEq("0x" + Buffer.from(dec.value[1].value).toString("hex"), ALICE);
  expectEq(dec.value[2].value.length, 2);
  expectEq(
    f["ethereum.decode"](h.mem.newString("uint256"), h.mem.newUint8Array(new Uint8Array(3))),
    0,
    "bad data decodes to null",
  );
});

test("replay: logs encoded with the ABI run through the built mappings, re-targeted by the record", async () => {
  const abi = JSON.parse(fs.readFileSync(path.join(buildDir, "DPSToken", "DPSToken.json"), "utf8"));
  const iface = new Interface(abi);
  const token = "0x" + "d0".repeat(20);
  const record = { contracts: {} };
  // every data source of the build (modules add theirs), each a stand-in address unless it is the token under test
  const manifest = fs.readFileSync(path.join(buildDir, "subgraph.yaml"), "utf8");
  for (const [, n] of manifest.matchAll(/- kind: ethereum\/contract\n\s+name: (\w+)/g))
    record.contracts[n] = {
      address: n === "DPSToken" ? token : "0x" + keccak256(toUtf8Bytes(n)).slice(26),
      deployBlock: 5,
    };
  const replay = await new SubgraphReplay(buildDir, { record }).init();
  const mk = (name, args, logIndex) => {
    const l = iface.encodeEventLog(name, args);
    return {
      address: token,
      topics: l.topics,
      data: l.data,
      logIndex: toBeHex(logIndex),
      blockNumber: "0x7",
      transactionHash: tx.hash,
    };
  };
  const rpcBlock = {
    ...block,
    number: "0x7",
    timestamp: toBeHex(block.timestamp),
    gasUsed: "0x0",
    gasLimit: "0x0",
    size: "0x0",
  };
  const rpcTx = { ...tx, transactionIndex: "0x0", value: "0x0", gas: "0x0", nonce: "0x0" };
  replay.runBlock(
    rpcBlock,
    [
      mk("Transfer", [zeroPadValue("0x", 20), ALICE, 10n], 0),
      mk("DPSEmitted", [ALICE, 10n, 10n, 10n], 1),
      mk("Approval", [ALICE, ALICE, 1n], 2), // not handled: skipped like graph-node
    ],
    () => rpcTx,
  );
  expectEq(replay.handled, 2);
  expectEq(replay.skipped, 1);
  expectEq(replay.entity("Token", token).totalEmitted, "10");
  expectEq(replay.entity("TokenBalance", token + ALICE.slice(2)).balance, "10");
});

test("host: no built mapping imports ethereum.call, getBalance or hasCode (events carry the state)", async () => {
  const banned = ["ethereum.call", "ethereum.getBalance", "ethereum.hasCode"];
  for (const dir of fs.readdirSync(buildDir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const f of fs.readdirSync(path.join(buildDir, dir.name)).filter((x) => x.endsWith(".wasm"))) {
      const mod = await WebAssembly.compile(fs.readFileSync(path.join(buildDir, dir.name, f)));
      const used = WebAssembly.Module.imports(mod)
        .map((i) => `${i.name}`)
        .filter((n) => banned.includes(n));
      if (used.length) throw new Error(`${dir.name}/${f} imports ${used.join(", ")}`);
    }
  }
});

// ---------------------------------------------------------------- run
export async function runSelftest({ out = console.log } = {}) {
  let passed = 0;
  let failed = 0;
  out("test-runner self-test");
  const built = isBuilt();
  for (const t of tests) {
    if (!built && (t.name.startsWith("host:") || t.name.startsWith("replay:"))) {
      out(`  ✖ ${t.name}\n      subgraph/build is missing: run graph build first`);
      failed++;
      continue;
    }
    try {
      await t.fn();
      passed++;
      out(`  ✔ ${t.name}`);
    } catch (e) {
      failed++;
      out(`  ✖ ${t.name}\n      ${e instanceof HostError ? "host error: " : ""}${e.message}`);
    }
  }
  return { passed, failed };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { passed, failed } = await runSelftest();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
