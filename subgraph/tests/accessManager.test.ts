// Mapping tests of the AccessManager data source (matchstick-as API; events from generated/factories/AccessManager.ts).
import { Address, BigInt, Bytes } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  RoleGranted,
  RoleLabel,
  RoleRevoked,
  TargetClosed,
  TargetFunctionRoleUpdated,
} from "../generated/AccessManager/ChxAccessManager";
import {
  handleRoleGranted,
  handleRoleLabel,
  handleRoleRevoked,
  handleTargetClosed,
  handleTargetFunctionRoleUpdated,
} from "../src/mappings/accessManager";
import { ALICE, BOB, DPS, key, lastEventId, MANAGER, T0 } from "./helpers";
import { AccessManagerEvents } from "../generated/factories/AccessManager";

const EMISSION = BigInt.fromI32(4);

function roleKey(roleId: i32, account: Address): string {
  const b = new Bytes(8);
  b[7] = <u8>roleId;
  return key(b, account);
}

function grant(roleId: BigInt, account: Address, delay: i32, newMember: boolean, ts: i64): RoleGranted {
  const e = new AccessManagerEvents(MANAGER).RoleGranted(ts, roleId, account, BigInt.fromI32(delay), BigInt.fromI64(ts), newMember);
  handleRoleGranted(e);
  return e;
}

describe("AccessManager", () => {
  beforeEach(() => {
    clearStore();
  });

  test("grant, re-grant with a delay and revoke keep membership and counts", () => {
    const first = grant(EMISSION, ALICE, 0, true, T0);
    grant(EMISSION, BOB, 0, true, T0 + 1);
    grant(EMISSION, ALICE, 600, false, T0 + 2); // delay change, not a new member
    assert.fieldEquals("Role", "4", "memberCount", "2");
    assert.fieldEquals("RoleMember", roleKey(4, ALICE), "executionDelay", "600");
    assert.fieldEquals("RoleGrantedEvent", lastEventId(first), "newMember", "true");

    handleRoleRevoked(
      new AccessManagerEvents(MANAGER).RoleRevoked(T0 + 3, EMISSION, ALICE),
    );
    assert.fieldEquals("Role", "4", "memberCount", "1");
    assert.fieldEquals("RoleMember", roleKey(4, ALICE), "active", "false");
    assert.fieldEquals("RoleMember", roleKey(4, ALICE), "revokedAt", (T0 + 3).toString());
    assert.entityCount("RoleGrantedEvent", 3);
    assert.entityCount("RoleRevokedEvent", 1);
  });

  test("labels, function roles and target closure", () => {
    handleRoleLabel(
      new AccessManagerEvents(MANAGER).RoleLabel(T0, EMISSION, "EMISSION"),
    );
    const selector = Bytes.fromHexString("0x40c10f19"); // mint(address,uint256)
    handleTargetFunctionRoleUpdated(
      new AccessManagerEvents(MANAGER).TargetFunctionRoleUpdated(T0, DPS, selector, EMISSION),
    );
    handleTargetClosed(
      new AccessManagerEvents(MANAGER).TargetClosed(T0, DPS, true),
    );
    assert.fieldEquals("Role", "4", "label", "EMISSION");
    assert.fieldEquals("TargetFunctionRole", key(DPS, selector), "role", "4");
    assert.fieldEquals("AccessTarget", DPS.toHexString(), "closed", "true");
  });
});
