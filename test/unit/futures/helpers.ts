/**
 * Futures test fixture: the whole protocol through the deploy script, the index at 10 USDC/CH, a stand-in LP vault
 * funding the FuturesMarket pool, one guarantor, traders with collateral and CH, and one governance-listed series.
 */
import { parseUnits, type ContractTransactionResponse, type Signer } from "ethers";
import type { NetworkConnection } from "hardhat/types/network";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { deployAll, type Fixture } from "../../helpers/fixture.js";
import { setupGuarantor, setupTrader, usdc, wad, type PriceControl } from "../../helpers/clearing.js";
import {
  MockAggregatorV3__factory,
  MockFuturesVault__factory,
  type MockFuturesVault,
} from "../../../types/ethers-contracts/index.js";
import { futuresParams } from "../../../scripts/deploy/modules/futures.js";
import { Roles } from "@chx/sdk";

export { usdc, wad };
export const DAY = 86_400;

export interface FuturesFixture extends Fixture {
  vault: MockFuturesVault;
  price: PriceControl;
  guarantor: HardhatEthersSigner;
  traders: HardhatEthersSigner[];
  seriesId: bigint;
  expiry: bigint;
}

/**
 * Params with a 30-day premium horizon, so a trade ≥ 30 days before expiry gets premium = mid skew / scale, and no
 * execution fee on orders (the worked numbers of these tests are the fills'; the fee is tested in FuturesOrdersSecurity.t.sol).
 */
export const testParams = { ...futuresParams, premiumHorizonSec: 30n * 86_400n, executionFeeUsdc: 0n };

/** The price time of a commit (`OrderCommitted`). */
export async function priceTimeOf(fx: Fixture, tx: ContractTransactionResponse): Promise<bigint> {
  const rc = await tx.wait();
  for (const log of rc!.logs) {
    const ev = fx.protocol.futures.interface.parseLog(log);
    if (ev?.name === "OrderCommitted") return ev.args.priceTime as bigint;
  }
  throw new Error("no OrderCommitted");
}

/** Executes `account`'s order on `seriesId` (as the deployer, a keeper) at the round in force at `priceTime`. */
export async function executeOrder(
  fx: Fixture,
  account: string,
  seriesId: bigint,
  priceTime: bigint,
): Promise<ContractTransactionResponse> {
  const { time } = fx.connection.networkHelpers;
  if (BigInt(await time.latest()) < priceTime + 1n) await time.setNextBlockTimestamp(priceTime + 1n);
  const roundId = await fx.protocol.oracle.roundAt(priceTime);
  return fx.protocol.futures.connect(fx.deployer).executeOrder(account, seriesId, roundId);
}

/** commit + execute: a futures trade the way it happens on chain. Resolves to the execution transaction. */
export async function trade(
  fx: Fixture,
  signer: HardhatEthersSigner,
  seriesId: bigint,
  sizeCh: bigint,
  limitPriceWad: bigint | number = 0n,
): Promise<ContractTransactionResponse> {
  const tx = await fx.protocol.futures.connect(signer).commitOrder(seriesId, sizeCh, limitPriceWad);
  return executeOrder(fx, signer.address, seriesId, await priceTimeOf(fx, tx));
}

/** The `OrderCancelled` reason of a fill that failed with custom error `name(args)`. */
export function cancelReason(fx: Fixture, name: string, args: unknown[]): string {
  return fx.protocol.futures.interface.encodeErrorResult(name, args);
}

/** closePosition + execute. */
export async function closeTrade(
  fx: Fixture,
  signer: HardhatEthersSigner,
  seriesId: bigint,
  limitPriceWad: bigint | number = 0n,
): Promise<ContractTransactionResponse> {
  const tx = await fx.protocol.futures.connect(signer).closePosition(seriesId, limitPriceWad);
  return executeOrder(fx, signer.address, seriesId, await priceTimeOf(fx, tx));
}

