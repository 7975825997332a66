// Token state shared by the DPS, CH and GFL mappings: balances, supply, holders, and the daily/hourly
// aggregates, all updated in the handler of the event that changes them.
import { Address, BigInt, ethereum } from "@graphprotocol/graph-ts";
import { Token, TokenBalance, TokenDayData, TokenHourData, TokenTransfer } from "../../generated/schema";
import { eventId, getOrCreateAccount, ONE, SECONDS_PER_DAY, SECONDS_PER_HOUR, ZERO, ZERO_ADDRESS } from "./common";

export function getOrCreateToken(address: Address, symbol: string, block: ethereum.Block): Token {
  let token = Token.load(address);
  if (token == null) {
    token = new Token(address);
    token.symbol = symbol;
    token.totalSupply = ZERO;
    token.totalMinted = ZERO;
    token.totalBurned = ZERO;
    token.totalEmitted = ZERO;
    token.genesisSupply = ZERO;
    token.holderCount = 0;
    token.transferCount = ZERO;
    token.lastUpdatedBlock = block.number;
  }
  return token;
}

function changeBalance(token: Token, account: Address, delta: BigInt, event: ethereum.Event): void {
  getOrCreateAccount(account, event.block);
  const id = token.id.concat(account);
  let b = TokenBalance.load(id);
  if (b == null) {
    b = new TokenBalance(id);
    b.token = token.id;
    b.account = account;
    b.balance = ZERO;
  }
  const before = b.balance;
  const after = before.plus(delta);
  if (before.isZero() && !after.isZero()) token.holderCount = token.holderCount + 1;
  if (!before.isZero() && after.isZero()) token.holderCount = token.holderCount - 1;
  b.balance = after;
  b.updatedAt = event.block.timestamp;
  b.updatedAtBlock = event.block.number;
  b.save();
}

/** ERC-20 Transfer: balances, supply (mints from / burns to the zero address), holders, aggregates. */
export function applyTransfer(event: ethereum.Event, symbol: string, from: Address, to: Address, value: BigInt): void {
  const token = getOrCreateToken(event.address, symbol, event.block);
  const t = new TokenTransfer(eventId(event));
  t.token = token.id;
  t.from = from;
  t.to = to;
  t.value = value;
  t.blockNumber = event.block.number;
  t.timestamp = event.block.timestamp;
  t.transactionHash = event.transaction.hash;
  t.logIndex = event.logIndex;
  t.save();

  let minted = ZERO;
  let burned = ZERO;
  let volume = ZERO;
  const isMint = from.equals(ZERO_ADDRESS);
  const isBurn = to.equals(ZERO_ADDRESS);
  if (isMint) {
    token.totalSupply = token.totalSupply.plus(value);
    token.totalMinted = token.totalMinted.plus(value);
    minted = value;
  } else {
    changeBalance(token, from, value.neg(), event);
  }
  if (isBurn) {
    token.totalSupply = token.totalSupply.minus(value);
    token.totalBurned = token.totalBurned.plus(value);
    burned = value;
  } else {
    changeBalance(token, to, value, event);
  }
  if (!isMint && !isBurn) volume = value;
  token.transferCount = token.transferCount.plus(ONE);
  token.lastUpdatedBlock = event.block.number;
  if (symbol == "DPS") token.genesisSupply = token.totalMinted.minus(token.totalEmitted);
  token.save();
  updateAggregates(token, event.block.timestamp, minted, burned, ZERO, volume, !isMint && !isBurn);
}

/**
 * A token event that carries the post-mint/burn total supply (DPSEmitted, DPSBurned, CHMinted, CHBurned,
 * GFLRebalanced): the event's figure is authoritative; `emitted` feeds the DPS emission aggregates.
 */
export function applySupplyPostState(
  event: ethereum.Event,
  symbol: string,
  totalSupply: BigInt,
  emitted: BigInt,
  totalEmitted: BigInt | null,
): Token {
  const token = getOrCreateToken(event.address, symbol, event.block);
  token.totalSupply = totalSupply;
  if (totalEmitted !== null) token.totalEmitted = totalEmitted;
  if (symbol == "DPS") token.genesisSupply = token.totalMinted.minus(token.totalEmitted);
  token.lastUpdatedBlock = event.block.number;
  token.save();
  updateAggregates(token, event.block.timestamp, ZERO, ZERO, emitted, ZERO, false);
  return token;
}

function updateAggregates(
  token: Token,
  timestamp: BigInt,
  minted: BigInt,
  burned: BigInt,
  emitted: BigInt,
  volume: BigInt,
  isTransfer: boolean,
): void {
  const ts = timestamp.toI32();
  const day = ts / SECONDS_PER_DAY;
  const dayId = token.id.concatI32(day);
  let d = TokenDayData.load(dayId);
  if (d == null) {
    d = new TokenDayData(dayId);
    d.token = token.id;
    d.date = day * SECONDS_PER_DAY;
    d.minted = ZERO;
    d.burned = ZERO;
    d.emitted = ZERO;
    d.transferVolume = ZERO;
    d.transferCount = 0;
    d.supplyHigh = token.totalSupply;
    d.supplyLow = token.totalSupply;
  }
  d.minted = d.minted.plus(minted);
  d.burned = d.burned.plus(burned);
  d.emitted = d.emitted.plus(emitted);
  d.transferVolume = d.transferVolume.plus(volume);
  if (isTransfer) d.transferCount = d.transferCount + 1;
  d.totalSupply = token.totalSupply;
  if (token.totalSupply.gt(d.supplyHigh)) d.supplyHigh = token.totalSupply;
  if (token.totalSupply.lt(d.supplyLow)) d.supplyLow = token.totalSupply;
  d.save();

  const hour = ts / SECONDS_PER_HOUR;
  const hourId = token.id.concatI32(hour);
  let h = TokenHourData.load(hourId);
  if (h == null) {
    h = new TokenHourData(hourId);
    h.token = token.id;
    h.periodStartUnix = hour * SECONDS_PER_HOUR;
    h.minted = ZERO;
    h.burned = ZERO;
    h.emitted = ZERO;
    h.transferVolume = ZERO;
    h.transferCount = 0;
    h.supplyHigh = token.totalSupply;
    h.supplyLow = token.totalSupply;
  }
  h.minted = h.minted.plus(minted);
  h.burned = h.burned.plus(burned);
  h.emitted = h.emitted.plus(emitted);
  h.transferVolume = h.transferVolume.plus(volume);
  if (isTransfer) h.transferCount = h.transferCount + 1;
  h.totalSupply = token.totalSupply;
  if (token.totalSupply.gt(h.supplyHigh)) h.supplyHigh = token.totalSupply;
  if (token.totalSupply.lt(h.supplyLow)) h.supplyLow = token.totalSupply;
  h.save();
}
