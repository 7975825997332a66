// The graph-node host API that graph-ts mappings import, in Node: enough to instantiate `graph build` output
// (apiVersion 0.0.7 .. 0.0.9), hand it an ethereum.Event laid out as graph-node lays it out, run handlers, and
// keep the entity store. Behaviour follows graph-node where a mapping can observe it: schema validation on
// store.set, immutable entities refuse a second write, BigDecimal rounding (bigdecimal.mjs), BigInt semantics.
// Not supported (the mappings in this repo must not need them): ethereum.call against a node (only mocks),
// receipts, block/call handlers, file data sources, ipfs.
import { parse as parseGraphql } from "graphql";
import bs58 from "bs58";
import { AbiCoder, ParamType, Indexed, getBytes, hexlify, keccak256, getAddress } from "ethers";
import { AscMemory, TypeIdx, StoreKind, EthKind, JsonKind, signedLEToBigint } from "./asc-memory.mjs";
import * as BD from "./bigdecimal.mjs";

const LEVELS = ["CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"];
const hex = (b) => "0x" + Buffer.from(b).toString("hex");
const toBytes = (h) => (h instanceof Uint8Array ? h : getBytes(h));
const abi = AbiCoder.defaultAbiCoder();

export class HostError extends Error {}

// ---------------- schema: entity types, field types, @derivedFrom, immutability ----------------
const SCALARS = {
  ID: [StoreKind.String, StoreKind.Bytes],
  String: [StoreKind.String],
  Bytes: [StoreKind.Bytes],
  BigInt: [StoreKind.BigInt],
  BigDecimal: [StoreKind.BigDecimal],
  Boolean: [StoreKind.Bool],
  Int: [StoreKind.Int],
  Int8: [StoreKind.Int8],
  Timestamp: [StoreKind.Timestamp],
};

export function loadSchema(sdl) {
  const doc = parseGraphql(sdl);
  const enums = new Set(doc.definitions.filter((d) => d.kind === "EnumTypeDefinition").map((d) => d.name.value));
  const types = {};
  const unwrap = (t) => {
    let nonNull = false;
    let list = false;
    if (t.kind === "NonNullType") {
      nonNull = true;
      t = t.type;
    }
    if (t.kind === "ListType") {
      list = true;
      t = t.type;
      if (t.kind === "NonNullType") t = t.type;
    }
    return { nonNull, list, name: t.name.value };
  };
  for (const def of doc.definitions) {
    const entity = def.directives?.find((d) => d.name.value === "entity");
    if (def.kind !== "ObjectTypeDefinition" || !entity) continue;
    const immutableArg = entity.arguments?.find((a) => a.name.value === "immutable");
    const fields = {};
    for (const f of def.fields) {
      const derived = f.directives?.find((d) => d.name.value === "derivedFrom");
      fields[f.name.value] = { ...unwrap(f.type), derivedFrom: derived ? derived.arguments[0].value.value : null };
    }
    types[def.name.value] = { fields, immutable: immutableArg?.value?.value === true };
  }
  // Reference fields hold the referenced entity's id: a String or Bytes, whatever that entity's id type is.
  for (const t of Object.values(types)) {
    for (const f of Object.values(t.fields)) {
      if (SCALARS[f.name]) f.kinds = SCALARS[f.name];
      else if (enums.has(f.name)) f.kinds = [StoreKind.String];
      else if (types[f.name]) f.kinds = SCALARS[types[f.name].fields.id?.name ?? "ID"] ?? [StoreKind.String];
      else f.kinds = null; // unknown type: graph build rejects it before we get here
    }
  }
  return types;
}

const KIND_NAME = Object.fromEntries(Object.entries(StoreKind).map(([k, v]) => [v, k]));

