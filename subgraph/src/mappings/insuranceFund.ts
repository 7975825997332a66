// InsuranceFund: stakers, shares, withdrawal requests, bad-debt cover (LIQ-03 insurance step), fees and the fund's
// assets over time. Every event carries the fund's post-state (totalAssetsUsdc, totalShares) except the ones
// that do not move assets (requests, cancels, requirements, cooldown); no eth_call.
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  InsuranceBadDebtCovered,
  InsuranceCooldownSet,
  InsuranceFeesDeposited,
  InsuranceGuarantorPoolSet,
  InsuranceGuarantorRequirementSet,
  InsuranceSharesReset,
  InsuranceStaked,
  InsuranceSurplusSwept,
  InsuranceWithdrawCancelled,
  InsuranceWithdrawn,
  InsuranceWithdrawRequested,
} from "../../generated/InsuranceFund/InsuranceFund";
import { InsuranceFundEvent, InsuranceFundState, InsuranceStaker } from "../../generated/schema";
import { Series } from "../lib/buckets";
import { eventId, getOrCreateAccount, ONE, stamp, ZERO } from "../lib/common";
import { initInsuranceStaker, initInsuranceFundState } from "../../generated/defaults";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

function getState(address: Address): InsuranceFundState {
  let s = InsuranceFundState.load(address);
  if (s == null) {
    s = initInsuranceFundState(address);
    s.sharePriceWad = sharePrice(ZERO, ZERO); // par: an empty fund converts at the virtual offset
  }
  return s;
}

function getStaker(address: Bytes, event: ethereum.Event): InsuranceStaker {
  let s = InsuranceStaker.load(address);
  if (s == null) {
    s = initInsuranceStaker(address);
    s.account = getOrCreateAccount(address, event.block).id;
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
  stamp(e, event);
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

/** InsuranceFundDayData / InsuranceFundHourData */
const SERIES = new Series("InsuranceFundDayData", "InsuranceFundHourData", "date", "date", "fund");
const PAR = BigInt.fromI32(10).pow(24);
const VIRTUAL_SHARES = BigInt.fromI32(1000000);

/** The fund's share price relative to par (its conversion with the virtual offset: previewWithdraw(1e24)). */
export function sharePrice(assets: BigInt, shares: BigInt): BigInt {
  return assets.plus(ONE).times(PAR).div(shares.plus(VIRTUAL_SHARES));
}

/** Sets the state's assets/shares (post-state of the event) and rolls the day and hour buckets. */
function setAssets(event: ethereum.Event, s: InsuranceFundState, assets: BigInt, shares: BigInt, f: Flow): void {
  const before = s.totalAssetsUsdc;
  const priceBefore = s.sharePriceWad;
  s.totalAssetsUsdc = assets;
  s.totalShares = shares;
  s.sharePriceWad = sharePrice(assets, shares);
  s.stakedUsdc = s.stakedUsdc.plus(f.staked);
  s.withdrawnUsdc = s.withdrawnUsdc.plus(f.withdrawn);
  s.feesUsdc = s.feesUsdc.plus(f.fees);
  s.badDebtCoveredUsdc = s.badDebtCoveredUsdc.plus(f.covered);
  s.badDebtUncoveredUsdc = s.badDebtUncoveredUsdc.plus(f.uncovered);
  s.sweptUsdc = s.sweptUsdc.plus(f.swept);
  s.updatedAt = event.block.timestamp;
  s.updatedAtBlock = event.block.number;
  s.save();

  const buckets = SERIES.open(event.address, event);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    b.candle("*AssetsUsdc", before, assets).candle("sharePrice*Wad", priceBefore, s.sharePriceWad);
    b.set("totalShares", shares).add("stakedUsdc", f.staked).add("withdrawnUsdc", f.withdrawn);
    b.add("feesUsdc", f.fees).add("badDebtCoveredUsdc", f.covered).add("badDebtUncoveredUsdc", f.uncovered);
    b.add("sweptUsdc", f.swept);
    b.save();
  }
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

/** The GuarantorPool whose exposure-based requirements the withdrawal floor reads (issue 20 item 1). */
export function handleInsuranceGuarantorPoolSet(event: InsuranceGuarantorPoolSet): void {
  const e = newEvent(event, "guarantorPoolSet", event.params.pool);
  e.save();
}
