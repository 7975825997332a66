#!/usr/bin/env node
// tools/graph-host's own tests, on a fixture subgraph (test/fixture: a token with holders, balances, transfers) that
// knows nothing of any project: BigDecimal golden vectors and BigInt encoding; the host on the compiled fixture
// mapping (object alignment, immutability, schema validation, keccak/ABI); the replay of ABI-encoded logs with
// re-targeted addresses, data source context, history and handler statistics; graph-node's query-field names;
// the derived query schema; the query layer (filters, nesting, ordering, ranges, blocks, errors); code generation
// (zero-initialisers, event factories); the matchstick runner on the fixture's tests (generated factories included).
//   node tools/graph-host/test/run.mjs   -> "N passed, N failed", exit 1 on failure
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Interface, keccak256, toUtf8Bytes, getBytes, toBeHex } from "ethers";
import * as BD from "../bigdecimal.mjs";
import { bigintToSignedLE, signedLEToBigint } from "../asc-memory.mjs";
import { SubgraphHost, EthKind, StoreKind, HostError } from "../host.mjs";
import { SubgraphReplay } from "../replay.mjs";
import { EntityHistory } from "../history.mjs";
import { QueryLayer, NotImplementedError, queriesInMarkdown } from "../query.mjs";
import { inputModel, apiSchemaSdl } from "../api-schema.mjs";
import { queryFieldNames, toCamelCase, toPlural } from "../inflector.mjs";
import { entityDefaults, eventFactories, mockModule } from "../codegen.mjs";
import { compileTest, runMatchstick } from "../matchstick.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const FIX = path.join(here, "fixture");
const require = createRequire(import.meta.url);