export class SubgraphHost {
  /**
   * @param {object} o
   * @param {Uint8Array|WebAssembly.Module} o.wasm   compiled mapping (build/<DataSource>/<DataSource>.wasm)
   * @param {string} [o.schema]  schema.graphql text (enables validation, immutability and loadRelated)
   * @param {Map} [o.store]      a store shared with other data sources' hosts (one subgraph = one store)
   * @param {import("./history.mjs").EntityHistory} [o.history]  records every write by block (for queries at a block)
   * @param {{address?:string, network?:string, context?:Map}} [o.dataSource]
   * @param {(level:string,msg:string)=>void} [o.onLog]
   * @param {object} [o.extraImports]  extra host functions keyed by import name (matchstick's)
   */
  constructor(o) {
    this.o = o;
    this.schema = typeof o.schema === "string" ? loadSchema(o.schema) : (o.schema ?? null);
    this.store = o.store ?? new Map(); // entityType -> Map(id -> Map(field -> {kind,value}))
    this.blockStore = o.blockStore ?? new Map(); // entities written in the current block (store.get_in_block)
    /** store operations so far (the replay reports them per handler): reads, writes, removes, related loads */
    this.storeOps = { get: 0, set: 0, remove: 0, related: 0 };
    this.logs = [];
    this.createdDataSources = [];
    this.callMocks = new Map();
    this.dataSource = {
      address: "0x0000000000000000000000000000000000000000",
      network: "mainnet",
      context: new Map(),
      ...(o.dataSource || {}),
    };
    this.unimplementedCalls = new Set();
  }

  async init() {
    const mod = this.o.wasm instanceof WebAssembly.Module ? this.o.wasm : await WebAssembly.compile(this.o.wasm);
    const impls = this.hostFunctions();
    const imports = {};
    for (const imp of WebAssembly.Module.imports(mod)) {
      if (imp.kind !== "function") continue;
      const fn = this.o.extraImports?.[imp.name] ?? impls[imp.name];
      (imports[imp.module] ??= {})[imp.name] =
        fn ??
        (() => {
          this.unimplementedCalls.add(imp.name);
          throw new HostError(`host function ${imp.module}.${imp.name} is not implemented by this host`);
        });
    }
    this.instance = await WebAssembly.instantiate(mod, imports);
    this.x = this.instance.exports;
    this.mem = new AscMemory(this.x);
    if (this.x._start) this.x._start(); // graph-cli compiles with --explicitStart
    return this;
  }

  /** graph-node starts an empty per-block cache for every block: store.get_in_block only sees this block. */
  startBlock() {
    this.blockStore.clear();
  }

  // ---------------- store inspection ----------------
  entity(type, id) {
    const e = this.store.get(type)?.get(id);
    return e ? Object.fromEntries([...e].map(([k, v]) => [k, plain(v)])) : null;
  }
  entities(type) {
    return [...(this.store.get(type)?.keys() ?? [])].map((id) => this.entity(type, id));
  }
  count(type) {
    return this.store.get(type)?.size ?? 0;
  }
  dump() {
    const out = {};
    for (const [t, m] of this.store) out[t] = [...m.keys()].map((id) => this.entity(t, id));
    return out;
  }

  validate(type, id, data) {
    if (!this.schema) return;
    const t = this.schema[type];
    if (!t) throw new HostError(`Entity type \`${type}\` is not defined in the schema`);
    for (const [name, f] of Object.entries(t.fields)) {
      if (f.derivedFrom) {
        if (data.has(name))
          throw new HostError(`Entity ${type}[${id}]: field \`${name}\` is derived and can not be set`);
        continue;
      }
      const v = data.get(name);
      if (f.nonNull && (!v || v.kind === StoreKind.Null))
        throw new HostError(`Entity ${type}[${id}]: missing value for non-nullable field \`${name}\``);
    }
    for (const [k, v] of data) {
      const f = t.fields[k];
      if (!f) throw new HostError(`Entity ${type}[${id}]: unknown field \`${k}\``);
      if (v.kind === StoreKind.Null || !f.kinds) continue;
      const check = (x) => {
        if (!f.kinds.includes(x.kind))
          throw new HostError(
            `Entity ${type}[${id}]: the value of field \`${k}\` is a ${KIND_NAME[x.kind]}, the schema declares ${f.list ? `[${f.name}]` : f.name}`,
          );
      };
      if (f.list) {
        if (v.kind !== StoreKind.Array) throw new HostError(`Entity ${type}[${id}]: field \`${k}\` must be a list`);
        v.value.forEach(check);
      } else check(v);
    }
  }

