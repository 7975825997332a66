// ChxGovernor: proposals (status follows the events), votes (tallies kept on the proposal), parameters.
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  ProposalCanceled,
  ProposalCreated,
  ProposalExecuted,
  ProposalQueued,
  ProposalThresholdSet,
  QuorumNumeratorUpdated,
  VoteCast,
  VoteCastWithParams,
  VotingDelaySet,
  VotingPeriodSet,
} from "../../generated/Governor/ChxGovernor";
import { GovernanceParameterChange, Proposal, Vote } from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import { initProposal } from "../../generated/defaults";
export { handleUpgraded } from "./module";

export function handleProposalCreated(event: ProposalCreated): void {
  getOrCreateAccount(event.params.proposer, event.block);
  const p = initProposal(event.params.proposalId.toString());
  p.proposalId = event.params.proposalId;
  p.proposer = event.params.proposer;
  const targets = event.params.targets;
  const t = new Array<Bytes>(targets.length);
  for (let i = 0; i < targets.length; i++) t[i] = targets[i];
  p.targets = t;
  p.values = event.params.values;
  p.signatures = event.params.signatures;
  p.calldatas = event.params.calldatas;
  p.voteStart = event.params.voteStart;
  p.voteEnd = event.params.voteEnd;
  p.description = event.params.description;
  p.status = "Created";
  p.forVotes = ZERO;
  p.againstVotes = ZERO;
  p.abstainVotes = ZERO;
  p.voteCount = 0;
  p.createdAt = event.block.timestamp;
  p.createdAtBlock = event.block.number;
  p.transactionHash = event.transaction.hash;
  p.save();
}

function setStatus(proposalId: BigInt, status: string, event: ethereum.Event, eta: BigInt | null): void {
  const p = Proposal.load(proposalId.toString());
  if (p == null) return; // created before the start block
  p.status = status;
  if (status == "Queued") {
    p.queuedAt = event.block.timestamp;
    p.eta = eta;
  } else if (status == "Executed") p.executedAt = event.block.timestamp;
  else if (status == "Canceled") p.canceledAt = event.block.timestamp;
  p.save();
}

export function handleProposalQueued(event: ProposalQueued): void {
  setStatus(event.params.proposalId, "Queued", event, event.params.etaSeconds);
}

export function handleProposalExecuted(event: ProposalExecuted): void {
  setStatus(event.params.proposalId, "Executed", event, null);
}

export function handleProposalCanceled(event: ProposalCanceled): void {
  setStatus(event.params.proposalId, "Canceled", event, null);
}

function recordVote(
  event: ethereum.Event,
  voter: Bytes,
  proposalId: BigInt,
  support: i32,
  weight: BigInt,
  reason: string,
  params: Bytes | null,
): void {
  getOrCreateAccount(voter, event.block);
  const p = Proposal.load(proposalId.toString());
  if (p == null) return;
  if (support == 0) p.againstVotes = p.againstVotes.plus(weight);
  else if (support == 1) p.forVotes = p.forVotes.plus(weight);
  else p.abstainVotes = p.abstainVotes.plus(weight);
  p.voteCount = p.voteCount + 1;
  p.save();
  const v = new Vote(eventId(event));
  v.proposal = p.id;
  v.voter = voter;
  v.support = support;
  v.weight = weight;
  v.reason = reason;
  v.params = params;
  stamp(v, event);
  v.save();
}

export function handleVoteCast(event: VoteCast): void {
  recordVote(
    event,
    event.params.voter,
    event.params.proposalId,
    event.params.support,
    event.params.weight,
    event.params.reason,
    null,
  );
}

export function handleVoteCastWithParams(event: VoteCastWithParams): void {
  recordVote(
    event,
    event.params.voter,
    event.params.proposalId,
    event.params.support,
    event.params.weight,
    event.params.reason,
    event.params.params,
  );
}

export function recordParameter(event: ethereum.Event, parameter: string, oldValue: BigInt, newValue: BigInt): void {
  const c = new GovernanceParameterChange(eventId(event));
  c.contract = event.address;
  c.parameter = parameter;
  c.oldValue = oldValue;
  c.newValue = newValue;
  stamp(c, event);
  c.save();
}

export function handleVotingDelaySet(event: VotingDelaySet): void {
  recordParameter(event, "votingDelay", event.params.oldVotingDelay, event.params.newVotingDelay);
}

export function handleVotingPeriodSet(event: VotingPeriodSet): void {
  recordParameter(event, "votingPeriod", event.params.oldVotingPeriod, event.params.newVotingPeriod);
}

export function handleProposalThresholdSet(event: ProposalThresholdSet): void {
  recordParameter(event, "proposalThreshold", event.params.oldProposalThreshold, event.params.newProposalThreshold);
}

export function handleQuorumNumeratorUpdated(event: QuorumNumeratorUpdated): void {
  recordParameter(event, "quorumNumerator", event.params.oldQuorumNumerator, event.params.newQuorumNumerator);
}
