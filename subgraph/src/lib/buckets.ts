// Time-bucketed aggregates (…DayData / …HourData), written once for every series. A series names its day and hour
// entity types; a bucket's id is parent ++ bucket number (4 bytes LE), its period start is an Int field, and a new
// bucket starts zeroed (generated/defaults.ts) with its parent reference. Each handler opens the buckets of its event
// once and applies the same changes to both: sums (add/count), values at the close (set), high/low water marks and
// candles, where a new bucket starts from the value before the event.
import { BigInt, Bytes, Entity, ethereum, store, Value } from "@graphprotocol/graph-ts";
import { initEntity } from "../../generated/defaults";
import { SECONDS_PER_DAY, SECONDS_PER_HOUR } from "./common";

/** One aggregate series: day type, hour type ("" = daily only), their period-start fields, parent field ("" = none). */
export class Series {
  constructor(
    public day: string,
    public hour: string,
    public dayStart: string,
    public hourStart: string,
    public parent: string,
  ) {}

  /** The buckets of `event` for `parent`: [day] or [day, hour], loaded or created. */
  open(parent: Bytes, event: ethereum.Event): Bucket[] {
    const ts = event.block.timestamp.toI32();
    const out = new Array<Bucket>(0);
    out.push(Bucket.open(this.day, parent, ts / SECONDS_PER_DAY, SECONDS_PER_DAY, this.dayStart, this.parent));
    if (this.hour.length > 0)
      out.push(Bucket.open(this.hour, parent, ts / SECONDS_PER_HOUR, SECONDS_PER_HOUR, this.hourStart, this.parent));
    return out;
  }
}

export class Bucket {
  constructor(
    public type: string,
    public id: Bytes,
    public e: Entity,
    public fresh: boolean,
  ) {}

  static open(type: string, parent: Bytes, n: i32, size: i32, startField: string, parentField: string): Bucket {
    const id = parent.concatI32(n);
    const loaded = store.get(type, id.toHexString());
    if (loaded != null) return new Bucket(type, id, loaded, false);
    const e = initEntity(type, id);
    e.setI32(startField, n * size);
    if (parentField.length > 0) e.setBytes(parentField, parent);
    return new Bucket(type, id, e, true);
  }

  /** sum += v */
  add(field: string, v: BigInt): Bucket {
    this.e.setBigInt(field, this.e.getBigInt(field).plus(v));
    return this;
  }

  /** count += n */
  count(field: string, n: i32): Bucket {
    this.e.setI32(field, this.e.getI32(field) + n);
    return this;
  }

  /** the value at the close */
  set(field: string, v: BigInt): Bucket {
    this.e.setBigInt(field, v);
    return this;
  }

  setInt(field: string, v: i32): Bucket {
    this.e.setI32(field, v);
    return this;
  }

  setValue(field: string, v: Value): Bucket {
    this.e.set(field, v);
    return this;
  }

  /** high/low water marks ("" = not tracked): a new bucket starts at `before`, then moves out to `after` */
  range(high: string, low: string, before: BigInt, after: BigInt): Bucket {
    if (high.length > 0) {
      if (this.fresh) this.e.setBigInt(high, before);
      if (after.gt(this.e.getBigInt(high))) this.e.setBigInt(high, after);
    }
    if (low.length > 0) {
      if (this.fresh) this.e.setBigInt(low, before);
      if (after.lt(this.e.getBigInt(low))) this.e.setBigInt(low, after);
    }
    return this;
  }

  /**
   * Open/high/low/close of one value; `pattern` has a "*" where Open/High/Low/Close goes ("fundingRate*Wad"; a
   * leading "*" is lower-case: "*AssetsUsdc" -> openAssetsUsdc…). A new bucket opens at `before`; closes at `after`.
   */
  candle(pattern: string, before: BigInt, after: BigInt): Bucket {
    if (this.fresh) this.e.setBigInt(name(pattern, "Open"), before);
    this.range(name(pattern, "High"), name(pattern, "Low"), before, after);
    this.e.setBigInt(name(pattern, "Close"), after);
    return this;
  }

  save(): void {
    store.set(this.type, this.id.toHexString(), this.e);
    this.fresh = false;
  }
}

function name(pattern: string, part: string): string {
  const star = pattern.indexOf("*");
  const word = star == 0 ? part.toLowerCase() : part;
  return pattern.slice(0, star) + word + pattern.slice(star + 1);
}
