import { expect } from "chai";
import { ZeroAddress } from "ethers";
import type { NetworkConnection } from "hardhat/types/network";
import { connectionFor } from "../../helpers/fixture.js";
import { setupTrader } from "../../helpers/clearing.js";
import {
  loadFutures,
  jumpTo,
  jumpToExpiry,
  trade,
  cancelReason,
  usdc,
  wad,
  DAY,
  type FuturesFixture,
} from "./helpers.js";
import { DeliveryOrders__factory } from "../../../types/ethers-contracts/index.js";

const HOUR = 3_600n;

describe("FuturesMarket: expiry, physical delivery, slashing, keepers (the seed's cast)", function () {
  let fx: FuturesFixture;
  let connection: NetworkConnection;

  beforeEach(async function () {
    connection = await connectionFor("futures");
    fx = await loadFutures(connection);
  });

  /** Expiry at `priceWad`: fix (by `keeper`), wait out the 1 h dispute window, finalise. Returns the deadline. */
  async function expireAndFinalise(priceWad: bigint, seriesId = fx.seriesId, expiry = fx.expiry): Promise<bigint> {
    const keeper = fx.users[9]!;
    await jumpToExpiry(connection, fx, expiry, priceWad);
    await (await fx.protocol.futures.connect(keeper).fixSettlementPrice(seriesId)).wait();
    await jumpTo(connection, fx, expiry + 2n * HOUR, priceWad);
    await (await fx.protocol.futures.connect(keeper).finalizeSettlement(seriesId)).wait();
    return (await fx.protocol.futures.seriesInfo(seriesId)).deliveryDeadline;
  }

  /** The CH of `account`'s delivery order of `seriesId` (issue 19: an electing long receives an order, not CH). */
  async function orderCh(seriesId: bigint, account: string): Promise<bigint> {
    const orders = DeliveryOrders__factory.connect(fx.ctx.address("DeliveryOrders"), connection.ethers.provider);
    return (await orders.order(await orders.orderId(seriesId, account))).availableCh;
  }

  async function chPosition(account: string): Promise<bigint> {
    return (await fx.protocol.clearingHouse.positionOf(account, await fx.protocol.futures.getAddress())).sizeCh;
  }

  it("Alice buys 500 CH per month and takes delivery; Bob (datacenter) sells his capacity forward and delivers", async function () {
    const p = fx.protocol;
    const [alice, bob] = fx.traders;
    const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
    await (await p.futures.listSeries(now + 90n * BigInt(DAY), 0)).wait(); // month 2
    for (const id of [1n, 2n]) {
      await (await trade(fx, alice!, id, wad("500"), 0)).wait(); // 10.025
      await (await trade(fx, bob!, id, -wad("500"), 0)).wait(); // 10.025 (skew 500 → 0)
    }
    expect(await chPosition(alice!.address)).to.equal(wad("1000"));
    await expect(p.futures.connect(alice!).electDelivery(1n, wad("500")))
      .to.emit(p.futures, "DeliveryElected")
      .withArgs(1n, alice!.address, wad("500"), wad("500"));
    // Bob proves his capacity early: he escrows the CH his datacenter produced
    await expect(p.futures.connect(bob!).deliver(1n, wad("500")))
      .to.emit(p.futures, "DeliveryEscrowChanged")
      .withArgs(1n, bob!.address, wad("500"), wad("500"));

    const deadline = await expireAndFinalise(wad("12"));
    expect(await p.futures.deliveryObligation(1n, bob!.address)).to.deep.equal([wad("500"), wad("500"), deadline]);
    await expect(p.futures.connect(bob!).settlePosition(1n, bob!.address))
      .to.emit(p.futures, "DeliverySettled")
      .withArgs(1n, bob!.address, wad("500"), wad("500"), usdc("6000"), 0n, usdc("25019.9875"));
    const chBefore = await p.ch.balanceOf(alice!.address);
    const orders = DeliveryOrders__factory.connect(fx.ctx.address("DeliveryOrders"), connection.ethers.provider);
    await expect(p.futures.connect(alice!).settlePosition(1n, alice!.address))
      .to.emit(p.futures, "DeliveryReceived")
      .withArgs(1n, alice!.address, wad("500"), wad("500"), usdc("6000"), 0n, 0n)
      .and.not.to.emit(orders, "DeliveryOrderCreated"); // the lazy hand-over: a claim, opened on first use
    // Alice takes delivery of compute: her 500 CH are a delivery order, not tokens in her wallet (issue 19)
    expect(await p.ch.balanceOf(alice!.address)).to.equal(chBefore);
    expect(await orderCh(1n, alice!.address)).to.equal(wad("500"));
    expect((await p.futures.positionOf(1n, alice!.address)).escrowCh).to.equal(wad("500"), "her claim in the market");
    // Alice's month-1 CH cost her exactly her locked futures price: 6,000 − 1,000 gain + 12.5 premium = 500 × 10.025
    expect(await p.clearingHouse.collateralOf(alice!.address)).to.equal(
      usdc("20000") - 2n * usdc("2.50625") - 2n * usdc("12.5") + usdc("1000") - usdc("6000"),
    );
    // month 2 stays open for both (rolling); the ClearingHouse keeps only the net of what is left
    expect(await chPosition(alice!.address)).to.equal(wad("500"));
    expect(await chPosition(bob!.address)).to.equal(-wad("500"));
    const s = await p.futures.seriesInfo(1n);
    expect([s.openPositions, s.longOiCh, s.shortOiCh, s.deliveredCh, s.receivedCh]).to.deep.equal([
      0n,
      0n,
      0n,
      wad("500"),
      wad("500"),
    ]); // MKT-04, MKT-05
  });

  it("charges a short that fails delivery the penalty (price × 10 %) and makes the electing long whole (MKT-05)", async function () {
    const p = fx.protocol;
    const [alice, bob, dave] = fx.traders;
    const keeper = fx.users[9]!;
    await (await trade(fx, alice!, fx.seriesId, wad("500"), 0)).wait(); // 10.025
    await (await trade(fx, bob!, fx.seriesId, -wad("300"), 0)).wait(); // 10.035
    await (await trade(fx, dave!, fx.seriesId, -wad("200"), 0)).wait(); // 10.01
    await (await p.futures.connect(alice!).electDelivery(fx.seriesId, wad("500"))).wait();
    await (await p.futures.connect(bob!).deliver(fx.seriesId, wad("300"))).wait();
    const deadline = await expireAndFinalise(wad("12"));

    await expect(p.futures.connect(keeper).settlePosition(fx.seriesId, dave!.address))
      .to.be.revertedWithCustomError(p.futures, "FuturesDeliveryPending")
      .withArgs(fx.seriesId, dave!.address, wad("200"), 0n, deadline);
    await expect(p.futures.connect(alice!).settlePosition(fx.seriesId, alice!.address))
      .to.be.revertedWithCustomError(p.futures, "FuturesShortsPending")
      .withArgs(fx.seriesId, 2n);
    await (await p.futures.connect(bob!).settlePosition(fx.seriesId, bob!.address)).wait();
    await jumpTo(connection, fx, deadline, wad("12"));
    // Dave: 20,000 − fee 1.001 + premium 2 − loss 400 − penalty 200 × 12 × 10 % = 240 − keeper bounty 1 (his
    // position was cash-settled at 12 like everyone's: the penalty is all a failed delivery costs, issue 17 item 3)
    await expect(p.futures.connect(keeper).settlePosition(fx.seriesId, dave!.address))
      .to.emit(p.futures, "DeliverySettled")
      .withArgs(fx.seriesId, dave!.address, wad("200"), 0n, 0n, usdc("240"), usdc("19359.999"));
    // Alice: 300 CH delivered, pays 12 × 300 for the CH she receives, receives the 240 penalty
    await expect(p.futures.connect(alice!).settlePosition(fx.seriesId, alice!.address))
      .to.emit(p.futures, "DeliveryReceived")
      .withArgs(fx.seriesId, alice!.address, wad("500"), wad("300"), usdc("3600"), usdc("240"), 0n);
    expect(await p.clearingHouse.collateralOf(alice!.address)).to.equal(
      usdc("20000") - usdc("2.50625") - usdc("12.5") + usdc("1000") - usdc("3600") + usdc("240"),
    );
    // net on the 200 undelivered: paid nothing, got the 240 penalty, on top of her 400 futures gain: made whole
    const s = await p.futures.seriesInfo(fx.seriesId);
    expect([s.deliveredCh, s.receivedCh, s.slashedUsdc, s.compensatedUsdc, s.openPositions]).to.deep.equal([
      wad("300"),
      wad("300"),
      usdc("240"),
      usdc("240"),
      0n,
    ]);
    expect(await p.futures.bountiesOwed(keeper.address)).to.deep.equal([usdc("3"), usdc("3")]); // fix, finalise, Dave
    await expect(p.futures.connect(keeper).claimBounties(keeper.address))
      .to.emit(p.futures, "BountiesClaimed")
      .withArgs(keeper.address, keeper.address, usdc("3"));
    await expect(p.futures.connect(keeper).claimBounties(keeper.address))
      .to.be.revertedWithCustomError(p.futures, "FuturesNothingToClaim")
      .withArgs(keeper.address);
  });

  it("sends a defaulted short whose penalty exceeds its margin down the waterfall (guarantor pays)", async function () {
    const p = fx.protocol;
    const [alice] = fx.traders;
    const poor = fx.users[8]!;
    // 500 USDC: IM 200 + its delivery bond 200 once Alice elects (issue 17 item 3)
    await setupTrader(p, fx.guarantor, poor, usdc("500"));
    await (await trade(fx, alice!, fx.seriesId, wad("200"), 0)).wait();
    await (await trade(fx, poor, fx.seriesId, -wad("200"), 0)).wait();
    await (await p.futures.connect(alice!).electDelivery(fx.seriesId, wad("200"))).wait();
    // the price jumps to 11.5 at expiry and nobody liquidates poor before settlement: −300 on its short
    const deadline = await expireAndFinalise(wad("11.5"));
    await jumpTo(connection, fx, deadline, wad("11.5"));
    await (await p.futures.settlePosition(fx.seriesId, poor.address)).wait(); // penalty 230 > ~199 left
    const collateral = await p.clearingHouse.collateralOf(poor.address);
    expect(collateral < 0n).to.equal(true);
    const capitalBefore = (await p.guarantorPool.guarantorInfo(fx.guarantor.address)).capitalUsdc;
    await expect(p.liquidationEngine.liquidate(poor.address)).to.emit(p.clearingHouse, "DeficitAbsorbed");
    expect(await p.clearingHouse.collateralOf(poor.address)).to.equal(0n);
    expect((await p.guarantorPool.guarantorInfo(fx.guarantor.address)).capitalUsdc).to.equal(
      capitalBefore + collateral,
    );
    await (await p.futures.connect(alice!).settlePosition(fx.seriesId, alice!.address)).wait();
    expect((await p.futures.seriesInfo(fx.seriesId)).compensatedUsdc).to.equal(usdc("230"));
  });

  it("assigns shorts pro rata with obligations rounded up, and gives the last long the remainder (CH delivered = received)", async function () {
    const p = fx.protocol;
    const [alice, bob, dave] = fx.traders;
    await (await trade(fx, alice!, fx.seriesId, wad("300"), 0)).wait();
    await (await trade(fx, bob!, fx.seriesId, -wad("200"), 0)).wait();
    await (await trade(fx, dave!, fx.seriesId, -wad("100"), 0)).wait();
    await (await p.futures.connect(alice!).electDelivery(fx.seriesId, wad("100"))).wait();
    await (await p.futures.connect(bob!).deliver(fx.seriesId, wad("200"))).wait();
    await (await p.futures.connect(dave!).deliver(fx.seriesId, wad("100"))).wait();
    const deadline = await expireAndFinalise(wad("10"));
    // fraction = 100 / 300; Bob ⌈200/3⌉, Dave ⌈100/3⌉ (an obligation rounds up): Σ = 100 CH + 1 wei
    const bobAssigned = 66_666_666_666_666_666_667n;
    const daveAssigned = 33_333_333_333_333_333_334n;
    expect(await p.futures.deliveryObligation(fx.seriesId, bob!.address)).to.deep.equal([
      bobAssigned,
      wad("200"),
      deadline,
    ]);
    expect((await p.futures.deliveryObligation(fx.seriesId, dave!.address))[0]).to.equal(daveAssigned);
    const bobCh = await p.ch.balanceOf(bob!.address);
    await (await p.futures.connect(bob!).settlePosition(fx.seriesId, bob!.address)).wait();
    expect((await p.ch.balanceOf(bob!.address)) - bobCh).to.equal(wad("200") - bobAssigned); // escrow back
    await (await p.futures.connect(dave!).settlePosition(fx.seriesId, dave!.address)).wait();
    await (await p.futures.connect(alice!).settlePosition(fx.seriesId, alice!.address)).wait();
    expect(await orderCh(fx.seriesId, alice!.address)).to.equal(bobAssigned + daveAssigned);
    const s = await p.futures.seriesInfo(fx.seriesId);
    expect(s.deliveredCh).to.equal(s.receivedCh);
    // the market holds exactly the long's delivery claim (the lazy hand-over), nothing else
    expect(await p.ch.balanceOf(await p.futures.getAddress())).to.equal(bobAssigned + daveAssigned);
    expect((await p.futures.positionOf(fx.seriesId, alice!.address)).escrowCh).to.equal(bobAssigned + daveAssigned);
  });

  it("cash-settles elections beyond the trader shorts without penalty (the vault's net short never delivers)", async function () {
    const p = fx.protocol;
    const [alice, bob] = fx.traders;
    await (await trade(fx, alice!, fx.seriesId, wad("500"), 0)).wait();
    await (await trade(fx, bob!, fx.seriesId, -wad("200"), 0)).wait();
    await (await p.futures.connect(alice!).electDelivery(fx.seriesId, wad("500"))).wait();
    await (await p.futures.connect(bob!).deliver(fx.seriesId, wad("200"))).wait();
    await expireAndFinalise(wad("12"));
    await (await p.futures.connect(bob!).settlePosition(fx.seriesId, bob!.address)).wait();
    await expect(p.futures.connect(alice!).settlePosition(fx.seriesId, alice!.address))
      .to.emit(p.futures, "DeliveryReceived")
      .withArgs(fx.seriesId, alice!.address, wad("500"), wad("200"), usdc("2400"), 0n, wad("300"));
  });

  it("lets a guarantor demand delivery proof and anyone close the unproven short at the index", async function () {
    const p = fx.protocol;
    const [alice, bob, dave] = fx.traders;
    await (await trade(fx, alice!, fx.seriesId, wad("500"), 0)).wait();
    await (await trade(fx, bob!, fx.seriesId, -wad("300"), 0)).wait();
    await (await trade(fx, dave!, fx.seriesId, -wad("200"), 0)).wait();
    await expect(p.futures.connect(alice!).demandDeliveryProof(fx.seriesId, dave!.address))
      .to.be.revertedWithCustomError(p.futures, "FuturesNotGuarantor")
      .withArgs(dave!.address, alice!.address, fx.guarantor.address);
    await expect(p.futures.connect(fx.guarantor).demandDeliveryProof(fx.seriesId, alice!.address))
      .to.be.revertedWithCustomError(p.futures, "FuturesNotShort")
      .withArgs(fx.seriesId, alice!.address);
    const tx = p.futures.connect(fx.guarantor).demandDeliveryProof(fx.seriesId, dave!.address);
    await expect(tx).to.emit(p.futures, "DeliveryProofDemanded");
    await (await p.futures.connect(fx.guarantor).demandDeliveryProof(fx.seriesId, bob!.address)).wait();
    const proofDeadline = (await p.futures.positionOf(fx.seriesId, dave!.address)).proofDeadline;
    await expect(p.futures.closeUnproven(fx.seriesId, dave!.address))
      .to.be.revertedWithCustomError(p.futures, "FuturesDemandNotDue")
      .withArgs(fx.seriesId, dave!.address, proofDeadline);
    await (await p.futures.connect(bob!).deliver(fx.seriesId, wad("300"))).wait(); // Bob proves
    await expect(p.futures.connect(bob!).withdrawEscrow(fx.seriesId, wad("1")))
      .to.be.revertedWithCustomError(p.futures, "FuturesEscrowOutOfRange")
      .withArgs(fx.seriesId, bob!.address, wad("299"), wad("300"));
    await jumpTo(connection, fx, proofDeadline, wad("10"));
    await expect(p.futures.closeUnproven(fx.seriesId, bob!.address))
      .to.be.revertedWithCustomError(p.futures, "FuturesAlreadyDone")
      .withArgs(fx.seriesId, bob!.address);
    await expect(p.futures.connect(fx.users[9]!).closeUnproven(fx.seriesId, dave!.address))
      .to.emit(p.futures, "PositionReduced")
      .withArgs(fx.seriesId, dave!.address, wad("200"), wad("10"), 0n, 0n, wad("500"), wad("300"), 1);
    expect(await chPosition(dave!.address)).to.equal(0n);
    expect((await p.futures.positionOf(fx.seriesId, dave!.address)).open).to.equal(false);
  });

  it("enforces the election rules: size, funding, cut-off and lock (errors by name)", async function () {
    const p = fx.protocol;
    const [alice, bob] = fx.traders;
    await (await trade(fx, alice!, fx.seriesId, wad("1900"), 0)).wait();
    await expect(p.futures.connect(alice!).electDelivery(fx.seriesId, wad("1901")))
      .to.be.revertedWithCustomError(p.futures, "FuturesElectionTooLarge")
      .withArgs(fx.seriesId, alice!.address, wad("1901"), wad("1900"));
    await expect(p.futures.connect(alice!).electDelivery(fx.seriesId, wad("1900"))).to.be.revertedWithCustomError(
      p.futures,
      "FuturesElectionUnfunded",
    );
    await (await p.futures.connect(alice!).electDelivery(fx.seriesId, wad("1000"))).wait();
    // before the cut-off a reduction caps the election
    await expect(trade(fx, alice!, fx.seriesId, -wad("1000"), 0))
      .to.emit(p.futures, "DeliveryElected")
      .withArgs(fx.seriesId, alice!.address, wad("900"), wad("900"));
    await jumpTo(connection, fx, fx.expiry - BigInt(DAY), wad("10"));
    await expect(p.futures.connect(alice!).electDelivery(fx.seriesId, wad("100")))
      .to.be.revertedWithCustomError(p.futures, "FuturesElectionClosed")
      .withArgs(fx.seriesId, fx.expiry - BigInt(DAY));
    // checked at execution: the order is cancelled with the error
    await expect(trade(fx, alice!, fx.seriesId, -wad("100"), 0))
      .to.emit(p.futures, "OrderCancelled")
      .withArgs(
        fx.seriesId,
        alice!.address,
        fx.deployer.address,
        0n,
        cancelReason(fx, "FuturesElectionLocked", [fx.seriesId, alice!.address, wad("900"), wad("800")]),
        0n,
      );
    await expect(p.futures.connect(bob!).deliver(fx.seriesId, wad("1")))
      .to.be.revertedWithCustomError(p.futures, "FuturesNotShort")
      .withArgs(fx.seriesId, bob!.address);
  });

  it("fixes, disputes and finalises the settlement price on schedule (errors by name, guardian only)", async function () {
    const p = fx.protocol;
    const [alice] = fx.traders;
    await (await trade(fx, alice!, fx.seriesId, wad("10"), 0)).wait();
    await expect(p.futures.fixSettlementPrice(fx.seriesId))
      .to.be.revertedWithCustomError(p.futures, "FuturesSeriesNotExpired")
      .withArgs(fx.seriesId, fx.expiry);
    await expect(p.futures.settlePosition(fx.seriesId, alice!.address))
      .to.be.revertedWithCustomError(p.futures, "FuturesPriceNotFixed")
      .withArgs(fx.seriesId);
    await jumpToExpiry(connection, fx, fx.expiry, wad("12"));
    await expect(p.futures.connect(alice!).fixSettlementPrice(fx.seriesId)).to.emit(
      p.futures,
      "SettlementPriceProposed",
    );
    const finalAt = (await p.futures.seriesInfo(fx.seriesId)).finalAt;
    await expect(p.futures.fixSettlementPrice(fx.seriesId))
      .to.be.revertedWithCustomError(p.futures, "FuturesAlreadyDone")
      .withArgs(fx.seriesId, ZeroAddress);
    await expect(p.futures.finalizeSettlement(fx.seriesId))
      .to.be.revertedWithCustomError(p.futures, "FuturesDisputeWindowOpen")
      .withArgs(fx.seriesId, finalAt);
    await expect(p.futures.settlePosition(fx.seriesId, alice!.address))
      .to.be.revertedWithCustomError(p.futures, "FuturesNotFinal")
      .withArgs(fx.seriesId);
    await expect(
      p.futures.connect(alice!).disputeSettlementPrice(fx.seriesId, wad("12.5")),
    ).to.be.revertedWithCustomError(p.futures, "AccessManagedUnauthorized");
    await expect(p.futures.disputeSettlementPrice(fx.seriesId, wad("14")))
      .to.be.revertedWithCustomError(p.futures, "FuturesCorrectionTooLarge")
      .withArgs(fx.seriesId, wad("12"), wad("14"), 1000n);
    await expect(p.futures.disputeSettlementPrice(fx.seriesId, wad("12.5")))
      .to.emit(p.futures, "SettlementPriceDisputed")
      .withArgs(fx.seriesId, wad("12"), wad("12.5"), fx.deployer.address);
    await jumpTo(connection, fx, finalAt, wad("12"));
    await expect(p.futures.disputeSettlementPrice(fx.seriesId, wad("12")))
      .to.be.revertedWithCustomError(p.futures, "FuturesDisputeWindowClosed")
      .withArgs(fx.seriesId, finalAt);
    await expect(p.futures.finalizeSettlement(fx.seriesId)).to.emit(p.futures, "SettlementPriceFinalised");
    // convergence (MKT-04): the long settles at the final price, 12.5, whatever the index does later
    await (await fx.price.setPrice(wad("20"))).wait();
    await expect(p.futures.connect(alice!).settlePosition(fx.seriesId, alice!.address))
      .to.emit(p.futures, "PositionSettled")
      .withArgs(fx.seriesId, alice!.address, wad("10"), wad("12.5"), usdc("25"), alice!.address, 0n, 0n);
    await expect(p.futures.settlePosition(fx.seriesId, alice!.address))
      .to.be.revertedWithCustomError(p.futures, "FuturesAlreadyDone")
      .withArgs(fx.seriesId, alice!.address);
  });

  it("drives expiry and every settlement through checker()/performUpkeep, and racing keepers lose with FuturesAlreadyDone (MKT-04)", async function () {
    const p = fx.protocol;
    const [alice, bob, dave, erin] = fx.traders;
    const k1 = fx.users[9]!;
    await (await trade(fx, alice!, fx.seriesId, wad("300"), 0)).wait();
    await (await trade(fx, bob!, fx.seriesId, -wad("100"), 0)).wait();
    await (await trade(fx, dave!, fx.seriesId, wad("50"), 0)).wait();
    await (await trade(fx, erin!, fx.seriesId, -wad("20"), 0)).wait();
    expect((await p.futures.checker())[0]).to.equal(false);
    await jumpToExpiry(connection, fx, fx.expiry, wad("11"));
    let [can, payload] = await p.futures.checker();
    expect(can).to.equal(true);
    // the settlement TWAP's hints ride in the payload (docs/futures.md "Settlement TWAP")
    const [first, changes] = await p.futures.settlementTwapHints(fx.seriesId);
    expect(payload).to.equal(
      p.futures.interface.encodeFunctionData("fixSettlementPriceAt", [fx.seriesId, first, [...changes]]),
    );
    expect(await p.futures.checkUpkeep.staticCall("0x")).to.deep.equal([can, payload]);
    await (await p.futures.connect(k1).performUpkeep(payload)).wait();
    await expect(k1.sendTransaction({ to: await p.futures.getAddress(), data: payload }))
      .to.be.revertedWithCustomError(p.futures, "FuturesAlreadyDone")
      .withArgs(fx.seriesId, ZeroAddress);
    await expect(p.futures.performUpkeep("0x12345678")).to.be.revertedWithCustomError(
      p.futures,
      "FuturesInvalidPerformData",
    );
    await jumpTo(connection, fx, fx.expiry + 2n * HOUR, wad("11"));
    [can, payload] = await p.futures.checker();
    expect(payload).to.equal(p.futures.interface.encodeFunctionData("finalizeSettlement", [fx.seriesId]));
    await (await p.futures.connect(k1).performUpkeep(payload)).wait();
    // every settleable account of the series in one paged batch
    [can, payload] = await p.futures.checker();
    const batch = [alice!, bob!, dave!, erin!].map((t) => t.address);
    expect(payload).to.equal(p.futures.interface.encodeFunctionData("settlePositions", [fx.seriesId, batch]));
    await expect(p.futures.connect(k1).performUpkeep(payload)).to.emit(p.futures, "PositionSettled");
    await expect(k1.sendTransaction({ to: await p.futures.getAddress(), data: payload }))
      .to.be.revertedWithCustomError(p.futures, "FuturesAlreadyDone")
      .withArgs(fx.seriesId, ZeroAddress);
    for (let i = 0; i < 10; ++i) {
      [can, payload] = await p.futures.checker();
      if (!can) break;
      await (await k1.sendTransaction({ to: await p.futures.getAddress(), data: payload })).wait();
    }
    const s = await p.futures.seriesInfo(fx.seriesId);
    expect([s.openPositions, s.longOiCh, s.shortOiCh]).to.deep.equal([0n, 0n, 0n]);
    for (const t of [alice!, bob!, dave!, erin!]) expect(await chPosition(t.address)).to.equal(0n);
    // 2 series-level bounties + 4 third-party settlements
    expect((await p.futures.bountiesOwed(k1.address))[0]).to.equal(usdc("6"));
  });

  it("maps a liquidation onto the nearest expiry first; the vault takes the size over", async function () {
    const p = fx.protocol;
    const t = fx.users[8]!;
    await setupTrader(p, fx.guarantor, t, usdc("700"));
    const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
    await (await p.futures.listSeries(now + 90n * BigInt(DAY), 0)).wait();
    await (await trade(fx, t, 2n, wad("200"), 0)).wait();
    await (await trade(fx, t, 1n, wad("300"), 0)).wait();
    await (await fx.price.setPrice(wad("9"))).wait();
    await expect(p.liquidationEngine.liquidate(t.address)).to.emit(p.futures, "PositionReduced");
    const net = await chPosition(t.address);
    const s1 = (await p.futures.positionOf(1n, t.address)).sizeCh;
    const s2 = (await p.futures.positionOf(2n, t.address)).sizeCh;
    expect(s1 + s2).to.equal(net);
    expect(net < wad("500")).to.equal(true);
    if (net >= wad("200")) expect(s2).to.equal(wad("200")); // series 1 (nearest) absorbed the cut first
    expect((await p.futures.seriesInfo(1n)).longOiCh).to.equal(s1);
  });

  it("settles an expiring spread leg even when the remaining leg is unmargined: the other legs are flattened at the index (MKT-04)", async function () {
    const p = fx.protocol;
    const t = fx.users[8]!;
    await setupTrader(p, fx.guarantor, t, usdc("2000"));
    const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
    await (await p.futures.listSeries(now + 90n * BigInt(DAY), 0)).wait();
    await (await trade(fx, t, 1n, wad("1000"), 0)).wait();
    await (await trade(fx, t, 2n, -wad("1000"), 0)).wait();
    // another long in the expiring series, so the settled leg's marker carries a non-zero open interest after
    const other = fx.users[9]!;
    await setupTrader(p, fx.guarantor, other, usdc("2000"));
    await (await trade(fx, other, 1n, wad("500"), 0)).wait();
    expect(await chPosition(t.address)).to.equal(0n); // a calendar spread nets to zero
    // ... but carries one leg's margin (issue 17 item 3): IM 1,000 at 10, so it cannot withdraw below that
    const collateral = await p.clearingHouse.collateralOf(t.address);
    await expect(p.clearingHouse.connect(t).withdraw(collateral - usdc("50"), t.address)).to.be.revertedWithCustomError(
      p.clearingHouse,
      "ClearingInsufficientMargin",
    );
    await (await p.clearingHouse.connect(t).withdraw(collateral - usdc("1010"), t.address)).wait();
    await expireAndFinalise(wad("10"));
    // the index rises to 10.5 before the expired long leg settles at 10: the 1,000 CH short left alone would need
    // 1,050 USDC of initial margin against ≈ 510 of equity, so the other legs are flattened at the index instead
    await jumpTo(connection, fx, fx.expiry + 3n * HOUR, wad("10.5"));
    const tx = p.futures.settlePosition(1n, t.address);
    await expect(tx)
      .to.emit(p.futures, "PositionReduced")
      .withArgs(2n, t.address, wad("1000"), wad("10.5"), 0n, 0n, 0n, 0n, 2);
    // the settled leg's own marker: no size or election left, the series' open interest after its settlement
    await expect(tx)
      .to.emit(p.futures, "PositionReduced")
      .withArgs(1n, t.address, -wad("1000"), wad("10"), 0n, 0n, wad("500"), 0n, 2);
    await expect(tx).to.emit(p.futures, "PositionSettled");
    expect(await chPosition(t.address)).to.equal(0n);
    expect((await p.futures.positionOf(2n, t.address)).open).to.equal(false);
    expect(await p.futures.accountSeries(t.address)).to.deep.equal([]);
    expect((await p.futures.seriesInfo(1n)).openPositions).to.equal(1n); // the other trader's long
    // the spread's loss (1,000 × 0.5) came out of its margin: no deficit
    expect((await p.clearingHouse.collateralOf(t.address)) >= 0n).to.equal(true);
  });
});
