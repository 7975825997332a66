/** Wallet reads through the AccountLens (contracts/periphery/AccountLens.sol). */
import type { Provider } from "ethers";
import type { AccountLens, GuarantorPool } from "./generated/typechain/index.js";
import type { IAccountLens, IAccountLensMarketTypes, IAccountLensTypes } from "./generated/typechain/AccountLens.js";

export type Portfolio = IAccountLens.PortfolioStructOutput;
export type PositionView = IAccountLensTypes.PositionViewStructOutput;
export type MarketsView = IAccountLensMarketTypes.MarketsViewStructOutput;
export type OpenGuarantor = IAccountLensMarketTypes.OpenGuarantorStructOutput;

/**
 * Every guarantor ever configured (`GuarantorConfigured` events of the pool from `fromBlock`): the candidates
 * `AccountLens.openGuarantors` filters (the pool keeps no on-chain list).
 */
export async function guarantorCandidates(pool: GuarantorPool, fromBlock = 0): Promise<string[]> {
  const logs = await pool.queryFilter(pool.filters.GuarantorConfigured(), fromBlock);
  return [...new Set(logs.map((l) => l.args.guarantor))];
}

/** The open guarantors a new account may join, with their remaining capacity. */
export async function openGuarantors(lens: AccountLens, pool: GuarantorPool, fromBlock = 0): Promise<OpenGuarantor[]> {
  return lens.openGuarantors(await guarantorCandidates(pool, fromBlock));
}

/** The gas an `eth_call` of `portfolio(account)` uses (what the bench reports). */
export async function portfolioGas(lens: AccountLens, provider: Provider, account: string): Promise<bigint> {
  return provider.estimateGas({
    to: await lens.getAddress(),
    data: lens.interface.encodeFunctionData("portfolio", [account]),
  });
}
