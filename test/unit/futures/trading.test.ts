import { expect } from "chai";
import { id as keccakId, ZeroAddress } from "ethers";
import { connectionFor } from "../../helpers/fixture.js";
import {
  loadFutures,
  jumpTo,
  trade,
  closeTrade,
  cancelReason,
  testParams,
  usdc,
  wad,
  DAY,
  type FuturesFixture,
} from "./helpers.js";
import { Roles, selectorOf } from "@chx/sdk";

/** Independent reference for the series price: index × (1 + midSkew / scale × min(ttx, horizon) / horizon). */
function refPrice(indexWad: bigint, skewBefore: bigint, delta: bigint, ttx: bigint, horizon: bigint): bigint {
  const scale = wad("100000");
  let prem = ((2n * skewBefore + delta) * 10n ** 18n) / (2n * scale);
  const cap = 10n ** 17n;
  if (prem > cap) prem = cap;
  if (prem < -cap) prem = -cap;
  const t = ttx < horizon ? ttx : horizon;
  prem = (prem * t) / horizon;
  const num = indexWad * (10n ** 18n + prem);
  return delta > 0n ? (num + 10n ** 18n - 1n) / 10n ** 18n : num / 10n ** 18n;
}

describe("FuturesMarket: listing, trading, vault (through the deploy script)", function () {
  let fx: FuturesFixture;

  beforeEach(async function () {
    const connection = await connectionFor("futures");
    fx = await loadFutures(connection);
  });

  it("wires roles: MARKET for the exercise seam, GUARDIAN for disputes and pauses, registered with risk params", async function () {
    const { accessManager, futures, clearingHouse, riskEngine } = fx.protocol;
    const f = await futures.getAddress();
    expect(
      await accessManager.getTargetFunctionRole(
        f,
        selectorOf("openFromExercise(uint256,address,address,uint256,uint256)"),
      ),
    ).to.equal(Roles.MARKET);
    expect(
      await accessManager.getTargetFunctionRole(f, selectorOf("disputeSettlementPrice(uint256,uint256)")),
    ).to.equal(Roles.GUARDIAN);
    expect(await accessManager.getTargetFunctionRole(f, selectorOf("pauseFeature(bytes32)"))).to.equal(Roles.GUARDIAN);
    expect((await accessManager.hasRole(Roles.MARKET, f))[0]).to.equal(true);
    expect((await clearingHouse.marketInfo(f))[0]).to.equal(true);
    expect((await riskEngine.marketParams(f)).imFloorWad).to.equal(wad("0.1"));
    expect(await futures.deliveryModule()).to.equal(fx.ctx.address("FuturesDelivery"));
  });

  it("prices a buy and a sell at index × (1 + mid skew / scale), keeps the ClearingHouse at the index and settles the premium in cash", async function () {
    const p = fx.protocol;
    const [alice, bob] = fx.traders;
    const horizon = 30n * BigInt(DAY);
    // Alice buys 500: premium = 500 / (2 × 100,000) = 0.25 % → 10.025; fee 5 bps of 5,012.5 = 2.50625
    expect(refPrice(wad("10"), 0n, wad("500"), horizon, horizon)).to.equal(wad("10.025"));
    await expect(trade(fx, alice!, fx.seriesId, wad("500"), wad("10.03")))
      .to.emit(p.futures, "FuturesTraded")
      .withArgs(
        fx.seriesId,
        alice!.address,
        wad("500"),
        wad("10.025"),
        wad("10"),
        usdc("2.50625"),
        wad("500"),
        wad("10.025"),
        wad("500"),
        0n,
      );
    const pos = await p.clearingHouse.positionOf(alice!.address, await p.futures.getAddress());
    expect(pos.sizeCh).to.equal(wad("500"));
    expect(pos.openNotionalUsdc).to.equal(usdc("5000")); // at the index, not at 10.025
    // 20,000 − fee 2.50625 − premium 500 × 0.025 = 12.5
    expect(await p.clearingHouse.collateralOf(alice!.address)).to.equal(usdc("19984.99375"));

    // Bob sells 300: mid skew (500 + 200) / 2 = 350 → premium 0.35 % → 10.035; he receives 300 × 0.035 = 10.5
    expect(refPrice(wad("10"), wad("500"), -wad("300"), horizon, horizon)).to.equal(wad("10.035"));
    await expect(trade(fx, bob!, fx.seriesId, -wad("300"), 0))
      .to.emit(p.futures, "FuturesTraded")
      .withArgs(
        fx.seriesId,
        bob!.address,
        -wad("300"),
        wad("10.035"),
        wad("10"),
        usdc("1.50525"),
        -wad("300"),
        wad("10.035"),
        wad("500"),
        wad("300"),
      );
    expect(await p.clearingHouse.collateralOf(bob!.address)).to.equal(usdc("20000") - usdc("1.50525") + usdc("10.5"));
    const s = await p.futures.seriesInfo(fx.seriesId);
    expect([s.longOiCh, s.shortOiCh, s.openPositions, s.shortPositions]).to.deep.equal([
      wad("500"),
      wad("300"),
      2n,
      1n,
    ]);
  });

  it("converges: the premium shrinks linearly inside the horizon and is zero at expiry (MKT-04)", async function () {
    const connection = await connectionFor("futures");
    const p = fx.protocol;
    await (await trade(fx, fx.traders[0]!, fx.seriesId, wad("2000"), 0)).wait();
    // 15 days before expiry = half the 30-day horizon: mid premium (skew 2,000 / scale 100,000) = 2 % × ~1/2
    await jumpTo(connection, fx, fx.expiry - 15n * BigInt(DAY), wad("10"));
    const [mid, , prem] = await p.futures.quote(fx.seriesId, 0);
    const ttx = fx.expiry - BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
    expect(prem).to.equal((wad("0.02") * ttx) / (30n * BigInt(DAY)));
    expect(mid).to.equal(refPrice(wad("10"), wad("2000"), 0n, ttx, 30n * BigInt(DAY)));
    await jumpTo(connection, fx, fx.expiry, wad("10"));
    const [atExpiry, , premAtExpiry] = await p.futures.quote(fx.seriesId, 0);
    expect(premAtExpiry).to.equal(0n);
    expect(atExpiry).to.equal(wad("10"));
  });

  it("nets calendar spreads in the ClearingHouse: long one series, short another = one net position at the index", async function () {
    const p = fx.protocol;
    const alice = fx.traders[0]!;
    const now = BigInt((await (await connectionFor("futures")).ethers.provider.getBlock("latest"))!.timestamp);
    await (await p.futures.connect(fx.deployer).listSeries(now + 90n * BigInt(DAY), 0)).wait();
    await (await trade(fx, alice, 1n, wad("400"), 0)).wait();
    await (await trade(fx, alice, 2n, -wad("300"), 0)).wait();
    const pos = await p.clearingHouse.positionOf(alice.address, await p.futures.getAddress());
    expect(pos.sizeCh).to.equal(wad("100"));
    expect(await p.futures.accountSeries(alice.address)).to.deep.equal([1n, 2n]);
    expect((await p.futures.positionOf(2n, alice.address)).sizeCh).to.equal(-wad("300"));
  });

  it("reverts with FuturesSlippage, FuturesOiCapExceeded, FuturesZeroAmount and FuturesSeriesUnknown", async function () {
    const p = fx.protocol;
    const alice = fx.traders[0]!;
    // the price limit and the cap bind at execution: the order is cancelled with their error
    const keeper = fx.deployer.address;
    await expect(trade(fx, alice, fx.seriesId, wad("500"), wad("10.02")))
      .to.emit(p.futures, "OrderCancelled")
      .withArgs(
        fx.seriesId,
        alice.address,
        keeper,
        0n,
        cancelReason(fx, "FuturesSlippage", [wad("10.025"), wad("10.02")]),
        0n,
      );
    await (await p.futures.connect(fx.deployer).setSeriesOiCap(fx.seriesId, wad("100"))).wait();
    await expect(trade(fx, alice, fx.seriesId, wad("101"), 0))
      .to.emit(p.futures, "OrderCancelled")
      .withArgs(
        fx.seriesId,
        alice.address,
        keeper,
        0n,
        cancelReason(fx, "FuturesOiCapExceeded", [fx.seriesId, wad("101"), wad("100")]),
        0n,
      );
    await expect(p.futures.connect(alice).commitOrder(fx.seriesId, 0, 0)).to.be.revertedWithCustomError(
      p.futures,
      "FuturesZeroAmount",
    );
    await expect(p.futures.connect(alice).commitOrder(9n, wad("1"), 0))
      .to.be.revertedWithCustomError(p.futures, "FuturesSeriesUnknown")
      .withArgs(9n);
  });

  it("stops trading at expiry (FuturesSeriesNotTrading) and lets closes through while new risk is paused", async function () {
    const connection = await connectionFor("futures");
    const p = fx.protocol;
    const alice = fx.traders[0]!;
    await (await trade(fx, alice, fx.seriesId, wad("100"), 0)).wait();
    await (await p.futures.connect(fx.deployer).pauseFeature(keccakId("futures.trade"))).wait();
    await expect(p.futures.connect(alice).commitOrder(fx.seriesId, wad("1"), 0))
      .to.be.revertedWithCustomError(p.futures, "ChxFeaturePaused")
      .withArgs(keccakId("futures.trade"));
    await expect(closeTrade(fx, alice, fx.seriesId, 0)).to.emit(p.futures, "FuturesTraded");
    expect((await p.futures.positionOf(fx.seriesId, alice.address)).open).to.equal(false);
    await (await p.futures.connect(fx.deployer).unpauseFeature(keccakId("futures.trade"))).wait();
    await jumpTo(connection, fx, fx.expiry, wad("10"));
    await expect(p.futures.connect(alice).commitOrder(fx.seriesId, wad("1"), 0))
      .to.be.revertedWithCustomError(p.futures, "FuturesSeriesNotTrading")
      .withArgs(fx.seriesId, fx.expiry);
  });

  it("lists the next standard expiries on the UTC grid, bounded, and only once each", async function () {
    const connection = await connectionFor("futures");
    const p = fx.protocol;
    // Monday 18 March 2030, 12:00 UTC
    const t = BigInt(Date.UTC(2030, 2, 18, 12) / 1000);
    await connection.networkHelpers.time.increaseTo(t);
    const ts = (y: number, m: number, d: number) => BigInt(Date.UTC(y, m - 1, d) / 1000);
    expect(await p.futures.nextStandardExpiry(0)).to.equal(ts(2030, 3, 19)); // daily
    expect(await p.futures.nextStandardExpiry(1)).to.equal(ts(2030, 3, 22)); // Friday
    expect(await p.futures.nextStandardExpiry(2)).to.equal(ts(2030, 4, 1)); // monthly
    expect(await p.futures.nextStandardExpiry(3)).to.equal(ts(2030, 4, 1)); // quarterly
    await expect(p.futures.nextStandardExpiry(4)).to.be.revertedWithCustomError(p.futures, "FuturesInvalidParams");
    const anyone = fx.users[9]!;
    await expect(p.futures.connect(anyone).listStandardSeries(1))
      .to.emit(p.futures, "SeriesListed")
      .withArgs(2n, ts(2030, 3, 22), ts(2030, 3, 21), 1, wad("1000000"), anyone.address, 2n);
    await expect(p.futures.connect(anyone).listStandardSeries(1))
      .to.be.revertedWithCustomError(p.futures, "FuturesSeriesExists")
      .withArgs(ts(2030, 3, 22), 2n);
    await (await p.futures.connect(anyone).listStandardSeries(2)).wait(); // 1 April: monthly = quarterly
    await expect(p.futures.connect(anyone).listStandardSeries(3))
      .to.be.revertedWithCustomError(p.futures, "FuturesSeriesExists")
      .withArgs(ts(2030, 4, 1), 3n);
    // December → next quarter is January of the next year
    await connection.networkHelpers.time.increaseTo(BigInt(Date.UTC(2030, 11, 20) / 1000));
    expect(await p.futures.nextStandardExpiry(3)).to.equal(ts(2031, 1, 1));
    await expect(p.futures.connect(anyone).listSeries(ts(2031, 6, 1), 0)).to.be.revertedWithCustomError(
      p.futures,
      "AccessManagedUnauthorized",
    );
    const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
    await expect(p.futures.connect(fx.deployer).listSeries(now + 60n, 0))
      .to.be.revertedWithCustomError(p.futures, "FuturesInvalidExpiry")
      .withArgs(now + 60n, now + 1n + 3600n);
    await (await p.futures.connect(fx.deployer).pauseFeature(keccakId("futures.list"))).wait();
    await expect(p.futures.connect(anyone).listStandardSeries(0)).to.be.revertedWithCustomError(
      p.futures,
      "ChxFeaturePaused",
    );
  });

  it("bounds live series (FuturesTooManyLiveSeries)", async function () {
    const p = fx.protocol;
    const now = BigInt((await (await connectionFor("futures")).ethers.provider.getBlock("latest"))!.timestamp);
    for (let i = 1n; i < 12n; ++i) await (await p.futures.listSeries(now + 90n * BigInt(DAY) + i, 0)).wait();
    expect(await p.futures.seriesCount()).to.deep.equal([12n, 12n]);
    await expect(p.futures.listSeries(now + 200n * BigInt(DAY), 0))
      .to.be.revertedWithCustomError(p.futures, "FuturesTooManyLiveSeries")
      .withArgs(12n);
  });

  it("opens both legs of an option exercise at the strike for Roles.MARKET only, without fees", async function () {
    const p = fx.protocol;
    const [alice, bob, mallory] = fx.traders;
    await expect(
      p.futures.connect(mallory!).openFromExercise(fx.seriesId, alice!.address, bob!.address, wad("100"), wad("11")),
    ).to.be.revertedWithCustomError(p.futures, "AccessManagedUnauthorized");
    await (await p.accessManager.grantRole(Roles.MARKET, fx.deployer.address, 0)).wait();
    await expect(p.futures.openFromExercise(fx.seriesId, alice!.address, bob!.address, wad("100"), wad("11")))
      .to.emit(p.futures, "FuturesTraded")
      .withArgs(
        fx.seriesId,
        alice!.address,
        wad("100"),
        wad("11"),
        wad("10"),
        0n,
        wad("100"),
        wad("11"),
        wad("100"),
        0n,
      );
    // the long pays 100 × (11 − 10) to the pool, the short receives it
    expect(await p.clearingHouse.collateralOf(alice!.address)).to.equal(usdc("19900"));
    expect(await p.clearingHouse.collateralOf(bob!.address)).to.equal(usdc("20100"));
    expect(await p.futures.seriesExpiry(fx.seriesId)).to.deep.equal([fx.expiry, true]);
    expect(await p.futures.seriesExpiry(7n)).to.deep.equal([0n, false]);
  });

  it("lets only the vault fund and take back the pool, within withdrawableToVaultUsdc", async function () {
    const p = fx.protocol;
    const f = await p.futures.getAddress();
    const alice = fx.traders[0]!;
    await expect(p.futures.connect(alice).fundFromVault(usdc("1")))
      .to.be.revertedWithCustomError(p.futures, "VaultMarketOnlyVault")
      .withArgs(alice.address);
    expect(await p.futures.vaultEquityUsdc()).to.equal(usdc("1000000"));
    await (await trade(fx, alice, fx.seriesId, wad("1000"), 0)).wait();
    // Alice paid 1,000 × 0.05 = 50 premium into the pool; at the index her PnL is 0; closing the skew of 1,000 would
    // pay the 50 back (sell at 10 × 1.005), so it is not LP equity (issue 17 item 2); reserve 10 % of 10,000
    expect(await p.futures.vaultEquityUsdc()).to.equal(usdc("1000000"));
    expect(await p.futures.withdrawableToVaultUsdc()).to.equal(usdc("1000050") - usdc("50") - usdc("1000"));
    await (await fx.price.setPrice(wad("12"))).wait(); // Alice +2,000; closing pays 1,000 × 12 × 0.005 = 60
    expect(await p.futures.vaultEquityUsdc()).to.equal(usdc("1000050") - usdc("2060"));
    const free = await p.futures.withdrawableToVaultUsdc();
    expect(free).to.equal(usdc("1000050") - usdc("2060") - usdc("1200"));
    await expect(fx.vault.take(f, free + 1n))
      .to.be.revertedWithCustomError(p.futures, "FuturesVaultWithdrawTooLarge")
      .withArgs(free + 1n, free);
    await expect(fx.vault.take(f, free))
      .to.emit(p.futures, "VaultFlow")
      .withArgs(await fx.vault.getAddress(), -free);
    expect(await p.usdc.balanceOf(await fx.vault.getAddress())).to.equal(free);
  });

  it("restricts governance setters (SEC-01) and validates parameters", async function () {
    const p = fx.protocol;
    const alice = fx.traders[0]!;
    const params = { ...testParams };
    await expect(p.futures.connect(alice).setParams(params)).to.be.revertedWithCustomError(
      p.futures,
      "AccessManagedUnauthorized",
    );
    await expect(p.futures.connect(alice).setVault(alice.address)).to.be.revertedWithCustomError(
      p.futures,
      "AccessManagedUnauthorized",
    );
    await expect(p.futures.connect(alice).setDeliveryModule(alice.address)).to.be.revertedWithCustomError(
      p.futures,
      "AccessManagedUnauthorized",
    );
    await expect(p.futures.connect(alice).setSeriesOiCap(1n, 1n)).to.be.revertedWithCustomError(
      p.futures,
      "AccessManagedUnauthorized",
    );
    const bad = { ...params, maxLiveSeries: 0 };
    await expect(p.futures.setParams(bad)).to.be.revertedWithCustomError(p.futures, "FuturesInvalidParams");
    await expect(p.futures.setVault(ZeroAddress)).to.be.revertedWithCustomError(p.futures, "ChxZeroAddress");
    await expect(p.futures.connect(alice).onPositionLiquidated(alice.address, 1n, 1n, 0n))
      .to.be.revertedWithCustomError(p.futures, "FuturesOnlyClearingHouse")
      .withArgs(alice.address);
  });
});