export async function priceControl(fx: Fixture, admin: Signer): Promise<PriceControl> {
  const feedAddr = fx.ctx.record.contracts.CHIndexFeed?.address;
  if (feedAddr === undefined) throw new Error("no CH index feed");
  const feed = MockAggregatorV3__factory.connect(feedAddr, admin);
  const decimals = await feed.decimals();
  return { setPrice: (priceWad: bigint) => feed.setAnswer(priceWad / 10n ** (18n - decimals)) };
}

/** Deploys, funds the pool with 1M USDC through the stand-in vault and lists one series 60 days out. */
export async function futuresFixture(connection: NetworkConnection): Promise<FuturesFixture> {
  const fx = await deployAll(connection);
  const p = fx.protocol;
  const admin = fx.deployer;
  const price = await priceControl(fx, admin);
  await (await price.setPrice(wad("10"))).wait();
  await (await p.futures.connect(admin).setParams(testParams)).wait();
  const vault = await new MockFuturesVault__factory(admin).deploy(await p.usdc.getAddress());
  await vault.waitForDeployment();
  await (await p.futures.connect(admin).setVault(await vault.getAddress())).wait();
  await (await p.usdc.connect(admin).mint(admin.address, usdc("1000000"))).wait();
  await (await p.usdc.connect(admin).approve(await vault.getAddress(), usdc("1000000"))).wait();
  await (await vault.connect(admin).fund(await p.futures.getAddress(), usdc("1000000"))).wait();

  const [guarantor, ...traders] = fx.users;
  if (guarantor === undefined) throw new Error("no signers");
  await setupGuarantor(p, admin, guarantor, false, usdc("1000000"));
  await (await p.accessManager.connect(admin).grantRole(Roles.CH_MINTER, admin.address, 0)).wait();
  for (const t of traders.slice(0, 6)) {
    await setupTrader(p, guarantor, t, usdc("20000"));
    await (await p.ch.connect(admin).mint(t.address, wad("10000"))).wait();
    await (await p.ch.connect(t).approve(await p.futures.getAddress(), wad("10000"))).wait();
  }
  const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
  const expiry = now + 60n * BigInt(DAY);
  await (await p.futures.connect(admin).listSeries(expiry, 0)).wait();
  return { ...fx, vault, price, guarantor, traders, seriesId: 1n, expiry };
}

/** Jumps to `t` and refreshes the index (the mock feed's heartbeat is one day). */
export async function jumpTo(connection: NetworkConnection, fx: FuturesFixture, t: bigint, priceWad: bigint) {
  await connection.networkHelpers.time.increaseTo(t);
  await (await fx.price.setPrice(priceWad)).wait();
}

/**
 * Jumps to `expiry` with the index at `priceWad` over the whole settlement TWAP window (the hour before expiry, or
 * from now when already inside it): the settlement price is then `priceWad` (docs/futures.md "Settlement TWAP").
 */
export async function jumpToExpiry(
  connection: NetworkConnection,
  fx: FuturesFixture,
  expiry: bigint,
  priceWad: bigint,
) {
  const { time } = connection.networkHelpers;
  const start = expiry - 3_600n;
  if (BigInt(await time.latest()) < start - 1n) await time.increaseTo(start - 1n);
  await (await fx.price.setPrice(priceWad)).wait();
  if (BigInt(await time.latest()) < expiry) await time.increaseTo(expiry);
}

export const parse18 = (v: string): bigint => parseUnits(v, 18);

const fixtureFns = new Map<NetworkConnection, () => Promise<FuturesFixture>>();

/** `loadFixture` with one fixture function per connection, so every test reuses the same snapshot. */
export async function loadFutures(connection: NetworkConnection): Promise<FuturesFixture> {
  let fn = fixtureFns.get(connection);
  if (fn === undefined) {
    const c = connection;
    fn = async function futuresSetup() {
      return futuresFixture(c);
    };
    fixtureFns.set(connection, fn);
  }
  return connection.networkHelpers.loadFixture(fn);
}
