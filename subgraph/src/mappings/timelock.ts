// ChxTimelock: scheduled operations and their calls, execution, cancellation, the min delay, its roles.
import { Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  CallExecuted,
  CallSalt,
  CallScheduled,
  Cancelled,
  MinDelayChange,
  RoleGranted,
  RoleRevoked,
} from "../../generated/Timelock/ChxTimelock";
import { GovernanceParameterChange, TimelockCall, TimelockOperation, TimelockRoleMember } from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp } from "../lib/common";
import { initTimelockCall, initTimelockRoleMember } from "../../generated/defaults";
export { handleUpgraded } from "./module";

export function handleCallScheduled(event: CallScheduled): void {
  const id = event.params.id;
  let op = TimelockOperation.load(id);
  // index 0 opens a (re-)scheduling of the operation: a cancelled id may be scheduled again
  if (op == null || event.params.index.isZero()) {
    if (op == null) op = new TimelockOperation(id);
    op.status = "Scheduled";
    op.predecessor = event.params.predecessor;
    op.salt = null;
    op.delay = event.params.delay;
    op.readyAt = event.block.timestamp.plus(event.params.delay);
    op.callCount = 0;
    op.scheduledAt = event.block.timestamp;
    op.scheduledAtBlock = event.block.number;
    op.executedAt = null;
    op.cancelledAt = null;
  }
  op.callCount = op.callCount + 1;
  op.save();
  const call = initTimelockCall(id.concatI32(event.params.index.toI32()));
  call.operation = id;
  call.index = event.params.index;
  call.target = event.params.target;
  call.value = event.params.value;
  call.data = event.params.data;
  call.save();
}

export function handleCallSalt(event: CallSalt): void {
  const op = TimelockOperation.load(event.params.id);
  if (op == null) return;
  op.salt = event.params.salt;
  op.save();
}

export function handleCallExecuted(event: CallExecuted): void {
  const id = event.params.id;
  const call = TimelockCall.load(id.concatI32(event.params.index.toI32()));
  if (call != null) {
    call.executed = true;
    call.save();
  }
  const op = TimelockOperation.load(id);
  if (op == null) return;
  op.status = "Executed";
  op.executedAt = event.block.timestamp;
  op.save();
}

export function handleCancelled(event: Cancelled): void {
  const op = TimelockOperation.load(event.params.id);
  if (op == null) return;
  op.status = "Cancelled";
  op.cancelledAt = event.block.timestamp;
  op.save();
}

export function handleMinDelayChange(event: MinDelayChange): void {
  const c = new GovernanceParameterChange(eventId(event));
  c.contract = event.address;
  c.parameter = "timelockMinDelay";
  c.oldValue = event.params.oldDuration;
  c.newValue = event.params.newDuration;
  stamp(c, event);
  c.save();
}

function setRole(role: Bytes, account: Bytes, sender: Bytes, active: boolean, event: ethereum.Event): void {
  getOrCreateAccount(account, event.block);
  const id = role.concat(account);
  let m = TimelockRoleMember.load(id);
  if (m == null) {
    m = initTimelockRoleMember(id);
    m.role = role;
    m.account = account;
  }
  m.active = active;
  m.updatedBy = sender;
  m.updatedAt = event.block.timestamp;
  m.save();
}

export function handleRoleGranted(event: RoleGranted): void {
  setRole(event.params.role, event.params.account, event.params.sender, true, event);
}

export function handleRoleRevoked(event: RoleRevoked): void {
  setRole(event.params.role, event.params.account, event.params.sender, false, event);
}
