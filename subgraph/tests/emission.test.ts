// Mapping tests of the Emission data source (matchstick-as API; events from generated/factories/Emission.ts).
import { Address, BigInt, ethereum } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  CapacityRecorded,
  EpochClosed,
  Halved,
  HalvingSpanSet,
  KeeperBudgetFunded,
  KeeperConfigSet,
  MinSamplesSet,
  ProviderRebalanced,
  RebalanceBatch,
  Replenished,
  RewardsClaimed,
  RewardsFunded,
} from "../generated/Emission/Emission";
import {
  handleCapacityRecorded,
  handleEpochClosed,
  handleHalved,
  handleHalvingSpanSet,
  handleKeeperBudgetFunded,
  handleKeeperConfigSet,
  handleMinSamplesSet,
  handleProviderRebalanced,
  handleRebalanceBatch,
  handleCollectionBatch,
  handleReplenished,
  handleRewardsClaimed,
  handleRewardsFunded,
} from "../src/mappings/emission";
import { ALICE, BOB, CAROL, DAY, HOUR, lastEventId, T0, wad } from "./helpers";
import { EmissionEvents } from "../generated/factories/Emission";

const EMISSION = Address.fromString("0x000000000000000000000000000000000000e111");
const KEEPER = Address.fromString("0x000000000000000000000000000000000000cee9");
const REGISTRY = Address.fromString("0x0000000000000000000000000000000000007a5c");
const EPOCH: i64 = 15 * DAY;
const RATE0 = BigInt.fromString("2000000000000000"); // 20 % × 1/100 in WAD
const RATE1 = BigInt.fromString("1000000000000000");

function u(n: i64): BigInt {
  return BigInt.fromI64(n);
}
/** n / 1000 DPS (or GFL) in wei */
function milli(n: i64): BigInt {
  return BigInt.fromI64(n).times(BigInt.fromI64(1000000000000000));
}
function hexLE(n: i32): string {
  let s = "";
  for (let i = 0; i < 4; i++) {
    const b = (n >> (8 * i)) & 0xff;
    s += (b < 16 ? "0" : "") + b.toString(16);
  }
  return s;
}
function providerEpochId(p: Address, n: i32): string {
  return p.concatI32(n).toHexString();
}

function sample(
  p: Address,
  epoch: i32,
  day: i32,
  value: BigInt,
  count: i32,
  gfl: BigInt,
  total: BigInt,
  ts: i64,
): void {
  handleCapacityRecorded(
    new EmissionEvents(EMISSION).CapacityRecorded(ts, p, u(epoch), u(day), value, u(count), gfl, total),
  );
}

function closed(
  epoch: i32,
  total: BigInt,
  rate: BigInt,
  rewards: BigInt,
  cumulative: BigInt,
  halvings: i32,
  bounty: BigInt,
  ts: i64,
): EpochClosed {
  const e = new EmissionEvents(EMISSION).EpochClosed(
    ts,
    u(epoch),
    total,
    rate,
    rewards,
    cumulative,
    u(halvings),
    KEEPER,
    bounty,
  );
  handleEpochClosed(e);
  return e;
}

function funded(rewards: BigInt, fromPool: BigInt, minted: BigInt, pool: BigInt, totalMinted: BigInt, ts: i64): void {
  handleRewardsFunded(new EmissionEvents(EMISSION).RewardsFunded(ts, rewards, fromPool, minted, pool, totalMinted));
}

function rebalanced(p: Address, epoch: i32, gfl: BigInt, reward: BigInt, accrued: BigInt, ts: i64): void {
  handleProviderRebalanced(new EmissionEvents(EMISSION).ProviderRebalanced(ts, p, u(epoch), gfl, reward, accrued));
}

function batch(epoch: i32, from: i32, to: i32, count: i32, bounty: BigInt, ts: i64): void {
  handleRebalanceBatch(
    new EmissionEvents(EMISSION).RebalanceBatch(ts, u(epoch), u(from), u(to), u(count), KEEPER, bounty),
  );
}

function claimed(p: Address, amount: BigInt, total: BigInt, ts: i64): RewardsClaimed {
  const e = new EmissionEvents(EMISSION).RewardsClaimed(ts, p, p, amount, total);
  handleRewardsClaimed(e);
  return e;
}

function keeperFunded(amount: BigInt, budget: BigInt, ts: i64): void {
  handleKeeperBudgetFunded(new EmissionEvents(EMISSION).KeeperBudgetFunded(ts, ALICE, amount, budget));
}

