/** Shared setup for the options tests: the protocol from the real deploy script, funded ClearingHouse accounts. */
import { type TypedDataDomain } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";
import { deployAll, type Fixture } from "../../helpers/fixture.js";
import type { MockAggregatorV3 } from "../../../types/ethers-contracts/index.js";
import { OptionKind, Roles, domainOf, signOffer, type OptionsOffer } from "@chx/sdk";

export const WAD = 10n ** 18n;
export const CH = 10n ** 18n;
export const USDC = 10n ** 6n;
export const ZERO = "0x0000000000000000000000000000000000000000";
export { OptionKind };

export interface OptionsFixture extends Fixture {
  alice: HardhatEthersSigner;
  bob: HardhatEthersSigner;
  carol: HardhatEthersSigner;
  keeper: HardhatEthersSigner;
  guardian: HardhatEthersSigner;
  feed: MockAggregatorV3;
  domain: TypedDataDomain;
  market: string;
  /** Writes a fresh CH index round (WAD → the feed's 8 decimals). */
  setPrice(priceWad: bigint): Promise<void>;
}

/** Deploys, sets the index to 10 USDC per CH, funds alice/bob/carol with 100,000 USDC of ClearingHouse collateral. */
export async function optionsSetup(connection: NetworkConnection): Promise<OptionsFixture> {
  const fx = await deployAll(connection);
  const { usdc, clearingHouse, accessManager, options, chIndexFeed } = fx.protocol;
  const [alice, bob, carol, keeper, guardian] = fx.users;
  if (!alice || !bob || !carol || !keeper || !guardian || chIndexFeed === undefined) throw new Error("setup");
  const feed = chIndexFeed;
  const decimals = await feed.decimals();
  const setPrice = async (priceWad: bigint) => {
    await (await feed.setAnswer(priceWad / 10n ** (18n - decimals))).wait();
  };
  await setPrice(10n * WAD);
  await accessManager.grantRole(Roles.GUARDIAN, guardian.address, 0);
  const ch = await clearingHouse.getAddress();
  for (const u of [alice, bob, carol]) {
    await usdc.mint(u.address, 100_000n * USDC);
    await usdc.connect(u).approve(ch, 100_000n * USDC);
    await clearingHouse.connect(u).deposit(100_000n * USDC);
  }
  const market = await options.getAddress();
  return {
    ...fx,
    alice,
    bob,
    carol,
    keeper,
    guardian,
    feed,
    setPrice,
    market,
    domain: await domainOf(connection.ethers.provider, "OptionsMarket", market),
  };
}

/** The next 08:00 UTC at least `minSec` from `now` (a standard expiry of the default grid). */
export function standardExpiry(now: number, minSec: number): bigint {
  const day = 86_400;
  const t = now + minSec;
  let e = Math.floor(t / day) * day + 8 * 3_600;
  if (e < t) e += day;
  return BigInt(e);
}

/** Lists a series as governance (the deployer is ADMIN on local networks). Returns its id. */
export async function list(
  fx: OptionsFixture,
  kind: number,
  strikeWad: bigint,
  capWad: bigint,
  expiry: bigint,
  futures?: bigint,
): Promise<bigint> {
  const { options } = fx.protocol;
  await (
    await options.listSeries({
      kind,
      onFutures: futures !== undefined,
      futuresSeriesId: futures ?? 0n,
      expiry,
      strikeWad,
      capWad,
    })
  ).wait();
  return options.seriesCount();
}

export function offer(maker: string, o: Partial<OptionsOffer> = {}): OptionsOffer {
  return {
    maker,
    seriesId: 1n,
    isBuy: false,
    sizeCh: 100n * CH,
    premiumWad: (4n * WAD) / 10n,
    nonce: 1n,
    expiry: 2n ** 40n,
    taker: ZERO,
    ...o,
  };
}

export async function signed(
  fx: OptionsFixture,
  signer: HardhatEthersSigner,
  o: Partial<OptionsOffer> = {},
): Promise<{ offer: OptionsOffer; sig: string }> {
  const off = offer(signer.address, o);
  return { offer: off, sig: await signOffer(signer, fx.domain, off) };
}

/** Moves time past expiry + dispute window, refreshing the index so the oracle is not stale. */
export async function toFinal(fx: OptionsFixture, expiry: bigint, priceWad: bigint): Promise<void> {
  const { time } = fx.connection.networkHelpers;
  await time.increaseTo(expiry);
  await fx.setPrice(priceWad);
}

/** The market's parameters as a plain object (to change one field and pass them back to setParams). */
export async function currentParams(fx: OptionsFixture) {
  const p = await fx.protocol.options.params();
  return {
    makerFeeBps: p.makerFeeBps,
    takerFeeBps: p.takerFeeBps,
    disputeWindowSec: p.disputeWindowSec,
    expiryGridSec: p.expiryGridSec,
    expiryOffsetSec: p.expiryOffsetSec,
    minTimeToExpirySec: p.minTimeToExpirySec,
    maxHorizonSec: p.maxHorizonSec,
    maxStrikeDeviationBps: p.maxStrikeDeviationBps,
    callCapBps: p.callCapBps,
    maxLiveSeries: p.maxLiveSeries,
    bountyUsdc: p.bountyUsdc,
    strikeStepWad: p.strikeStepWad,
    maxCorrectionBps: p.maxCorrectionBps,
    listingBondPerDayUsdc: p.listingBondPerDayUsdc,
  };
}
