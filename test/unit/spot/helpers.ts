/** Shared setup for the spot tests: the protocol from the real deploy script plus funded, approved traders. */
import { MaxUint256, parseUnits, type TypedDataDomain } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";
import { deployAll, type Fixture } from "../../helpers/fixture.js";
import { MockInsuranceFund__factory, type MockInsuranceFund } from "../../../types/ethers-contracts/index.js";
import { Roles, domainOf, signOrder, type SpotOrder } from "@chx/sdk";

export const WAD = 10n ** 18n;
export const CH = 10n ** 18n;
export const USDC = 10n ** 6n;
export const ZERO = "0x0000000000000000000000000000000000000000";

export interface SpotFixture extends Fixture {
  fund: MockInsuranceFund;
  treasury: HardhatEthersSigner;
  maker: HardhatEthersSigner;
  taker: HardhatEthersSigner;
  matcher: HardhatEthersSigner;
  other: HardhatEthersSigner;
  domain: TypedDataDomain;
  chainId: bigint;
}

/** Deploys, points fees at a mock insurance fund and a treasury account, funds and approves four traders. */
export async function spotSetup(connection: NetworkConnection): Promise<SpotFixture> {
  const fx = await deployAll(connection);
  const { spot, ch, usdc, dps, accessManager } = fx.protocol;
  const [maker, taker, matcher, other, treasury] = fx.users;
  if (maker === undefined || taker === undefined || matcher === undefined || other === undefined || !treasury) {
    throw new Error("need five users");
  }
  const fund = await new MockInsuranceFund__factory(fx.deployer).deploy(await usdc.getAddress());
  await spot.setFeeRecipients(treasury.address, await fund.getAddress());
  await accessManager.grantRole(Roles.CH_MINTER, fx.deployer.address, 0);
  const market = await spot.getAddress();
  for (const u of [maker, taker, matcher, other]) {
    await ch.mint(u.address, parseUnits("1000000", 18));
    await usdc.mint(u.address, parseUnits("100000000", 6));
    await dps.transfer(u.address, parseUnits("100000", 18));
    await ch.connect(u).approve(market, MaxUint256);
    await usdc.connect(u).approve(market, MaxUint256);
    await dps.connect(u).approve(market, MaxUint256);
  }
  const { chainId } = await connection.ethers.provider.getNetwork();
  return {
    ...fx,
    fund,
    treasury,
    maker,
    taker,
    matcher,
    other,
    domain: await domainOf(connection.ethers.provider, "SpotMarket", market),
    chainId,
  };
}

export function order(maker: string, o: Partial<SpotOrder> = {}): SpotOrder {
  return {
    maker,
    isBuy: false,
    amountCh: 10n * CH,
    priceWad: (5n * WAD) / 2n,
    nonce: 1n,
    expiry: 2n ** 40n,
    taker: ZERO,
    ...o,
  };
}

export async function signed(
  fx: SpotFixture,
  signer: HardhatEthersSigner,
  o: Partial<SpotOrder> = {},
): Promise<{ order: SpotOrder; sig: string }> {
  const ord = order(signer.address, o);
  return { order: ord, sig: await signOrder(signer, fx.domain, ord) };
}
