// The query schema graph-node derives from a subgraph's schema.graphql, written from graph-node's documented rules
// (graph/src/schema/api.rs of the graph-node release pinned in GRAPH_NODE_VERSION below) and built with graphql-js,
// so that a query can be validated exactly as graph-node's validation sees it:
//   - per entity type T: `t(id: ID!, block: Block_height, subgraphError: _SubgraphErrorPolicy_! = deny): T` and
//     the collection `ts(skip: Int = 0, first: Int = 100, orderBy: T_orderBy, orderDirection: OrderDirection,
//     where: T_filter, block: Block_height, subgraphError: …): [T!]!` (names from inflector.mjs);
//   - T_orderBy: every field, plus `field__child` for each non-list entity field (derived or not) and each child
//     field that is neither a list nor an entity;
//   - T_filter: per scalar field the operator suffixes of its type, per entity field the id filters (as String,
//     the id's query type) and a nested `field_: Child_filter`, per list field `""/not/contains/not_contains`
//     (+ `_nocase` for String elements), derived fields only the nested filter; then `_change_block`, `and`, `or`;
//   - list fields of entity type take the collection arguments (skip, first, orderBy, orderDirection, where);
//   - `_meta(block)` and `_logs(…)`; the scalars BigInt, BigDecimal, Bytes, Int8, Timestamp.
// Subgraph features this derivation does not cover (interfaces, @fulltext, timeseries/@aggregation) make it throw:
// a schema using them must not be validated as if they did not exist.
import { parse, buildSchema, Kind } from "graphql";
import { queryFieldNames } from "./inflector.mjs";

/** The graph-node release whose query API this module (and query.mjs) reproduces. */
export const GRAPH_NODE_VERSION = "v0.44.0";

const SCALARS = new Set(["ID", "String", "Int", "Boolean", "BigInt", "BigDecimal", "Bytes", "Int8", "Timestamp"]);

const STRING_OPS = [
  "",
  "not",
  "gt",
  "lt",
  "gte",
  "lte",
  "in",
  "not_in",
  "contains",
  "contains_nocase",
  "not_contains",
  "not_contains_nocase",
  "starts_with",
  "starts_with_nocase",
  "not_starts_with",
  "not_starts_with_nocase",
  "ends_with",
  "ends_with_nocase",
  "not_ends_with",
  "not_ends_with_nocase",
];
const ORDERED_OPS = ["", "not", "gt", "lt", "gte", "lte", "in", "not_in"];
/** Operator suffixes per scalar type (object types). */
export const SCALAR_OPS = {
  Boolean: ["", "not", "in", "not_in"],
  Bytes: [...ORDERED_OPS, "contains", "not_contains"],
  ID: ORDERED_OPS,
  BigInt: ORDERED_OPS,
  BigDecimal: ORDERED_OPS,
  Int: ORDERED_OPS,
  Int8: ORDERED_OPS,
  Timestamp: ORDERED_OPS,
  String: STRING_OPS,
};
export const ENUM_OPS = ["", "not", "in", "not_in"];

/**
 * The input schema as data: entity types with their fields, and enums.
 * field: { name, base, list, nonNull, derivedFrom, kind: "scalar"|"enum"|"entity" }
 */
