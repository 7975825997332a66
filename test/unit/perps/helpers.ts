/** Shared setup for the perps tests: the protocol from the real deploy script, a guarantor, traders, an LP. */
import { parseUnits, type ContractTransactionResponse } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";
import { deployAll, type Fixture } from "../../helpers/fixture.js";
import { setupGuarantor, setupTrader } from "../../helpers/clearing.js";
import type { MockAggregatorV3 } from "../../../types/ethers-contracts/index.js";
import { Roles } from "@chx/sdk";

export const WAD = 10n ** 18n;
export const CH = 10n ** 18n;
export const USDC = 10n ** 6n;
export const usdc = (v: string): bigint => parseUnits(v, 6);
export const wad = (v: string): bigint => parseUnits(v, 18);

export interface PerpFixture extends Fixture {
  feed: MockAggregatorV3;
  guarantor: HardhatEthersSigner;
  traders: HardhatEthersSigner[];
  lp: HardhatEthersSigner;
  keeper: HardhatEthersSigner;
  /** Writes a new CH index round (WAD → the feed's 8 decimals). */
  setPrice(priceWad: bigint): Promise<void>;
  /** Commits an order as `signer` (IDelayedOrders); resolves to its price time. Rejects with the commit's error. */
  commit(signer: HardhatEthersSigner, sizeCh: bigint, acceptablePriceWad?: bigint): Promise<bigint>;
  /**
   * Executes `account`'s order as the keeper at the round in force at `priceTime`, in a block at `at` (default
   * priceTime + 1, or the next block if later). Resolves to the execution transaction (for event matchers).
   */
  execute(account: string, priceTime: bigint, at?: bigint): Promise<ContractTransactionResponse>;
  /** commit + execute: a trade the way it happens on chain. Resolves to the execution transaction. */
  trade(signer: HardhatEthersSigner, sizeCh: bigint, acceptablePriceWad?: bigint): Promise<ContractTransactionResponse>;
  /** closePosition + execute. */
  close(signer: HardhatEthersSigner, acceptablePriceWad?: bigint): Promise<ContractTransactionResponse>;
}

/**
 * Deploys, sets the index to 10 USDC/CH, registers a guarantor with 1,000,000 USDC capital, admits four traders
 * with 10,000 USDC collateral each, has the LP deposit 1,000,000 USDC into the vault and the keeper (deployer,
 * granted KEEPER) allocate 500,000 of it to the perp market's PnL pool.
 */
export async function perpSetup(
  connection: NetworkConnection,
  collateral = usdc("10000"),
  lpDepositUsdc = usdc("1000000"),
): Promise<PerpFixture> {
  const fx = await deployAll(connection);
  const p = fx.protocol;
  const feed = p.chIndexFeed;
  if (feed === undefined) throw new Error("no mock CH index feed");
  const setPrice = async (priceWad: bigint) => {
    await (await feed.setAnswer(priceWad / 10n ** 10n)).wait();
  };
  await setPrice(wad("10"));
  const [guarantor, t1, t2, t3, t4, lp, keeper] = fx.users;
  if (!guarantor || !t1 || !t2 || !t3 || !t4 || !lp || !keeper) throw new Error("need seven users");
  await setupGuarantor(p, fx.deployer, guarantor, false, usdc("1000000"));
  for (const t of [t1, t2, t3, t4]) await setupTrader(p, guarantor, t, collateral);
  await (await p.accessManager.grantRole(Roles.KEEPER, fx.deployer.address, 0)).wait();
  const vault = await p.liquidityVault.getAddress();
  await (await p.usdc.mint(lp.address, usdc("1000000"))).wait();
  await (await p.usdc.connect(lp).approve(vault, usdc("1000000"))).wait();
  if (lpDepositUsdc > 0n) {
    await (await p.liquidityVault.connect(lp).deposit(lpDepositUsdc, lp.address)).wait();
    await (await p.liquidityVault.allocate(await p.perpMarket.getAddress(), lpDepositUsdc / 2n)).wait();
  }
  const m = p.perpMarket;
  const { time } = connection.networkHelpers;
  const priceTimeOf = async (tx: ContractTransactionResponse): Promise<bigint> => {
    const rc = await tx.wait();
    for (const log of rc!.logs) {
      const ev = m.interface.parseLog(log);
      if (ev?.name === "OrderCommitted") return ev.args.priceTime as bigint;
    }
    throw new Error("no OrderCommitted");
  };
  const commit = async (signer: HardhatEthersSigner, sizeCh: bigint, limit = 0n) =>
    priceTimeOf(await m.connect(signer).commitOrder(sizeCh, limit));
  const execute = async (account: string, priceTime: bigint, at?: bigint) => {
    const target = at ?? priceTime + 1n;
    if (BigInt(await time.latest()) < target) await time.setNextBlockTimestamp(target);
    const roundId = await p.oracle.roundAt(priceTime);
    return m.connect(keeper).executeOrder(account, roundId);
  };
  const trade = async (signer: HardhatEthersSigner, sizeCh: bigint, limit = 0n) =>
    execute(signer.address, await commit(signer, sizeCh, limit));
  const close = async (signer: HardhatEthersSigner, limit = 0n) =>
    execute(signer.address, await priceTimeOf(await m.connect(signer).closePosition(limit)));
  return { ...fx, feed, guarantor, traders: [t1, t2, t3, t4], lp, keeper, setPrice, commit, execute, trade, close };
}

/** The funded setup on its own chain, shared by every perps test file (one deployment for all of them). */
export async function perpFixture(): Promise<PerpFixture> {
  const { connectionFor } = await import("../../helpers/fixture.js");
  return perpSetup(await connectionFor("perps"));
}

/** The same without any LP deposit (first-depositor attacks), on a second chain. */
export async function emptyVaultFixture(): Promise<PerpFixture> {
  const { connectionFor } = await import("../../helpers/fixture.js");
  return perpSetup(await connectionFor("perps-empty"), usdc("10000"), 0n);
}