/** initialize(): MinSamplesSet(8), HalvingSpanSet(span), KeeperConfigSet(1, 0.05, 10 DPS; 5 %, 100). */
function init(span: BigInt, ts: i64): void {
  handleMinSamplesSet(new EmissionEvents(EMISSION).MinSamplesSet(ts, u(8)));
  handleHalvingSpanSet(new EmissionEvents(EMISSION).HalvingSpanSet(ts, span, span));
  const bounty = new ethereum.Tuple();
  bounty.push(ethereum.Value.fromUnsignedBigInt(wad(1)));
  bounty.push(ethereum.Value.fromUnsignedBigInt(milli(50)));
  bounty.push(ethereum.Value.fromUnsignedBigInt(wad(10)));
  handleKeeperConfigSet(new EmissionEvents(EMISSION).KeeperConfigSet(ts, bounty, u(500), u(100)));
}

const STATE = EMISSION.toHexString();

describe("Emission", () => {
  beforeEach(() => {
    clearStore();
  });

  test("initialize sets parameters; a later minSamples change waits for the next epoch", () => {
    init(wad(10000000), T0);
    assert.fieldEquals("EmissionState", STATE, "minSamples", "8");
    assert.fieldEquals("EmissionState", STATE, "minSamplesNext", "8");
    assert.fieldEquals("EmissionState", STATE, "halvingSpanGfl", wad(10000000).toString());
    assert.fieldEquals("EmissionState", STATE, "nextThresholdGfl", wad(10000000).toString());
    assert.fieldEquals("EmissionState", STATE, "closeBountyDps", wad(1).toString());
    assert.fieldEquals("EmissionState", STATE, "perProviderBountyDps", milli(50).toString());
    assert.fieldEquals("EmissionState", STATE, "keeperShareBps", "500");
    assert.entityCount("EmissionParameterChange", 3);

    handleMinSamplesSet(new EmissionEvents(EMISSION).MinSamplesSet(T0 + DAY, u(3)));
    assert.fieldEquals("EmissionState", STATE, "minSamples", "8");
    assert.fieldEquals("EmissionState", STATE, "minSamplesNext", "3");
    closed(0, wad(0), RATE0, wad(0), wad(0), 0, wad(0), T0 + EPOCH);
    assert.fieldEquals("EmissionState", STATE, "minSamples", "3");
    assert.fieldEquals("EmissionState", STATE, "currentEpoch", "1");
    assert.fieldEquals("EmissionState", STATE, "rewardRateWad", RATE0.toString());
  });

  test("samples, the median per provider per epoch, close, rebalance, funding and claim", () => {
    init(wad(10000000), T0);
    keeperFunded(wad(5), wad(5), T0 + 10);
    // epoch 0 (the events carry the contract's medians): ALICE 100 then 110 → 105 (mean of the two middle values),
    // BOB 50; the epoch total 155
    sample(ALICE, 0, 0, wad(100), 1, wad(100), wad(100), T0 + HOUR);
    sample(BOB, 0, 0, wad(50), 1, wad(50), wad(150), T0 + HOUR + 1);
    sample(ALICE, 0, 1, wad(110), 2, wad(105), wad(155), T0 + DAY + HOUR);
    assert.fieldEquals("EmissionEpoch", "0x" + hexLE(0), "totalGfl", wad(155).toString());
    assert.fieldEquals("EmissionEpoch", "0x" + hexLE(0), "providerCount", "2");
    assert.fieldEquals("EmissionEpoch", "0x" + hexLE(0), "sampleEvents", "3");
    assert.fieldEquals("ProviderEpoch", providerEpochId(ALICE, 0), "gfl", wad(105).toString());
    assert.fieldEquals("ProviderEpoch", providerEpochId(ALICE, 0), "sampleCount", "2");
    assert.fieldEquals("EmissionProvider", ALICE.toHexString(), "index", "0");
    assert.fieldEquals("EmissionProvider", BOB.toHexString(), "index", "1");
    assert.fieldEquals("EmissionState", STATE, "providerCount", "2");
    assert.entityCount("CapacitySample", 3);

    // close epoch 0: 155 GFL × 0.002 = 0.31 DPS; bounty 1 DPS from the 5 DPS budget; funding mints 0.31
    const c = closed(0, wad(155), RATE0, milli(310), wad(155), 0, wad(1), T0 + EPOCH + 60);
    funded(milli(310), wad(0), milli(310), wad(0), milli(310), T0 + EPOCH + 60);
    assert.fieldEquals("EmissionEpoch", "0x" + hexLE(0), "closed", "true");
    assert.fieldEquals("EmissionEpoch", "0x" + hexLE(0), "rewardsDps", milli(310).toString());
    assert.fieldEquals("EpochClose", lastEventId(c), "closedBy", KEEPER.toHexString());
    assert.fieldEquals("EmissionState", STATE, "keeperBudgetDps", wad(4).toString());
    assert.fieldEquals("EmissionState", STATE, "fundedDps", milli(310).toString());
    assert.fieldEquals("EmissionState", STATE, "unfundedDps", "0");
    assert.fieldEquals("EmissionState", STATE, "totalMintedDps", milli(310).toString());

    // batch: ALICE 105 GFL earns 0.21 DPS, BOB 50 GFL 0.1 DPS; 2 × 0.05 DPS bounty
    rebalanced(ALICE, 0, wad(105), milli(210), milli(210), T0 + EPOCH + 120);
    rebalanced(BOB, 0, wad(50), milli(100), milli(100), T0 + EPOCH + 120);
    batch(1, 0, 2, 2, milli(100), T0 + EPOCH + 120);
    assert.fieldEquals("EmissionState", STATE, "totalGfl", wad(155).toString());
    assert.fieldEquals("EmissionState", STATE, "keeperBudgetDps", milli(3900).toString());
    assert.fieldEquals("EmissionState", STATE, "rebalanceCursor", "2");
    assert.fieldEquals("EmissionState", STATE, "totalAccruedDps", milli(310).toString());
    assert.fieldEquals("ProviderEpoch", providerEpochId(ALICE, 0), "rewardDps", milli(210).toString());
    assert.fieldEquals("EmissionEpoch", "0x" + hexLE(0), "accruedDps", milli(310).toString());
    assert.fieldEquals("EmissionProvider", ALICE.toHexString(), "settled", "true");

    // a collection batch of the ended epoch pays its per-provider bounty from the keeper budget (0.1 DPS)
    handleCollectionBatch(
      new EmissionEvents(EMISSION).CollectionBatch(T0 + EPOCH + 130, u(0), u(2), KEEPER, milli(100)),
    );
    assert.fieldEquals("EmissionState", STATE, "keeperBudgetDps", milli(3800).toString());
    assert.fieldEquals("EmissionState", STATE, "totalBountiesDps", milli(1200).toString());
    assert.entityCount("CollectionBatch", 1);

    // epoch 1: ALICE samples again (no event for BOB); ALICE claims 0.21
    sample(ALICE, 1, 0, wad(200), 1, wad(200), wad(200), T0 + EPOCH + DAY);
    assert.fieldEquals("EmissionProvider", ALICE.toHexString(), "settled", "false");
    assert.fieldEquals("EmissionProvider", ALICE.toHexString(), "sampleEpoch", "1");
    const cl = claimed(ALICE, milli(210), milli(210), T0 + EPOCH + DAY + 5);
    assert.fieldEquals("RewardClaim", lastEventId(cl), "amountDps", milli(210).toString());
    assert.fieldEquals("EmissionProvider", ALICE.toHexString(), "accruedDps", "0");
    assert.fieldEquals("EmissionProvider", ALICE.toHexString(), "claimedDps", milli(210).toString());
    assert.fieldEquals("EmissionState", STATE, "fundedDps", milli(100).toString());
    assert.fieldEquals("EmissionState", STATE, "totalClaimedDps", milli(210).toString());

    // epoch 1 closes (200 GFL → 0.4 DPS); BOB, absent from epoch 1, drops to 0 with no reward (the event names
    // epoch 1, the last closed one); ALICE's lazy settle at her next heartbeat is not needed for the check
    closed(1, wad(200), RATE0, milli(400), wad(355), 0, wad(1), T0 + 2 * EPOCH + 1);
    rebalanced(BOB, 1, wad(0), wad(0), milli(100), T0 + 2 * EPOCH + 2);
    assert.fieldEquals("EmissionProvider", BOB.toHexString(), "gfl", "0");
    assert.fieldEquals("EmissionState", STATE, "totalGfl", wad(105).toString());
    assert.fieldEquals("EmissionState", STATE, "unfundedDps", milli(400).toString());
    assert.fieldEquals("EmissionState", STATE, "rebalanceCursor", "0");
    assert.fieldEquals("ProviderEpoch", providerEpochId(BOB, 0), "rewardDps", milli(100).toString());
    assert.entityCount("ProviderRebalance", 3);
    // schedule vs actual at each close: epoch 0 owed 0.31 (all accrued by epoch 1's close), epoch 1 another 0.4
    assert.fieldEquals("EmissionEpoch", "0x" + hexLE(1), "scheduledTotalDps", milli(710).toString());
    assert.fieldEquals("EmissionEpoch", "0x" + hexLE(1), "accruedTotalDps", milli(310).toString());
    // provider earnings: rewards accrued and claimed, per provider
    assert.fieldEquals("ProviderEarnings", ALICE.toHexString(), "rewardsAccruedDps", milli(210).toString());
    assert.fieldEquals("ProviderEarnings", ALICE.toHexString(), "rewardsClaimedDps", milli(210).toString());
    assert.fieldEquals("ProviderEarnings", BOB.toHexString(), "rewardsAccruedDps", milli(100).toString());
  });

  test("a claim accrues the reward without GFL; the later rebalance records the GFL applied for that epoch", () => {
    init(wad(10000000), T0);
    sample(ALICE, 0, 0, wad(100), 1, wad(100), wad(100), T0 + HOUR);
    closed(0, wad(100), RATE0, milli(200), wad(100), 0, wad(0), T0 + EPOCH + 60);
    // the claim's settle: reward 0.2 DPS, GFL still the pre-epoch 0 (not applied by the claim)
    rebalanced(ALICE, 0, wad(0), milli(200), milli(200), T0 + EPOCH + 70);
    assert.fieldEquals("ProviderEpoch", providerEpochId(ALICE, 0), "appliedGfl", "0");
    // the heartbeat applies the GFL later, with no reward: the epoch's record follows, the reward is not counted twice
    rebalanced(ALICE, 0, wad(100), wad(0), milli(200), T0 + EPOCH + 3600);
    assert.fieldEquals("ProviderEpoch", providerEpochId(ALICE, 0), "appliedGfl", wad(100).toString());
    assert.fieldEquals("ProviderEpoch", providerEpochId(ALICE, 0), "rewardDps", milli(200).toString());
    assert.fieldEquals("EmissionProvider", ALICE.toHexString(), "gfl", wad(100).toString());
    assert.fieldEquals("EmissionState", STATE, "totalAccruedDps", milli(200).toString());
  });

  test("threshold halving inside an epoch: blended rate, rate in force after, halving timeline", () => {
    init(wad(400), T0);
    sample(CAROL, 0, 0, wad(500), 1, wad(500), wad(500), T0 + HOUR);
    // 400 GFL at 0.002 + 100 at 0.001 = 0.9 DPS → blended rate 0.0018
    const h = new EmissionEvents(EMISSION).Halved(
      T0 + EPOCH,
      u(1),
      u(0),
      true,
      wad(400),
      wad(800),
      u(T0 + EPOCH + 365 * DAY),
      RATE1,
    );
    handleHalved(h);
    closed(0, wad(500), BigInt.fromString("1800000000000000"), milli(900), wad(500), 1, wad(0), T0 + EPOCH);
    assert.fieldEquals("Halving", lastEventId(h), "byThreshold", "true");
    assert.fieldEquals("Halving", lastEventId(h), "epoch", "0x" + hexLE(0));
    assert.fieldEquals("EmissionState", STATE, "halvings", "1");
    assert.fieldEquals("EmissionState", STATE, "rewardRateWad", RATE1.toString());
    assert.fieldEquals("EmissionState", STATE, "cumulativeGfl", wad(500).toString());
    assert.fieldEquals("EmissionState", STATE, "nextThresholdGfl", wad(800).toString());
    assert.fieldEquals("EmissionState", STATE, "nextTimeHalvingAt", (T0 + EPOCH + 365 * DAY).toString());
    assert.fieldEquals("EmissionEpoch", "0x" + hexLE(0), "rateWad", "1800000000000000");
    const day = EMISSION.concatI32(<i32>((T0 + EPOCH) / DAY)).toHexString();
    assert.fieldEquals("EmissionDayData", day, "halvings", "1");
    assert.fieldEquals("EmissionDayData", day, "halvingsTotal", "1");
    assert.fieldEquals("EmissionDayData", day, "epochRewardsDps", milli(900).toString());

    // next close without a halving: the epoch's rate is the rate in force
    closed(1, wad(100), RATE1, milli(100), wad(600), 1, wad(0), T0 + 2 * EPOCH);
    assert.fieldEquals("EmissionState", STATE, "rewardRateWad", RATE1.toString());
    assert.fieldEquals("EmissionState", STATE, "halvingsAtLastClose", "1");
  });

  test("replenishment: pool first, keeper share, counter reduction, aggregates per day and hour", () => {
    init(wad(10000000), T0);
    // 1 DPS returned: 0.05 to the keeper budget, 0.95 to the pool = 475 GFL-epochs at rate 0.002 (capped at 300)
    const rep = new EmissionEvents(EMISSION).Replenished(
      T0 + HOUR,
      REGISTRY,
      wad(1),
      milli(950),
      milli(50),
      wad(300),
      wad(0),
      milli(950),
      milli(50),
      wad(7),
    );
    handleReplenished(rep);
    assert.fieldEquals("EmissionState", STATE, "rewardPoolDps", milli(950).toString());
    assert.fieldEquals("Replenishment", lastEventId(rep), "emissionBoundDps", wad(7).toString());
    assert.fieldEquals("EmissionState", STATE, "keeperBudgetDps", milli(50).toString());
    assert.fieldEquals("EmissionState", STATE, "totalReplenishedDps", wad(1).toString());
    // a close owes 1.2 DPS: 0.95 from the pool, 0.25 minted; the bounty is capped at the 0.05 budget
    closed(0, wad(600), RATE0, milli(1200), wad(600), 0, milli(50), T0 + 2 * HOUR);
    funded(milli(1200), milli(950), milli(250), wad(0), milli(250), T0 + 2 * HOUR);
    assert.fieldEquals("EmissionState", STATE, "rewardPoolDps", "0");
    assert.fieldEquals("EmissionState", STATE, "keeperBudgetDps", "0");
    assert.fieldEquals("EmissionState", STATE, "totalBountiesDps", milli(50).toString());
    const day = EMISSION.concatI32(<i32>(T0 / DAY)).toHexString();
    const hour1 = EMISSION.concatI32(<i32>((T0 + HOUR) / HOUR)).toHexString();
    const hour2 = EMISSION.concatI32(<i32>((T0 + 2 * HOUR) / HOUR)).toHexString();
    assert.fieldEquals("EmissionDayData", day, "replenishedDps", wad(1).toString());
    assert.fieldEquals("EmissionDayData", day, "fromPoolDps", milli(950).toString());
    assert.fieldEquals("EmissionDayData", day, "mintedDps", milli(250).toString());
    assert.fieldEquals("EmissionDayData", day, "totalMintedDps", milli(250).toString());
    assert.fieldEquals("EmissionDayData", day, "epochsClosed", "1");
    assert.fieldEquals("EmissionHourData", hour1, "replenishedDps", wad(1).toString());
    assert.fieldEquals("EmissionHourData", hour1, "rewardPoolDps", milli(950).toString());
    assert.fieldEquals("EmissionHourData", hour2, "mintedDps", milli(250).toString());
    assert.fieldEquals("EmissionHourData", hour2, "rewardPoolDps", "0");
    assert.entityCount("Replenishment", 1);
    assert.entityCount("RewardsFunding", 1);
  });

  test("capacity aggregates follow the module's total GFL and the open epoch's total", () => {
    init(wad(10000000), T0);
    sample(ALICE, 0, 0, wad(30), 1, wad(30), wad(30), T0 + 10);
    sample(BOB, 0, 0, wad(20), 1, wad(20), wad(50), T0 + 20);
    closed(0, wad(50), RATE0, milli(100), wad(50), 0, wad(0), T0 + EPOCH);
    rebalanced(ALICE, 1, wad(30), milli(60), milli(60), T0 + EPOCH + 10);
    rebalanced(BOB, 1, wad(20), milli(40), milli(40), T0 + EPOCH + 10);
    const d0 = EMISSION.concatI32(<i32>(T0 / DAY)).toHexString();
    const d15 = EMISSION.concatI32(<i32>((T0 + EPOCH) / DAY)).toHexString();
    assert.fieldEquals("CapacityDayData", d0, "samples", "2");
    assert.fieldEquals("CapacityDayData", d0, "openEpochGfl", wad(50).toString());
    assert.fieldEquals("CapacityDayData", d0, "totalGfl", "0");
    assert.fieldEquals("CapacityDayData", d15, "rebalances", "2");
    assert.fieldEquals("CapacityDayData", d15, "totalGfl", wad(50).toString());
    assert.fieldEquals("CapacityDayData", d15, "totalGflLow", "0");
    assert.fieldEquals("CapacityDayData", d15, "totalGflHigh", wad(50).toString());
    assert.fieldEquals("CapacityDayData", d15, "openEpochGfl", "0");
  });
});
