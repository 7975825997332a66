// GuarantorPool: guarantors (configuration, capital and shares, DPS stake, customers, exposure, income, losses).
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  BackstopParamsSet,
  CapitalDeposited,
  CapitalNoticeSet,
  CapitalWithdrawalCancelled,
  CapitalWithdrawalRequested,
  CapitalWithdrawn,
  CustomerAdmitted,
  CustomerLeft,
  DpsSlashed,
  DpsSlashedByRule,
  DpsStakeChanged,
  ExposureChanged,
  GuarantorConfigured,
  GuarantorSharesReset,
  GuarantorShortfallCleared,
  GuarantorShortfallFlagged,
  IncomeAccrued,
  IncomeCredited,
  IncomeFunded,
  IncomeVesting,
  LossCovered,
  PoolParamsSet,
} from "../../generated/GuarantorPool/GuarantorPool";
import { GuarantorEvent, GuarantorShareholder } from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import { configChange, getGuarantor, getMarginAccount } from "../lib/clearing";
import { initGuarantorShareholder } from "../../generated/defaults";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

function record(
  event: ethereum.Event,
  guarantor: Bytes,
  kind: string,
  account: Bytes | null,
  amount: BigInt | null,
  values: BigInt[],
): void {
  const e = new GuarantorEvent(eventId(event));
  e.guarantor = guarantor;
  e.kind = kind;
  e.account = account;
  e.amount = amount;
  e.values = values;
  stamp(e, event);
  e.save();
}

function getHolder(guarantor: Bytes, holder: Bytes): GuarantorShareholder {
  const id = guarantor.concat(holder);
  let h = GuarantorShareholder.load(id);
  if (h == null) {
    h = initGuarantorShareholder(id);
    h.guarantor = guarantor;
    h.holder = holder;
  }
  return h;
}

export function handleGuarantorConfigured(event: GuarantorConfigured): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  g.open = p.open;
  g.defaultLimitUsdc = p.defaultLimitUsdc;
  g.save();
  record(event, g.id, "configured", null, p.defaultLimitUsdc, [BigInt.fromI32(p.open ? 1 : 0)]);
}

export function handleCapitalDeposited(event: CapitalDeposited): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  g.capitalUsdc = p.capitalUsdc;
  g.totalShares = p.totalShares;
  g.save();
  getOrCreateAccount(p.depositor, event.block);
  const h = getHolder(g.id, p.depositor);
  h.shares = h.shares.plus(p.shares);
  h.depositedUsdc = h.depositedUsdc.plus(p.amountUsdc);
  h.save();
  record(event, g.id, "capitalDeposited", p.depositor, p.amountUsdc, [p.shares, p.capitalUsdc, p.totalShares]);
}

export function handleCapitalWithdrawn(event: CapitalWithdrawn): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  g.capitalUsdc = p.capitalUsdc;
  g.totalShares = p.totalShares;
  g.save();
  const h = getHolder(g.id, p.holder);
  h.shares = h.shares.minus(p.shares);
  h.withdrawnUsdc = h.withdrawnUsdc.plus(p.amountUsdc);
  h.save();
  record(event, g.id, "capitalWithdrawn", p.holder, p.amountUsdc, [p.shares, p.capitalUsdc, p.totalShares]);
}

export function handleCustomerAdmitted(event: CustomerAdmitted): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  g.customerCount = g.customerCount + 1;
  g.save();
  const a = getMarginAccount(p.account, event);
  a.guarantor = g.id;
  a.limitUsdc = p.limitUsdc;
  a.save();
  record(event, g.id, "customerAdmitted", p.account, p.limitUsdc, []);
}

export function handleCustomerLeft(event: CustomerLeft): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  g.customerCount = g.customerCount - 1;
  g.save();
  const a = getMarginAccount(p.account, event);
  a.guarantor = null;
  a.limitUsdc = ZERO;
  a.exposureUsdc = ZERO;
  a.save();
  record(event, g.id, "customerLeft", p.account, null, []);
}

export function handleExposureChanged(event: ExposureChanged): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  g.exposureUsdc = p.guarantorExposureUsdc;
  g.save();
  const a = getMarginAccount(p.account, event);
  a.exposureUsdc = p.exposureUsdc;
  a.save();
  record(event, g.id, "exposureChanged", p.account, p.exposureUsdc, [p.guarantorExposureUsdc]);
}

export function handleDpsStakeChanged(event: DpsStakeChanged): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  g.dpsStaked = p.dpsStaked;
  g.save();
  record(event, g.id, "dpsStakeChanged", null, p.delta, [p.dpsStaked]);
}

