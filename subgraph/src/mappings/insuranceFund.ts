// InsuranceFund: stakers, shares, withdrawal requests, bad-debt cover (LIQ-03 insurance step), fees and the fund's
// assets over time. Every event carries the fund's post-state (totalAssetsUsdc, totalShares) except the ones
// that do not move assets (requests, cancels, requirements, cooldown); no eth_call.
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  FeaturePauseSet,
  InsuranceBadDebtCovered,
  InsuranceCooldownSet,
  InsuranceFeesDeposited,
  InsuranceGuarantorRequirementSet,
  InsuranceSharesReset,
  InsuranceStaked,
  InsuranceSurplusSwept,
  InsuranceWithdrawCancelled,
  InsuranceWithdrawn,
  InsuranceWithdrawRequested,
  Upgraded,
} from "../../generated/InsuranceFund/InsuranceFund";
import {
  InsuranceFundDayData,
  InsuranceFundEvent,
  InsuranceFundHourData,
  InsuranceFundState,
  InsuranceStaker,
} from "../../generated/schema";
import {
  eventId,
  getOrCreateAccount,
  recordFeaturePause,
  recordUpgrade,
  SECONDS_PER_DAY,
  SECONDS_PER_HOUR,
  ZERO,
} from "../lib/common";

const NAME = "InsuranceFund";

function getState(address: Address): InsuranceFundState {
  let s = InsuranceFundState.load(address);
  if (s == null) {
    s = new InsuranceFundState(address);
    s.totalAssetsUsdc = ZERO;
    s.totalShares = ZERO;
    s.shareEpoch = ZERO;
    s.cooldownSec = ZERO;
    s.windowSec = ZERO;
    s.stakedUsdc = ZERO;
    s.withdrawnUsdc = ZERO;
    s.feesUsdc = ZERO;
    s.badDebtRequestedUsdc = ZERO;
    s.badDebtCoveredUsdc = ZERO;
    s.badDebtUncoveredUsdc = ZERO;
    s.sweptUsdc = ZERO;
    s.stakeCount = 0;
    s.withdrawCount = 0;
    s.badDebtCount = 0;
    s.sharesResets = 0;
    s.updatedAt = ZERO;
    s.updatedAtBlock = ZERO;
  }
  return s;
}

function getStaker(address: Bytes, event: ethereum.Event): InsuranceStaker {
  let s = InsuranceStaker.load(address);
  if (s == null) {
    s = new InsuranceStaker(address);
    s.account = getOrCreateAccount(address, event.block).id;
    s.shares = ZERO;
    s.shareEpoch = ZERO;
    s.requestShares = ZERO;
    s.requestReadyAt = ZERO;
    s.requestExpiresAt = ZERO;
    s.stakedUsdc = ZERO;
    s.withdrawnUsdc = ZERO;
    s.requiredUsdc = ZERO;
    s.guarantorStakeUsdc = ZERO;
  }
  s.updatedAt = event.block.timestamp;
  return s;
}

function newEvent(event: ethereum.Event, kind: string, account: Bytes | null): InsuranceFundEvent {
  const e = new InsuranceFundEvent(eventId(event));
  e.fund = event.address;
  e.kind = kind;
  e.account = account;
  e.values = [];
  e.blockNumber = event.block.number;
  e.timestamp = event.block.timestamp;
  e.transactionHash = event.transaction.hash;
  e.logIndex = event.logIndex;
  return e;
}

/** Flows of one event into the day/hour buckets. */
class Flow {
  staked: BigInt = ZERO;
  withdrawn: BigInt = ZERO;
  fees: BigInt = ZERO;
  covered: BigInt = ZERO;
  uncovered: BigInt = ZERO;
  swept: BigInt = ZERO;
}

