// Shared clearing-layer helpers: margin accounts, guarantors, markets, configuration changes.
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { ClearingConfigChange, ClearingMarket, Guarantor, MarginAccount } from "../../generated/schema";
import { eventId, getOrCreateAccount, ZERO } from "./common";

export function getMarginAccount(address: Bytes, event: ethereum.Event): MarginAccount {
  let a = MarginAccount.load(address);
  if (a == null) {
    a = new MarginAccount(address);
    a.account = getOrCreateAccount(address, event.block).id;
    a.collateralUsdc = ZERO;
    a.depositedUsdc = ZERO;
    a.withdrawnUsdc = ZERO;
    a.feesUsdc = ZERO;
    a.realisedPnlUsdc = ZERO;
    a.limitUsdc = ZERO;
    a.exposureUsdc = ZERO;
    a.liquidationCount = 0;
    a.deficitUsdc = ZERO;
  }
  a.updatedAt = event.block.timestamp;
  return a;
}

export function getGuarantor(address: Bytes, event: ethereum.Event): Guarantor {
  let g = Guarantor.load(address);
  if (g == null) {
    g = new Guarantor(address);
    g.account = getOrCreateAccount(address, event.block).id;
    g.open = false;
    g.defaultLimitUsdc = ZERO;
    g.capitalUsdc = ZERO;
    g.totalShares = ZERO;
    g.dpsStaked = ZERO;
    g.slashedDps = ZERO;
    g.exposureUsdc = ZERO;
    g.customerCount = 0;
    g.incomeUsdc = ZERO;
    g.lossesAskedUsdc = ZERO;
    g.lossesPaidUsdc = ZERO;
    g.shareEpoch = ZERO;
    g.sharesResets = 0;
  }
  return g;
}

export function getMarket(address: Bytes): ClearingMarket {
  let m = ClearingMarket.load(address);
  if (m == null) {
    m = new ClearingMarket(address);
    m.registered = false;
    m.poolUsdc = ZERO;
    m.longOpenInterestCh = ZERO;
    m.shortOpenInterestCh = ZERO;
    m.volumeCh = ZERO;
    m.feesUsdc = ZERO;
    m.tradeCount = 0;
    m.liquidatedCh = ZERO;
    m.socialisedUsdc = ZERO;
  }
  return m;
}

export function configChange(
  event: ethereum.Event,
  kind: string,
  target: Bytes | null,
  addresses: Bytes[],
  values: BigInt[],
): void {
  const e = new ClearingConfigChange(eventId(event));
  e.contract = event.address;
  e.kind = kind;
  e.target = target;
  e.addresses = addresses;
  e.values = values;
  e.blockNumber = event.block.number;
  e.timestamp = event.block.timestamp;
  e.transactionHash = event.transaction.hash;
  e.logIndex = event.logIndex;
  e.save();
}

/** max(x, 0) */
export function positive(x: BigInt): BigInt {
  return x.gt(ZERO) ? x : ZERO;
}
/** max(-x, 0) */
export function negative(x: BigInt): BigInt {
  return x.lt(ZERO) ? x.neg() : ZERO;
}
