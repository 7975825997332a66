// DPSToken: the reward/governance token. Transfers (mints and burns included), emission, burns, delegation.
import {
  DelegateChanged,
  DelegateVotesChanged,
  DPSBurned,
  DPSEmitted,
  Transfer,
} from "../../generated/DPSToken/DPSToken";
import { DelegateChange, DelegateVotesChange, DPSBurn, DPSEmission } from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import { applySupplyPostState, applyTransfer } from "../lib/tokens";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

const SYMBOL = "DPS";

export function handleTransfer(event: Transfer): void {
  applyTransfer(event, SYMBOL, event.params.from, event.params.to, event.params.value);
}

export function handleDPSEmitted(event: DPSEmitted): void {
  getOrCreateAccount(event.params.to, event.block);
  const e = new DPSEmission(eventId(event));
  e.to = event.params.to;
  e.amount = event.params.amount;
  e.totalEmitted = event.params.totalEmitted;
  e.totalSupply = event.params.totalSupply;
  stamp(e, event);
  e.save();
  applySupplyPostState(event, SYMBOL, event.params.totalSupply, event.params.amount, event.params.totalEmitted);
}

export function handleDPSBurned(event: DPSBurned): void {
  getOrCreateAccount(event.params.from, event.block);
  const e = new DPSBurn(eventId(event));
  e.from = event.params.from;
  e.amount = event.params.amount;
  e.totalBurned = event.params.totalBurned;
  e.totalSupply = event.params.totalSupply;
  stamp(e, event);
  e.save();
  applySupplyPostState(event, SYMBOL, event.params.totalSupply, ZERO, null);
}

export function handleDelegateChanged(event: DelegateChanged): void {
  const account = getOrCreateAccount(event.params.delegator, event.block);
  account.dpsDelegate = event.params.toDelegate;
  account.save();
  const e = new DelegateChange(eventId(event));
  e.delegator = event.params.delegator;
  e.fromDelegate = event.params.fromDelegate;
  e.toDelegate = event.params.toDelegate;
  stamp(e, event);
  e.save();
}

export function handleDelegateVotesChanged(event: DelegateVotesChanged): void {
  const account = getOrCreateAccount(event.params.delegate, event.block);
  account.dpsVotes = event.params.newVotes;
  account.save();
  const e = new DelegateVotesChange(eventId(event));
  e.delegate = event.params.delegate;
  e.previousVotes = event.params.previousVotes;
  e.newVotes = event.params.newVotes;
  stamp(e, event);
  e.save();
}
