import { expect } from "chai";
import { connectionFor, deployAll, type Fixture } from "../../helpers/fixture.js";
import { listTestMarket, setupGuarantor, setupTrader, usdc, wad, type ClearingSetup } from "../../helpers/clearing.js";
import { Roles, selectorOf } from "@chx/sdk";

describe("Clearing (through the deploy script)", function () {
  let fx: Fixture;
  let cs: ClearingSetup;

  async function setup(): Promise<{ fx: Fixture; cs: ClearingSetup }> {
    const connection = await connectionFor("clearing");
    const f = await deployAll(connection);
    const c = await listTestMarket(connection, f.ctx.record, f.protocol, f.deployer);
    return { fx: f, cs: c };
  }

  beforeEach(async function () {
    const connection = await connectionFor("clearing");
    ({ fx, cs } = await connection.networkHelpers.loadFixture(setup));
  });

  it("wires roles: markets, clearing modules and the guardian's pause", async function () {
    const { accessManager, clearingHouse, guarantorPool, liquidationEngine } = fx.protocol;
    const ch = await clearingHouse.getAddress();
    // trades and settlements are admitted by the ClearingHouse's registered-market check; pool moves need MARKET
    expect(await accessManager.getTargetFunctionRole(ch, selectorOf("fundMarketPool(uint256)"))).to.equal(Roles.MARKET);
    expect((await clearingHouse.modules())[5]).to.equal(await liquidationEngine.getAddress());
    expect(
      await accessManager.getTargetFunctionRole(
        await guarantorPool.getAddress(),
        selectorOf("coverLoss(address,uint256,address)"),
      ),
    ).to.equal(Roles.CLEARING);
    expect((await accessManager.hasRole(Roles.CLEARING, await liquidationEngine.getAddress()))[0]).to.equal(true);
    expect(await accessManager.getTargetFunctionRole(ch, selectorOf("pauseFeature(bytes32)"))).to.equal(Roles.GUARDIAN);
  });

  it("walks a price shock down the waterfall: guarantor → insurance → auto-deleveraging, one event per layer (LIQ-03, CLR-03)", async function () {
    const p = fx.protocol;
    const [g, trader, keeper, , g2, winner] = fx.users;
    await setupGuarantor(p, fx.deployer, g!, false, usdc("60"));
    await setupTrader(p, g!, trader!, usdc("100"));
    await (await cs.market.connect(trader!).trade(wad("50"))).wait(); // 50 CH long at 10
    // the opposite side: a short of 50 CH at 10 under a well-capitalised guarantor
    await setupGuarantor(p, fx.deployer, g2!, false, usdc("1000"));
    await setupTrader(p, g2!, winner!, usdc("100"));
    await (await cs.market.connect(winner!).trade(-wad("50"))).wait();
    // an outside staker puts 40 USDC in the real InsuranceFund (a direct transfer would not count: internal ledger)
    const staker = fx.users[3]!;
    await (await p.usdc.mint(staker.address, usdc("40"))).wait();
    await (await p.usdc.connect(staker).approve(await p.insuranceFund.getAddress(), usdc("40"))).wait();
    await (await p.insuranceFund.connect(staker).stake(usdc("40"))).wait();
    await (await cs.oracle.setPrice(wad("5"))).wait(); // loss 250 on 100 of collateral

    const tx = p.liquidationEngine.connect(keeper!).liquidate(trader!.address);
    await expect(tx)
      .to.emit(p.clearingHouse, "DeficitAbsorbed")
      .withArgs(trader!.address, 1n, usdc("60"), usdc("90"), "0x0000000000000000000000000000000000000000");
    await expect(tx)
      .to.emit(p.clearingHouse, "DeficitAbsorbed")
      .withArgs(trader!.address, 2n, usdc("40"), usdc("50"), "0x0000000000000000000000000000000000000000");
    // nothing is socialised: the 50 left opens an ADL claim at 1 USDC per CH (bankruptcy price 6 for the shorts)
    await expect(tx).to.emit(p.clearingHouse, "DeficitUnabsorbed").withArgs(trader!.address, usdc("50"), -usdc("50"));
    await expect(tx).to.emit(p.liquidationEngine, "AdlRoundOpened");
    expect((await p.guarantorPool.guarantorInfo(g!.address)).capitalUsdc).to.equal(0n);
    expect(await p.clearingHouse.collateralOf(trader!.address)).to.equal(-usdc("50"));
    await (await p.liquidationEngine.connect(keeper!).nominateAdl(trader!.address, winner!.address)).wait();
    await fx.connection.networkHelpers.time.increase(Number(await p.liquidationEngine.adlWindow()));
    const adl = p.liquidationEngine.connect(keeper!).executeAdl(trader!.address);
    await expect(adl)
      .to.emit(p.clearingHouse, "DeficitAbsorbed")
      .withArgs(trader!.address, 4n, usdc("50"), 0n, await cs.market.getAddress());
    await expect(adl).to.emit(p.clearingHouse, "PositionDeleveraged");
    expect(await p.clearingHouse.collateralOf(trader!.address)).to.equal(0n);
    expect((await p.clearingHouse.positionOf(winner!.address, await cs.market.getAddress())).sizeCh).to.equal(0n);
  });

  it("reverts with LiquidationAccountHealthy above maintenance and with ClearingInsufficientMargin below initial", async function () {
    const p = fx.protocol;
    const [g, trader] = fx.users;
    await setupGuarantor(p, fx.deployer, g!, false, usdc("1000"));
    await setupTrader(p, g!, trader!, usdc("100"));
    await expect(cs.market.connect(trader!).trade(wad("101")))
      .to.be.revertedWithCustomError(p.clearingHouse, "ClearingInsufficientMargin")
      .withArgs(trader!.address, usdc("101"), usdc("100"));
    await (await cs.market.connect(trader!).trade(wad("50"))).wait();
    await expect(p.liquidationEngine.liquidate(trader!.address))
      .to.be.revertedWithCustomError(p.liquidationEngine, "LiquidationAccountHealthy")
      .withArgs(trader!.address, usdc("100"), usdc("25"));
  });

  it("partially liquidates back to initial margin and pays a bounded bounty (LIQ-02, LIQ-04)", async function () {
    const p = fx.protocol;
    const [g, trader, keeper] = fx.users;
    await setupGuarantor(p, fx.deployer, g!, false, usdc("1000"));
    await setupTrader(p, g!, trader!, usdc("100"));
    await (await cs.market.connect(trader!).trade(wad("50"))).wait();
    await (await cs.oracle.setPrice(wad("8.3"))).wait();
    // independent reference: equity 15, IM 41.5, notional 415, full bounty 4.15
    const W = 10n ** 18n;
    const f = W - (usdc("10.85") * W) / usdc("41.5");
    const bounty = (usdc("415") * f * 100n) / (W * 10_000n);
    await expect(p.liquidationEngine.connect(keeper!).liquidate(trader!.address))
      .to.emit(p.liquidationEngine, "AccountLiquidated")
      .withArgs(trader!.address, keeper!.address, f, wad("8.3"), bounty, (v: bigint) => v > 0n, 1n);
    const s = await p.clearingHouse.marginState(trader!.address);
    expect(s.equityUsdc).to.be.gte(s.maintenanceMarginUsdc);
  });
});