const tests = [];
const test = (name, fn) => tests.push({ name, fn });
const json = (x) => (typeof x === "string" ? x : JSON.stringify(x, (_k, v) => (typeof v === "bigint" ? `${v}n` : v)));
const expectEq = (actual, expected, what = "") => {
  const a = json(actual);
  const e = json(expected);
  if (a !== e) throw new Error(`${what} expected ${e}, got ${a}`);
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


// ---------------------------------------------------------------- fixture build (cached by input hash)
const TOKEN = "0x00000000000000000000000000000000000070c1";
const ALICE = "0x000000000000000000000000000000000000a11a";
const BOB = "0x0000000000000000000000000000000000000b0b";
const SCHEMA = fs.readFileSync(path.join(FIX, "schema.graphql"), "utf8");
const ABI = JSON.parse(fs.readFileSync(path.join(FIX, "abis", "Token.json"), "utf8"));

function hashOf(files) {
  const h = crypto.createHash("sha256");
  for (const f of files) h.update(f).update(fs.readFileSync(path.join(FIX, f)));
  return h.digest("hex");
}

/** graph codegen + generated/defaults.ts + generated/factories + the compiled mapping in build/ (once per input). */
async function prepareFixture() {
  const stamp = path.join(FIX, "build", ".inputs.sha256");
  const hash = hashOf(["schema.graphql", "subgraph.yaml", "abis/Token.json", "src/mapping.ts"]) + "/codegen-v1";
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === hash) return;
  const cli = require.resolve("@graphprotocol/graph-cli/package.json", { paths: [FIX] });
  const r = spawnSync(process.execPath, [path.join(path.dirname(cli), "bin", "run.js"), "codegen", "subgraph.yaml"], {
    cwd: FIX,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`graph codegen (fixture) failed:\n${r.stdout}\n${r.stderr}`);
  fs.writeFileSync(path.join(FIX, "generated", "defaults.ts"), entityDefaults(SCHEMA));
  fs.mkdirSync(path.join(FIX, "generated", "factories"), { recursive: true });
  fs.writeFileSync(path.join(FIX, "generated", "factories", "_mock.ts"), mockModule());
  fs.writeFileSync(
    path.join(FIX, "generated", "factories", "Token.ts"),
    eventFactories("Token", ABI, { eventsModule: "../Token/Token", abiFile: "abis/Token.json" }),
  );
  const build = path.join(FIX, "build");
  fs.mkdirSync(path.join(build, "Token"), { recursive: true });
  await compileTest(path.join(FIX, "src", "mapping.ts"), path.join(build, "Token", "Token.wasm"), FIX);
  fs.copyFileSync(path.join(FIX, "abis", "Token.json"), path.join(build, "Token", "Token.json"));
  fs.copyFileSync(path.join(FIX, "schema.graphql"), path.join(build, "schema.graphql"));
  const manifest = fs
    .readFileSync(path.join(FIX, "subgraph.yaml"), "utf8")
    .replace("file: ./abis/Token.json", "file: Token/Token.json")
    .replace("file: ./src/mapping.ts", "file: Token/Token.wasm");
  fs.writeFileSync(path.join(build, "subgraph.yaml"), manifest);
  fs.writeFileSync(stamp, hash);
}

async function fixtureHost(opts = {}) {
  return new SubgraphHost({
    wasm: fs.readFileSync(path.join(FIX, "build", "Token", "Token.wasm")),
    schema: SCHEMA,
    onLog: () => {},
    dataSource: { address: TOKEN, network: "mainnet", context: new Map([["label", { kind: StoreKind.String, value: "FIX" }]]) },
    ...opts,
  }).init();
}
const block = (n, ts) => ({ hash: "0x" + String(n).padStart(64, "0"), number: BigInt(n), timestamp: BigInt(ts) });
const tx = { hash: "0x" + "33".repeat(32), index: 0n, from: ALICE, to: TOKEN, value: 0n, input: "0x" };
const transferEvent = (logIndex, from, to, value, b = block(7, 1_767_225_600)) => ({
  address: TOKEN,
  logIndex: BigInt(logIndex),
  block: b,
  transaction: tx,
  params: [
    { name: "from", value: { kind: EthKind.Address, value: getBytes(from) } },
    { name: "to", value: { kind: EthKind.Address, value: getBytes(to) } },
    { name: "value", value: { kind: EthKind.Uint, value: value } },
  ],
});
const ZERO = "0x" + "00".repeat(20);

test("host: objects the host allocates are 16-byte aligned (AS realloc asserts it)", async () => {
  const h = await fixtureHost();
  for (const n of [0, 1, 3, 12, 13, 16, 20, 44, 100]) {
    const p = h.mem.newUint8Array(new Uint8Array(n));
    if (p % 16 !== 0) throw new Error(`Uint8Array(${n}) at ${p}`);
    const s = h.mem.newString("x".repeat(n));
    if (s % 16 !== 0) throw new Error(`String(${n}) at ${s}`);
  }
});

test("host: a handler runs, reads the data source context, and a second save of an immutable entity fails", async () => {
  const h = await fixtureHost();
  h.run("handleTransfer", h.newEvent(transferEvent(4, ZERO, ALICE, 5n)));
  expectEq(h.entity("Token", TOKEN).symbol, "FIX", "symbol from dataSource.context()");
  expectEq(h.count("Transfer"), 1);
  expectThrow(
    () => h.run("handleTransfer", h.newEvent(transferEvent(4, ZERO, ALICE, 5n))),
    /entities of type `Transfer` can not be updated since they are immutable \(id 0x3{64}04000000\)/,
  );
  h.run("handleTransfer", h.newEvent(transferEvent(5, ZERO, ALICE, 5n)));
  expectEq(h.count("Transfer"), 2);
  expectEq(h.storeOps.set > 0 && h.storeOps.get > 0, true, "store operations counted");
});

test("host: immutable entities cannot be removed; mutable ones can", async () => {
  const h = await fixtureHost();
  h.run("handleTransfer", h.newEvent(transferEvent(1, ZERO, ALICE, 5n)));
  const f = h.hostFunctions();
  const id = "0x" + "33".repeat(32) + "01000000";
  expectThrow(() => f["store.remove"](h.mem.newString("Transfer"), h.mem.newString(id)), /can not be removed since they are immutable/);
  f["store.remove"](h.mem.newString("Token"), h.mem.newString(TOKEN));
  expectEq(h.count("Token"), 0);
});

test("host: schema validation rejects missing, unknown, mistyped and derived fields", async () => {
  const h = await fixtureHost();
  const v = (entries) => new Map(entries);
  const id = { kind: StoreKind.Bytes, value: getBytes(ALICE) };
  const str = { kind: StoreKind.String, value: "a" };
  const list = { kind: StoreKind.Array, value: [] };
  expectThrow(() => h.validate("Holder", ALICE, v([["id", id]])), /missing value for non-nullable field `name`/);
  expectThrow(() => h.validate("Holder", ALICE, v([["id", id], ["name", str], ["tokens", list], ["nope", str]])), /unknown field `nope`/);
  expectThrow(
    () => h.validate("Holder", ALICE, v([["id", id], ["name", { kind: StoreKind.BigInt, value: 1n }], ["tokens", list]])),
    /`name` is a BigInt, the schema declares String/,
  );
  expectThrow(() => h.validate("Holder", ALICE, v([["id", id], ["name", str], ["tokens", list], ["balances", list]])), /derived and can not be set/);
  expectThrow(() => h.validate("Nope", "1", v([])), /not defined in the schema/);
  h.validate("Holder", ALICE, v([["id", id], ["name", str], ["tokens", list]]));
});

test("host: crypto.keccak256 and ethereum.encode/decode match ethers", async () => {
  const h = await fixtureHost();
  const f = h.hostFunctions();
  const k = h.mem.readBytes(f["crypto.keccak256"](h.mem.newUint8Array(toUtf8Bytes("abc"))));
  expectEq("0x" + Buffer.from(k).toString("hex"), keccak256(toUtf8Bytes("abc")));
  const tuple = {
    kind: EthKind.Tuple,
    value: [
      { kind: EthKind.Uint, value: 7n },
      { kind: EthKind.Address, value: getBytes(ALICE) },
      { kind: EthKind.Array, value: [{ kind: EthKind.Uint, value: 1n }, { kind: EthKind.Uint, value: 2n }] },
    ],
  };
  const enc = h.mem.readBytes(f["ethereum.encode"](h.writeEthValue(tuple)));
  const dec = h.readEthValue(f["ethereum.decode"](h.mem.newString("(uint256,address,uint256[])"), h.mem.newUint8Array(enc)));
  expectEq(String(dec.value[0].value), "7");
  expectEq("0x" + Buffer.from(dec.value[1].value).toString("hex"), ALICE);
  expectEq(dec.value[2].value.length, 2);
  expectEq(f["ethereum.decode"](h.mem.newString("uint256"), h.mem.newUint8Array(new Uint8Array(3))), 0, "bad data decodes to null");
});

// ---------------------------------------------------------------- replay + history + query over indexed data
async function replayFixture(target = "0x" + "d0".repeat(20)) {
  const iface = new Interface(ABI);
  const replay = await new SubgraphReplay(path.join(FIX, "build"), { targets: { Token: { address: target, startBlock: 5 } } }).init();
  const mk = (name, args, logIndex, n) => {
    const l = iface.encodeEventLog(name, args);
    return { address: target, topics: l.topics, data: l.data, logIndex: toBeHex(logIndex), blockNumber: toBeHex(n), transactionHash: "0x" + n.toString(16).padStart(64, "0") };
  };
  const rpcBlock = (n) => ({ hash: "0x" + String(n).padStart(64, "0"), parentHash: "0x" + String(n - 1).padStart(64, "0"), number: toBeHex(n), timestamp: toBeHex(1_767_225_600 + n * 12), gasUsed: "0x0", gasLimit: "0x0", size: "0x0" });
  const rpcTx = (hash) => ({ ...tx, hash, transactionIndex: "0x0", value: "0x0", gas: "0x0", nonce: "0x0" });
  replay.runBlock(rpcBlock(4), [mk("Transfer", [ZERO, ALICE, 999n], 0, 4)], rpcTx); // before the start block
  replay.runBlock(rpcBlock(7), [mk("Transfer", [ZERO, ALICE, 100n], 0, 7), mk("Transfer", [ALICE, BOB, 40n], 1, 7)], rpcTx);
  replay.advance(rpcBlock(8)); // a block without triggers
  replay.runBlock(rpcBlock(9), [mk("Transfer", [ALICE, BOB, 60n], 0, 9)], rpcTx);
  const other = { ...mk("Transfer", [ZERO, BOB, 1n], 1, 9), address: "0x" + "ee".repeat(20) }; // not a data source
  replay.runBlock(rpcBlock(10), [other], rpcTx);
  return { replay, target };
}

test("replay: ABI-encoded logs run through the built mapping re-targeted; start block, foreign addresses skipped", async () => {
  const { replay, target } = await replayFixture();
  expectEq(replay.handled, 3);
  expectEq(replay.entity("Token", target).supply, "100");
  expectEq(replay.entity("Token", target).holders, 1, "Alice emptied, Bob holds");
  expectEq(replay.entity("Token", target).symbol, "fixture", "context from the manifest");
  const s = replay.stats();
  expectEq(s.events, 3);
  expectEq(s.handlers[0].name, "Token.handleTransfer");
  expectEq(s.handlers[0].calls, 3);
  expectEq(s.handlers[0].maxOps > 0, true, "store operations per call");
  expectEq(s.eventsPerSecond > 0, true);
});

test("history: each write is kept by block; a block without triggers moves the head", async () => {
  const { replay, target } = await replayFixture();
  const h = replay.history;
  expectEq(h.head.number, 10);
  expectEq(String(h.get("Balance", target + ALICE.slice(2), 7).get("amount").value), "60");
  expectEq(String(h.get("Balance", target + ALICE.slice(2), 8).get("amount").value), "60");
  expectEq(String(h.get("Balance", target + ALICE.slice(2), 9).get("amount").value), "0");
  expectEq(h.get("Balance", target + ALICE.slice(2), 6), null, "before it existed");
  expectEq([...h.entities("Transfer", 7)].length, 2);
});

test("query: the indexed fixture answered as of a block, with _meta and nested derived lists", async () => {
  const { replay, target } = await replayFixture();
  const q = new QueryLayer({ schema: SCHEMA, history: replay.history, deployment: "fixture" });
  const r = q.run(`query A($b: Int!) {
    now: token(id: "${target}") { supply holders balances(orderBy: amount, orderDirection: desc) { holder { id } amount } }
    then: token(id: "${target}", block: { number: $b }) { holders balances(orderBy: amount) { amount } }
    _meta { block { number hash } deployment hasIndexingErrors }
  }`, { b: 7 });
  expectEq(r.errors, undefined, "no errors");
  expectEq(r.data.now.holders, 1);
  expectEq(r.data.now.balances.map((b) => b.amount), ["100", "0"]);
  expectEq(r.data.then.holders, 2);
  expectEq(r.data.then.balances.map((b) => b.amount), ["40", "60"]);
  expectEq(r.data._meta.block.number, 10);
  expectEq(r.data._meta.deployment, "fixture");
  const late = q.run(`{ tokens(block: { number: 11 }) { id } }`);
  expectEq(/has only indexed up to block number 10 and data for block number 11 is therefore not yet available/.test(late.errors?.[0]?.message), true, "a block not yet indexed is an error");
});

// ---------------------------------------------------------------- graph-node names and the derived schema
test("inflector: graph-node's query field names (Inflector camel case and plural)", () => {
  const cases = {
    Token: ["token", "tokens"],
    DPSEmission: ["dpsemission", "dpsemissions"],
    CHMint: ["chmint", "chmints"],
    ProviderCHMint: ["providerCHMint", "providerCHMints"],
    FuturesSeries: ["futuresSeries", "futuresSeries_collection"],
    EmissionEpoch: ["emissionEpoch", "emissionEpoches"],
    TaskCurrencyStats: ["taskCurrencyStats", "taskCurrencyStats_collection"],
    Liquidity: ["liquidity", "liquidities"],
    Box: ["box", "boxes"],
    Leaf: ["leaf", "leaves"],
    // the rules match lower-case stems: a capitalised type name falls through to the generic ones
    Person: ["person", "persons"],
    Matrix: ["matrix", "matrixes"],
    VaultLP: ["vaultLP", "vaultLPs"],
  };
  for (const [type, names] of Object.entries(cases)) expectEq(queryFieldNames(type), names, type);
  expectEq(toCamelCase("FOO_BAR"), "fooBar");
  expectEq(toPlural("sheep"), "sheep");
  expectEq(toPlural("ox"), "oxen");
});

test("api schema: filters, orderBy values and collection arguments derived as graph-node derives them", () => {
  const model = inputModel(SCHEMA);
  const sdl = apiSchemaSdl(model);
  const block = (name) => sdl.slice(sdl.indexOf(name + " {"), sdl.indexOf("}", sdl.indexOf(name + " {")));
  const filter = block("input Token_filter");
  for (const f of ["symbol_contains_nocase", "symbol_not_ends_with", "supply_gte", "kind_in", "paused_not_in", "tags_contains", "tags_not_contains_nocase", "owner_starts_with", "owner_: Holder_filter", "balances_: Balance_filter", "price_lte", "_change_block", "and: [Token_filter]"])
    if (!filter.includes(f)) throw new Error(`Token_filter lacks ${f}`);
  if (filter.includes("balances_contains") || filter.includes("balances:")) throw new Error("a derived list takes only the nested filter");
  const holder = block("input Holder_filter");
  if (!holder.includes("tokens_contains: [String!]") || holder.includes("tokens_contains_nocase")) throw new Error("Bytes-id lists: contains without _nocase");
  const order = block("enum Token_orderBy");
  for (const v of ["owner__name", "symbol", "balances"]) if (!order.includes(v)) throw new Error(`Token_orderBy lacks ${v}`);
  if (order.includes("owner__tokens")) throw new Error("child ordering skips lists");
  if (!block("enum Holder_orderBy").includes("primary__amount")) throw new Error("a derived single field orders by its child's fields");
  if (!sdl.includes("series_collection(")) throw new Error("Series -> series_collection");
  if (!/balances\(skip: Int = 0, first: Int = 100, orderBy: Balance_orderBy/.test(sdl)) throw new Error("list fields take collection arguments");
  expectThrow(() => inputModel("interface I { id: ID! } type A @entity { id: ID! }"), /interfaces are not supported/);
  expectThrow(() => inputModel('type A @entity(timeseries: true) { id: Int8! }'), /timeseries entities are not supported/);
});

// ---------------------------------------------------------------- the query layer on a hand-made history
function handHistory() {
  const h = new EntityHistory();
  const B = (hex) => ({ kind: StoreKind.Bytes, value: getBytes(hex) });
  const S = (s) => ({ kind: StoreKind.String, value: s });
  const N = (n) => ({ kind: StoreKind.BigInt, value: BigInt(n) });
  const I = (n) => ({ kind: StoreKind.Int, value: n });
  const L = (xs) => ({ kind: StoreKind.Array, value: xs });
  const NULL = { kind: StoreKind.Null, value: null };
  const tokens = [
    ["0x01", "ALPHA", 300, 2, "Plain", ["a", "Bee"], "0xa1", "1.5"],
    ["0x02", "beta", 100, 1, "Wrapped", ["bee"], "0xa2", null],
    ["0x03", "Gamma", 200, 0, "Plain", [], null, "0.25"],
  ];
  h.advance({ number: 1, hash: "0x" + "aa".repeat(32), timestamp: 100 });
  for (const [hid, name, tok] of [["0xa1", "ann", ["0x01"]], ["0xa2", "bob", ["0x01", "0x02"]]])
    h.record("Holder", hid, new Map([["id", B(hid)], ["name", S(name)], ["tokens", L(tok.map(B))]]));
  for (const [id, sym, supply, holders, kind, tags, owner, price] of tokens)
    h.record("Token", id, new Map([["id", B(id)], ["symbol", S(sym)], ["supply", N(supply)], ["holders", I(holders)], ["kind", S(kind)], ["paused", { kind: StoreKind.Bool, value: false }], ["tags", L(tags.map(S))], ["owner", owner ? B(owner) : NULL], ["price", price ? { kind: StoreKind.BigDecimal, value: BD.fromString(price) } : NULL]]));
  for (const [t, hd, amt] of [["0x01", "0xa1", 10], ["0x01", "0xa2", 20], ["0x02", "0xa2", 5]])
    h.record("Balance", t + hd.slice(2), new Map([["id", B(t + hd.slice(2))], ["token", B(t)], ["holder", B(hd)], ["amount", N(amt)]]));
  h.advance({ number: 2, hash: "0x" + "bb".repeat(32), timestamp: 112 });
  h.record("Token", "0x02", new Map([...h.get("Token", "0x02", 1), ["supply", N(150)]]));
  return h;
}
const layer = () => new QueryLayer({ schema: SCHEMA, history: handHistory(), deployment: "hand" });
const ids = (q, text, vars) => {
  const r = q.run(text, vars);
  if (r.errors?.length) throw new Error(r.errors.map((e) => e.message).join("; "));
  return r.data;
};

test("query: scalar filters — equality, not, comparisons, in/not_in, string and list suffixes, nocase, null", () => {
  const q = layer();
  const pick = (where) => ids(q, `{ tokens(where: ${where}) { id } }`).tokens.map((t) => t.id).join(",");
  expectEq(pick(`{ supply_gt: "160" }`), "0x01,0x03", "gt");
  expectEq(pick(`{ supply_lte: 150 }`), "0x02", "lte with an Int literal for a BigInt");
  expectEq(pick(`{ holders_in: [0, 2] }`), "0x01,0x03", "in");
  expectEq(pick(`{ kind_not: Plain }`), "0x02", "enum not");
  expectEq(pick(`{ symbol_starts_with_nocase: "b" }`), "0x02", "starts_with_nocase");
  expectEq(pick(`{ symbol_contains: "amm" }`), "0x03", "contains (case-sensitive)");
  expectEq(pick(`{ symbol_not_ends_with: "a" }`), "0x01", "not_ends_with");
  expectEq(pick(`{ tags_contains: ["bee"] }`), "0x02", "list contains");
  expectEq(pick(`{ tags_contains_nocase: ["bee"] }`), "0x01,0x02", "list contains_nocase");
  expectEq(pick(`{ tags: [] }`), "0x03", "list equality");
  expectEq(pick(`{ owner: null }`), "0x03", "null");
  expectEq(pick(`{ owner_not: null }`), "0x01,0x02", "not null");
  expectEq(pick(`{ owner_not: "0xa1" }`), "0x02", "not excludes nulls (SQL)");
  expectEq(pick(`{ owner: "0xA1" }`), "0x01", "Bytes ids compare case-insensitively");
  expectEq(pick(`{ price_gte: "0.5" }`), "0x01", "BigDecimal");
  expectEq(pick(`{ id_in: ["0x03", "0x01"] }`), "0x01,0x03", "id_in");
});

test("query: nested filters on references, reference lists and derived fields; and/or; _change_block", () => {
  const q = layer();
  const pick = (f, where) => ids(q, `{ ${f}(where: ${where}) { id } }`)[f].map((t) => t.id).join(",");
  expectEq(pick("tokens", `{ owner_: { name: "bob" } }`), "0x02", "reference");
  expectEq(pick("tokens", `{ balances_: { amount_gt: "15" } }`), "0x01", "derived list");
  expectEq(pick("holders", `{ tokens_: { symbol: "beta" } }`), "0xa2", "reference list");
  expectEq(pick("holders", `{ tokens_contains: ["0x02"] }`), "0xa2", "reference list contains");
  expectEq(pick("tokens", `{ or: [{ supply: "300" }, { holders: 0 }] }`), "0x01,0x03", "or");
  expectEq(pick("tokens", `{ and: [{ supply_gt: "100" }, { holders_gt: 0 }] }`), "0x01,0x02", "and");
  expectEq(pick("tokens", `{ _change_block: { number_gte: 2 } }`), "0x02", "changed since block 2");
  const mixed = q.run(`{ tokens(where: { supply: "1", or: [{ holders: 0 }] }) { id } }`);
  expectEq(/Cannot mix column filters with 'or' operator/.test(mixed.errors?.[0]?.message), true, "or mixed with columns");
});

test("query: ordering — direction, id tie-break, nulls (PostgreSQL), child fields, enums; default by id", () => {
  const q = layer();
  const order = (args, f = "id") =>
    ids(q, `{ tokens${args ? `(${args})` : ""} { ${f} } }`).tokens.map((t) => t[f]).join(",");
  expectEq(order(""), "0x01,0x02,0x03", "default: id ascending");
  expectEq(order("orderBy: supply, orderDirection: desc"), "0x01,0x03,0x02");
  expectEq(order("orderBy: price"), "0x03,0x01,0x02", "nulls last ascending");
  expectEq(order("orderBy: price, orderDirection: desc"), "0x02,0x01,0x03", "nulls first descending");
  expectEq(order("orderBy: owner__name, orderDirection: desc"), "0x03,0x02,0x01", "child field (null first desc)");
  expectEq(order("orderBy: kind"), "0x01,0x03,0x02", "enum in declaration order, ties by id");
  expectEq(order("orderBy: holders, first: 2, skip: 1"), "0x02,0x01", "skip/first after ordering");
  const list = q.run(`{ tokens(orderBy: tags) { id } }`);
  expectEq(/Ordering by `tags` is not supported/.test(list.errors?.[0]?.message), true, "lists cannot order");
});

test("query: ranges, blocks and what is not implemented fail loudly; validation uses graph-node's schema", () => {
  const q = layer();
  const err = (text, vars) => q.run(text, vars).errors?.[0]?.message ?? "";
  expectEq(/`first` argument must be between 0 and 1000, but is 1001/.test(err(`{ tokens(first: 1001) { id } }`)), true, "first > 1000");
  expectEq(/`first` argument must be between 0 and 1000, but is 0/.test(err(`{ tokens(first: 0) { id } }`)), true, "first 0");
  expectEq(ids(q, `{ tokens(block: { number: 1 }, where: { id: "0x02" }) { supply } }`).tokens[0].supply, "100", "as of block 1");
  expectEq(ids(q, `{ tokens(block: { hash: "0x${"aa".repeat(32)}" }, where: { id: "0x02" }) { supply } }`).tokens[0].supply, "100", "by hash");
  expectEq(ids(q, `{ tokens(block: { number_gte: 2 }, where: { id: "0x02" }) { supply } }`).tokens[0].supply, "150", "number_gte");
  expectEq(/only the hashes of blocks the replay processed/.test(err(`{ tokens(block: { hash: "0x${"cc".repeat(32)}" }) { id } }`)), true, "unknown hash");
  expectEq(/_logs is not implemented/.test(err(`{ _logs { id } }`)), true, "_logs");
  expectEq(/Cannot query field "tokenz"/.test(err(`{ tokenz { id } }`)), true, "unknown field");
  expectEq(/Variable "\$s" of type "Bytes!" used in position expecting type "String"/.test(err(`query Q($s: Bytes!) { tokens(where: { owner: $s }) { id } }`, { s: "0xa1" })), true, "variable type");
  expectEq(/BigInt cannot represent "x"/.test(err(`{ tokens(where: { supply: "x" }) { id } }`)), true, "BigInt literal");
  const r = q.run(`{ holder(id: "0xa2") { balances(where: { amount_gt: "6" }, first: 1) { amount } primary { id } } series_collection { id } }`);
  expectEq(r.errors, undefined);
  expectEq(r.data.holder.balances.map((b) => b.amount), ["20"], "nested collection arguments");
  expectEq(r.data.series_collection, [], "an empty collection");
  expectEq(q.run(`{ token(id: "0x09") { id } }`).data.token, null, "a missing entity is null");
});

test("queriesInMarkdown: every graphql block is one named operation, names unique", () => {
  const md = "x\n```graphql\nquery A { tokens { id } }\n```\n\n```graphql\nquery B($x: Int!) { tokens(first: $x) { id } }\n```\n";
  expectEq(queriesInMarkdown(md).map((q) => `${q.name}@${q.line}`), ["A@2", "B@6"]);
  expectThrow(() => queriesInMarkdown("```graphql\n{ tokens { id } }\n```\n"), /exactly one named operation/);
  expectThrow(() => queriesInMarkdown("```graphql\nquery A { a }\n```\n```graphql\nquery A { b }\n```\n"), /used twice/);
});

// ---------------------------------------------------------------- code generation
test("codegen: zero-initialisers for mutable entities; factories type each ABI parameter like graph codegen", () => {
  const d = entityDefaults(SCHEMA);
  for (const s of ["export function initToken(id: Bytes): Token", 'e.setBigInt("supply", BigInt.zero())', 'e.setI32("holders", 0)', 'e.setBoolean("paused", false)', 'e.set("tags", Value.fromStringArray', "export function loadOrInitBalance", "export function initEntity("])
    if (!d.includes(s)) throw new Error(`defaults lack: ${s}`);
  if (d.includes("initTransfer")) throw new Error("immutable entities get no initialiser");
  if (/e\.set\w*\("symbol"/.test(d)) throw new Error("strings are left to the mapping");
  const f = eventFactories("Token", ABI, { eventsModule: "../Token/Token", abiFile: "abis/Token.json" });
  for (const s of ["export class TokenEvents", "Transfer(timestamp_: i64, from: Address, to: Address, value: BigInt): Transfer", "Noted(timestamp_: i64, text: string, tags: Array<Bytes>, info: ethereum.Tuple): Noted", "ethereum.Value.fromTuple(info)", "ethereum.Value.fromFixedBytes(v)"])
    if (!f.includes(s)) throw new Error(`factories lack: ${s}`);
});

test("matchstick: the fixture's tests (generated factories, a shouldFail test) and BigDecimal vectors pass", async () => {
  const lines = [];
  const r = await runMatchstick({ root: FIX, out: (m) => lines.push(m) });
  if (r.failed || r.passed < 8) throw new Error(`${r.passed} passed, ${r.failed} failed:\n${lines.join("\n")}`);
});

// ---------------------------------------------------------------- run
export async function runHostTests({ out = console.log } = {}) {
  let passed = 0;
  let failed = 0;
  out("tools/graph-host tests");
  let prepared = null;
  try {
    await prepareFixture();
  } catch (e) {
    prepared = e;
  }
  for (const t of tests) {
    try {
      if (prepared && /^(host|replay|history|query: the indexed|matchstick)/.test(t.name)) throw prepared;
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
  const { passed, failed } = await runHostTests();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