/** Sets the state's assets/shares (post-state of the event) and rolls the day and hour buckets. */
function setAssets(event: ethereum.Event, s: InsuranceFundState, assets: BigInt, shares: BigInt, f: Flow): void {
  const before = s.totalAssetsUsdc;
  s.totalAssetsUsdc = assets;
  s.totalShares = shares;
  s.stakedUsdc = s.stakedUsdc.plus(f.staked);
  s.withdrawnUsdc = s.withdrawnUsdc.plus(f.withdrawn);
  s.feesUsdc = s.feesUsdc.plus(f.fees);
  s.badDebtCoveredUsdc = s.badDebtCoveredUsdc.plus(f.covered);
  s.badDebtUncoveredUsdc = s.badDebtUncoveredUsdc.plus(f.uncovered);
  s.sweptUsdc = s.sweptUsdc.plus(f.swept);
  s.updatedAt = event.block.timestamp;
  s.updatedAtBlock = event.block.number;
  s.save();

  const ts = event.block.timestamp.toI32();
  const day = ts / SECONDS_PER_DAY;
  const dayId = event.address.concatI32(day);
  let d = InsuranceFundDayData.load(dayId);
  if (d == null) {
    d = new InsuranceFundDayData(dayId);
    d.fund = event.address;
    d.date = day * SECONDS_PER_DAY;
    d.openAssetsUsdc = before;
    d.highAssetsUsdc = before;
    d.lowAssetsUsdc = before;
    d.stakedUsdc = ZERO;
    d.withdrawnUsdc = ZERO;
    d.feesUsdc = ZERO;
    d.badDebtCoveredUsdc = ZERO;
    d.badDebtUncoveredUsdc = ZERO;
    d.sweptUsdc = ZERO;
  }
  if (assets.gt(d.highAssetsUsdc)) d.highAssetsUsdc = assets;
  if (assets.lt(d.lowAssetsUsdc)) d.lowAssetsUsdc = assets;
  d.closeAssetsUsdc = assets;
  d.totalShares = shares;
  d.stakedUsdc = d.stakedUsdc.plus(f.staked);
  d.withdrawnUsdc = d.withdrawnUsdc.plus(f.withdrawn);
  d.feesUsdc = d.feesUsdc.plus(f.fees);
  d.badDebtCoveredUsdc = d.badDebtCoveredUsdc.plus(f.covered);
  d.badDebtUncoveredUsdc = d.badDebtUncoveredUsdc.plus(f.uncovered);
  d.sweptUsdc = d.sweptUsdc.plus(f.swept);
  d.save();

  const hour = ts / SECONDS_PER_HOUR;
  const hourId = event.address.concatI32(hour);
  let h = InsuranceFundHourData.load(hourId);
  if (h == null) {
    h = new InsuranceFundHourData(hourId);
    h.fund = event.address;
    h.date = hour * SECONDS_PER_HOUR;
    h.openAssetsUsdc = before;
    h.highAssetsUsdc = before;
    h.lowAssetsUsdc = before;
    h.stakedUsdc = ZERO;
    h.withdrawnUsdc = ZERO;
    h.feesUsdc = ZERO;
    h.badDebtCoveredUsdc = ZERO;
    h.badDebtUncoveredUsdc = ZERO;
    h.sweptUsdc = ZERO;
  }
  if (assets.gt(h.highAssetsUsdc)) h.highAssetsUsdc = assets;
  if (assets.lt(h.lowAssetsUsdc)) h.lowAssetsUsdc = assets;
  h.closeAssetsUsdc = assets;
  h.totalShares = shares;
  h.stakedUsdc = h.stakedUsdc.plus(f.staked);
  h.withdrawnUsdc = h.withdrawnUsdc.plus(f.withdrawn);
  h.feesUsdc = h.feesUsdc.plus(f.fees);
  h.badDebtCoveredUsdc = h.badDebtCoveredUsdc.plus(f.covered);
  h.badDebtUncoveredUsdc = h.badDebtUncoveredUsdc.plus(f.uncovered);
  h.sweptUsdc = h.sweptUsdc.plus(f.swept);
  h.save();
}

export function handleInsuranceStaked(event: InsuranceStaked): void {
  const p = event.params;
  const s = getState(event.address);
  s.stakeCount = s.stakeCount + 1;
  const st = getStaker(p.staker, event);
  st.shares = p.stakerShares;
  st.shareEpoch = s.shareEpoch;
  st.stakedUsdc = st.stakedUsdc.plus(p.amountUsdc);
  st.save();
  getOrCreateAccount(p.payer, event.block);
  const f = new Flow();
  f.staked = p.amountUsdc;
  setAssets(event, s, p.totalAssetsUsdc, p.totalShares, f);
  const e = newEvent(event, "staked", p.staker);
  e.counterparty = p.payer;
  e.amountUsdc = p.amountUsdc;
  e.shares = p.shares;
  e.accountShares = p.stakerShares;
  e.totalAssetsUsdc = p.totalAssetsUsdc;
  e.totalShares = p.totalShares;
  e.save();
}

export function handleInsuranceWithdrawRequested(event: InsuranceWithdrawRequested): void {
  const p = event.params;
  const st = getStaker(p.staker, event);
  st.requestShares = p.shares;
  st.requestReadyAt = p.readyAt;
  st.requestExpiresAt = p.expiresAt;
  st.save();
  const e = newEvent(event, "withdrawRequested", p.staker);
  e.shares = p.shares;
  e.values = [p.readyAt, p.expiresAt];
  e.save();
}

export function handleInsuranceWithdrawCancelled(event: InsuranceWithdrawCancelled): void {
  const st = getStaker(event.params.staker, event);
  st.requestShares = ZERO;
  st.requestReadyAt = ZERO;
  st.requestExpiresAt = ZERO;
  st.save();
  newEvent(event, "withdrawCancelled", event.params.staker).save();
}

