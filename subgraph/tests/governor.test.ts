// Mapping tests of the Governor data source (matchstick-as API; events from generated/factories/Governor.ts).
import { Address, BigInt, Bytes } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  ProposalCreated,
  ProposalExecuted,
  ProposalQueued,
  VoteCast,
  VotingPeriodSet,
} from "../generated/Governor/ChxGovernor";
import {
  handleProposalCreated,
  handleProposalExecuted,
  handleProposalQueued,
  handleVoteCast,
  handleVotingPeriodSet,
} from "../src/mappings/governor";
import { ALICE, BOB, CAROL, DPS, GOVERNOR, lastEventId, T0, wad } from "./helpers";
import { GovernorEvents } from "../generated/factories/Governor";

function proposalCreated(id: BigInt, ts: i64): void {
  const targets: Array<Address> = [DPS];
  const values: Array<BigInt> = [BigInt.zero()];
  const signatures: Array<string> = [""];
  const calldatas: Array<Bytes> = [Bytes.fromHexString("0x1234")];
  handleProposalCreated(
    new GovernorEvents(GOVERNOR).ProposalCreated(ts, id, ALICE, targets, values, signatures, calldatas, BigInt.fromI64(ts + 1), BigInt.fromI64(ts + 3601), "label the emission role"),
  );
}

function vote(voter: Address, id: BigInt, support: i32, weight: BigInt, ts: i64): VoteCast {
  const e = new GovernorEvents(GOVERNOR).VoteCast(ts, voter, id, support, weight, "because");
  handleVoteCast(e);
  return e;
}

describe("Governor", () => {
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
      new GovernorEvents(GOVERNOR).ProposalQueued(T0 + 3700, id, BigInt.fromI64(T0 + 7300)),
    );
    assert.fieldEquals("Proposal", id.toString(), "status", "Queued");
    assert.fieldEquals("Proposal", id.toString(), "eta", (T0 + 7300).toString());
    handleProposalExecuted(new GovernorEvents(GOVERNOR).ProposalExecuted(T0 + 7300, id));
    assert.fieldEquals("Proposal", id.toString(), "status", "Executed");
  });

  test("parameter changes are recorded", () => {
    const e = new GovernorEvents(GOVERNOR).VotingPeriodSet(T0, BigInt.fromI32(3600), BigInt.fromI32(7200));
    handleVotingPeriodSet(e);
    assert.fieldEquals("GovernanceParameterChange", lastEventId(e), "parameter", "votingPeriod");
    assert.fieldEquals("GovernanceParameterChange", lastEventId(e), "newValue", "7200");
  });
});
