/**
 * Pieces checked alone: the fast EIP-712 hasher against ethers' TypedDataEncoder, the deployless BatchReader, the
 * migrations (re-run on an existing database) and the fixed-width number text ordering in both SQL engines.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { AbiCoder, Interface, TypedDataEncoder, Wallet, ZeroAddress } from "ethers";
import { batchRead, BatchReaderBytecode, OfferTypes, OrderTypes, SpotMarketAbi } from "@chx/sdk";
import { offerHasher, spotHasher, pad } from "../src/codec.js";
import { openDatabase } from "../src/db.js";
import { recoverEoa } from "../src/chain.js";
import { BACKENDS, dbUrl, deployed, node } from "./harness.js";

const rnd = (bits: number) => {
  let x = 0n;
  for (let i = 0; i < bits; i += 16) x = (x << 16n) | BigInt(Math.floor(Math.random() * 65536));
  return x & ((1n << BigInt(bits)) - 1n);
};
const mutable = (t: object) => JSON.parse(JSON.stringify(t));

describe("units", function () {
  it("the fast EIP-712 hasher equals TypedDataEncoder (200 random orders and offers, two domains)", function () {
    for (const chainId of [31337n, 1n]) {
      const domain = { name: "CHX Spot", version: "1", chainId, verifyingContract: Wallet.createRandom().address };
      const od = { ...domain, name: "CHX Options" };
      const sh = spotHasher(domain);
      const oh = offerHasher(od);
      for (let i = 0; i < 100; i++) {
        const o = {
          maker: Wallet.createRandom().address,
          isBuy: i % 2 === 0,
          amountCh: rnd(128),
          priceWad: rnd(i % 3 === 0 ? 256 : 90),
          nonce: rnd(256),
          expiry: rnd(64),
          taker: i % 5 === 0 ? Wallet.createRandom().address : ZeroAddress,
        };
        expect(sh.digest(o)).to.equal(TypedDataEncoder.hash(domain, mutable(OrderTypes), o));
        const f = { ...o, seriesId: rnd(64), sizeCh: o.amountCh, premiumWad: o.priceWad };
        expect(oh.digest(f)).to.equal(TypedDataEncoder.hash(od, mutable(OfferTypes), f));
      }
    }
  });

  it("recoverEoa follows OpenZeppelin: 65 bytes, v 27/28, low s", async function () {
    const w = Wallet.createRandom();
    const digest = "0x" + "ab".repeat(32);
    const sig = w.signingKey.sign(digest);
    expect(recoverEoa(digest, sig.serialized)).to.equal(w.address);
    expect(recoverEoa(digest, sig.serialized.slice(0, -2) + "00")).to.equal(null); // v = 0
    expect(recoverEoa(digest, sig.compactSerialized)).to.equal(null); // 64-byte ERC-2098
    expect(recoverEoa(digest, "0x" + "00".repeat(65))).to.equal(null);
  });

  it("BatchReader: results in order, a revert is ok=false with its data, no code is ok with empty data", async function () {
    const { protocol } = await deployed();
    const spot = await protocol.spot.getAddress();
    const iface = new Interface(SpotMarketAbi);
    const res = await batchRead(node().provider, [
      { target: spot, data: iface.encodeFunctionData("minNonce", [ZeroAddress]) },
      { target: spot, data: iface.encodeFunctionData("raiseMinNonce", [5n]) }, // a write in a static call: reverts
      { target: Wallet.createRandom().address, data: "0x12345678" },
      { target: spot, data: iface.encodeFunctionData("domainSeparator") },
    ]);
    expect(res.map((r) => r.ok)).to.deep.equal([true, false, true, true]);
    expect(BigInt(res[0]!.data)).to.equal(0n);
    expect(res[2]!.data).to.equal("0x");
    expect(res[3]!.data).to.equal(await protocol.spot.domainSeparator());
    // mismatched lengths revert with the typed error
    const args = AbiCoder.defaultAbiCoder().encode(["address[]", "bytes[]", "uint256"], [[spot], [], 100_000n]);
    await node()
      .provider.call({ data: BatchReaderBytecode + args.slice(2) })
      .then(
        () => expect.fail("should revert"),
        (e: Error) => expect(String(e.message + JSON.stringify(e))).to.match(/0x[0-9a-f]*/),
      );
    // many pages
    const many = Array.from({ length: 600 }, () => ({
      target: spot,
      data: iface.encodeFunctionData("minNonce", [ZeroAddress]),
    }));
    expect((await batchRead(node().provider, many)).length).to.equal(600);
  });

  for (const backend of BACKENDS) {
    it(`migrations re-run on an existing database; number text sorts numerically [${backend}]`, async function () {
      const url = await dbUrl(backend, mkdtempSync(path.join(os.tmpdir(), "chx-relay-units-")));
      let d = await openDatabase(url);
      await d.close();
      d = await openDatabase(url); // second open: nothing to migrate, no error
      try {
        const prices = [10n ** 30n, 5n, 2n * 10n ** 18n, 19n * 10n ** 17n, 0n, (1n << 256n) - 1n];
        await d.db
          .insertInto("blocks")
          .values(prices.map((p, i) => ({ number: i, hash: pad(p) })))
          .execute();
        const rows = await d.db.selectFrom("blocks").select("hash").orderBy("hash").execute();
        expect(rows.map((r) => BigInt(r.hash))).to.deep.equal([...prices].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      } finally {
        await d.close();
      }
    });
  }
});
