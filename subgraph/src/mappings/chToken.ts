// CHToken: the compute-hour commodity. Outstanding CH = Token(CH).totalSupply (every CH is a delivery liability).
import { CHBurned, CHMinted, Transfer } from "../../generated/CHToken/CHToken";
import { CHBurn, CHMint } from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import { applySupplyPostState, applyTransfer } from "../lib/tokens";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

const SYMBOL = "CH";

export function handleTransfer(event: Transfer): void {
  applyTransfer(event, SYMBOL, event.params.from, event.params.to, event.params.value);
}

export function handleCHMinted(event: CHMinted): void {
  getOrCreateAccount(event.params.to, event.block);
  const e = new CHMint(eventId(event));
  e.to = event.params.to;
  e.amount = event.params.amount;
  e.totalSupply = event.params.totalSupply;
  stamp(e, event);
  e.save();
  applySupplyPostState(event, SYMBOL, event.params.totalSupply, ZERO, null);
}

export function handleCHBurned(event: CHBurned): void {
  getOrCreateAccount(event.params.from, event.block);
  const e = new CHBurn(eventId(event));
  e.from = event.params.from;
  e.amount = event.params.amount;
  e.totalSupply = event.params.totalSupply;
  stamp(e, event);
  e.save();
  applySupplyPostState(event, SYMBOL, event.params.totalSupply, ZERO, null);
}
