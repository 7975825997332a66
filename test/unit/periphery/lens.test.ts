/**
 * AccountLens (contracts/periphery): every figure a wallet reads must be what the core contracts do. The scenarios
 * attack the lens's two derived numbers — `maxWithdrawable` (must be exactly what ClearingHouse.withdraw accepts) and
 * the liquidation price (must be exactly where the LiquidationEngine starts to accept the account) — on a 20-position
 * account (perp, four futures series and their net, fourteen options series).
 */
import { expect } from "chai";
import { parseUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { guarantorCandidates, PositionKind, type Protocol } from "@chx/sdk";
import { connectionFor, deployAll } from "../../helpers/fixture.js";
import { futuresFill, perpFill, twentyPositionAccount } from "../../../scripts/bench/lens.js";

const usdc = (v: string): bigint => parseUnits(v, 6);
const wad = (v: string): bigint => parseUnits(v, 18);
const FEED_STEP = 10n ** 10n; // the mock feed has 8 decimals: prices move in 1e10-wei steps

describe("AccountLens: wallet views from the core's own views", function () {
  let p: Protocol;
  let account: HardhatEthersSigner;
  let setPrice: (priceWad: bigint) => Promise<void>;
  let connection: Awaited<ReturnType<typeof connectionFor>>;
  let fixture: () => Promise<void>;

  before(async function () {
    connection = await connectionFor("lens");
    const fx = await deployAll(connection);
    p = fx.protocol;
    const built = await twentyPositionAccount(connection, p, fx.deployer, fx.users);
    account = built.account as HardhatEthersSigner;
    setPrice = built.setPrice;
    const snapshot = await connection.networkHelpers.takeSnapshot();
    fixture = () => snapshot.restore();
  });
  afterEach(async () => fixture());

  const lens = () => {
    if (p.accountLens === undefined) throw new Error("AccountLens not deployed");
    return p.accountLens;
  };

  it("portfolio: the ClearingHouse's margin state, every position (options found without series ids), funding, guarantor", async function () {
    const pf = await lens().portfolio(account.address);
    const ms = await p.clearingHouse.marginState(account.address);
    expect(pf.priceOk).to.equal(true);
    expect(pf.margin.equityUsdc).to.equal(ms.equityUsdc);
    expect(pf.margin.initialMarginUsdc).to.equal(ms.initialMarginUsdc);
    expect(pf.margin.maintenanceMarginUsdc).to.equal(ms.maintenanceMarginUsdc);
    expect(pf.positions.length).to.equal(20);
    const kinds = pf.positions.map((r) => Number(r.kind));
    expect(kinds.filter((k) => k === PositionKind.Perp)).to.have.length(1);
    expect(kinds.filter((k) => k === PositionKind.FuturesNet)).to.have.length(1);
    expect(kinds.filter((k) => k === PositionKind.FuturesSeries)).to.have.length(4);
    const options = pf.positions.filter((r) => Number(r.kind) === PositionKind.Option);
    expect(options.map((r) => r.seriesId)).to.deep.equal(Array.from({ length: 14 }, (_, i) => BigInt(i + 1)));
    for (const r of options) {
      const pos = await p.options.positionOf(r.seriesId, account.address);
      expect(r.escrowCh).to.equal(pos.shortCh);
      expect(r.pendingDeliveryUsdc).to.equal(pos.collateralUsdc);
    }
    // Σ of the ClearingHouse rows' requirements is the account's requirement (same rates, same rounding)
    const chRows = pf.positions.filter((r) =>
      ([PositionKind.Perp, PositionKind.FuturesNet] as number[]).includes(Number(r.kind)),
    );
    expect(chRows.reduce((a, r) => a + r.initialMarginUsdc, 0n)).to.equal(ms.initialMarginUsdc);
    expect(chRows.reduce((a, r) => a + r.maintenanceMarginUsdc, 0n)).to.equal(ms.maintenanceMarginUsdc);
    const perpRow = pf.positions.find((r) => Number(r.kind) === PositionKind.Perp)!;
    expect(perpRow.fundingOwedUsdc).to.equal(await p.perpMarket.fundingOwedUsdc(account.address));
    expect(pf.guarantor.guarantor).to.equal(await p.guarantorPool.guarantorOf(account.address));
    const [limit, exposure] = await p.guarantorPool.customerInfo(account.address);
    expect(pf.guarantor.customerLimitUsdc).to.equal(limit);
    expect(pf.guarantor.remainingUsdc).to.be.lte(limit - exposure);
    expect(pf.collateral[0]!.amount).to.equal(await p.clearingHouse.collateralOf(account.address));
  });

  it("test_maxWithdrawable_isExactlyWhatWithdrawAccepts: one wei more reverts, the amount itself goes through", async function () {
    const max = await lens().maxWithdrawable(account.address);
    expect(max).to.be.gt(0n);
    expect((await lens().portfolio(account.address)).maxWithdrawableUsdc).to.equal(max);
    await expect(p.clearingHouse.connect(account).withdraw(max + 1n, account.address)).to.be.revertedWithCustomError(
      p.clearingHouse,
      "ClearingInsufficientMargin",
    );
    await (await p.clearingHouse.connect(account).withdraw(max, account.address)).wait();
    expect(await lens().maxWithdrawable(account.address)).to.equal(0n);
  });

  it("test_maxWithdrawable_afterPriceMove: still exact after the index moves against the account", async function () {
    await setPrice(wad("9.5"));
    const max = await lens().maxWithdrawable(account.address);
    await expect(p.clearingHouse.connect(account).withdraw(max + 1n, account.address)).to.be.revert(connection.ethers);
    if (max > 0n) await (await p.clearingHouse.connect(account).withdraw(max, account.address)).wait();
  });

  it("test_maxWithdrawable_staleOracle: with positions and no readable index it is 0, as withdraw reverts", async function () {
    await connection.networkHelpers.time.increase(2 * 86_400); // past the feed's heartbeat
    const pf = await lens().portfolio(account.address);
    expect(pf.priceOk).to.equal(false);
    expect(pf.maxWithdrawableUsdc).to.equal(0n);
    await expect(p.clearingHouse.connect(account).withdraw(1n, account.address)).to.be.revert(connection.ethers);
  });

  /** Takes out everything withdrawable: the account then sits at its initial margin (a liquidation price exists). */
  const leverUp = async () => {
    // maxWithdrawable is exact at the block it reads; the withdrawal lands a block (a second) later, when the perp's
    // funding has accrued a little further: leave 0.01 % for it, as a wallet would
    const max = await lens().maxWithdrawable(account.address);
    await (await p.clearingHouse.connect(account).withdraw(max - max / 10_000n, account.address)).wait();
  };

  it("test_liquidationPrice_isWhereTheEngineStartsToAccept: liquidatable at the price, healthy just above it", async function () {
    await leverUp();
    const pf = await lens().portfolio(account.address);
    expect(pf.liquidationBelow).to.equal(true); // net long
    const liq = pf.liquidationPriceWad;
    expect(liq).to.be.gt(0n).and.lt(wad("10"));
    for (const r of pf.positions) {
      if (([PositionKind.Perp, PositionKind.FuturesNet] as number[]).includes(Number(r.kind)))
        expect(r.liquidationPriceWad).to.equal(liq);
    }
    await setPrice(((liq * 1_000_001n) / 1_000_000n / FEED_STEP + 1n) * FEED_STEP); // just above
    expect((await p.liquidationEngine.isLiquidatable(account.address))[0]).to.equal(false);
    await setPrice((liq / FEED_STEP) * FEED_STEP); // at (rounded down to the feed's precision)
    expect((await p.liquidationEngine.isLiquidatable(account.address))[0]).to.equal(true);
    const after = await lens().portfolio(account.address);
    expect(after.liquidatable).to.equal(true);
    expect(after.healthWad).to.be.lt(wad("1"));
  });

  it("test_liquidationPrice_short: a net short is liquidated when the index rises to the price", async function () {
    // flip the perp short: net short once the futures longs are closed
    for (const id of await p.futures.accountSeries(account.address)) {
      await futuresFill(connection, p, account, id, 0n, 0n);
    }
    await perpFill(connection, p, account, wad("-40"), wad("9"));
    await leverUp();
    const pf = await lens().portfolio(account.address);
    expect(pf.liquidationBelow).to.equal(false);
    const liq = pf.liquidationPriceWad;
    expect(liq).to.be.gt(wad("10"));
    await setPrice(((liq * 999_999n) / 1_000_000n / FEED_STEP - 1n) * FEED_STEP); // just below
    expect((await p.liquidationEngine.isLiquidatable(account.address))[0]).to.equal(false);
    await setPrice((liq / FEED_STEP + 1n) * FEED_STEP);
    expect((await p.liquidationEngine.isLiquidatable(account.address))[0]).to.equal(true);
  });

  it("without positions: everything is withdrawable, no liquidation price; paused withdrawals show 0", async function () {
    const [, , , fresh] = await connection.ethers.getSigners();
    await (await p.usdc.mint(fresh!.address, usdc("100"))).wait();
    await (await p.usdc.connect(fresh!).approve(await p.clearingHouse.getAddress(), usdc("100"))).wait();
    await (await p.clearingHouse.connect(fresh!).deposit(usdc("100"))).wait();
    const pf = await lens().portfolio(fresh!.address);
    expect(pf.maxWithdrawableUsdc).to.equal(usdc("100"));
    expect(pf.liquidationPriceWad).to.equal(0n);
    expect(pf.positions).to.have.length(0);
    expect(pf.guarantor.guarantor).to.equal("0x0000000000000000000000000000000000000000");
    const { keccak256, toUtf8Bytes } = await import("ethers");
    await (await p.clearingHouse.pauseFeature(keccak256(toUtf8Bytes("clearing.withdraw")))).wait();
    expect(await lens().maxWithdrawable(fresh!.address)).to.equal(0n);
  });

  it("markets, open guarantors (candidates from the pool's events) and workload classes", async function () {
    const m = await lens().markets(1, 100);
    const { longOiCh: longOi, shortOiCh: shortOi } = await p.perpMarket.marketState();
    expect(longOi).to.be.greaterThan(0n); // the scenario left perp positions open
    expect(m.perpLongOiCh).to.equal(longOi);
    expect(m.perpShortOiCh).to.equal(shortOi);
    expect(m.perpSkewCh).to.equal(longOi - shortOi);
    expect(m.vaultSharePriceWad).to.equal(await p.liquidityVault.sharePriceWad());
    expect(m.futuresSeries).to.have.length(4);
    expect(m.optionSeries).to.have.length(14);
    const candidates = await guarantorCandidates(p.guarantorPool);
    const open = await lens().openGuarantors([...candidates, account.address]);
    expect(open).to.have.length(1);
    const g = await p.guarantorPool.guarantorInfo(open[0]!.guarantor);
    const [, lev] = await p.guarantorPool.params();
    expect(open[0]!.remainingCapacityUsdc).to.equal((g.capitalUsdc * lev) / 10n ** 18n - g.exposureUsdc);
    const classes = await lens().workloadClasses(8);
    expect(classes.map((c) => Number(c.workloadClass))).to.deep.equal([1, 2, 3, 4]);
    expect(classes[0]!.refPflopsWad).to.equal(wad("0.312"));
  });
});
