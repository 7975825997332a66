// ChxAccessManager: roles, members, the function→role map per target, target closure, delayed operations.
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  OperationCanceled,
  OperationExecuted,
  OperationScheduled,
  RoleAdminChanged,
  RoleGrantDelayChanged,
  RoleGranted,
  RoleGuardianChanged,
  RoleLabel,
  RoleRevoked,
  TargetAdminDelayUpdated,
  TargetClosed,
  TargetFunctionRoleUpdated,
} from "../../generated/AccessManager/ChxAccessManager";
import {
  AccessManagerOperation,
  AccessTarget,
  Role,
  RoleGrantedEvent,
  RoleMember,
  RoleRevokedEvent,
  TargetFunctionRole,
} from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, u64Bytes, ZERO } from "../lib/common";
import { initAccessManagerOperation, initAccessTarget, initRole, initRoleMember, initTargetFunctionRole } from "../../generated/defaults";
export { handleUpgraded } from "./module";

function getOrCreateRole(roleId: BigInt): Role {
  const id = roleId.toString();
  let role = Role.load(id);
  if (role == null) {
    role = initRole(id);
    role.roleId = roleId;
    role.admin = ZERO; // ADMIN_ROLE administers every role until RoleAdminChanged
    role.guardian = ZERO;
    role.grantDelay = ZERO;
    role.memberCount = 0;
    role.save();
  }
  return role;
}

function getOrCreateTarget(target: Bytes): AccessTarget {
  let t = AccessTarget.load(target);
  if (t == null) {
    t = initAccessTarget(target);
    t.save();
  }
  return t;
}

export function handleRoleGranted(event: RoleGranted): void {
  const role = getOrCreateRole(event.params.roleId);
  getOrCreateAccount(event.params.account, event.block);
  const id = u64Bytes(event.params.roleId).concat(event.params.account);
  let m = RoleMember.load(id);
  if (m == null) {
    m = initRoleMember(id);
    m.role = role.id;
    m.account = event.params.account;
    m.grantedAt = event.block.timestamp;
  }
  if (!m.active) {
    role.memberCount = role.memberCount + 1;
    role.save();
    m.grantedAt = event.block.timestamp;
    m.revokedAt = null;
  }
  m.active = true;
  m.executionDelay = event.params.delay;
  m.since = event.params.since;
  m.save();

  const e = new RoleGrantedEvent(eventId(event));
  e.role = role.id;
  e.account = event.params.account;
  e.delay = event.params.delay;
  e.since = event.params.since;
  e.newMember = event.params.newMember;
  stamp(e, event);
  e.save();
}

export function handleRoleRevoked(event: RoleRevoked): void {
  const role = getOrCreateRole(event.params.roleId);
  const m = RoleMember.load(u64Bytes(event.params.roleId).concat(event.params.account));
  if (m != null && m.active) {
    m.active = false;
    m.revokedAt = event.block.timestamp;
    m.save();
    role.memberCount = role.memberCount - 1;
    role.save();
  }
  const e = new RoleRevokedEvent(eventId(event));
  e.role = role.id;
  e.account = event.params.account;
  stamp(e, event);
  e.save();
}

export function handleRoleLabel(event: RoleLabel): void {
  const role = getOrCreateRole(event.params.roleId);
  role.label = event.params.label;
  role.save();
}

export function handleRoleAdminChanged(event: RoleAdminChanged): void {
  const role = getOrCreateRole(event.params.roleId);
  role.admin = event.params.admin;
  role.save();
}

export function handleRoleGuardianChanged(event: RoleGuardianChanged): void {
  const role = getOrCreateRole(event.params.roleId);
  role.guardian = event.params.guardian;
  role.save();
}

export function handleRoleGrantDelayChanged(event: RoleGrantDelayChanged): void {
  const role = getOrCreateRole(event.params.roleId);
  role.grantDelay = event.params.delay;
  role.grantDelaySince = event.params.since;
  role.save();
}

export function handleTargetFunctionRoleUpdated(event: TargetFunctionRoleUpdated): void {
  const target = getOrCreateTarget(event.params.target);
  const role = getOrCreateRole(event.params.roleId);
  const id = target.id.concat(event.params.selector);
  let f = TargetFunctionRole.load(id);
  if (f == null) {
    f = initTargetFunctionRole(id);
    f.target = target.id;
    f.selector = event.params.selector;
  }
  f.role = role.id;
  f.updatedAt = event.block.timestamp;
  f.updatedAtBlock = event.block.number;
  f.save();
}

export function handleTargetClosed(event: TargetClosed): void {
  const target = getOrCreateTarget(event.params.target);
  target.closed = event.params.closed;
  target.save();
}

export function handleTargetAdminDelayUpdated(event: TargetAdminDelayUpdated): void {
  const target = getOrCreateTarget(event.params.target);
  target.adminDelay = event.params.delay;
  target.save();
}

function operationId(operationId: Bytes, nonce: BigInt): Bytes {
  return operationId.concatI32(nonce.toI32());
}

export function handleOperationScheduled(event: OperationScheduled): void {
  const op = initAccessManagerOperation(operationId(event.params.operationId, event.params.nonce));
  op.operationId = event.params.operationId;
  op.nonce = event.params.nonce;
  op.status = "Scheduled";
  op.schedule = event.params.schedule;
  op.caller = event.params.caller;
  op.target = event.params.target;
  op.data = event.params.data;
  op.scheduledAt = event.block.timestamp;
  op.updatedAt = event.block.timestamp;
  op.save();
}

function closeOperation(id: Bytes, status: string, event: ethereum.Event): void {
  const op = AccessManagerOperation.load(id);
  if (op == null) return; // scheduled before the start block
  op.status = status;
  op.updatedAt = event.block.timestamp;
  op.save();
}

export function handleOperationExecuted(event: OperationExecuted): void {
  closeOperation(operationId(event.params.operationId, event.params.nonce), "Executed", event);
}

export function handleOperationCanceled(event: OperationCanceled): void {
  closeOperation(operationId(event.params.operationId, event.params.nonce), "Cancelled", event);
}
