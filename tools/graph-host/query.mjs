// A local stand-in for graph-node's GraphQL query layer, over the entity store this host indexed (history.mjs).
// It is NOT graph-node: it implements the part of graph-node's query API that subgraph queries normally use, with
// graph-node's rules, and throws for everything else rather than answering wrongly:
//   implemented — validation against the derived query schema (api-schema.mjs, graphql-js rules: unknown fields,
//     arguments, types, variables); by-id and collection fields; `where` with every operator suffix of the schema
//     (equality, not, gt/lt/gte/lte, in/not_in, String contains/starts_with/ends_with and their _nocase and not_
//     forms, Bytes contains, list equality and contains), nested `field_` filters on references, reference lists and
//     derived fields, `and`/`or` (graph-node's rule that `or` cannot be mixed with column filters), `_change_block`;
//     `orderBy` on scalar, enum and reference fields and one level of child fields (`parent__field`), with
//     PostgreSQL's null placement (last ascending, first descending) and the id as tie-breaker in the same
//     direction; default order by id; `first` (1–1000, default 100) and `skip` ranges; nested collections with the
//     same arguments; `block: { number }`, `{ number_gte }` and `{ hash }` of a block the replay processed;
//     `_meta`; output scalars as graph-node serialises them (BigInt, BigDecimal, Int8, Timestamp as strings, Bytes
//     as lower-case hex); aliases, fragments, variables, @skip/@include, introspection (graphql-js).
//   not implemented (throws) — `_logs`, interfaces, fulltext search, aggregations (timeseries), ordering by list
//     fields, `block: { hash }` of a block without triggers, query cost limits, subscriptions.
// String ordering is by UTF-16 code unit, which equals graph-node's PostgreSQL "C" collation for ASCII text.
import { parse, validate, execute, GraphQLError, Kind } from "graphql";
import { inputModel, buildApiSchema, GRAPH_NODE_VERSION } from "./api-schema.mjs";
import { StoreKind } from "./asc-memory.mjs";
import * as BD from "./bigdecimal.mjs";

export { GRAPH_NODE_VERSION };

/** An error the query layer raises on purpose: the query uses something this stand-in does not implement. */
export class NotImplementedError extends Error {}

const MAX_FIRST = 1000;
const MAX_SKIP = 4294967295;
const hexOf = (b) => "0x" + Buffer.from(b).toString("hex");

// ------------------------------------------------------------------------------------------------ values
/** How values of a field compare: "bigint" | "int" | "decimal" | "string" | "bytes" | "bool" | "enum". */
function valueKind(model, f) {
  if (f.kind === "entity") {
    const t = model.entities.get(f.base).idType;
    return t === "Bytes" ? "bytes" : t === "Int8" ? "bigint" : "string";
  }
  if (f.kind === "enum") return "enum";
  switch (f.base) {
    case "BigInt":
    case "Int8":
    case "Timestamp":
      return "bigint";
    case "Int":
      return "int";
    case "BigDecimal":
      return "decimal";
    case "Bytes":
      return "bytes";
    case "Boolean":
      return "bool";
    default:
      return "string"; // String, ID
  }
}

/** A stored value ({kind, value} from the host) in comparable form. */
function stored(v) {
  if (!v) return null;
  switch (v.kind) {
    case StoreKind.Null:
      return null;
    case StoreKind.BigInt:
    case StoreKind.Int8:
    case StoreKind.Timestamp:
      return BigInt(v.value);
    case StoreKind.BigDecimal:
      return BD.normalize(v.value);
    case StoreKind.Bytes:
      return hexOf(v.value);
    case StoreKind.Array:
      return v.value.map(stored);
    default:
      return v.value; // String, Int, Bool
  }
}

/** A query input value in comparable form for a field of value kind `k`. */
function input(k, x, what) {
  if (x === null || x === undefined) return null;
  try {
    switch (k) {
      case "bigint":
        return BigInt(String(x));
      case "int":
        return Number(x);
      case "decimal":
        return BD.normalize(BD.fromString(String(x)));
      case "bytes": {
        const s = String(x).toLowerCase();
        const h = s.startsWith("0x") ? s.slice(2) : s;
        if (!/^[0-9a-f]*$/.test(h) || h.length % 2) throw new Error("not hex");
        return "0x" + h;
      }
      case "bool":
        return Boolean(x);
      default:
        return String(x);
    }
  } catch {
    throw new GraphQLError(`Invalid value for ${what}: ${JSON.stringify(x)}`);
  }
}

