/**
 * Clearing fixture helpers for TypeScript tests and the bench: a test market registered on the deployed
 * ClearingHouse, a funded guarantor, and traders with collateral.
 */
import { parseUnits, type Signer } from "ethers";
import type { NetworkConnection } from "hardhat/types/network";
import type { ContractTransactionResponse } from "ethers";
import {
  MockClearingMarket__factory,
  MockAggregatorV3__factory,
  type MockClearingMarket,
} from "../../types/ethers-contracts/index.js";
import { Roles, type DeploymentRecord, type Protocol } from "@chx/sdk";

export const usdc = (v: string): bigint => parseUnits(v, 6);
export const wad = (v: string): bigint => parseUnits(v, 18);

/** Moves the CH index: writes a new round into the deployment's mock Chainlink feed behind ComputePriceOracle. */
export interface PriceControl {
  setPrice(priceWad: bigint): Promise<ContractTransactionResponse>;
}

export interface ClearingSetup {
  market: MockClearingMarket;
  oracle: PriceControl;
}

/** Deploys and lists a MockClearingMarket (IM 10 %, MM 5 % at σ = 2 %) and funds its PnL pool. */
export async function listTestMarket(
  connection: NetworkConnection,
  record: DeploymentRecord,
  p: Protocol,
  admin: Signer,
): Promise<ClearingSetup> {
  const oracleAddr = record.contracts.ComputePriceOracle?.address;
  const feedAddr = record.contracts.CHIndexFeed?.address;
  if (oracleAddr === undefined || feedAddr === undefined) throw new Error("the local deployment has no CH index feed");
  const feed = MockAggregatorV3__factory.connect(feedAddr, admin);
  const decimals = await feed.decimals();
  const oracle: PriceControl = {
    // WAD → the feed's decimals (8 on the mock), exactly as a Chainlink round would report it
    setPrice: (priceWad: bigint) => feed.setAnswer(priceWad / 10n ** (18n - decimals)),
  };
  await (await oracle.setPrice(wad("10"))).wait(); // the tests' worked numbers start at 10 USDC per CH
  const market = await new MockClearingMarket__factory(admin).deploy(
    await p.clearingHouse.getAddress(),
    oracleAddr,
    await p.usdc.getAddress(),
  );
  await market.waitForDeployment();
  const m = await market.getAddress();
  await (await p.clearingHouse.connect(admin).registerMarket(m)).wait();
  // stands in for a perp market: its pool is LP capital that absorbs socialised loss (docs/clearing.md)
  await (await p.clearingHouse.connect(admin).setMarketLossAbsorber(m, true)).wait();
  await (
    await p.riskEngine.connect(admin).setMarketParams(m, {
      imMultipleWad: wad("3"),
      mmMultipleWad: wad("1.5"),
      imFloorWad: wad("0.1"),
      mmFloorWad: wad("0.05"),
    })
  ).wait();
  await (await p.accessManager.connect(admin).grantRole(Roles.MARKET, m, 0)).wait();
  await (await p.usdc.connect(admin).mint(await admin.getAddress(), usdc("100000"))).wait();
  await (await p.usdc.connect(admin).approve(m, usdc("100000"))).wait();
  await (await market.connect(admin).fund(usdc("100000"))).wait();
  void connection;
  return { market, oracle };
}

/** Registers `g` as a guarantor with the minimum DPS bond (sent by `admin`) and `capital` USDC. */
export async function setupGuarantor(p: Protocol, admin: Signer, g: Signer, open: boolean, capital: bigint) {
  const addr = await g.getAddress();
  const [minDps] = await p.guarantorPool.params();
  await (await p.dps.connect(admin).transfer(addr, minDps)).wait();
  await (await p.guarantorPool.connect(g).registerGuarantor(open, usdc("1000000"))).wait();
  await (await p.dps.connect(g).approve(await p.guarantorPool.getAddress(), minDps)).wait();
  await (await p.guarantorPool.connect(g).stakeDps(minDps)).wait();
  await (await p.usdc.connect(g).mint(addr, capital)).wait();
  await (await p.usdc.connect(g).approve(await p.guarantorPool.getAddress(), capital)).wait();
  await (await p.guarantorPool.connect(g).depositCapital(addr, capital)).wait();
}

/** Admits `trader` to guarantor `g` and deposits `collateral` USDC for it. */
export async function setupTrader(p: Protocol, g: Signer, trader: Signer, collateral: bigint) {
  const addr = await trader.getAddress();
  await (await p.guarantorPool.connect(g).admitCustomer(addr, usdc("1000000"))).wait();
  await (await p.usdc.connect(trader).mint(addr, collateral)).wait();
  await (await p.usdc.connect(trader).approve(await p.clearingHouse.getAddress(), collateral)).wait();
  await (await p.clearingHouse.connect(trader).deposit(collateral)).wait();
}