  // ---------------- store values <-> JS ----------------
  readStoreValue(p) {
    const m = this.mem;
    const kind = m.i32(p);
    const pl = p + 8;
    switch (kind) {
      case StoreKind.String:
        return { kind, value: m.readString(m.u32(pl)) };
      case StoreKind.Int:
        return { kind, value: m.i32(pl) };
      case StoreKind.Int8:
      case StoreKind.Timestamp:
        return { kind, value: m.i64(pl) };
      case StoreKind.BigDecimal:
        return { kind, value: BD.normalize(m.readBigDecimal(m.u32(pl))) };
      case StoreKind.Bool:
        return { kind, value: m.u32(pl) !== 0 };
      case StoreKind.Array:
        return { kind, value: m.readPtrArray(m.u32(pl)).map((q) => this.readStoreValue(q)) };
      case StoreKind.Null:
        return { kind, value: null };
      case StoreKind.Bytes:
        return { kind, value: m.readBytes(m.u32(pl)) };
      case StoreKind.BigInt:
        return { kind, value: m.readBigInt(m.u32(pl)) };
      default:
        throw new HostError(`unknown store value kind ${kind}`);
    }
  }
  writeStoreValue(v) {
    const m = this.mem;
    let payload;
    switch (v.kind) {
      case StoreKind.String:
        payload = m.newString(v.value);
        break;
      case StoreKind.Int:
        payload = BigInt(v.value) & 0xffffffffn;
        break;
      case StoreKind.Int8:
      case StoreKind.Timestamp:
        payload = BigInt(v.value);
        break;
      case StoreKind.BigDecimal:
        payload = m.newBigDecimal(v.value);
        break;
      case StoreKind.Bool:
        payload = v.value ? 1 : 0;
        break;
      case StoreKind.Array:
        payload = m.newPtrArray(
          TypeIdx.ArrayStoreValue,
          v.value.map((e) => this.writeStoreValue(e)),
        );
        break;
      case StoreKind.Null:
        payload = 0;
        break;
      case StoreKind.Bytes:
        payload = m.newUint8Array(v.value);
        break;
      case StoreKind.BigInt:
        payload = m.newBigInt(v.value);
        break;
      default:
        throw new HostError(`unknown store value kind ${v.kind}`);
    }
    return m.newEnum(TypeIdx.StoreValue, v.kind, payload);
  }
  readEntity(p) {
    // TypedMap<string, Value> = { entries: Array<TypedMapEntry{key, value}> }
    const m = this.mem;
    const out = new Map();
    for (const e of m.readPtrArray(m.u32(p))) out.set(m.readString(m.u32(e)), this.readStoreValue(m.u32(e + 4)));
    return out;
  }
  writeEntity(map) {
    const m = this.mem;
    const entries = [...map].map(([k, v]) =>
      m.newStruct(TypeIdx.TypedMapEntryStringStoreValue, [m.newString(k), this.writeStoreValue(v)]),
    );
    return m.newStruct(TypeIdx.TypedMapStringStoreValue, [
      m.newPtrArray(TypeIdx.ArrayTypedMapEntryStringStoreValue, entries),
    ]);
  }

