// Token state shared by the DPS, CH and GFL mappings: balances, supply, holders, and the daily/hourly
// aggregates, all updated in the handler of the event that changes them.
import { Address, BigInt, ethereum } from "@graphprotocol/graph-ts";
import { Token, TokenBalance, TokenTransfer } from "../../generated/schema";
import { initToken, initTokenBalance } from "../../generated/defaults";
import { Series } from "./buckets";
import { eventId, getOrCreateAccount, ONE, stamp, ZERO, ZERO_ADDRESS } from "./common";

export function getOrCreateToken(address: Address, symbol: string, block: ethereum.Block): Token {
  let token = Token.load(address);
  if (token == null) {
    token = initToken(address);
    token.symbol = symbol;
    token.lastUpdatedBlock = block.number;
  }
  return token;
}

function changeBalance(token: Token, account: Address, delta: BigInt, event: ethereum.Event): void {
  getOrCreateAccount(account, event.block);
  const id = token.id.concat(account);
  let b = TokenBalance.load(id);
  if (b == null) {
    b = initTokenBalance(id);
    b.token = token.id;
    b.account = account;
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
  stamp(t, event);
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
  updateAggregates(token, event, minted, burned, ZERO, volume, !isMint && !isBurn);
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
  updateAggregates(token, event, ZERO, ZERO, emitted, ZERO, false);
  return token;
}

/** TokenDayData / TokenHourData: minted, burned, emitted, transfer volume and count; supply close, high, low. */
const SERIES = new Series("TokenDayData", "TokenHourData", "date", "periodStartUnix", "token");

function updateAggregates(
  token: Token,
  event: ethereum.Event,
  minted: BigInt,
  burned: BigInt,
  emitted: BigInt,
  volume: BigInt,
  isTransfer: boolean,
): void {
  const buckets = SERIES.open(token.id, event);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    b.add("minted", minted).add("burned", burned).add("emitted", emitted).add("transferVolume", volume);
    b.count("transferCount", isTransfer ? 1 : 0);
    b.set("totalSupply", token.totalSupply).range("supplyHigh", "supplyLow", token.totalSupply, token.totalSupply);
    b.save();
  }
}
