// GFLToken: the non-transferable capacity index (1 GFL = 1 PFLOPS of allocated capacity for the epoch).
import { GFLRebalanced, Transfer } from "../../generated/GFLToken/GFLToken";
import { GFLRebalance } from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import { applySupplyPostState, applyTransfer } from "../lib/tokens";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

const SYMBOL = "GFL";

export function handleTransfer(event: Transfer): void {
  applyTransfer(event, SYMBOL, event.params.from, event.params.to, event.params.value);
}

export function handleGFLRebalanced(event: GFLRebalanced): void {
  getOrCreateAccount(event.params.account, event.block);
  const e = new GFLRebalance(eventId(event));
  e.account = event.params.account;
  e.oldBalance = event.params.oldBalance;
  e.newBalance = event.params.newBalance;
  e.delta = event.params.newBalance.minus(event.params.oldBalance);
  e.totalSupply = event.params.totalSupply;
  stamp(e, event);
  e.save();
  applySupplyPostState(event, SYMBOL, event.params.totalSupply, ZERO, null);
}