  // ---------------- ethereum.Value <-> JS ----------------
  // JS form: { kind: EthKind.X, value }, value: Uint8Array | bigint | boolean | string | array of JS forms
  writeEthValue(v) {
    const m = this.mem;
    let payload;
    switch (v.kind) {
      case EthKind.Address:
      case EthKind.FixedBytes:
      case EthKind.Bytes:
      case EthKind.Function:
        payload = m.newUint8Array(toBytes(v.value));
        break;
      case EthKind.Int:
      case EthKind.Uint:
        payload = m.newBigInt(v.value);
        break;
      case EthKind.Bool:
        payload = v.value ? 1 : 0;
        break;
      case EthKind.String:
        payload = m.newString(v.value);
        break;
      case EthKind.FixedArray:
      case EthKind.Array:
      case EthKind.Tuple:
        payload = m.newPtrArray(
          TypeIdx.ArrayEthereumValue,
          v.value.map((e) => this.writeEthValue(e)),
        );
        break;
      default:
        throw new HostError(`bad ethereum value kind ${v.kind}`);
    }
    return m.newEnum(TypeIdx.EthereumValue, v.kind, payload);
  }
  readEthValue(p) {
    const m = this.mem;
    const kind = m.i32(p);
    const q = m.u32(p + 8);
    switch (kind) {
      case EthKind.Address:
      case EthKind.FixedBytes:
      case EthKind.Bytes:
      case EthKind.Function:
        return { kind, value: m.readBytes(q) };
      case EthKind.Int:
      case EthKind.Uint:
        return { kind, value: m.readBigInt(q) };
      case EthKind.Bool:
        return { kind, value: q !== 0 };
      case EthKind.String:
        return { kind, value: m.readString(q) };
      default:
        return { kind, value: m.readPtrArray(q).map((e) => this.readEthValue(e)) };
    }
  }

  /** An ethers ParamType and its decoded value (from Interface.parseLog / AbiCoder.decode) -> JS ethereum value. */
  static abiToEth(param, val) {
    if (val instanceof Indexed) return { kind: EthKind.FixedBytes, value: getBytes(val.hash) }; // indexed dynamic type
    switch (param.baseType) {
      case "array":
        return {
          kind: param.arrayLength === -1 ? EthKind.Array : EthKind.FixedArray,
          value: [...val].map((v) => SubgraphHost.abiToEth(param.arrayChildren, v)),
        };
      case "tuple":
        return { kind: EthKind.Tuple, value: param.components.map((c, i) => SubgraphHost.abiToEth(c, val[i])) };
      case "address":
        return { kind: EthKind.Address, value: getBytes(val) };
      case "bool":
        return { kind: EthKind.Bool, value: val };
      case "string":
        return { kind: EthKind.String, value: val };
      case "bytes":
        return { kind: EthKind.Bytes, value: getBytes(val) };
      case "function":
        return { kind: EthKind.Function, value: getBytes(val) };
    }
    if (param.baseType.startsWith("bytes")) return { kind: EthKind.FixedBytes, value: getBytes(val) };
    if (param.baseType.startsWith("uint")) return { kind: EthKind.Uint, value: BigInt(val) };
    if (param.baseType.startsWith("int")) return { kind: EthKind.Int, value: BigInt(val) };
    throw new HostError(`unsupported ABI type ${param.type}`);
  }

  /** JS ethereum value -> [ABI type string, ethers value] (ethereum.encode). */
  static ethToAbi(v) {
    switch (v.kind) {
      case EthKind.Address:
        return ["address", getAddress(hexlify(v.value))];
      case EthKind.FixedBytes:
        return [`bytes${v.value.length}`, hexlify(v.value)];
      case EthKind.Bytes:
        return ["bytes", hexlify(v.value)];
      case EthKind.Int:
        return ["int256", v.value];
      case EthKind.Uint:
        return ["uint256", v.value];
      case EthKind.Bool:
        return ["bool", v.value];
      case EthKind.String:
        return ["string", v.value];
      case EthKind.Tuple: {
        const parts = v.value.map(SubgraphHost.ethToAbi);
        return [`(${parts.map((p) => p[0]).join(",")})`, parts.map((p) => p[1])];
      }
      case EthKind.Array:
      case EthKind.FixedArray: {
        const parts = v.value.map(SubgraphHost.ethToAbi);
        const inner = parts[0]?.[0] ?? "uint256";
        return [`${inner}[${v.kind === EthKind.FixedArray ? v.value.length : ""}]`, parts.map((p) => p[1])];
      }
      default:
        throw new HostError(`cannot encode ethereum value kind ${v.kind}`);
    }
  }

