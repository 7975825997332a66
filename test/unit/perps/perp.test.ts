import { expect } from "chai";
import { anyValue } from "@nomicfoundation/hardhat-ethers-chai-matchers/withArgs";
import { connectionFor } from "../../helpers/fixture.js";
import { perpFixture, usdc, wad, WAD, type PerpFixture } from "./helpers.js";
import { refAccrue, refFee, refFillPrice, refOwed, refSplit } from "./reference.js";
import { perpParams } from "../../../scripts/deploy/modules/perps.js";
import { keccak256, toUtf8Bytes } from "ethers";
import { Roles, selectorOf } from "@chx/sdk";

const P = {
  skewScaleCh: perpParams.skewScaleCh,
  maxFundingVelocityWad: perpParams.maxFundingVelocityWad,
  maxFundingRateWad: perpParams.maxFundingRateWad,
};
const MAKER = BigInt(perpParams.makerFeeBps);
const TAKER = BigInt(perpParams.takerFeeBps);
const INS = BigInt(perpParams.insuranceShareBps);
const BURN = BigInt(perpParams.burnShareBps);

describe("PerpMarket", function () {
  let fx: PerpFixture;

  beforeEach(async function () {
    const connection = await connectionFor("perps");
    fx = await connection.networkHelpers.loadFixture(perpFixture);
  });

  const time = () => fx.connection.networkHelpers.time;

  it("wires roles: MARKET in the ClearingHouse, KEEPER allocation, the guardian's pauses", async function () {
    const { accessManager, clearingHouse, perpMarket, liquidityVault } = fx.protocol;
    const m = await perpMarket.getAddress();
    expect((await accessManager.hasRole(Roles.MARKET, m))[0]).to.equal(true);
    expect((await clearingHouse.marketInfo(m))[0]).to.equal(true);
    const v = await liquidityVault.getAddress();
    expect(await accessManager.getTargetFunctionRole(v, selectorOf("allocate(address,uint256)"))).to.equal(
      Roles.KEEPER,
    );
    expect(await accessManager.getTargetFunctionRole(m, selectorOf("pauseFeature(bytes32)"))).to.equal(Roles.GUARDIAN);
    expect(await accessManager.getTargetFunctionRole(v, selectorOf("pauseFeature(bytes32)"))).to.equal(Roles.GUARDIAN);
    // the vault backs the perp first; the deploy wiring adds the futures market after it when deployed
    const backed = await liquidityVault.markets();
    expect(backed[0]).to.equal(m);
    expect(backed.length).to.equal(fx.ctx.has("FuturesMarket") ? 2 : 1);
  });

  it("opens at index × (1 + average premium) and splits the taker fee three ways, exactly (worked numbers)", async function () {
    const { perpMarket, clearingHouse } = fx.protocol;
    const t = fx.traders[0]!;
    const size = wad("1000");
    // skew 0 → 1000: premium = 1000 / (2 · 1,000,000) = 0.0005 → fill 10.005
    const fill = refFillPrice(wad("10"), 0n, size, P.skewScaleCh);
    expect(fill).to.equal(wad("10.005"));
    // taker 5 bps on 10,005 USDC = 5.0025 USDC; 20 % insurance, 10 % burn, 70 % LPs
    const fee = refFee(0n, size, fill, MAKER, TAKER);
    expect(fee).to.equal(usdc("5.0025"));
    const split = refSplit(fee, INS, BURN);
    expect(split).to.deep.equal({ lp: usdc("3.50175"), insurance: usdc("1.0005"), burn: usdc("0.50025") });
    expect(split.lp + split.insurance + split.burn).to.equal(fee);

    const q = await perpMarket.quote(size);
    expect(q.fillPriceWad).to.equal(fill);
    expect(q.fee.totalUsdc).to.equal(fee);
    const before = await clearingHouse.collateralOf(t.address);
    const tx = fx.trade(t, size);
    await expect(tx)
      .to.emit(perpMarket, "PerpTraded")
      .withArgs(
        t.address,
        size,
        fill,
        wad("10"),
        size,
        usdc("10005"),
        0n,
        split.lp,
        split.insurance,
        split.burn,
        0n,
        0n,
        size,
        0n,
      );
    // the trade fee and the order's execution fee (paid to the executor)
    expect(before - (await clearingHouse.collateralOf(t.address))).to.equal(fee + perpParams.executionFeeUsdc);
    const st = await perpMarket.marketState();
    expect(st.longOiCh).to.equal(size);
    expect(st.burnReserveUsdc).to.equal(split.burn);
    expect(st.sumOpenNotionalUsdc).to.equal(usdc("10005"));
    expect((await clearingHouse.positionOf(t.address, await perpMarket.getAddress())).sizeCh).to.equal(size);
  });

  it("charges the maker rate on the part that reduces the skew and the taker rate on the rest", async function () {
    const { perpMarket } = fx.protocol;
    const [a, b] = fx.traders;
    await (await fx.trade(a!, wad("1000"))).wait();
    // b sells 1500: 1000 reduce the skew (maker), 500 flip it (taker)
    const fill = refFillPrice(wad("10"), wad("1000"), -wad("1500"), P.skewScaleCh);
    const fee = refFee(wad("1000"), -wad("1500"), fill, MAKER, TAKER);
    const q = await perpMarket.quote(-wad("1500"));
    expect(q.fillPriceWad).to.equal(fill);
    expect(q.fee.totalUsdc).to.equal(fee);
    const s = refSplit(fee, INS, BURN);
    expect(q.fee.lpUsdc + q.fee.insuranceUsdc + q.fee.burnUsdc).to.equal(q.fee.totalUsdc);
    expect(q.fee.insuranceUsdc).to.equal(s.insurance);
  });

  it("splitting a trade never costs less than one trade (path-independent impact, rounding against the trader)", async function () {
    const { perpMarket, clearingHouse } = fx.protocol;
    const [a, b] = fx.traders;
    const m = await perpMarket.getAddress();
    await (await fx.trade(a!, wad("3000"))).wait();
    for (let i = 0; i < 3; i++) await (await fx.trade(b!, wad("1000"))).wait();
    const pa = await clearingHouse.positionOf(a!.address, m);
    const pb = await clearingHouse.positionOf(b!.address, m);
    // one trade from skew 0 to 3000 vs three from 3000 to 6000: cost basis only differs by the skew path
    // exact: basis(a) = 3000·10·(1 + 1500/1e6), basis(b) = 3000·10·(1 + 4500/1e6)
    expect(pa.openNotionalUsdc).to.equal(usdc("30045"));
    expect(pb.openNotionalUsdc).to.be.gte(usdc("30135"));
    // the same path in one trade for a fresh trader from 6000 → 9000 vs. another in 3 steps 9000 → 12000
    const c = fx.traders[2]!;
    const d = fx.traders[3]!;
    await (await fx.trade(c, wad("3000"))).wait();
    const pc = await clearingHouse.positionOf(c.address, m);
    for (let i = 0; i < 3; i++) await (await fx.trade(d, wad("1000"))).wait();
    const pd = await clearingHouse.positionOf(d.address, m);
    // 6000 → 9000 in one: 3000·10·(1 + 7500/1e6) = 30225; 9000 → 12000 split: ≥ 3000·10·(1 + 10500/1e6) = 30315
    expect(pc.openNotionalUsdc).to.equal(usdc("30225"));
    expect(pd.openNotionalUsdc).to.be.gte(usdc("30315"));
  });

  it("increases, reduces, flips and closes, realising PnL against the pool; the vault takes the other side", async function () {
    const { perpMarket, clearingHouse } = fx.protocol;
    const t = fx.traders[0]!;
    const m = await perpMarket.getAddress();
    await (await fx.trade(t, wad("1000"))).wait();
    await (await fx.trade(t, wad("500"))).wait();
    expect((await perpMarket.accountState(t.address)).sizeCh).to.equal(wad("1500"));
    await fx.setPrice(wad("11"));
    await (await fx.trade(t, -wad("500"))).wait();
    expect((await clearingHouse.positionOf(t.address, m)).sizeCh).to.equal(wad("1000"));
    await (await fx.trade(t, -wad("1600"))).wait(); // flip to −600
    expect((await perpMarket.accountState(t.address)).sizeCh).to.equal(-wad("600"));
    let st = await perpMarket.marketState();
    expect(st.longOiCh).to.equal(0n);
    expect(st.shortOiCh).to.equal(wad("600"));
    expect(st.sumOpenNotionalUsdc).to.equal((await clearingHouse.positionOf(t.address, m)).openNotionalUsdc);
    await expect(fx.close(t)).to.emit(perpMarket, "PerpTraded");
    st = await perpMarket.marketState();
    expect(st.shortOiCh).to.equal(0n);
    expect(st.sumOpenNotionalUsdc).to.equal(0n);
    expect((await clearingHouse.positionOf(t.address, m)).sizeCh).to.equal(0n);
    await expect(fx.close(t)).to.be.revertedWithCustomError(perpMarket, "PerpNoPosition").withArgs(t.address);
  });

  it("reverts by name: zero size, below minimum, above max position, OI cap, price limit", async function () {
    const { perpMarket } = fx.protocol;
    const [a, b] = fx.traders;
    await expect(fx.trade(a!, 0n)).to.be.revertedWithCustomError(perpMarket, "PerpZeroSize");
    await expect(fx.trade(a!, wad("0.001")))
      .to.be.revertedWithCustomError(perpMarket, "PerpTradeTooSmall")
      .withArgs(wad("0.001"), perpParams.minTradeCh);
    await expect(fx.trade(a!, wad("10001")))
      .to.be.revertedWithCustomError(perpMarket, "PerpPositionTooLarge")
      .withArgs(wad("10001"), perpParams.maxPositionCh);
    const fill = refFillPrice(wad("10"), 0n, wad("100"), P.skewScaleCh);
    // the price limit and the open-interest cap bind at execution: the order is cancelled with the reason, the
    // executor paid (IDelayedOrders)
    const fee = perpParams.executionFeeUsdc;
    const limitErr = perpMarket.interface.encodeErrorResult("PerpPriceLimitExceeded", [fill, fill - 1n]);
    await expect(fx.trade(a!, wad("100"), fill - 1n))
      .to.emit(perpMarket, "OrderCancelled")
      .withArgs(a!.address, fx.keeper.address, fee, limitErr, 0n);
    await (await fx.trade(a!, wad("100"), fill)).wait();
    // OI cap: lower it and push the long side over
    const params = { ...(await paramsObj()), maxOpenInterestCh: wad("150") };
    await (await perpMarket.setParams(params)).wait();
    const capErr = perpMarket.interface.encodeErrorResult("PerpOpenInterestCapExceeded", [
      true,
      wad("160"),
      wad("150"),
    ]);
    await expect(fx.trade(b!, wad("60")))
      .to.emit(perpMarket, "OrderCancelled")
      .withArgs(b!.address, fx.keeper.address, fee, capErr, 0n);
    // reducing and closing stay possible above the cap; a full close below the minimum too
    await (await fx.trade(a!, -wad("99.995"))).wait();
    await (await fx.close(a!)).wait();
  });

  async function paramsObj() {
    const p = await fx.protocol.perpMarket.params();
    return {
      skewScaleCh: p.skewScaleCh,
      maxFundingVelocityWad: p.maxFundingVelocityWad,
      maxFundingRateWad: p.maxFundingRateWad,
      makerFeeBps: p.makerFeeBps,
      takerFeeBps: p.takerFeeBps,
      maxOpenInterestCh: p.maxOpenInterestCh,
      maxPositionCh: p.maxPositionCh,
      insuranceShareBps: p.insuranceShareBps,
      burnShareBps: p.burnShareBps,
      lpReserveBps: p.lpReserveBps,
      minOrderDelaySec: p.minOrderDelaySec,
      minTradeCh: p.minTradeCh,
      pokeBountyUsdc: p.pokeBountyUsdc,
      pokeIntervalSec: p.pokeIntervalSec,
      maxOrderDelaySec: p.maxOrderDelaySec,
      executionFeeUsdc: p.executionFeeUsdc,
    };
  }

  it("access control: parameters and burn sink are ADMIN, vault entry points only the vault, hook only the ClearingHouse", async function () {
    const { perpMarket, accessManager } = fx.protocol;
    const x = fx.traders[0]!;
    await expect(perpMarket.connect(x).setParams(await paramsObj()))
      .to.be.revertedWithCustomError(perpMarket, "AccessManagedUnauthorized")
      .withArgs(x.address);
    await expect(perpMarket.connect(x).setBurnSink(x.address)).to.be.revertedWithCustomError(
      perpMarket,
      "AccessManagedUnauthorized",
    );
    await expect(perpMarket.connect(x).fundFromVault(1))
      .to.be.revertedWithCustomError(perpMarket, "VaultMarketOnlyVault")
      .withArgs(x.address);
    await expect(perpMarket.connect(x).returnToVault(1)).to.be.revertedWithCustomError(
      perpMarket,
      "VaultMarketOnlyVault",
    );
    await expect(perpMarket.connect(x).onPositionLiquidated(x.address, 1, 1, 0))
      .to.be.revertedWithCustomError(perpMarket, "PerpOnlyClearingHouse")
      .withArgs(x.address);
    await expect(perpMarket.setParams({ ...(await paramsObj()), skewScaleCh: 0n }))
      .to.be.revertedWithCustomError(perpMarket, "PerpInvalidParams")
      .withArgs(1n);
    await expect(perpMarket.setParams({ ...(await paramsObj()), insuranceShareBps: 9_500 }))
      .to.be.revertedWithCustomError(perpMarket, "PerpInvalidParams")
      .withArgs(4n);
    void accessManager;
  });

  it("pausing perp.trade blocks new risk but never reductions or closes (SEC-05)", async function () {
    const { perpMarket } = fx.protocol;
    const t = fx.traders[0]!;
    await (await fx.trade(t, wad("1000"))).wait();
    const feature = keccak256(toUtf8Bytes("perp.trade"));
    await (await perpMarket.pauseFeature(feature)).wait();
    await expect(fx.trade(t, wad("1")))
      .to.be.revertedWithCustomError(perpMarket, "ChxFeaturePaused")
      .withArgs(feature);
    await (await fx.trade(t, -wad("400"))).wait();
    await (await fx.close(t)).wait();
  });

  it("closing needs only a valid index: it works while the oracle blocks new risk (oracle.risk paused, SEC-05)", async function () {
    const { perpMarket, oracle } = fx.protocol;
    const t = fx.traders[0]!;
    await (await fx.trade(t, wad("1000"))).wait();
    await (await oracle.pauseFeature(keccak256(toUtf8Bytes("oracle.risk")))).wait();
    await expect(fx.trade(t, wad("10"))).to.be.revertedWithCustomError(oracle, "ChxFeaturePaused");
    await expect(fx.close(t)).to.emit(perpMarket, "PerpTraded");
  });

  it("funding: worked numbers — 1000 CH long alone for one day pays 15 USDC (reference model)", async function () {
    const { perpMarket, clearingHouse } = fx.protocol;
    const t = fx.traders[0]!;
    await (await fx.trade(t, wad("1000"))).wait();
    const t0 = BigInt(await time().latest());
    // s = 1000 / 1e6 = 0.001 → velocity 0.003 per day²; after one day r = 0.003 / day and ∫r = 0.0015;
    // Δindex = 0.0015 × 10 = 0.015 USDC per CH → 1000 CH owe 15 USDC
    const ref = refAccrue(0n, 0n, 86_400n, wad("1000"), P, wad("10"));
    expect(ref.index).to.equal(wad("0.015"));
    expect(ref.rate).to.equal(wad("0.003"));
    await time().setNextBlockTimestamp(t0 + 86_399n);
    await fx.setPrice(wad("10"));
    await time().setNextBlockTimestamp(t0 + 86_400n);
    const before = await clearingHouse.collateralOf(t.address);
    await expect(perpMarket.settleFunding(t.address))
      .to.emit(perpMarket, "FundingSettled")
      .withArgs(t.address, -usdc("15"), wad("0.015"));
    expect(before - (await clearingHouse.collateralOf(t.address))).to.equal(usdc("15"));
    const st = await perpMarket.marketState();
    expect(st.fundingRateWad).to.equal(wad("0.003"));
  });

  it("funding: a random sequence of trades and waits matches the reference index and every settlement (MKT-02)", async function () {
    const { perpMarket, clearingHouse } = fx.protocol;
    const m = await perpMarket.getAddress();
    let seed = 12345n;
    const rnd = (n: bigint) => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
      return seed % n;
    };
    let index = 0n;
    let rate = 0n;
    let last = BigInt(await time().latest());
    let long = 0n;
    let short = 0n;
    const snap = new Map<string, bigint>();
    const size = new Map<string, bigint>();
    let price = wad("10");
    for (let step = 0; step < 12; step++) {
      const t = fx.traders[Number(rnd(4n))]!;
      const delta = (rnd(2n) === 0n ? 1n : -1n) * wad(String(100 + Number(rnd(900n))));
      const wait = 60n + rnd(40_000n);
      price = wad(String(95 + Number(rnd(10n)))) / 10n;
      const at = last + wait;
      // the price is set before the order is committed, so it is the round in force at the order's price time
      // (commit + 30 s = at − 1); the order is executed at `at`
      const delay = BigInt(perpParams.minOrderDelaySec);
      await time().setNextBlockTimestamp(at - delay - 2n);
      await fx.setPrice(price);
      await time().setNextBlockTimestamp(at - delay - 1n);
      const priceTime = await fx.commit(t, delta);
      expect(priceTime).to.equal(at - 1n);
      const skew = long - short;
      const r = refAccrue(index, rate, at - last, skew, P, price);
      // MKT-02: over every interval the index moves with the skew: longs pay when they dominate, shorts otherwise
      if (r.index !== index) expect(r.index > index).to.equal(skew > 0n);
      else expect(skew === 0n || r.rate === 0n || at === last).to.equal(true);
      index = r.index;
      rate = r.rate;
      last = at;
      const old = size.get(t.address) ?? 0n;
      const owed = refOwed(old, snap.get(t.address) ?? 0n, index);
      const tx = await fx.execute(t.address, priceTime, at);
      const rc = await tx.wait();
      const ev = rc!.logs.map((l) => perpMarket.interface.parseLog(l)).find((e) => e?.name === "PerpTraded");
      expect(ev!.args.fundingIndexWad).to.equal(index);
      expect(ev!.args.fundingRateWad).to.equal(rate);
      expect(ev!.args.fundingUsdc).to.equal(-owed);
      const nw = old + delta;
      if (old > 0n) long -= old;
      else short += old;
      if (nw > 0n) long += nw;
      else short -= nw;
      size.set(t.address, nw);
      snap.set(t.address, index);
      expect((await clearingHouse.positionOf(t.address, m)).sizeCh).to.equal(nw);
    }
    const st = await perpMarket.marketState();
    expect(st.longOiCh).to.equal(long);
    expect(st.shortOiCh).to.equal(short);
  });

  it("funding rate is hard-bounded and restarts from zero when the skew flips (reference)", async function () {
    const big = refAccrue(0n, 0n, 86_400n * 30n, wad("1000000"), P, wad("10"));
    expect(big.rate).to.equal(P.maxFundingRateWad);
    // rate 0.1 after 1/30 day at full skew; the rest of the 30 days at the bound
    const hit = (P.maxFundingRateWad * 86_400n) / P.maxFundingVelocityWad; // 2880 s
    const area2 = P.maxFundingRateWad * hit + 2n * P.maxFundingRateWad * (86_400n * 30n - hit);
    expect(big.index).to.equal((area2 * wad("10")) / (2n * 86_400n * WAD));
    const flipped = refAccrue(0n, wad("0.05"), 3_600n, -wad("1000"), P, wad("10"));
    expect(flipped.rate).to.be.lte(0n);
    const { perpMarket } = fx.protocol;
    const [a] = fx.traders;
    await (await fx.trade(a!, wad("5000"))).wait();
    await time().increase(86_400 * 3);
    await fx.setPrice(wad("10"));
    const [, r] = await perpMarket.currentFunding();
    expect(r).to.be.lte(P.maxFundingRateWad);
    expect(r).to.be.gt(0n);
  });

  it("pokeFunding: permissionless, pays a bounded bounty only when stale, reverts PerpAlreadyDone otherwise (OPS-01)", async function () {
    const { perpMarket, usdc: token } = fx.protocol;
    const k = fx.keeper;
    const [due0] = await perpMarket.checker();
    expect(due0).to.equal(false);
    await expect(perpMarket.connect(k).pokeFunding()).to.be.revertedWithCustomError(perpMarket, "PerpAlreadyDone");
    // an empty market: stale, but no open interest → no keeper work and no bounty (the vault owes keepers nothing)
    await time().increase(3_600);
    await fx.setPrice(wad("10"));
    expect((await perpMarket.checker())[0]).to.equal(false);
    await expect(perpMarket.connect(k).pokeFunding())
      .to.emit(perpMarket, "FundingPoked")
      .withArgs(k.address, 0n, 0n, wad("10"), 0n);
    expect(await perpMarket.keeperBountyOf(k.address)).to.equal(0n);
    await (await fx.trade(fx.traders[0]!, wad("100"))).wait();
    await time().increase(3_600);
    await fx.setPrice(wad("10"));
    const [due, payload] = await perpMarket.checker();
    expect(due).to.equal(true);
    expect(payload).to.equal(perpMarket.interface.encodeFunctionData("pokeFunding"));
    const up = await perpMarket.checkUpkeep.staticCall("0x");
    expect(up[0]).to.equal(true);
    await expect(k.sendTransaction({ to: await perpMarket.getAddress(), data: payload }))
      .to.emit(perpMarket, "FundingPoked")
      .withArgs(k.address, anyValue, anyValue, wad("10"), perpParams.pokeBountyUsdc);
    await expect(perpMarket.connect(k).performUpkeep("0x")).to.be.revertedWithCustomError(
      perpMarket,
      "PerpAlreadyDone",
    );
    // the keeper also executed the trade: its fee is credited the same way (issue 18 item 4), one claim pays both
    const credit = perpParams.pokeBountyUsdc + perpParams.executionFeeUsdc;
    expect(await perpMarket.keeperBountyOf(k.address)).to.equal(credit);
    const before = await token.balanceOf(k.address);
    await expect(perpMarket.connect(k).claimKeeperBounty())
      .to.emit(perpMarket, "KeeperBountyClaimed")
      .withArgs(k.address, credit);
    expect((await token.balanceOf(k.address)) - before).to.equal(credit);
    await expect(perpMarket.connect(k).claimKeeperBounty()).to.be.revertedWithCustomError(
      perpMarket,
      "PerpNothingToSettle",
    );
  });

  it("pokeFunding gas does not depend on the number of positions (MKT-03)", async function () {
    const { perpMarket } = fx.protocol;
    await time().increase(3_600);
    await fx.setPrice(wad("10"));
    await (await fx.trade(fx.traders[0]!, wad("100"))).wait();
    await time().increase(3_600);
    await fx.setPrice(wad("10"));
    await (await perpMarket.connect(fx.keeper).pokeFunding()).wait(); // the keeper's bounty slot becomes non-zero
    await time().increase(3_600);
    await fx.setPrice(wad("10"));
    const g1 = (await (await perpMarket.connect(fx.keeper).pokeFunding()).wait())!.gasUsed;
    for (const t of fx.traders) await (await fx.trade(t, wad("100"))).wait();
    await time().increase(3_600);
    await fx.setPrice(wad("10"));
    const g2 = (await (await perpMarket.connect(fx.keeper).pokeFunding()).wait())!.gasUsed;
    // identical code path; only cold/warm storage of non-zero values may differ a little
    expect(Number(g2)).to.be.closeTo(Number(g1), Math.floor(Number(g1) / 100));
  });

  it("flushes the burn reserve to the burn sink", async function () {
    const { perpMarket, usdc: token } = fx.protocol;
    await expect(perpMarket.flushBurnReserve()).to.be.revertedWithCustomError(perpMarket, "PerpNothingToSettle");
    await (await fx.trade(fx.traders[0]!, wad("1000"))).wait();
    const [, , , , sink] = await perpMarket.modules();
    const before = await token.balanceOf(sink);
    await expect(perpMarket.flushBurnReserve())
      .to.emit(perpMarket, "BurnReserveFlushed")
      .withArgs(sink, usdc("0.50025"));
    expect((await token.balanceOf(sink)) - before).to.equal(usdc("0.50025"));
  });
});
