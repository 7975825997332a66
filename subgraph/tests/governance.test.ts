import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  RoleGranted,
  RoleLabel,
  RoleRevoked,
  TargetClosed,
  TargetFunctionRoleUpdated,
} from "../generated/AccessManager/ChxAccessManager";
import {
  ProposalCreated,
  ProposalExecuted,
  ProposalQueued,
  VoteCast,
  VotingPeriodSet,
} from "../generated/Governor/ChxGovernor";
import { CallExecuted, CallSalt, CallScheduled, Cancelled } from "../generated/Timelock/ChxTimelock";
import {
  handleRoleGranted,
  handleRoleLabel,
  handleRoleRevoked,
  handleTargetClosed,
  handleTargetFunctionRoleUpdated,
} from "../src/mappings/accessManager";
import {
  handleProposalCreated,
  handleProposalExecuted,
  handleProposalQueued,
  handleVoteCast,
  handleVotingPeriodSet,
} from "../src/mappings/governor";
import { handleCallExecuted, handleCallSalt, handleCallScheduled, handleCancelled } from "../src/mappings/timelock";
import {
  addressParam,
  ALICE,
  BOB,
  boolParam,
  bytesParam,
  CAROL,
  DPS,
  dynBytesParam,
  GOVERNOR,
  i32Param,
  key,
  lastEventId,
  MANAGER,
  mockEvent,
  stringParam,
  T0,
  TIMELOCK,
  uintParam,
  wad,
} from "./helpers";

const EMISSION = BigInt.fromI32(4);

function roleKey(roleId: i32, account: Address): string {
  const b = new Bytes(8);
  b[7] = <u8>roleId;
  return key(b, account);
}

function grant(roleId: BigInt, account: Address, delay: i32, newMember: boolean, ts: i64): RoleGranted {
  const e = changetype<RoleGranted>(
    mockEvent(MANAGER, ts, [
      uintParam("roleId", roleId),
      addressParam("account", account),
      uintParam("delay", BigInt.fromI32(delay)),
      uintParam("since", BigInt.fromI64(ts)),
      boolParam("newMember", newMember),
    ]),
  );
  handleRoleGranted(e);
  return e;
}

describe("ChxAccessManager", () => {
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
      changetype<RoleRevoked>(
        mockEvent(MANAGER, T0 + 3, [uintParam("roleId", EMISSION), addressParam("account", ALICE)]),
      ),
    );
    assert.fieldEquals("Role", "4", "memberCount", "1");
    assert.fieldEquals("RoleMember", roleKey(4, ALICE), "active", "false");
    assert.fieldEquals("RoleMember", roleKey(4, ALICE), "revokedAt", (T0 + 3).toString());
    assert.entityCount("RoleGrantedEvent", 3);
    assert.entityCount("RoleRevokedEvent", 1);
  });

  test("labels, function roles and target closure", () => {
    handleRoleLabel(
      changetype<RoleLabel>(mockEvent(MANAGER, T0, [uintParam("roleId", EMISSION), stringParam("label", "EMISSION")])),
    );
    const selector = Bytes.fromHexString("0x40c10f19"); // mint(address,uint256)
    handleTargetFunctionRoleUpdated(
      changetype<TargetFunctionRoleUpdated>(
        mockEvent(MANAGER, T0, [
          addressParam("target", DPS),
          bytesParam("selector", selector),
          uintParam("roleId", EMISSION),
        ]),
      ),
    );
    handleTargetClosed(
      changetype<TargetClosed>(mockEvent(MANAGER, T0, [addressParam("target", DPS), boolParam("closed", true)])),
    );
    assert.fieldEquals("Role", "4", "label", "EMISSION");
    assert.fieldEquals("TargetFunctionRole", key(DPS, selector), "role", "4");
    assert.fieldEquals("AccessTarget", DPS.toHexString(), "closed", "true");
  });
});

function proposalCreated(id: BigInt, ts: i64): void {
  const targets: Array<Address> = [DPS];
  const values: Array<BigInt> = [BigInt.zero()];
  const signatures: Array<string> = [""];
  const calldatas: Array<Bytes> = [Bytes.fromHexString("0x1234")];
  handleProposalCreated(
    changetype<ProposalCreated>(
      mockEvent(GOVERNOR, ts, [
        uintParam("proposalId", id),
        addressParam("proposer", ALICE),
        new ethereum.EventParam("targets", ethereum.Value.fromAddressArray(targets)),
        new ethereum.EventParam("values", ethereum.Value.fromUnsignedBigIntArray(values)),
        new ethereum.EventParam("signatures", ethereum.Value.fromStringArray(signatures)),
        new ethereum.EventParam("calldatas", ethereum.Value.fromBytesArray(calldatas)),
        uintParam("voteStart", BigInt.fromI64(ts + 1)),
        uintParam("voteEnd", BigInt.fromI64(ts + 3601)),
        stringParam("description", "label the emission role"),
      ]),
    ),
  );
}

function vote(voter: Address, id: BigInt, support: i32, weight: BigInt, ts: i64): VoteCast {
  const e = changetype<VoteCast>(
    mockEvent(GOVERNOR, ts, [
      addressParam("voter", voter),
      uintParam("proposalId", id),
      i32Param("support", support),
      uintParam("weight", weight),
      stringParam("reason", "because"),
    ]),
  );
  handleVoteCast(e);
  return e;
}