  // ---------------- trigger objects as graph-node builds them ----------------
  /** ethereum.Event for apiVersion >= 0.0.7 (AscEthereumEvent_0_0_7 + Block_0_0_6 + Transaction_0_0_6). */
  newEvent(ev) {
    const m = this.mem;
    const b = ev.block;
    const t = ev.transaction;
    const B = (x) => (x === null || x === undefined ? 0 : m.newUint8Array(toBytes(x)));
    const N = (x) => (x === null || x === undefined ? 0 : m.newBigInt(x));
    const block = m.newStruct(TypeIdx.EthereumBlock, [
      B(b.hash),
      B(b.parentHash),
      B(b.unclesHash),
      B(b.author),
      B(b.stateRoot),
      B(b.transactionsRoot),
      B(b.receiptsRoot),
      N(b.number),
      N(b.gasUsed),
      N(b.gasLimit),
      N(b.timestamp),
      N(b.difficulty),
      N(b.totalDifficulty),
      N(b.size),
      N(b.baseFeePerGas),
    ]);
    const tx = m.newStruct(TypeIdx.EthereumTransaction, [
      B(t.hash),
      N(t.index),
      B(t.from),
      B(t.to),
      N(t.value),
      N(t.gasLimit),
      N(t.gasPrice),
      B(t.input),
      N(t.nonce),
    ]);
    const params = m.newPtrArray(
      TypeIdx.ArrayEventParam,
      ev.params.map((p) => m.newStruct(TypeIdx.EventParam, [m.newString(p.name), this.writeEthValue(p.value)])),
    );
    return m.newStruct(TypeIdx.EthereumEvent, [
      B(ev.address),
      N(ev.logIndex),
      N(ev.transactionLogIndex ?? ev.logIndex),
      ev.logType == null ? 0 : m.newString(ev.logType),
      block,
      tx,
      params,
      0, // receipt: only with `receipt: true`, which this host does not support
    ]);
  }

  /** Runs a handler export with a trigger pointer; throws on abort, host error or log.critical. */
  run(handler, ptr) {
    const f = this.x[handler];
    if (typeof f !== "function") throw new HostError(`handler ${handler} is not exported by the mapping`);
    f(ptr);
  }

  mockCall(address, fnSignature, args, returns, reverts = false) {
    this.callMocks.set(`${address.toLowerCase()}|${fnSignature}|${JSON.stringify(args, jsonReplacer)}`, {
      returns,
      reverts,
    });
  }