export function inputModel(sdl) {
  const doc = typeof sdl === "string" ? parse(sdl) : sdl;
  const entities = new Map();
  const enums = new Map();
  for (const def of doc.definitions) {
    if (def.kind === Kind.ENUM_TYPE_DEFINITION)
      enums.set(
        def.name.value,
        def.values.map((v) => v.name.value),
      );
    else if (def.kind === Kind.INTERFACE_TYPE_DEFINITION)
      throw new Error(`api-schema: interface ${def.name.value}: interfaces are not supported by this query layer`);
    else if (def.kind === Kind.OBJECT_TYPE_DEFINITION) {
      const dirs = new Map((def.directives ?? []).map((d) => [d.name.value, d]));
      if (dirs.has("fulltext") || dirs.has("aggregation"))
        throw new Error(`api-schema: ${def.name.value}: @fulltext/@aggregation are not supported by this query layer`);
      const entity = dirs.get("entity");
      if (!entity) continue;
      const arg = (n) => entity.arguments?.find((a) => a.name.value === n)?.value;
      if (arg("timeseries")?.value === true)
        throw new Error(`api-schema: ${def.name.value}: timeseries entities are not supported by this query layer`);
      const fields = new Map();
      for (const f of def.fields) {
        let t = f.type;
        let nonNull = false;
        let list = false;
        if (t.kind === Kind.NON_NULL_TYPE) {
          nonNull = true;
          t = t.type;
        }
        if (t.kind === Kind.LIST_TYPE) {
          list = true;
          t = t.type;
          if (t.kind === Kind.NON_NULL_TYPE) t = t.type;
          if (t.kind === Kind.LIST_TYPE) throw new Error(`api-schema: ${def.name.value}.${f.name.value}: nested lists`);
        }
        const derived = (f.directives ?? []).find((d) => d.name.value === "derivedFrom");
        fields.set(f.name.value, {
          name: f.name.value,
          base: t.name.value,
          list,
          nonNull,
          derivedFrom: derived ? derived.arguments[0].value.value : null,
          typeNode: f.type,
        });
      }
      entities.set(def.name.value, {
        name: def.name.value,
        immutable: arg("immutable")?.value === true,
        fields,
      });
    }
  }
  for (const e of entities.values()) {
    for (const f of e.fields.values()) {
      if (entities.has(f.base)) f.kind = "entity";
      else if (enums.has(f.base)) f.kind = "enum";
      else if (SCALARS.has(f.base)) f.kind = "scalar";
      else throw new Error(`api-schema: ${e.name}.${f.name}: unknown type ${f.base}`);
      if (f.derivedFrom && f.kind !== "entity")
        throw new Error(`api-schema: ${e.name}.${f.name}: @derivedFrom on a non-entity field`);
    }
    const id = e.fields.get("id");
    if (!id) throw new Error(`api-schema: ${e.name} has no id field`);
    e.idType = id.base === "Bytes" ? "Bytes" : id.base === "Int8" ? "Int8" : "String";
  }
  const roots = new Map(); // query field name -> { entity, collection }
  for (const name of entities.keys()) {
    const [one, many] = queryFieldNames(name);
    for (const [f, collection] of [
      [one, false],
      [many, true],
    ]) {
      if (roots.has(f)) throw new Error(`api-schema: query field ${f} of ${name} clashes with another type's`);
      roots.set(f, { entity: name, collection });
    }
  }
  return { entities, enums, roots };
}

const typeText = (node) =>
  node.kind === Kind.NON_NULL_TYPE
    ? `${typeText(node.type)}!`
    : node.kind === Kind.LIST_TYPE
      ? `[${typeText(node.type)}]`
      : node.name.value;

const BUILTINS = `
scalar BigDecimal
scalar BigInt
scalar Bytes
"8 bytes signed integer"
scalar Int8
"A string representation of microseconds UNIX timestamp (16 digits)"
scalar Timestamp

"Defines the order direction, either ascending or descending"
enum OrderDirection { asc desc }
enum _SubgraphErrorPolicy_ { allow deny }
enum Aggregation_interval { hour day }
enum Aggregation_current { exclude include }
input BlockChangedFilter { number_gte: Int! }
"The block at which the query should be executed."
input Block_height { hash: Bytes number: Int number_gte: Int }
type _Block_ { hash: Bytes number: Int! timestamp: Int parentHash: Bytes }
"The type for the top-level _meta field"
type _Meta_ { block: _Block_! deployment: String! hasIndexingErrors: Boolean! }
enum LogLevel { CRITICAL ERROR WARNING INFO DEBUG }
type _LogArgument_ { key: String! value: String! }
type _LogMeta_ { module: String! line: Int! column: Int! }
type _Log_ { id: String! subgraphId: String! timestamp: String! level: LogLevel! text: String! arguments: [_LogArgument_!]! meta: _LogMeta_! }
`;