describe("ChxGovernor", () => {
  beforeEach(() => {
    clearStore();
  });

  test("a proposal's status and tallies follow its events", () => {
    const id = BigInt.fromString("98765432109876543210");
    proposalCreated(id, T0);
    assert.fieldEquals("Proposal", id.toString(), "status", "Created");
    assert.fieldEquals("Proposal", id.toString(), "targets", "[" + DPS.toHexString() + "]");
    const v = vote(ALICE, id, 1, wad(70), T0 + 10);
    vote(BOB, id, 0, wad(20), T0 + 11);
    vote(CAROL, id, 2, wad(5), T0 + 12);
    assert.fieldEquals("Proposal", id.toString(), "forVotes", wad(70).toString());
    assert.fieldEquals("Proposal", id.toString(), "againstVotes", wad(20).toString());
    assert.fieldEquals("Proposal", id.toString(), "abstainVotes", wad(5).toString());
    assert.fieldEquals("Proposal", id.toString(), "voteCount", "3");
    assert.fieldEquals("Vote", lastEventId(v), "support", "1");
    handleProposalQueued(
      changetype<ProposalQueued>(
        mockEvent(GOVERNOR, T0 + 3700, [
          uintParam("proposalId", id),
          uintParam("etaSeconds", BigInt.fromI64(T0 + 7300)),
        ]),
      ),
    );
    assert.fieldEquals("Proposal", id.toString(), "status", "Queued");
    assert.fieldEquals("Proposal", id.toString(), "eta", (T0 + 7300).toString());
    handleProposalExecuted(changetype<ProposalExecuted>(mockEvent(GOVERNOR, T0 + 7300, [uintParam("proposalId", id)])));
    assert.fieldEquals("Proposal", id.toString(), "status", "Executed");
  });

  test("parameter changes are recorded", () => {
    const e = changetype<VotingPeriodSet>(
      mockEvent(GOVERNOR, T0, [
        uintParam("oldVotingPeriod", BigInt.fromI32(3600)),
        uintParam("newVotingPeriod", BigInt.fromI32(7200)),
      ]),
    );
    handleVotingPeriodSet(e);
    assert.fieldEquals("GovernanceParameterChange", lastEventId(e), "parameter", "votingPeriod");
    assert.fieldEquals("GovernanceParameterChange", lastEventId(e), "newValue", "7200");
  });
});

describe("ChxTimelock", () => {
  beforeEach(() => {
    clearStore();
  });

  test("a batch is scheduled, salted, executed; a cancelled id can be scheduled again", () => {
    const id = Bytes.fromHexString("0x" + "77".repeat(32));
    const zero32 = Bytes.fromHexString("0x" + "00".repeat(32));
    for (let i = 0; i < 2; i++) {
      handleCallScheduled(
        changetype<CallScheduled>(
          mockEvent(TIMELOCK, T0, [
            bytesParam("id", id),
            uintParam("index", BigInt.fromI32(i)),
            addressParam("target", DPS),
            uintParam("value", BigInt.zero()),
            dynBytesParam("data", Bytes.fromHexString("0xabcd")),
            bytesParam("predecessor", zero32),
            uintParam("delay", BigInt.fromI32(3600)),
          ]),
        ),
      );
    }
    handleCallSalt(changetype<CallSalt>(mockEvent(TIMELOCK, T0, [bytesParam("id", id), bytesParam("salt", id)])));
    assert.fieldEquals("TimelockOperation", id.toHexString(), "callCount", "2");
    assert.fieldEquals("TimelockOperation", id.toHexString(), "readyAt", (T0 + 3600).toString());
    assert.fieldEquals("TimelockOperation", id.toHexString(), "salt", id.toHexString());
    handleCancelled(changetype<Cancelled>(mockEvent(TIMELOCK, T0 + 10, [bytesParam("id", id)])));
    assert.fieldEquals("TimelockOperation", id.toHexString(), "status", "Cancelled");

    handleCallScheduled(
      changetype<CallScheduled>(
        mockEvent(TIMELOCK, T0 + 20, [
          bytesParam("id", id),
          uintParam("index", BigInt.zero()),
          addressParam("target", DPS),
          uintParam("value", BigInt.zero()),
          dynBytesParam("data", Bytes.fromHexString("0xabcd")),
          bytesParam("predecessor", zero32),
          uintParam("delay", BigInt.fromI32(3600)),
        ]),
      ),
    );
    assert.fieldEquals("TimelockOperation", id.toHexString(), "status", "Scheduled");
    assert.fieldEquals("TimelockOperation", id.toHexString(), "callCount", "1");
    handleCallExecuted(
      changetype<CallExecuted>(
        mockEvent(TIMELOCK, T0 + 3700, [
          bytesParam("id", id),
          uintParam("index", BigInt.zero()),
          addressParam("target", DPS),
          uintParam("value", BigInt.zero()),
          dynBytesParam("data", Bytes.fromHexString("0xabcd")),
        ]),
      ),
    );
    assert.fieldEquals("TimelockOperation", id.toHexString(), "status", "Executed");
    assert.fieldEquals("TimelockCall", id.concatI32(0).toHexString(), "executed", "true");
  });
});
