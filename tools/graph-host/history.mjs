// Entity versions by block, the way graph-node keeps them (each version valid from the block that wrote it until the
// next write), so a query can be answered "as of block N" (`block: { number: N }`) and `_change_block` can be
// evaluated. The host records every store.set/store.remove here when it is given a history; the replay moves the
// block cursor and the head (the last block processed).

export class EntityHistory {
  constructor() {
    /** type -> id -> [{ block, data: Map|null }] in block order */
    this.types = new Map();
    /** block whose triggers are being processed (set by the replay before each block) */
    this.block = 0;
    /** last block processed: { number, hash, timestamp, parentHash } */
    this.head = null;
    /** block hash -> number, for `block: { hash }` */
    this.hashes = new Map();
  }

  /** The replay calls this for every block it processes (with or without triggers). */
  advance({ number, hash = null, timestamp = null, parentHash = null }) {
    const n = Number(number);
    if (this.head && n < this.head.number) throw new Error(`history: block ${n} after ${this.head.number}`);
    this.block = n;
    this.head = { number: n, hash, timestamp: timestamp === null ? null : Number(timestamp), parentHash };
    if (hash) this.hashes.set(hash.toLowerCase(), n);
  }

  record(type, id, data) {
    let ids = this.types.get(type);
    if (!ids) this.types.set(type, (ids = new Map()));
    let versions = ids.get(id);
    if (!versions) ids.set(id, (versions = []));
    const last = versions[versions.length - 1];
    if (last && last.block === this.block) last.data = data;
    else versions.push({ block: this.block, data });
  }

  /** The version of `type`/`id` in force at `block`: { block, data } or undefined. */
  version(type, id, block) {
    const versions = this.types.get(type)?.get(id);
    if (!versions) return undefined;
    for (let i = versions.length - 1; i >= 0; i--) if (versions[i].block <= block) return versions[i];
    return undefined;
  }

  get(type, id, block) {
    return this.version(type, id, block)?.data ?? null;
  }

  /** [id, data, changedAt] of every entity of `type` that exists at `block`. */
  *entities(type, block) {
    for (const id of this.types.get(type)?.keys() ?? []) {
      const v = this.version(type, id, block);
      if (v?.data) yield [id, v.data, v.block];
    }
  }
}
