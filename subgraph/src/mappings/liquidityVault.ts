// LiquidityVault: ERC-4626 deposits and withdrawals, LP shares (the share token's transfers), the post-state
// (assets, shares, idle USDC, share price), capital allocated to and returned from markets; daily and hourly
// share-price candles.
import { Address, BigInt, ethereum } from "@graphprotocol/graph-ts";
import {
  CapitalAllocated,
  CapitalReturned,
  Deposit,
  FeaturePauseSet,
  Transfer,
  Upgraded,
  VaultLimitsSet,
  VaultMarketAdded,
  VaultMarketRemoved,
  VaultStateUpdated,
  Withdraw,
} from "../../generated/LiquidityVault/LiquidityVault";
import {
  LiquidityVaultState,
  VaultDayData,
  VaultFlowEvent,
  VaultHourData,
  VaultLP,
  VaultMarketAllocation,
} from "../../generated/schema";
import {
  eventId,
  getOrCreateAccount,
  recordFeaturePause,
  recordUpgrade,
  SECONDS_PER_DAY,
  SECONDS_PER_HOUR,
  ZERO,
  ZERO_ADDRESS,
} from "../lib/common";

const NAME = "LiquidityVault";

function getVault(address: Address): LiquidityVaultState {
  let v = LiquidityVaultState.load(address);
  if (v == null) {
    v = new LiquidityVaultState(address);
    v.totalAssetsUsdc = ZERO;
    v.totalShares = ZERO;
    v.idleUsdc = ZERO;
    v.sharePriceWad = ZERO;
    v.depositCapUsdc = ZERO;
    v.lockPeriodSec = ZERO;
    v.marketCount = 0;
    v.depositedUsdc = ZERO;
    v.withdrawnUsdc = ZERO;
    v.depositCount = 0;
    v.withdrawCount = 0;
    v.allocatedUsdc = ZERO;
    v.returnedUsdc = ZERO;
    v.lpCount = 0;
  }
  return v;
}

function getLP(v: LiquidityVaultState, holder: Address, event: ethereum.Event): VaultLP {
  const id = v.id.concat(holder);
  let lp = VaultLP.load(id);
  if (lp == null) {
    lp = new VaultLP(id);
    lp.vault = v.id;
    lp.account = getOrCreateAccount(holder, event.block).id;
    lp.shares = ZERO;
    lp.depositedUsdc = ZERO;
    lp.withdrawnUsdc = ZERO;
  }
  lp.updatedAt = event.block.timestamp;
  return lp;
}

function getAllocation(v: LiquidityVaultState, market: Address): VaultMarketAllocation {
  const id = v.id.concat(market);
  let a = VaultMarketAllocation.load(id);
  if (a == null) {
    a = new VaultMarketAllocation(id);
    a.vault = v.id;
    a.market = market;
    a.active = false;
    a.allocatedUsdc = ZERO;
    a.returnedUsdc = ZERO;
  }
  return a;
}

function flow(event: ethereum.Event, v: LiquidityVaultState, kind: string, assets: BigInt): VaultFlowEvent {
  const f = new VaultFlowEvent(eventId(event));
  f.vault = v.id;
  f.kind = kind;
  f.assetsUsdc = assets;
  f.blockNumber = event.block.number;
  f.timestamp = event.block.timestamp;
  f.transactionHash = event.transaction.hash;
  f.logIndex = event.logIndex;
  return f;
}

function day(v: LiquidityVaultState, event: ethereum.Event): VaultDayData {
  const n = event.block.timestamp.toI32() / SECONDS_PER_DAY;
  const id = v.id.concatI32(n);
  let d = VaultDayData.load(id);
  if (d == null) {
    d = new VaultDayData(id);
    d.vault = v.id;
    d.date = n * SECONDS_PER_DAY;
    d.sharePriceOpenWad = v.sharePriceWad;
    d.sharePriceHighWad = v.sharePriceWad;
    d.sharePriceLowWad = v.sharePriceWad;
    d.sharePriceCloseWad = v.sharePriceWad;
    d.totalAssetsUsdc = v.totalAssetsUsdc;
    d.totalShares = v.totalShares;
    d.depositedUsdc = ZERO;
    d.withdrawnUsdc = ZERO;
  }
  return d;
}

function hour(v: LiquidityVaultState, event: ethereum.Event): VaultHourData {
  const n = event.block.timestamp.toI32() / SECONDS_PER_HOUR;
  const id = v.id.concatI32(n);
  let h = VaultHourData.load(id);
  if (h == null) {
    h = new VaultHourData(id);
    h.vault = v.id;
    h.date = n * SECONDS_PER_HOUR;
    h.sharePriceOpenWad = v.sharePriceWad;
    h.sharePriceHighWad = v.sharePriceWad;
    h.sharePriceLowWad = v.sharePriceWad;
    h.sharePriceCloseWad = v.sharePriceWad;
    h.totalAssetsUsdc = v.totalAssetsUsdc;
    h.totalShares = v.totalShares;
    h.depositedUsdc = ZERO;
    h.withdrawnUsdc = ZERO;
  }
  return h;
}

export function handleDeposit(event: Deposit): void {
  const p = event.params;
  const v = getVault(event.address);
  v.depositedUsdc = v.depositedUsdc.plus(p.assets);
  v.depositCount = v.depositCount + 1;
  v.save();
  const lp = getLP(v, p.owner, event);
  lp.depositedUsdc = lp.depositedUsdc.plus(p.assets);
  lp.save();
  const f = flow(event, v, "deposit", p.assets);
  f.sender = p.sender;
  f.owner = p.owner;
  f.shares = p.shares;
  f.save();
  const d = day(v, event);
  d.depositedUsdc = d.depositedUsdc.plus(p.assets);
  d.save();
  const h = hour(v, event);
  h.depositedUsdc = h.depositedUsdc.plus(p.assets);
  h.save();
}