function compare(k, a, b, enumOrder) {
  switch (k) {
    case "bigint":
    case "int":
      return a < b ? -1 : a > b ? 1 : 0;
    case "decimal": {
      const e = a.exp < b.exp ? a.exp : b.exp;
      const x = a.digits * 10n ** (a.exp - e);
      const y = b.digits * 10n ** (b.exp - e);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case "bool":
      return a === b ? 0 : a ? 1 : -1;
    case "enum":
      return Math.sign(enumOrder.indexOf(a) - enumOrder.indexOf(b));
    default:
      return a < b ? -1 : a > b ? 1 : 0; // strings and lower-case hex
  }
}

/** Output form of a stored value, as graph-node serialises it. */
function output(v) {
  if (!v) return null;
  switch (v.kind) {
    case StoreKind.Null:
      return null;
    case StoreKind.BigInt:
    case StoreKind.Int8:
    case StoreKind.Timestamp:
      return v.value.toString();
    case StoreKind.BigDecimal:
      return BD.toString(BD.normalize(v.value));
    case StoreKind.Bytes:
      return hexOf(v.value);
    case StoreKind.Array:
      return v.value.map(output);
    default:
      return v.value;
  }
}

// ------------------------------------------------------------------------------------------------ the layer
export class QueryLayer {
  /**
   * @param {object} o
   * @param {string} o.schema  the subgraph's schema.graphql text
   * @param {import("./history.mjs").EntityHistory} o.history  the indexed entities by block
   * @param {string} [o.deployment]  what `_meta { deployment }` answers
   */
  constructor({ schema, history, deployment = "local" }) {
    this.model = inputModel(schema);
    this.api = buildApiSchema(this.model);
    this.history = history;
    this.deployment = deployment;
    attachScalars(this.api);
  }

  /** Parses and validates; returns the graphql-js errors (empty when the query is valid). */
  validate(query) {
    let doc;
    try {
      doc = parse(query);
    } catch (e) {
      return [e];
    }
    return validate(this.api, doc);
  }

  /** Validates and executes: { data, errors } like a GraphQL endpoint. Never answers a query it cannot. */
  run(query, variables = {}) {
    let doc;
    try {
      doc = parse(query);
    } catch (e) {
      return { errors: [e] };
    }
    const errors = validate(this.api, doc);
    if (errors.length) return { errors };
    const result = execute({
      schema: this.api,
      document: doc,
      variableValues: variables,
      fieldResolver: (source, args, _ctx, info) => this.resolve(source, args, info),
    });
    if (typeof result?.then === "function") throw new Error("query: unexpected asynchronous execution");
    return result;
  }

  // ---------------------------------------------------------------- resolvers
  resolve(source, args, info) {
    const parent = info.parentType.name;
    if (parent === "Query") return this.root(info.fieldName, args);
    const e = this.model.entities.get(parent);
    if (!e) return source?.[info.fieldName] ?? null; // _Meta_, _Block_
    const f = e.fields.get(info.fieldName);
    if (!f) return null; // __typename is resolved by graphql-js
    const raw = source.data.get(f.name);
    if (f.kind !== "entity") return output(raw);
    const target = this.model.entities.get(f.base);
    if (f.derivedFrom) {
      const children = this.derived(source, f);
      return f.list ? this.collection(target, children, args, source.block) : (children[0] ?? null);
    }
    if (f.list) {
      const ids = (stored(raw) ?? []).map(String);
      const children = ids.map((id) => this.load(target, id, source.block)).filter(Boolean);
      return this.collection(target, children, args, source.block);
    }
    const id = stored(raw);
    return id === null ? null : this.load(target, String(id), source.block);
  }

  root(field, args) {
    if (field === "_meta") return this.meta(args.block);
    if (field === "_logs") throw new NotImplementedError("_logs is not implemented by this query layer");
    const r = this.model.roots.get(field);
    const e = this.model.entities.get(r.entity);
    const block = this.blockOf(args.block);
    if (!r.collection) return this.load(e, input(valueKind(this.model, e.fields.get("id")), args.id, "id"), block);
    const all = [];
    for (const [id, data, changedAt] of this.history.entities(e.name, block))
      all.push({ type: e.name, id, data, block, changedAt });
    return this.collection(e, all, args, block);
  }

  meta(blockArg) {
    const head = this.history.head;
    if (!head) throw new GraphQLError("the subgraph has not indexed any block yet");
    const n = this.blockOf(blockArg);
    const byNumber = blockArg && (blockArg.number !== undefined || blockArg.number_gte !== undefined);
    return {
      block: {
        number: n,
        hash: n === head.number && !byNumber ? head.hash : null,
        timestamp: n === head.number && !byNumber ? head.timestamp : null,
        parentHash: n === head.number && !byNumber ? head.parentHash : null,
      },
      deployment: this.deployment,
      hasIndexingErrors: false,
    };
  }

  /** graph-node's block constraint: latest when absent; a number not yet indexed is an error. */
  blockOf(b) {
    const head = this.history.head;
    if (!head) throw new GraphQLError("the subgraph has not indexed any block yet");
    if (!b) return head.number;
    const given = ["hash", "number", "number_gte"].filter((k) => b[k] !== undefined && b[k] !== null);
    if (given.length > 1) throw new GraphQLError(`block: give one of hash, number, number_gte (got ${given})`);
    const notYet = (n) =>
      new GraphQLError(
        `Failed to decode \`block.number\` value: \`subgraph ${this.deployment} has only indexed up to block number ${head.number} and data for block number ${n} is therefore not yet available\``,
      );
    if (b.number !== undefined && b.number !== null) {
      if (b.number > head.number) throw notYet(b.number);
      return b.number;
    }
    if (b.number_gte !== undefined && b.number_gte !== null) {
      if (b.number_gte > head.number) throw notYet(b.number_gte);
      return head.number;
    }
    const n = this.history.hashes.get(String(b.hash).toLowerCase());
    if (n === undefined)
      throw new NotImplementedError(
        `block: { hash: ${b.hash} }: only the hashes of blocks the replay processed are known to this query layer`,
      );
    return n;
  }

  load(e, id, block) {
    const v = this.history.version(e.name, id, block);
    return v?.data ? { type: e.name, id, data: v.data, block, changedAt: v.block } : null;
  }

  /** Entities of the derived field's type whose `derivedFrom` field references `parent`. */
  derived(parent, f) {
    const out = [];
    for (const [id, data, changedAt] of this.history.entities(f.base, parent.block)) {
      const ref = stored(data.get(f.derivedFrom));
      if (ref === null) continue;
      if (Array.isArray(ref) ? ref.map(String).includes(parent.id) : String(ref) === parent.id)
        out.push({ type: f.base, id, data, block: parent.block, changedAt });
    }
    return out;
  }

  /** where → order → skip/first, as graph-node applies them. */
  collection(e, rows, args, block) {
    const first = args.first ?? 100;
    const skip = args.skip ?? 0;
    if (!(first > 0 && first <= MAX_FIRST))
      throw new GraphQLError(`The \`first\` argument must be between 0 and ${MAX_FIRST}, but is ${first}`);
    if (!(skip >= 0 && skip <= MAX_SKIP))
      throw new GraphQLError(`The \`skip\` argument must be between 0 and ${MAX_SKIP}, but is ${skip}`);
    let out = args.where ? rows.filter((r) => this.matches(e, r, args.where, block)) : rows;
    out = this.order(e, out, args.orderBy, args.orderDirection === "desc");
    return out.slice(skip, skip + first);
  }

  // ---------------------------------------------------------------- filters
  matches(e, row, where, block) {
    const keys = Object.keys(where);
    if (keys.includes("or")) {
      const columns = keys.filter((k) => k !== "or" && k !== "and" && k !== "_change_block");
      if (columns.length)
        throw new GraphQLError(
          `Cannot mix column filters with 'or' operator at the same level. Found column filter(s): ${columns.join(", ")}`,
        );
    }
    for (const key of keys) {
      const value = where[key];
      if (key === "and") {
        if (!(value ?? []).every((w) => this.matches(e, row, w, block))) return false;
      } else if (key === "or") {
        if (!(value ?? []).some((w) => this.matches(e, row, w, block))) return false;
      } else if (key === "_change_block") {
        if (!(row.changedAt >= value.number_gte)) return false;
      } else if (key.endsWith("_")) {
        if (!this.childMatches(e, row, key.slice(0, -1), value, block)) return false;
      } else if (!this.fieldMatches(e, row, key, value)) return false;
    }
    return true;
  }

  childMatches(e, row, name, where, block) {
    const f = e.fields.get(name);
    const target = this.model.entities.get(f.base);
    let children;
    if (f.derivedFrom) children = this.derived(row, f);
    else {
      const ref = stored(row.data.get(name));
      const ids = ref === null ? [] : Array.isArray(ref) ? ref : [ref];
      children = ids.map((id) => this.load(target, String(id), block)).filter(Boolean);
    }
    return children.some((c) => this.matches(target, c, where, block));
  }

  fieldMatches(e, row, key, value) {
    const [name, op] = splitFilterKey(e, key);
    const f = e.fields.get(name);
    const k = valueKind(this.model, f);
    const enumOrder = f.kind === "enum" ? this.model.enums.get(f.base) : null;
    const have = stored(row.data.get(name));
    const what = `${e.name}.${key}`;
    if (f.list) return listMatches(k, have, op, value, what);
    const eq = (x) => have !== null && compare(k, have, x, enumOrder) === 0;
    const cmp = (x) => compare(k, have, x, enumOrder);
    switch (op) {
      case "":
        return value === null ? have === null : eq(input(k, value, what));
      case "not":
        return value === null ? have !== null : have !== null && !eq(input(k, value, what));
      case "gt":
        return have !== null && cmp(input(k, value, what)) > 0;
      case "lt":
        return have !== null && cmp(input(k, value, what)) < 0;
      case "gte":
        return have !== null && cmp(input(k, value, what)) >= 0;
      case "lte":
        return have !== null && cmp(input(k, value, what)) <= 0;
      case "in":
        return have !== null && value.some((x) => eq(input(k, x, what)));
      case "not_in":
        return have !== null && !value.some((x) => eq(input(k, x, what)));
    }
    if (have === null) return false;
    const [base, nocase, negated] = textOp(op);
    let h = String(have);
    let x = String(input(k, value, what));
    if (k === "bytes") {
      if (base !== "contains" || nocase) throw new NotImplementedError(`${what}: ${op} on Bytes`);
      const found = Buffer.from(h.slice(2), "hex").includes(Buffer.from(x.slice(2), "hex"));
      return negated ? !found : found;
    }
    if (nocase) {
      h = h.toLowerCase();
      x = x.toLowerCase();
    }
    const found = base === "contains" ? h.includes(x) : base === "starts_with" ? h.startsWith(x) : h.endsWith(x);
    return negated ? !found : found;
  }

  // ---------------------------------------------------------------- order
  order(e, rows, orderBy, desc) {
    const dir = desc ? -1 : 1;
    const idKind = valueKind(this.model, e.fields.get("id"));
    const byId = (a, b) => compare(idKind, input(idKind, a.id, "id"), input(idKind, b.id, "id")) * dir;
    if (!orderBy) return [...rows].sort((a, b) => compare(idKind, input(idKind, a.id, "id"), input(idKind, b.id, "id")));
    const [parentName, childName] = orderBy.split("__");
    const f = e.fields.get(parentName);
    let key;
    let k;
    let enumOrder = null;
    if (childName === undefined) {
      if (f.list || f.derivedFrom)
        throw new GraphQLError(`Ordering by \`${parentName}\` is not supported for type \`${e.name}\``);
      k = valueKind(this.model, f);
      if (f.kind === "enum") enumOrder = this.model.enums.get(f.base);
      key = (r) => stored(r.data.get(parentName));
    } else {
      const target = this.model.entities.get(f.base);
      const c = target.fields.get(childName);
      k = valueKind(this.model, c);
      if (c.kind === "enum") enumOrder = this.model.enums.get(c.base);
      key = (r) => {
        let child;
        if (f.derivedFrom) child = this.derived(r, f)[0];
        else {
          const ref = stored(r.data.get(parentName));
          child = ref === null ? null : this.load(target, String(ref), r.block);
        }
        return child ? stored(child.data.get(childName)) : null;
      };
    }
    const keyed = rows.map((r) => ({ r, v: key(r) }));
    keyed.sort((a, b) => {
      // PostgreSQL: NULLS LAST ascending, NULLS FIRST descending
      if (a.v === null || b.v === null) {
        if (a.v === null && b.v === null) return byId(a.r, b.r);
        return (a.v === null ? 1 : -1) * dir;
      }
      return compare(k, a.v, b.v, enumOrder) * dir || byId(a.r, b.r);
    });
    return keyed.map((x) => x.r);
  }
}

// ------------------------------------------------------------------------------------------------ helpers
const SUFFIXES = [
  "not_contains_nocase",
  "not_starts_with_nocase",
  "not_ends_with_nocase",
  "contains_nocase",
  "starts_with_nocase",
  "ends_with_nocase",
  "not_contains",
  "not_starts_with",
  "not_ends_with",
  "contains",
  "starts_with",
  "ends_with",
  "not_in",
  "not",
  "gte",
  "lte",
  "gt",
  "lt",
  "in",
];

/** "balance_gt" -> ["balance", "gt"]; a field whose own name ends like a suffix wins over the suffix. */
function splitFilterKey(e, key) {
  if (e.fields.has(key)) return [key, ""];
  for (const s of SUFFIXES)
    if (key.endsWith("_" + s) && e.fields.has(key.slice(0, -s.length - 1))) return [key.slice(0, -s.length - 1), s];
  throw new GraphQLError(`Unknown filter ${key} on ${e.name}`);
}

/** "not_starts_with_nocase" -> ["starts_with", true, true] */
function textOp(op) {
  const negated = op.startsWith("not_");
  const rest = negated ? op.slice(4) : op;
  const nocase = rest.endsWith("_nocase");
  return [nocase ? rest.slice(0, -7) : rest, nocase, negated];
}

function listMatches(k, have, op, value, what) {
  if (op === "" || op === "not") {
    if (value === null) return op === "" ? have === null : have !== null;
    if (have === null) return false;
    const want = value.map((x) => input(k, x, what));
    const same = have.length === want.length && have.every((h, i) => compare(k, h, want[i]) === 0);
    return op === "" ? same : !same;
  }
  if (have === null) return false;
  const [base, nocase, negated] = textOp(op);
  if (base !== "contains") throw new NotImplementedError(`${what}: ${op} on a list`);
  const norm = (x) => (nocase ? String(x).toLowerCase() : x);
  const pool = have.map(norm);
  const all = value.every((x) => {
    const w = norm(input(k, x, what));
    return pool.some((h) => (nocase ? h === w : compare(k, h, w) === 0));
  });
  return negated ? !all : all;
}

/** Input coercion of graph-node's scalars (data/value.rs coerce_scalar), so validation rejects what graph-node would. */
function attachScalars(schema) {
  const lit = (kinds, name) => (ast) => {
    if (!kinds.includes(ast.kind)) throw new GraphQLError(`${name} cannot represent ${ast.kind}`);
    return ast.value;
  };
  const set = (name, kinds, check = () => {}) => {
    const t = schema.getType(name);
    const parseLit = lit(kinds, name);
    t.parseLiteral = (ast) => {
      const v = parseLit(ast);
      check(v);
      return v;
    };
    t.parseValue = (v) => {
      if (typeof v !== "string" && typeof v !== "number") throw new GraphQLError(`${name} cannot represent ${v}`);
      check(String(v));
      return String(v);
    };
    t.serialize = (v) => v;
  };
  set("BigInt", [Kind.STRING, Kind.INT], (v) => {
    if (!/^-?\d+$/.test(v)) throw new GraphQLError(`BigInt cannot represent "${v}"`);
  });
  set("BigDecimal", [Kind.STRING, Kind.INT, Kind.FLOAT], (v) => BD.fromString(v));
  set("Bytes", [Kind.STRING], (v) => {
    if (!/^(0x)?([0-9a-fA-F]{2})*$/.test(v)) throw new GraphQLError(`Bytes cannot represent "${v}"`);
  });
  set("Int8", [Kind.STRING, Kind.INT], (v) => {
    if (!/^-?\d+$/.test(v)) throw new GraphQLError(`Int8 cannot represent "${v}"`);
  });
  set("Timestamp", [Kind.STRING]);
}

// ------------------------------------------------------------------------------------------------ markdown
/**
 * The ```graphql blocks of a Markdown file: [{ name, text, line }]. Every block must be one named operation
 * (`query Name { … }`), so that the checks that run it can refer to it.
 */
export function queriesInMarkdown(markdown, file = "markdown") {
  const out = [];
  const re = /^```graphql\n([\s\S]*?)^```/gm;
  for (const m of markdown.matchAll(re)) {
    const line = markdown.slice(0, m.index).split("\n").length;
    let doc;
    try {
      doc = parse(m[1]);
    } catch (e) {
      throw new Error(`${file}:${line}: the graphql block does not parse: ${e.message}`);
    }
    const ops = doc.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    if (ops.length !== 1 || !ops[0].name)
      throw new Error(`${file}:${line}: a graphql block must hold exactly one named operation (query Name { … })`);
    out.push({ name: ops[0].name.value, text: m[1], line });
  }
  const seen = new Set();
  for (const q of out) {
    if (seen.has(q.name)) throw new Error(`${file}:${q.line}: the operation name ${q.name} is used twice`);
    seen.add(q.name);
  }
  return out;
}