const collectionArgs = (t) =>
  `skip: Int = 0, first: Int = 100, orderBy: ${t}_orderBy, orderDirection: OrderDirection, where: ${t}_filter`;
const BLOCK_ARGS = "block: Block_height, subgraphError: _SubgraphErrorPolicy_! = deny";

/** The API schema as SDL text (deterministic: types in input order). */
export function apiSchemaSdl(model) {
  const { entities, enums } = model;
  const out = [BUILTINS];
  for (const [name, values] of enums) out.push(`enum ${name} { ${values.join(" ")} }`);
  const idScalar = (entityName) => (entities.get(entityName).idType === "Int8" ? "Int" : "String");
  for (const e of entities.values()) {
    // object type: list fields of entity type take the collection arguments
    const fields = [...e.fields.values()].map((f) => {
      const args = f.list && f.kind === "entity" ? `(${collectionArgs(f.base)})` : "";
      return `  ${f.name}${args}: ${typeText(f.typeNode)}`;
    });
    out.push(`type ${e.name} {\n${fields.join("\n")}\n}`);

    // orderBy
    const order = [];
    for (const f of e.fields.values()) {
      order.push(f.name);
      if (!f.list && f.kind === "entity")
        for (const c of entities.get(f.base).fields.values())
          if (!c.list && c.kind !== "entity") order.push(`${f.name}__${c.name}`);
    }
    out.push(`enum ${e.name}_orderBy { ${order.join(" ")} }`);

    // filter
    const filters = [];
    const add = (field, ops, type) =>
      ops.forEach((op) =>
        filters.push(
          `  ${op ? `${field}_${op}` : field}: ${op === "in" || op === "not_in" ? `[${type}!]` : type}`,
        ),
      );
    for (const f of e.fields.values()) {
      if (f.list) {
        if (f.kind === "entity") {
          if (!f.derivedFrom) {
            const nocase = entities.get(f.base).idType === "String";
            const ops = nocase
              ? ["", "not", "contains", "contains_nocase", "not_contains", "not_contains_nocase"]
              : ["", "not", "contains", "not_contains"];
            ops.forEach((op) => filters.push(`  ${op ? `${f.name}_${op}` : f.name}: [${idScalar(f.base)}!]`));
          }
          filters.push(`  ${f.name}_: ${f.base}_filter`);
        } else {
          const ops =
            f.base === "String"
              ? ["", "not", "contains", "contains_nocase", "not_contains", "not_contains_nocase"]
              : ["", "not", "contains", "not_contains"];
          ops.forEach((op) => filters.push(`  ${op ? `${f.name}_${op}` : f.name}: [${f.base}!]`));
        }
      } else if (f.kind === "entity") {
        if (!f.derivedFrom) {
          const s = idScalar(f.base);
          add(f.name, SCALAR_OPS[s], s);
        }
        filters.push(`  ${f.name}_: ${f.base}_filter`);
      } else if (f.kind === "enum") add(f.name, ENUM_OPS, f.base);
      else add(f.name, SCALAR_OPS[f.base], f.base);
    }
    filters.push("  _change_block: BlockChangedFilter", `  and: [${e.name}_filter]`, `  or: [${e.name}_filter]`);
    out.push(`input ${e.name}_filter {\n${filters.join("\n")}\n}`);
  }
  const query = [];
  for (const [field, r] of model.roots)
    query.push(
      r.collection
        ? `  ${field}(${collectionArgs(r.entity)}, ${BLOCK_ARGS}): [${r.entity}!]!`
        : `  ${field}(id: ID!, ${BLOCK_ARGS}): ${r.entity}`,
    );
  query.push("  _meta(block: Block_height): _Meta_");
  query.push(
    "  _logs(level: LogLevel, from: String, to: String, search: String, first: Int = 100, skip: Int = 0, orderDirection: OrderDirection = desc): [_Log_!]!",
  );
  out.push(`type Query {\n${query.join("\n")}\n}`);
  return out.join("\n\n") + "\n";
}

/** graphql-js schema of the API (scalar coercion attached by query.mjs). */
export function buildApiSchema(model) {
  return buildSchema(apiSchemaSdl(model));
}