  // ---------------- the host functions ----------------
  hostFunctions() {
    const h = this;
    const M = () => h.mem;
    const str = (p) => M().readString(p);
    const bi = (p) => M().readBigInt(p);
    const bd = (p) => M().readBigDecimal(p);
    const nbi = (n) => M().newBigInt(n);
    const nbd = (d) => M().newBigDecimal(d);
    const nstr = (s) => M().newString(s);
    const fail = (msg) => {
      throw new HostError(msg);
    };
    const bdOp = (f) => {
      try {
        return f();
      } catch (e) {
        if (e instanceof HostError) throw e;
        throw new HostError(e.message);
      }
    };
    const jsonToAsc = (v) => {
      const m = M();
      if (v === null) return m.newEnum(TypeIdx.JsonValue, JsonKind.Null, 0);
      if (typeof v === "boolean") return m.newEnum(TypeIdx.JsonValue, JsonKind.Bool, v ? 1 : 0);
      if (v instanceof JsonNumber) return m.newEnum(TypeIdx.JsonValue, JsonKind.Number, m.newString(v.text));
      if (typeof v === "string") return m.newEnum(TypeIdx.JsonValue, JsonKind.String, m.newString(v));
      if (Array.isArray(v))
        return m.newEnum(TypeIdx.JsonValue, JsonKind.Array, m.newPtrArray(TypeIdx.ArrayJsonValue, v.map(jsonToAsc)));
      const entries = Object.entries(v).map(([k, x]) =>
        m.newStruct(TypeIdx.TypedMapEntryStringJsonValue, [m.newString(k), jsonToAsc(x)]),
      );
      return m.newEnum(
        TypeIdx.JsonValue,
        JsonKind.Object,
        m.newStruct(TypeIdx.TypedMapStringJsonValue, [
          m.newPtrArray(TypeIdx.ArrayTypedMapEntryStringJsonValue, entries),
        ]),
      );
    };
    const entityFromStore = (type, id, fromBlock) => {
      h.storeOps.get++;
      const e = (fromBlock ? h.blockStore : h.store).get(type)?.get(id);
      return e ? h.writeEntity(e) : 0;
    };
    return {
      abort(msg, file, line, col) {
        fail(`Mapping aborted at ${str(file)}, line ${line}, column ${col}, with message: ${str(msg)}`);
      },
      // ---- store ----
      "store.get": (t, id) => entityFromStore(str(t), str(id), false),
      "store.get_in_block": (t, id) => entityFromStore(str(t), str(id), true),
      "store.set"(tp, idp, data) {
        const type = str(tp);
        const id = str(idp);
        const map = h.readEntity(data);
        const idv = map.get("id");
        if (idv) {
          const idText = idv.kind === StoreKind.Bytes ? hex(idv.value) : String(idv.value);
          if (idText !== id) fail(`Value of id field for ${type} is '${idText}' but store.set was called with '${id}'`);
        }
        h.validate(type, id, map);
        // graph-node: "entities of type `X` can not be updated since they are immutable" (the database's
        // unique constraint, checked early since graph-node PR #6435). This host is stricter inside one block:
        // a second save of the same immutable id always fails, even before the block is written.
        if (h.schema?.[type]?.immutable && h.store.get(type)?.has(id))
          fail(`entities of type \`${type}\` can not be updated since they are immutable (id ${id})`);
        if (!h.store.has(type)) h.store.set(type, new Map());
        if (!h.blockStore.has(type)) h.blockStore.set(type, new Map());
        h.store.get(type).set(id, map);
        h.blockStore.get(type).set(id, map);
        h.o.history?.record(type, id, map);
        h.storeOps.set++;
      },
      "store.remove"(tp, idp) {
        const type = str(tp);
        const id = str(idp);
        if (h.schema?.[type]?.immutable)
          fail(`entities of type \`${type}\` can not be removed since they are immutable (id ${id})`);
        h.store.get(type)?.delete(id);
        h.blockStore.get(type)?.delete(id);
        h.o.history?.record(type, id, null);
        h.storeOps.remove++;
      },
      "store.loadRelated"(tp, idp, fp) {
        const type = str(tp);
        const id = str(idp);
        const field = str(fp);
        const f = h.schema?.[type]?.fields[field];
        if (!f?.derivedFrom) fail(`${type}.${field} is not a derived field`);
        h.storeOps.related++;
        const matches = [...(h.store.get(f.name)?.values() ?? [])].filter((e) => {
          const v = e.get(f.derivedFrom);
          if (!v) return false;
          const ids = v.kind === StoreKind.Array ? v.value : [v];
          return ids.some((x) => (x.kind === StoreKind.Bytes ? hex(x.value) : String(x.value)) === id);
        });
        return M().newPtrArray(
          TypeIdx.ArrayTypedMapEntryStringStoreValue, // graph-ts has no id for Array<Entity>; the runtime does not check it
          matches.map((e) => h.writeEntity(e)),
        );
      },
      // ---- log ----
      "log.log"(level, msg) {
        const text = str(msg);
        h.logs.push({ level: LEVELS[level], text });
        (h.o.onLog ?? ((l, t) => console.log(`[mapping ${l}] ${t}`)))(LEVELS[level], text);
        if (level === 0) fail(`Critical error logged in mapping: ${text}`);
      },
      // ---- bigInt ----
      "bigInt.plus": (a, b) => nbi(bi(a) + bi(b)),
      "bigInt.minus": (a, b) => nbi(bi(a) - bi(b)),
      "bigInt.times": (a, b) => nbi(bi(a) * bi(b)),
      "bigInt.dividedBy": (a, b) => {
        const d = bi(b);
        if (d === 0n) fail("attempted to divide BigInt by zero");
        return nbi(bi(a) / d);
      },
      "bigInt.dividedByDecimal": (a, b) => nbd(bdOp(() => BD.dividedBy({ digits: bi(a), exp: 0n }, bd(b)))),
      "bigInt.mod": (a, b) => {
        const d = bi(b);
        if (d === 0n) fail("attempted to calculate the remainder of BigInt divided by zero");
        return nbi(bi(a) % d);
      },
      "bigInt.pow": (a, e) => nbi(bi(a) ** BigInt(e & 0xff)),
      "bigInt.fromString": (s) => {
        const t = str(s);
        if (!/^[+-]?\d+$/.test(t)) fail(`failed to parse BigInt from '${t}'`);
        return nbi(BigInt(t));
      },
      "bigInt.bitOr": (a, b) => nbi(bi(a) | bi(b)),
      "bigInt.bitAnd": (a, b) => nbi(bi(a) & bi(b)),
      "bigInt.leftShift": (a, bits) => nbi(bi(a) << BigInt(bits & 0xff)),
      "bigInt.rightShift": (a, bits) => nbi(bi(a) >> BigInt(bits & 0xff)),
      // ---- bigDecimal ----
      "bigDecimal.toString": (p) => nstr(BD.toString(BD.normalize(bd(p)))),
      "bigDecimal.fromString": (p) => nbd(bdOp(() => BD.fromString(str(p)))),
      "bigDecimal.plus": (a, b) => nbd(BD.plus(bd(a), bd(b))),
      "bigDecimal.minus": (a, b) => nbd(BD.minus(bd(a), bd(b))),
      "bigDecimal.times": (a, b) => nbd(BD.times(bd(a), bd(b))),
      "bigDecimal.dividedBy": (a, b) => nbd(bdOp(() => BD.dividedBy(bd(a), bd(b)))),
      "bigDecimal.equals": (a, b) => (BD.equals(bd(a), bd(b)) ? 1 : 0),
      // ---- typeConversion ----
      "typeConversion.bytesToString": (p) =>
        nstr(
          Buffer.from(M().readBytes(p))
            .toString("utf8")
            .replace(/\u0000+$/, ""),
        ),
      "typeConversion.bytesToHex": (p) => nstr(hex(M().readBytes(p))),
      "typeConversion.bigIntToString": (p) => nstr(bi(p).toString()),
      "typeConversion.bigIntToHex": (p) => {
        const n = bi(p);
        return nstr(n === 0n ? "0x0" : (n < 0n ? "-0x" : "0x") + (n < 0n ? -n : n).toString(16));
      },
      "typeConversion.stringToH160": (p) => {
        const s = str(p).replace(/^0x/, "");
        if (!/^[0-9a-fA-F]{40}$/.test(s)) fail(`Failed to convert string to Address/H160: '${str(p)}'`);
        return M().newUint8Array(Buffer.from(s, "hex"));
      },
      "typeConversion.bytesToBase58": (p) => nstr(bs58.encode(M().readBytes(p))),
      // ---- crypto ----
      "crypto.keccak256": (p) => M().newUint8Array(getBytes(keccak256(M().readBytes(p)))),
      // ---- json ----
      "json.fromBytes": (p) => {
        try {
          return jsonToAsc(parseJson(Buffer.from(M().readBytes(p)).toString("utf8")));
        } catch (e) {
          return fail(`failed to parse JSON: ${e.message}`);
        }
      },
      "json.try_fromBytes": (p) => {
        const m = M();
        try {
          const v = jsonToAsc(parseJson(Buffer.from(m.readBytes(p)).toString("utf8")));
          return m.newStruct(TypeIdx.ResultJsonValueBool, [m.newStruct(TypeIdx.WrappedJsonValue, [v]), 0]);
        } catch {
          return m.newStruct(TypeIdx.ResultJsonValueBool, [0, m.allocObj(TypeIdx.WrappedBool, new Uint8Array([1]))]);
        }
      },
      "json.toI64": (p) => BigInt.asIntN(64, BigInt(str(p))),
      "json.toU64": (p) => BigInt.asIntN(64, BigInt(str(p))),
      "json.toF64": (p) => Number(str(p)),
      "json.toBigInt": (p) => nbi(BigInt(str(p))),
      // ---- ethereum ----
      "ethereum.decode"(tp, dp) {
        try {
          const param = ParamType.from(str(tp));
          const [v] = abi.decode([param], M().readBytes(dp));
          return h.writeEthValue(SubgraphHost.abiToEth(param, v));
        } catch {
          return 0;
        }
      },
      "ethereum.encode"(vp) {
        try {
          const [type, v] = SubgraphHost.ethToAbi(h.readEthValue(vp));
          return M().newUint8Array(getBytes(abi.encode([type], [v])));
        } catch {
          return 0;
        }
      },
      "ethereum.call"(cp) {
        // AscUnresolvedContractCall_0_0_4: contractName, contractAddress, functionName, functionSignature, args
        const m = M();
        const address = hex(m.readBytes(m.u32(cp + 4)));
        const sig = str(m.u32(cp + 12));
        const args = m.readPtrArray(m.u32(cp + 16)).map((p) => h.readEthValue(p));
        const mock = h.callMocks.get(`${address}|${sig}|${JSON.stringify(args, jsonReplacer)}`);
        if (!mock)
          fail(
            `ethereum.call ${address}.${sig} is not mocked (CHX mappings must not call the chain: events carry state)`,
          );
        if (mock.reverts) return 0;
        return m.newPtrArray(
          TypeIdx.ArrayEthereumValue,
          mock.returns.map((v) => h.writeEthValue(v)),
        );
      },
      "ethereum.getBalance": () => fail("ethereum.getBalance is not supported by this host"),
      "ethereum.hasCode": () => fail("ethereum.hasCode is not supported by this host"),
      // ---- dataSource ----
      "dataSource.address": () => M().newUint8Array(getBytes(h.dataSource.address)),
      "dataSource.network": () => nstr(h.dataSource.network),
      "dataSource.context": () => h.writeEntity(h.dataSource.context ?? new Map()),
      "dataSource.create": (n, ps) => {
        h.createdDataSources.push({ template: str(n), params: M().readStringArray(ps) });
      },
      "dataSource.createWithContext": (n, ps, ctx) => {
        h.createdDataSources.push({ template: str(n), params: M().readStringArray(ps), context: h.readEntity(ctx) });
      },
      // ---- not available offline ----
      "ipfs.cat": () => 0,
      "ipfs.map": () => fail("ipfs.map is not supported by this host"),
      "ens.nameByHash": () => 0,
    };
  }
}

class JsonNumber {
  constructor(text) {
    this.text = text;
  }
}
// JSON numbers keep their source text (graph-node hands big integers to toBigInt/toU64 exactly).
function parseJson(text) {
  return JSON.parse(text, (_k, v, ctx) => (typeof v === "number" ? new JsonNumber(ctx?.source ?? String(v)) : v));
}

export function plain(v) {
  switch (v.kind) {
    case StoreKind.BigInt:
      return v.value.toString();
    case StoreKind.BigDecimal:
      return BD.toString(v.value);
    case StoreKind.Bytes:
      return hex(v.value);
    case StoreKind.Array:
      return v.value.map(plain);
    case StoreKind.Int8:
    case StoreKind.Timestamp:
      return v.value.toString();
    default:
      return v.value;
  }
}
function jsonReplacer(_k, v) {
  return typeof v === "bigint" ? v.toString() : v instanceof Uint8Array ? hex(v) : v;
}
export { StoreKind, EthKind, TypeIdx, signedLEToBigint, hex };
