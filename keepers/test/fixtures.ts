/**
 * Fixtures the protocol keeper suites share (emission, liquidations, volatility, perp and futures orders, tasks): the
 * deployed protocol restored to one snapshot before every test, the OPS-01 race of two keepers in the same blocks, and
 * the order suites' trading setup.
 */
import { expect } from "chai";
import { id, toBeHex, type Wallet } from "ethers";
import { domainOf, Roles, signAttestation, type AttestationMessage, type Protocol } from "@chx/sdk";
import { setupGuarantor, setupTrader, usdc, wad } from "../../test/helpers/clearing.js";
import type { ActionResult, Keeper } from "../src/keeper.js";
import { account, node } from "./harness.js";
import { protocolOnNode, type DeployedProtocol } from "./protocol.js";

/**
 * Registers the suite's hooks: before() deploys the protocol on the suite's node (protocolOnNode), snapshots the
 * pristine chain, runs `setup` (the suite's accounts, positions, listings) and snapshots what it leaves; every test
 * starts from that snapshot (beforeEach reverts it and takes it again); after() returns the node to the pristine state
 * for the next suite.
 */
export function protocolSuite(timeoutMs: number, setup: (deployed: DeployedProtocol) => Promise<void>): void {
  let pristine: string;
  let snapshot: string;

  before(async function () {
    this.timeout(timeoutMs);
    const deployed = await protocolOnNode();
    pristine = await node().rpc<string>("evm_snapshot", []);
    await setup(deployed);
    snapshot = await node().rpc<string>("evm_snapshot", []);
  });

  after(async function () {
    expect(await node().rpc("evm_revert", [pristine])).to.equal(true);
  });

  beforeEach(async function () {
    expect(await node().rpc("evm_revert", [snapshot])).to.equal(true);
    snapshot = await node().rpc<string>("evm_snapshot", []);
  });
}

/**
 * OPS-01: keepers `a` and `b` tick at once with automine off; once each has `txsEach` more transactions in the mempool
 * (none is mined before both have sent), blocks are mined until both ticks settle, and `check` gets both ticks'
 * results (automine still off). Automine is turned back on and both keepers are stopped however `check` ends.
 */
export async function race(
  a: Keeper,
  b: Keeper,
  txsEach: number,
  check: (all: ActionResult[]) => Promise<void>,
): Promise<void> {
  const n0 = await Promise.all([a, b].map((k) => node().provider.getTransactionCount(k.address, "latest")));
  await node().rpc("evm_setAutomine", [false]);
  try {
    let settled = false;
    const ticks = Promise.all([a.tick(), b.tick()]).finally(() => (settled = true));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const pending = await Promise.all([a, b].map((k) => node().provider.getTransactionCount(k.address, "pending")));
      if (pending[0]! >= n0[0]! + txsEach && pending[1]! >= n0[1]! + txsEach) break;
      if (Date.now() > deadline) throw new Error(`transactions never reached the mempool: ${pending}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Mine until both ticks settle (a block holds as many of the sent transactions as its gas limit allows).
    while (!settled) {
      await node().rpc("evm_mine", []);
      await new Promise((r) => setTimeout(r, 100));
    }
    await check((await ticks).flatMap((t) => t.results));
  } finally {
    await node().rpc("evm_setAutomine", [true]);
    await a.stop(0);
    await b.stop(0);
  }
}

/** The mock CH index feed's answer set to `priceWad` (the feed has 8 decimals). */
export async function setIndexPrice(protocol: Protocol, priceWad: bigint): Promise<void> {
  const feed = protocol.chIndexFeed;
  if (feed === undefined) throw new Error("no mock CH index feed");
  await (await feed.setAnswer(priceWad / 10n ** 10n)).wait();
}

/**
 * The order suites' trading setup (perp and futures orders): ETH for the accounts in `fund`, the CH index at 10, a
 * guarantor with 100,000 USDC backing the trader with 10,000, and LP capital behind `market` (`lp` deposits 100,000
 * USDC in the liquidity vault; the admin, granted KEEPER for it, allocates 50,000 to the market). Returns the trader.
 */
export async function setupOrderTrading(
  protocol: Protocol,
  market: string,
  who: { fund: number[]; guarantor: number; trader: number; lp: number },
): Promise<Wallet> {
  const p = node().provider;
  const admin = account(0).connect(p);
  for (const i of who.fund) {
    await node().rpc("hardhat_setBalance", [account(i).address, toBeHex(10n ** 22n)]);
  }
  await setIndexPrice(protocol, wad("10"));
  const g = account(who.guarantor).connect(p);
  await setupGuarantor(protocol, admin, g, false, usdc("100000"));
  const trader = account(who.trader).connect(p);
  await setupTrader(protocol, g, trader, usdc("10000"));
  const lp = account(who.lp).connect(p);
  const vault = protocol.liquidityVault;
  await (await protocol.usdc.connect(lp).mint(lp.address, usdc("100000"))).wait();
  await (await protocol.usdc.connect(lp).approve(await vault.getAddress(), usdc("100000"))).wait();
  await (await vault.connect(lp).deposit(usdc("100000"), lp.address)).wait();
  await (await protocol.accessManager.grantRole(Roles.KEEPER, admin.address, 0)).wait();
  await (await vault.connect(admin).allocate(market, usdc("50000"))).wait();
  return trader;
}

/**
 * One provider onboarded the way a real one is: registered (workload class 1, grade mask 0b10), 5,000 DPS from `admin`
 * staked, and attested at 0.5 PFLOPS with `admin`'s attester signature (deadline one hour after `nowSec`).
 */
export async function onboardProvider(
  protocol: Protocol,
  admin: Wallet,
  pr: Wallet,
  tag: string,
  nowSec: number,
): Promise<void> {
  const { providerRegistry: reg, dps, computeStandard } = protocol;
  const regAddr = await reg.getAddress();
  await (await reg.connect(pr).register(1, 0b10n, id(tag), "")).wait();
  await (await dps.connect(admin).transfer(pr.address, wad("5000"))).wait();
  await (await dps.connect(pr).approve(regAddr, wad("5000"))).wait();
  await (await reg.connect(pr).stake(wad("5000"))).wait();
  const m: AttestationMessage = {
    provider: pr.address,
    workloadClass: 1,
    standardVersion: Number(await computeStandard.latestVersion(1)),
    avgPflopsWad: wad("0.5"),
    factorsWad: [wad("1.2"), wad("0.9"), wad("1")],
    capacityPflopsWad: wad("0.5"),
    powerWattsWad: wad("700"),
    nonce: await reg.attestationNonce(pr.address),
    deadline: BigInt(nowSec) + 3_600n,
  };
  await (
    await reg.attest(m, await signAttestation(admin, await domainOf(admin, "ProviderRegistry", regAddr), m))
  ).wait();
}
