/**
 * Sequence attack (docs/testing.md, "Sequence attacks"): an option on a futures series whose holder exercises only
 * after that futures series has expired and settled. The option's price was fixed before the futures expired (listing
 * requires the futures to expire at least a dispute window after the option), but nothing forces the holder to exercise
 * before the futures settle. Opening the futures at the strike on a settled series would leave a position that no
 * settlement ever closes (stuck margin, ACC-02 broken); refusing the exercise would strand the holder's payoff (MKT-07).
 * What must happen: the futures leg is refused, the holder is paid the option's intrinsic value in cash from the
 * writer's collateral (the documented cash fallback, docs/options.md), the writer gets the rest back, no position
 * appears on the settled series or in the ClearingHouse, and a second exercise pays nothing.
 */
import { expect } from "chai";
import type { NetworkConnection } from "hardhat/types/network";
import { connectionFor } from "../../helpers/fixture.js";
import { loadFutures, jumpTo, jumpToExpiry, trade, usdc, wad, type FuturesFixture } from "./helpers.js";
import { domainOf, signOffer, type OptionsOffer } from "@chx/sdk";

const MONTHLY = 2;
const HOUR = 3_600n;
const PUT = 1;

describe("OptionsMarket: a futures option exercised after its futures series settled", function () {
  let fx: FuturesFixture;
  let connection: NetworkConnection;

  beforeEach(async function () {
    connection = await connectionFor("futures");
    fx = await loadFutures(connection);
  });

  it("test_exerciseAfterFuturesSettled_paysIntrinsicInCash_opensNothing", async function () {
    const p = fx.protocol;
    const [alice, bob, carol] = fx.traders;
    const keeper = fx.users[9]!;
    const futuresAddr = await p.futures.getAddress();
    const m1 = await p.futures.nextStandardExpiry(MONTHLY);
    const month = await p.futures.connect(bob!).listStandardSeriesAt.staticCall(MONTHLY, m1);
    await (await p.futures.connect(bob!).listStandardSeriesAt(MONTHLY, m1)).wait();
    await (await trade(fx, alice!, month, wad("100"), 0)).wait();
    await (await trade(fx, bob!, month, -wad("100"), 0)).wait();
    // Bob buys 100 puts struck at 10 on the month from Carol; the option expires 16 hours before the futures
    const optionExpiry = m1 - 16n * HOUR;
    const put = await p.options.connect(bob!).listStandardFuturesSeries.staticCall(PUT, wad("10"), optionExpiry, month);
    await (await p.options.connect(bob!).listStandardFuturesSeries(PUT, wad("10"), optionExpiry, month)).wait();
    const domain = await domainOf(connection.ethers.provider, "OptionsMarket", await p.options.getAddress());
    const offer: OptionsOffer = {
      maker: carol!.address,
      seriesId: put,
      isBuy: false,
      sizeCh: wad("100"),
      premiumWad: wad("0.5"),
      nonce: 1n,
      expiry: 2n ** 40n,
      taker: "0x0000000000000000000000000000000000000000",
    };
    await (await p.options.connect(bob!).fillOffer(offer, await signOffer(carol!, domain, offer), wad("100"))).wait();

    // the option's price is fixed at 8 and final; Bob does not exercise yet
    await jumpTo(connection, fx, optionExpiry, wad("8"));
    await (await p.options.fixSettlementPrice(put)).wait();
    // the futures expire and settle at 8 in between; both traders' positions are settled and gone
    await jumpToExpiry(connection, fx, m1, wad("8"));
    await (await p.futures.connect(keeper).fixSettlementPrice(month)).wait();
    await jumpTo(connection, fx, m1 + 2n * HOUR, wad("8"));
    await (await p.futures.connect(keeper).finalizeSettlement(month)).wait();
    for (const t of [alice!, bob!]) await (await p.futures.connect(keeper).settlePosition(month, t.address)).wait();
    expect((await p.futures.seriesExpiry(month)).trading).to.equal(false);
    expect((await p.clearingHouse.positionOf(bob!.address, futuresAddr)).sizeCh).to.equal(0n);

    // now Bob exercises: the futures leg is refused, the intrinsic (10 − 8) × 100 is paid in cash
    const collateral = async () =>
      Promise.all([
        p.clearingHouse.collateralOf(bob!.address),
        p.clearingHouse.collateralOf(carol!.address),
        p.clearingHouse.collateralOf(keeper.address),
      ]);
    const [bob0, carol0, keeper0] = await collateral();
    const tx = p.options.connect(keeper).exercise(put, bob!.address);
    await expect(tx).to.emit(p.options, "FuturesExercised");
    const rc = await (await tx).wait();
    const ev = rc!.logs
      .map((l) => {
        try {
          return p.options.interface.parseLog(l);
        } catch {
          return null;
        }
      })
      .find((e) => e?.name === "FuturesExercised");
    expect(ev!.args.holder).to.equal(bob!.address);
    expect(ev!.args.writer).to.equal(carol!.address);
    expect(ev!.args.sizeCh).to.equal(wad("100"));
    expect(ev!.args.openedFutures).to.equal(false);
    expect(ev!.args.payoutUsdc).to.equal(usdc("200"));
    const [bob1, carol1, keeper1] = await collateral();
    expect(bob1 - bob0).to.equal(usdc("200"), "the holder is paid the intrinsic value, nothing more");
    // the writer's collateral for the size comes back less the payout; the caller's bounty comes out of that release
    const released = ev!.args.releasedUsdc as bigint;
    const bounty = keeper1 - keeper0;
    expect(bounty <= (await p.options.params()).bountyUsdc).to.equal(true, "the bounty stays within its cap");
    expect(carol1 - carol0).to.equal(released - bounty);
    expect(released + usdc("200")).to.equal((wad("100") * wad("10")) / 10n ** 30n, "the put's full collateral, split");

    // no position was opened on the settled series, in the market or in the ClearingHouse
    for (const who of [bob!, carol!]) {
      expect((await p.futures.positionOf(month, who.address)).sizeCh).to.equal(0n);
      expect((await p.clearingHouse.positionOf(who.address, futuresAddr)).sizeCh).to.equal(0n);
    }
    // the option's long is spent: a second exercise pays nothing more
    await p.options
      .connect(keeper)
      .exercise(put, bob!.address)
      .then(
        (t) => t.wait(),
        () => undefined,
      );
    expect(await collateral()).to.deep.equal([bob1, carol1, keeper1]);
  });
});
