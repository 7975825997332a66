// Helpers for the query checks (subgraph/queries/*.mjs). A check gets the query's data and `t`: the run context
// (t.replay = the indexed store, t.contract(name) with t.at = the last indexed block, t.address(name), t.checkpoints,
// t.query(text, variables)) and the assertions of scripts/queries.mjs (t.ok, t.eq, t.rows, t.every, t.sorted, t.sum).
// Checks compare each answer with an independent reading: the contracts' getters where one exists, otherwise the
// store rows filtered and ordered in plain JavaScript here (so a filter, ordering or range the query layer gets wrong
// shows up as a difference).

export const big = (x) => BigInt(x ?? 0);
export const ids = (rows) => rows.map((r) => r.id);

/** Store rows of `type` that satisfy `pred`. */
export const rowsOf = (t, type, pred = () => true) => t.replay.entities(type).filter(pred);

/**
 * Σ long and Σ |short| sizes of the chain's positions (`house.positionOf` at block `at`) over `positions`, the
 * indexed Position rows of `market`. The ClearingHouse keeps no open-interest copy (round 47: each market's own record
 * is the one source), so the indexed aggregate is checked against the chain's positions; a position the index missed
 * leaves it unequal. Shared by the query checks and the OPS-03 e2e (`e2e/57-positions.mjs`).
 */
export async function openInterestOf(house, positions, market, at) {
  let long = 0n;
  let short = 0n;
  for (const p of positions) {
    const size = (await house.positionOf(p.marginAccount, market, at)).sizeCh;
    if (size > 0n) long += size;
    else short -= size;
  }
  return [long, short];
}

/** openInterestOf for a query check: the indexed positions of `market` at the checkpoint. */
export const chainOpenInterest = (t, market) =>
  openInterestOf(t.contract("ClearingHouse"), rowsOf(t, "Position", (r) => r.market === market), market, t.at);

/** The store row of `type` with the largest key(row). */
export function maxBy(t, type, key, pred = () => true) {
  const rows = rowsOf(t, type, pred);
  if (!rows.length) throw new Error(`no ${type} rows in the indexed scenario`);
  return rows.reduce((m, r) => (big(key(r)) > big(key(m)) ? r : m));
}

/** The first store row of `type` (by id) that satisfies `pred`; throws when the scenario produced none. */
export function pick(t, type, pred = () => true) {
  const rows = rowsOf(t, type, pred).sort((a, b) => (a.id < b.id ? -1 : 1));
  if (!rows.length) throw new Error(`no ${type} row for this query in the indexed scenario`);
  return rows[0];
}

/** Expected rows: store rows filtered, sorted by key (numeric when the values are integers) then id, limited. */
export function expected(t, type, { where = () => true, key, dir = "asc", first = 100 }) {
  const num = (v) => (typeof v === "string" && /^-?\d+$/.test(v) ? BigInt(v) : typeof v === "number" ? BigInt(v) : v);
  const s = dir === "asc" ? 1 : -1;
  return rowsOf(t, type, where)
    .sort((a, b) => {
      const [x, y] = key ? [num(key(a)), num(key(b))] : [0, 0];
      if (x < y) return -s;
      if (x > y) return s;
      return (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * s;
    })
    .slice(0, first);
}

/** The answer's rows in the same order as `rows` (compared by field `field`, the id by default). */
export function sameRows(t, answer, rows, what, field = "id", of = (r) => r.id) {
  return t.eq(answer.map((r) => r[field]).join(","), rows.map(of).join(","), `${what}: the rows and their order`);
}

/**
 * The nonce of spot order `hash` (the SpotMarket keys order state by maker and nonce; the digest selects the order):
 * from a SpotCancel of it, else from the calldata of a fillOrder/matchOrders transaction that filled it.
 */
export async function spotOrderNonce(t, hash) {
  const id = String(hash).toLowerCase();
  const cancel = rowsOf(t, "SpotCancel", (r) => String(r.hash ?? "").toLowerCase() === id)[0];
  if (cancel) return big(cancel.nonce);
  const spot = t.contract("SpotMarket");
  const fills = rowsOf(t, "SpotFill", (r) => String(r.order?.id ?? r.order).toLowerCase() === id);
  for (const f of fills) {
    const tx = await t.provider.getTransaction(f.transactionHash);
    const call = tx ? spot.interface.parseTransaction({ data: tx.data }) : null;
    const orders =
      call?.name === "fillOrder" ? [call.args[0]] : call?.name === "matchOrders" ? [call.args[0], call.args[2]] : [];
    for (const o of orders) if ((await spot.orderDigest(o.toObject(), t.at)).toLowerCase() === id) return big(o.nonce);
  }
  throw new Error(`spot order ${hash}: no cancel or fill transaction names its nonce`);
}
