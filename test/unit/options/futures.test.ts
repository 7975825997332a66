/**
 * Options on futures series: exercise opens the futures position at the strike through IFuturesExercise (here a
 * MockFuturesExercise); when opening fails with a reason the holder is paid the intrinsic value in cash from the
 * writer's collateral; a reason-less failure (out of gas) reverts so a keeper cannot force cash by starving the call.
 */
import { expect } from "chai";
import { connectionFor } from "../../helpers/fixture.js";
import { setupGuarantor } from "../../helpers/clearing.js";
import { MockFuturesExercise__factory, type MockFuturesExercise } from "../../../types/ethers-contracts/index.js";
import { CH, OptionKind, USDC, WAD, ZERO, list, optionsSetup, type OptionsFixture } from "./helpers.js";
import { Roles } from "@chx/sdk";

const KEY = "options-futures";
const FUT = 7n;

interface FuturesFixture extends OptionsFixture {
  futures: MockFuturesExercise;
  expiry: bigint;
}

describe("OptionsMarket: options on futures", function () {
  let fx: FuturesFixture;

  async function setup(): Promise<FuturesFixture> {
    const base = await optionsSetup(await connectionFor(KEY));
    const futures = await new MockFuturesExercise__factory(base.deployer).deploy(ZERO);
    const now = BigInt(await base.connection.networkHelpers.time.latest());
    const expiry = now + 7n * 86_400n;
    await futures.setSeries(FUT, expiry + 7n * 86_400n, true);
    await base.protocol.options.setFuturesMarket(await futures.getAddress());
    return { ...base, futures, expiry };
  }

  beforeEach(async function () {
    fx = await (await connectionFor(KEY)).networkHelpers.loadFixture(setup);
  });

  async function writeAndGive(kind: number, strike: bigint, cap: bigint, sizeCh: bigint) {
    const { options } = fx.protocol;
    const id = await list(fx, kind, strike, cap, fx.expiry, FUT);
    await options.connect(fx.carol).write(id, sizeCh);
    await options.connect(fx.carol).transferLong(id, fx.bob.address, sizeCh);
    return id;
  }

  async function finalAt(id: bigint, priceWad: bigint) {
    await fx.connection.networkHelpers.time.increaseTo(fx.expiry);
    await fx.setPrice(priceWad);
    await fx.protocol.options.fixSettlementPrice(id);
    await fx.connection.networkHelpers.time.increase(3_600);
  }

  it("listing checks the futures series: trading, expiring no earlier than the option", async function () {
    const { options } = fx.protocol;
    await expect(list(fx, OptionKind.Call, 10n * WAD, 5n * WAD, fx.expiry + 30n * 86_400n, FUT))
      .to.be.revertedWithCustomError(options, "OptionsInvalidFuturesSeries")
      .withArgs(FUT, fx.expiry + 7n * 86_400n, fx.expiry + 30n * 86_400n);
    await expect(list(fx, OptionKind.Call, 10n * WAD, 5n * WAD, fx.expiry, 99n))
      .to.be.revertedWithCustomError(options, "OptionsInvalidFuturesSeries")
      .withArgs(99n, 0n, fx.expiry);
  });

  it("an in-the-money put opens Bob short and Carol long at the strike and releases Carol's collateral", async function () {
    const { options, clearingHouse } = fx.protocol;
    const id = await writeAndGive(OptionKind.Put, 9n * WAD, 0n, 20n * CH); // 180 USDC collateral
    await finalAt(id, 6n * WAD);
    const carol0 = await clearingHouse.collateralOf(fx.carol.address);
    const keeper0 = await clearingHouse.collateralOf(fx.keeper.address);
    // accounts: [carol (writer, no longs left), bob (holder)] → 1 skip + 1 pair
    await expect(options.connect(fx.keeper).settleSeries(id, 20n))
      .to.emit(options, "FuturesExercised")
      .withArgs(id, fx.bob.address, fx.carol.address, 20n * CH, true, 0n, 180n * USDC, 0n, 180n * USDC)
      .and.to.emit(fx.futures, "ExerciseOpened")
      .withArgs(FUT, fx.carol.address, fx.bob.address, 20n * CH, 9n * WAD);
    expect(await fx.futures.netSize(FUT, fx.bob.address)).to.equal(-20n * CH);
    // the 0.5 USDC bounty comes out of the writer's release
    expect((await clearingHouse.collateralOf(fx.carol.address)) - carol0).to.equal(180n * USDC - 500_000n);
    expect((await clearingHouse.collateralOf(fx.keeper.address)) - keeper0).to.equal(500_000n);
    expect(await options.seriesStatus(id)).to.equal(5n);
    const s = await options.series(id);
    expect(s.paidUsdc + s.releasedUsdc).to.equal(s.postedUsdc); // MKT-07
  });

  it("when opening the futures fails with a reason, the holder is paid the intrinsic value in cash", async function () {
    const { options, clearingHouse } = fx.protocol;
    const id = await writeAndGive(OptionKind.Call, 10n * WAD, 10n * WAD, 5n * CH); // 50 USDC collateral
    await finalAt(id, 13n * WAD);
    await fx.futures.setFailure(true, false);
    const bob0 = await clearingHouse.collateralOf(fx.bob.address);
    const carol0 = await clearingHouse.collateralOf(fx.carol.address);
    await expect(options.exercise(id, fx.bob.address))
      .to.emit(options, "FuturesExercised")
      .withArgs(id, fx.bob.address, fx.carol.address, 5n * CH, false, 15n * USDC, 35n * USDC, 15n * USDC, 35n * USDC);
    expect((await clearingHouse.collateralOf(fx.bob.address)) - bob0).to.equal(15n * USDC);
    expect((await clearingHouse.collateralOf(fx.carol.address)) - carol0).to.equal(35n * USDC);
  });

  it("a reason-less failure (out of gas) reverts with OptionsExerciseOutOfGas instead of forcing cash", async function () {
    const { options } = fx.protocol;
    const id = await writeAndGive(OptionKind.Call, 10n * WAD, 10n * WAD, 5n * CH);
    await finalAt(id, 13n * WAD);
    await fx.futures.setFailure(false, true);
    await expect(options.exercise(id, fx.bob.address))
      .to.be.revertedWithCustomError(options, "OptionsExerciseOutOfGas")
      .withArgs(id);
  });

  it("out of the money, a futures option settles like a cash one: writers get everything back", async function () {
    const { options, clearingHouse } = fx.protocol;
    const id = await writeAndGive(OptionKind.Call, 10n * WAD, 10n * WAD, 5n * CH);
    await finalAt(id, 9n * WAD);
    const carol0 = await clearingHouse.collateralOf(fx.carol.address);
    await options.exercise(id, fx.carol.address);
    expect((await clearingHouse.collateralOf(fx.carol.address)) - carol0).to.equal(50n * USDC);
    expect(await fx.futures.openedCount()).to.equal(0n);
  });

  it("pairs a holder with several writers in order, one page at a time", async function () {
    const { options } = fx.protocol;
    const id = await list(fx, OptionKind.Call, 10n * WAD, 10n * WAD, fx.expiry, FUT);
    await options.connect(fx.carol).write(id, 3n * CH);
    await options.connect(fx.alice).write(id, 2n * CH);
    await options.connect(fx.carol).transferLong(id, fx.bob.address, 3n * CH);
    await options.connect(fx.alice).transferLong(id, fx.bob.address, 2n * CH);
    await finalAt(id, 12n * WAD);
    // accounts [carol, alice, bob]: page 1 skips carol and alice (no longs), page 2 pairs bob with carol then alice
    await options.connect(fx.keeper).settleSeries(id, 2n);
    expect(await options.seriesStatus(id)).to.equal(4n);
    await options.connect(fx.keeper).settleSeries(id, 5n);
    expect(await fx.futures.openedCount()).to.equal(2n);
    expect(await fx.futures.netSize(FUT, fx.bob.address)).to.equal(5n * CH);
    expect(await fx.futures.netSize(FUT, fx.alice.address)).to.equal(-2n * CH);
    expect(await options.seriesStatus(id)).to.equal(5n);
  });

  it("with a real clearing leg, exercise opens margined ClearingHouse positions at the strike", async function () {
    const { options, clearingHouse, riskEngine, accessManager } = fx.protocol;
    const real = await new MockFuturesExercise__factory(fx.deployer).deploy(await clearingHouse.getAddress());
    const r = await real.getAddress();
    await real.setSeries(FUT, fx.expiry + 7n * 86_400n, true);
    await clearingHouse.registerMarket(r);
    await riskEngine.setMarketParams(r, {
      imMultipleWad: 3n * WAD,
      mmMultipleWad: (3n * WAD) / 2n,
      imFloorWad: WAD / 10n,
      mmFloorWad: WAD / 20n,
    });
    await accessManager.grantRole(Roles.MARKET, r, 0);
    await options.setFuturesMarket(r);
    // every clearing account belongs to a guarantor, which admits it before it trades
    const g = fx.users[5]!;
    await setupGuarantor(fx.protocol, fx.deployer, g, false, 100_000n * USDC);
    for (const a of [fx.bob, fx.carol])
      await fx.protocol.guarantorPool.connect(g).admitCustomer(a.address, 1_000_000n * USDC);
    const id = await writeAndGive(OptionKind.Put, 9n * WAD, 0n, 20n * CH);
    await finalAt(id, 6n * WAD);
    await expect(options.connect(fx.keeper).settleSeries(id, 20n))
      .to.emit(options, "FuturesExercised")
      .withArgs(id, fx.bob.address, fx.carol.address, 20n * CH, true, 0n, 180n * USDC, 0n, 180n * USDC);
    // Bob short 20 CH at 9 (his put delivered), Carol long 20 CH at 9
    const bob = await clearingHouse.positionOf(fx.bob.address, r);
    expect(bob.sizeCh).to.equal(-20n * CH);
    expect(bob.openNotionalUsdc).to.equal(-180n * USDC);
    expect((await clearingHouse.positionOf(fx.carol.address, r)).sizeCh).to.equal(20n * CH);
  });
});