export function handleWithdraw(event: Withdraw): void {
  const p = event.params;
  const v = getVault(event.address);
  v.withdrawnUsdc = v.withdrawnUsdc.plus(p.assets);
  v.withdrawCount = v.withdrawCount + 1;
  v.save();
  const lp = getLP(v, p.owner, event);
  lp.withdrawnUsdc = lp.withdrawnUsdc.plus(p.assets);
  lp.save();
  const f = flow(event, v, "withdraw", p.assets);
  f.sender = p.sender;
  f.owner = p.owner;
  f.receiver = p.receiver;
  f.shares = p.shares;
  f.save();
  const d = day(v, event);
  d.withdrawnUsdc = d.withdrawnUsdc.plus(p.assets);
  d.save();
  const h = hour(v, event);
  h.withdrawnUsdc = h.withdrawnUsdc.plus(p.assets);
  h.save();
}

/** Share-token transfers (mint on deposit, burn on withdrawal, LP-to-LP transfers) keep every LP's shares. */
export function handleTransfer(event: Transfer): void {
  const p = event.params;
  const v = getVault(event.address);
  if (!p.from.equals(ZERO_ADDRESS)) {
    const from = getLP(v, p.from, event);
    from.shares = from.shares.minus(p.value);
    if (from.shares.isZero()) v.lpCount = v.lpCount - 1;
    from.save();
  }
  if (!p.to.equals(ZERO_ADDRESS)) {
    const to = getLP(v, p.to, event);
    if (to.shares.isZero() && !p.value.isZero()) v.lpCount = v.lpCount + 1;
    to.shares = to.shares.plus(p.value);
    to.save();
  }
  v.save();
}

export function handleVaultStateUpdated(event: VaultStateUpdated): void {
  const p = event.params;
  const v = getVault(event.address);
  v.totalAssetsUsdc = p.totalAssetsUsdc;
  v.totalShares = p.totalShares;
  v.idleUsdc = p.idleUsdc;
  v.sharePriceWad = p.sharePriceWad;
  v.save();
  const price = p.sharePriceWad;
  const d = day(v, event);
  if (price.gt(d.sharePriceHighWad)) d.sharePriceHighWad = price;
  if (price.lt(d.sharePriceLowWad) || d.sharePriceLowWad.isZero()) d.sharePriceLowWad = price;
  if (d.sharePriceOpenWad.isZero()) d.sharePriceOpenWad = price;
  d.sharePriceCloseWad = price;
  d.totalAssetsUsdc = p.totalAssetsUsdc;
  d.totalShares = p.totalShares;
  d.save();
  const h = hour(v, event);
  if (price.gt(h.sharePriceHighWad)) h.sharePriceHighWad = price;
  if (price.lt(h.sharePriceLowWad) || h.sharePriceLowWad.isZero()) h.sharePriceLowWad = price;
  if (h.sharePriceOpenWad.isZero()) h.sharePriceOpenWad = price;
  h.sharePriceCloseWad = price;
  h.totalAssetsUsdc = p.totalAssetsUsdc;
  h.totalShares = p.totalShares;
  h.save();
}

export function handleVaultMarketAdded(event: VaultMarketAdded): void {
  const v = getVault(event.address);
  v.marketCount = event.params.marketCount.toI32();
  v.save();
  const a = getAllocation(v, event.params.market);
  a.active = true;
  a.save();
}

export function handleVaultMarketRemoved(event: VaultMarketRemoved): void {
  const v = getVault(event.address);
  v.marketCount = event.params.marketCount.toI32();
  v.save();
  const a = getAllocation(v, event.params.market);
  a.active = false;
  a.save();
}

export function handleCapitalAllocated(event: CapitalAllocated): void {
  const p = event.params;
  const v = getVault(event.address);
  v.idleUsdc = p.idleUsdc;
  v.allocatedUsdc = v.allocatedUsdc.plus(p.amountUsdc);
  v.save();
  const a = getAllocation(v, p.market);
  a.allocatedUsdc = a.allocatedUsdc.plus(p.amountUsdc);
  a.save();
  const f = flow(event, v, "allocate", p.amountUsdc);
  f.market = p.market;
  f.idleUsdc = p.idleUsdc;
  f.save();
}

export function handleCapitalReturned(event: CapitalReturned): void {
  const p = event.params;
  const v = getVault(event.address);
  v.idleUsdc = p.idleUsdc;
  v.returnedUsdc = v.returnedUsdc.plus(p.amountUsdc);
  v.save();
  const a = getAllocation(v, p.market);
  a.returnedUsdc = a.returnedUsdc.plus(p.amountUsdc);
  a.save();
  const f = flow(event, v, "return", p.amountUsdc);
  f.market = p.market;
  f.idleUsdc = p.idleUsdc;
  f.save();
}

export function handleVaultLimitsSet(event: VaultLimitsSet): void {
  const v = getVault(event.address);
  v.depositCapUsdc = event.params.depositCapUsdc;
  v.lockPeriodSec = event.params.lockPeriodSec;
  v.save();
}

export function handleFeaturePauseSet(event: FeaturePauseSet): void {
  recordFeaturePause(event, NAME, event.params.feature, event.params.paused, event.params.by);
}

export function handleUpgraded(event: Upgraded): void {
  recordUpgrade(event, NAME, event.params.implementation);
}
