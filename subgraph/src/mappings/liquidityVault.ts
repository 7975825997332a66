// LiquidityVault: ERC-4626 deposits and withdrawals, LP shares (the share token's transfers), the post-state
// (assets, shares, idle USDC, share price), capital allocated to and returned from markets; daily and hourly
// share-price candles.
import { Address, BigInt, ethereum } from "@graphprotocol/graph-ts";
import {
  CapitalAllocated,
  CapitalReturned,
  Deposit,
  Transfer,
  VaultLimitsSet,
  VaultMarketAdded,
  VaultMarketRemoved,
  VaultStateUpdated,
  Withdraw,
} from "../../generated/LiquidityVault/LiquidityVault";
import { LiquidityVaultState, VaultFlowEvent, VaultLP, VaultMarketAllocation } from "../../generated/schema";
import { initVaultLP, initVaultMarketAllocation, loadOrInitLiquidityVaultState } from "../../generated/defaults";
import { Series } from "../lib/buckets";
import { eventId, getOrCreateAccount, stamp, ZERO, ZERO_ADDRESS } from "../lib/common";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

function getVault(address: Address): LiquidityVaultState {
  return loadOrInitLiquidityVaultState(address);
}

function getLP(v: LiquidityVaultState, holder: Address, event: ethereum.Event): VaultLP {
  const id = v.id.concat(holder);
  let lp = VaultLP.load(id);
  if (lp == null) {
    lp = initVaultLP(id);
    lp.vault = v.id;
    lp.account = getOrCreateAccount(holder, event.block).id;
  }
  lp.updatedAt = event.block.timestamp;
  return lp;
}

function getAllocation(v: LiquidityVaultState, market: Address): VaultMarketAllocation {
  const id = v.id.concat(market);
  let a = VaultMarketAllocation.load(id);
  if (a == null) {
    a = initVaultMarketAllocation(id);
    a.vault = v.id;
    a.market = market;
  }
  return a;
}

function flow(event: ethereum.Event, v: LiquidityVaultState, kind: string, assets: BigInt): VaultFlowEvent {
  const f = new VaultFlowEvent(eventId(event));
  f.vault = v.id;
  f.kind = kind;
  f.assetsUsdc = assets;
  stamp(f, event);
  return f;
}

/** VaultDayData / VaultHourData */
const SERIES = new Series("VaultDayData", "VaultHourData", "date", "date", "vault");

/**
 * Adds a deposit/withdrawal to the vault's buckets and closes them at its state. The share-price candle opens at the
 * first known price of the bucket: a share price of 0 means "no price yet" (no shares), never a price.
 */
function aggregate(v: LiquidityVaultState, event: ethereum.Event, depositedUsdc: BigInt, withdrawnUsdc: BigInt): void {
  const buckets = SERIES.open(v.id, event);
  const price = v.sharePriceWad;
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    b.add("depositedUsdc", depositedUsdc).add("withdrawnUsdc", withdrawnUsdc);
    b.set("totalAssetsUsdc", v.totalAssetsUsdc).set("totalShares", v.totalShares);
    if (!price.isZero()) {
      if (b.e.getBigInt("sharePriceOpenWad").isZero()) b.fresh = true;
      b.candle("sharePrice*Wad", price, price);
    }
    b.save();
  }
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
  aggregate(v, event, p.assets, ZERO);
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
  aggregate(v, event, ZERO, p.assets);
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
  aggregate(v, event, ZERO, ZERO);
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