export function handleInsuranceWithdrawn(event: InsuranceWithdrawn): void {
  const p = event.params;
  const s = getState(event.address);
  s.withdrawCount = s.withdrawCount + 1;
  const st = getStaker(p.staker, event);
  st.shares = p.stakerShares;
  st.shareEpoch = s.shareEpoch;
  st.requestShares = p.requestShares;
  if (p.requestShares.isZero()) {
    st.requestReadyAt = ZERO;
    st.requestExpiresAt = ZERO;
  }
  st.withdrawnUsdc = st.withdrawnUsdc.plus(p.amountUsdc);
  st.save();
  getOrCreateAccount(p.receiver, event.block);
  const f = new Flow();
  f.withdrawn = p.amountUsdc;
  setAssets(event, s, p.totalAssetsUsdc, p.totalShares, f);
  const e = newEvent(event, "withdrawn", p.staker);
  e.counterparty = p.receiver;
  e.amountUsdc = p.amountUsdc;
  e.shares = p.shares;
  e.accountShares = p.stakerShares;
  e.totalAssetsUsdc = p.totalAssetsUsdc;
  e.totalShares = p.totalShares;
  e.values = [p.requestShares];
  e.save();
}

export function handleInsuranceBadDebtCovered(event: InsuranceBadDebtCovered): void {
  const p = event.params;
  const s = getState(event.address);
  s.badDebtCount = s.badDebtCount + 1;
  s.badDebtRequestedUsdc = s.badDebtRequestedUsdc.plus(p.requestedUsdc);
  const f = new Flow();
  f.covered = p.coveredUsdc;
  f.uncovered = p.uncoveredUsdc;
  setAssets(event, s, p.totalAssetsUsdc, p.totalShares, f);
  const e = newEvent(event, "badDebtCovered", p.recipient);
  e.amountUsdc = p.coveredUsdc;
  e.requestedUsdc = p.requestedUsdc;
  e.uncoveredUsdc = p.uncoveredUsdc;
  e.totalAssetsUsdc = p.totalAssetsUsdc;
  e.totalShares = p.totalShares;
  e.save();
}

export function handleInsuranceSharesReset(event: InsuranceSharesReset): void {
  const p = event.params;
  const s = getState(event.address);
  s.shareEpoch = p.shareEpoch;
  s.sharesResets = s.sharesResets + 1;
  setAssets(event, s, p.residualAssetsUsdc, ZERO, new Flow());
  const e = newEvent(event, "sharesReset", null);
  e.shares = p.cancelledShares;
  e.totalAssetsUsdc = p.residualAssetsUsdc;
  e.totalShares = ZERO;
  e.values = [p.shareEpoch];
  e.save();
}

export function handleInsuranceFeesDeposited(event: InsuranceFeesDeposited): void {
  const p = event.params;
  const s = getState(event.address);
  getOrCreateAccount(p.from, event.block);
  const f = new Flow();
  f.fees = p.amountUsdc;
  setAssets(event, s, p.totalAssetsUsdc, p.totalShares, f);
  const e = newEvent(event, "feesDeposited", p.from);
  e.amountUsdc = p.amountUsdc;
  e.totalAssetsUsdc = p.totalAssetsUsdc;
  e.totalShares = p.totalShares;
  e.save();
}

export function handleInsuranceGuarantorRequirementSet(event: InsuranceGuarantorRequirementSet): void {
  const p = event.params;
  const st = getStaker(p.guarantor, event);
  st.requiredUsdc = p.requiredUsdc;
  st.guarantorStakeUsdc = p.stakeUsdc;
  st.save();
  const e = newEvent(event, "guarantorRequirementSet", p.guarantor);
  e.values = [p.requiredUsdc, p.stakeUsdc];
  e.save();
}

export function handleInsuranceCooldownSet(event: InsuranceCooldownSet): void {
  const p = event.params;
  const s = getState(event.address);
  s.cooldownSec = p.cooldownSec;
  s.windowSec = p.windowSec;
  s.save();
  const e = newEvent(event, "cooldownSet", null);
  e.values = [p.cooldownSec, p.windowSec];
  e.save();
}

/** Sweeps take USDC sent outside the ledger: totalAssets is unchanged, so only the flow is recorded. */
export function handleInsuranceSurplusSwept(event: InsuranceSurplusSwept): void {
  const p = event.params;
  const s = getState(event.address);
  const f = new Flow();
  f.swept = p.amountUsdc;
  setAssets(event, s, s.totalAssetsUsdc, s.totalShares, f);
  const e = newEvent(event, "surplusSwept", p.to);
  e.amountUsdc = p.amountUsdc;
  e.save();
}

export function handleFeaturePauseSet(event: FeaturePauseSet): void {
  recordFeaturePause(event, NAME, event.params.feature, event.params.paused, event.params.by);
}

export function handleUpgraded(event: Upgraded): void {
  recordUpgrade(event, NAME, event.params.implementation);
}
