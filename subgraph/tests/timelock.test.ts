// Mapping tests of the Timelock data source (matchstick-as API; events from generated/factories/Timelock.ts).
import { BigInt, Bytes } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import { CallExecuted, CallSalt, CallScheduled, Cancelled } from "../generated/Timelock/ChxTimelock";
import { handleCallExecuted, handleCallSalt, handleCallScheduled, handleCancelled } from "../src/mappings/timelock";
import { DPS, T0, TIMELOCK } from "./helpers";
import { TimelockEvents } from "../generated/factories/Timelock";

describe("Timelock", () => {
  beforeEach(() => {
    clearStore();
  });

  test("a batch is scheduled, salted, executed; a cancelled id can be scheduled again", () => {
    const id = Bytes.fromHexString("0x" + "77".repeat(32));
    const zero32 = Bytes.fromHexString("0x" + "00".repeat(32));
    for (let i = 0; i < 2; i++) {
      handleCallScheduled(
        new TimelockEvents(TIMELOCK).CallScheduled(T0, id, BigInt.fromI32(i), DPS, BigInt.zero(), Bytes.fromHexString("0xabcd"), zero32, BigInt.fromI32(3600)),
      );
    }
    handleCallSalt(new TimelockEvents(TIMELOCK).CallSalt(T0, id, id));
    assert.fieldEquals("TimelockOperation", id.toHexString(), "callCount", "2");
    assert.fieldEquals("TimelockOperation", id.toHexString(), "readyAt", (T0 + 3600).toString());
    assert.fieldEquals("TimelockOperation", id.toHexString(), "salt", id.toHexString());
    handleCancelled(new TimelockEvents(TIMELOCK).Cancelled(T0 + 10, id));
    assert.fieldEquals("TimelockOperation", id.toHexString(), "status", "Cancelled");

    handleCallScheduled(
      new TimelockEvents(TIMELOCK).CallScheduled(T0 + 20, id, BigInt.zero(), DPS, BigInt.zero(), Bytes.fromHexString("0xabcd"), zero32, BigInt.fromI32(3600)),
    );
    assert.fieldEquals("TimelockOperation", id.toHexString(), "status", "Scheduled");
    assert.fieldEquals("TimelockOperation", id.toHexString(), "callCount", "1");
    handleCallExecuted(
      new TimelockEvents(TIMELOCK).CallExecuted(T0 + 3700, id, BigInt.zero(), DPS, BigInt.zero(), Bytes.fromHexString("0xabcd")),
    );
    assert.fieldEquals("TimelockOperation", id.toHexString(), "status", "Executed");
    assert.fieldEquals("TimelockCall", id.concatI32(0).toHexString(), "executed", "true");
  });
});