export function handleDpsSlashed(event: DpsSlashed): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  g.dpsStaked = p.dpsStaked;
  g.slashedDps = g.slashedDps.plus(p.amount);
  g.save();
  record(event, g.id, "dpsSlashed", p.to, p.amount, [p.dpsStaked]);
}

export function handleIncomeCredited(event: IncomeCredited): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  g.capitalUsdc = p.capitalUsdc;
  g.incomeUsdc = g.incomeUsdc.plus(p.amountUsdc);
  g.save();
  record(event, g.id, "incomeCredited", p.from, p.amountUsdc, [p.capitalUsdc]);
}

export function handleLossCovered(event: LossCovered): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  g.capitalUsdc = p.capitalUsdc;
  g.lossesAskedUsdc = g.lossesAskedUsdc.plus(p.askedUsdc);
  g.lossesPaidUsdc = g.lossesPaidUsdc.plus(p.paidUsdc);
  g.save();
  record(event, g.id, "lossCovered", p.account, p.paidUsdc, [p.askedUsdc, p.capitalUsdc]);
}

/** A wipe-out cancelled every share of the guarantor (O(1) on chain: an epoch); the index zeroes its holders. */
export function handleGuarantorSharesReset(event: GuarantorSharesReset): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  g.totalShares = ZERO;
  g.shareEpoch = p.epoch;
  g.sharesResets = g.sharesResets + 1;
  g.capitalUsdc = p.capitalUsdc;
  g.save();
  const holders = g.shareholders.load();
  for (let i = 0; i < holders.length; i++) {
    const h = holders[i];
    h.shares = ZERO;
    h.save();
  }
  record(event, g.id, "sharesReset", null, p.sharesCancelled, [p.epoch, p.capitalUsdc]);
}

export function handleCapitalWithdrawalRequested(event: CapitalWithdrawalRequested): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  record(event, g.id, "withdrawalRequested", p.holder, p.shares, [p.readyAt, p.expiresAt]);
}

export function handleCapitalWithdrawalCancelled(event: CapitalWithdrawalCancelled): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  record(event, g.id, "withdrawalCancelled", p.holder, null, []);
}

export function handleCapitalNoticeSet(event: CapitalNoticeSet): void {
  configChange(event, "capitalNotice", null, [], [event.params.noticeSec, event.params.windowSec]);
}

export function handlePoolParamsSet(event: PoolParamsSet): void {
  configChange(event, "poolParams", null, [], [event.params.minDpsStake, event.params.maxLeverageWad]);
}

/** A DPS slash by rule (reason 1: an uncovered customer loss, 2: an insurance shortfall past its grace period). */
export function handleDpsSlashedByRule(event: DpsSlashedByRule): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  g.dpsStaked = p.dpsStaked;
  g.slashedDps = g.slashedDps.plus(p.amount);
  g.save();
  record(event, g.id, "dpsSlashedByRule", p.to, p.amount, [BigInt.fromI32(p.reason), p.basisUsdc, p.dpsStaked]);
}

export function handleGuarantorShortfallFlagged(event: GuarantorShortfallFlagged): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  record(event, g.id, "shortfallFlagged", null, p.requiredUsdc, [p.stakedUsdc, p.graceEndsAt]);
}

export function handleGuarantorShortfallCleared(event: GuarantorShortfallCleared): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  record(event, g.id, "shortfallCleared", null, p.requiredUsdc, [p.stakedUsdc]);
}

export function handleIncomeAccrued(event: IncomeAccrued): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  record(event, g.id, "incomeAccrued", p.account, p.shareUsdc, [p.pendingUsdc]);
}

export function handleIncomeVesting(event: IncomeVesting): void {
  const p = event.params;
  const g = getGuarantor(p.guarantor, event);
  record(event, g.id, "incomeVesting", null, p.unvestedUsdc, [p.vestEnd]);
}

export function handleIncomeFunded(event: IncomeFunded): void {
  const p = event.params;
  configChange(event, "incomeFunded", null, [], [p.amountUsdc, p.fundedUsdc, p.owedUsdc]);
}

export function handleBackstopParamsSet(event: BackstopParamsSet): void {
  const p = event.params;
  configChange(
    event,
    "backstopParams",
    null,
    [p.insuranceFund, p.dpsSink],
    [p.stressWad, p.graceSec, p.slashBps, p.feeShareBps, p.vestSec],
  );
}
