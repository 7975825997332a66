/** Pure parts of the keeper: configuration, the gas policy, fee bumps, error classification and decoding, keys. */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { Wallet, encryptKeystoreJson, parseUnits } from "ethers";
import { MockKeeperTarget__factory } from "../../types/ethers-contracts/index.js";
import { isRetryable } from "../src/chain/client.js";
import { ErrorDecoder } from "../src/chain/errors.js";
import { bumpFees, decideSpend, gwei, type FeeQuote } from "../src/chain/gas.js";
import { ConfigError, loadConfig } from "../src/config.js";
import { mapLimit } from "../src/util.js";
import { AccountSet } from "../src/jobs/liquidations.js";
import { loadWallet } from "../src/signer.js";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

function quote(baseGwei: number, tipGwei: number): FeeQuote {
  const baseFeeWei = gwei(baseGwei);
  const priorityFeeWei = gwei(tipGwei);
  return {
    baseFeeWei,
    priorityFeeWei,
    maxFeeWei: 2n * baseFeeWei + priorityFeeWei,
    effectiveWei: baseFeeWei + priorityFeeWei,
    legacy: false,
  };
}

describe("keeper units", function () {
  describe("config", function () {
    it("layers defaults ← file ← env ← flags; --jobs is an allow-list, the jobs section only overrides", function () {
      const dir = mkdtempSync(path.join(os.tmpdir(), "chx-keeper-cfg-"));
      const file = path.join(dir, "k.json");
      writeFileSync(
        file,
        JSON.stringify({
          rpcUrls: ["http://a:1"],
          pollIntervalMs: 5000,
          jobs: { checker: { gasCeilingGwei: 7, targets: [] } },
        }),
      );
      const cfg = loadConfig(
        { network: "sepolia", config: file, dryRun: true, jobs: ["mock-target"] },
        { CHX_KEEPER_RPC_URLS: "http://b:2, http://c:3", CHX_KEEPER_POLL_MS: "999" },
      );
      expect(cfg.rpcUrls).to.deep.equal(["http://b:2", "http://c:3"]);
      expect(cfg.pollIntervalMs).to.equal(999);
      expect(cfg.confirmations).to.equal(2); // remote default
      expect(cfg.dryRun).to.equal(true);
      expect(cfg.only).to.deep.equal(["mock-target"]);
      expect(cfg.jobs.checker?.enabled).to.equal(true); // a section is an override, never a selection
      expect(cfg.jobs.checker?.gasCeilingGwei).to.equal(7);
    });

    it("rejects unknown keys, bad numbers, missing endpoints and small fee bumps with one sentence", function () {
      const dir = mkdtempSync(path.join(os.tmpdir(), "chx-keeper-cfg-"));
      const bad = (o: unknown) => {
        const f = path.join(dir, `${Math.random()}.json`);
        writeFileSync(f, JSON.stringify(o));
        return () => loadConfig({ network: "localhost", config: f }, {});
      };
      expect(bad({ rpcUrl: "x" })).to.throw(ConfigError, 'Unknown config key "rpcUrl"');
      expect(bad({ confirmations: -1 })).to.throw(ConfigError, 'Config "confirmations" must be a number ≥ 0, got -1.');
      expect(bad({ replaceBumpPercent: 5 })).to.throw(ConfigError, "replaceBumpPercent must be at least 10");
      expect(bad({ rpcUrls: ["ws://x"] })).to.throw(
        ConfigError,
        'RPC URL "ws://x" must start with http:// or https://.',
      );
      expect(() => loadConfig({ network: "mainnet" }, {})).to.throw(ConfigError, /^No RPC URL for network "mainnet"/);
    });
  });

  describe("gas policy", function () {
    const ceiling = gwei(20);
    it("sends profitable work under the ceiling", function () {
      expect(
        decideSpend(quote(1, 1), 60_000n, {
          priority: false,
          ceilingWei: ceiling,
          minProfitFactor: 1,
          rewardWei: 10n ** 15n,
        }),
      ).to.deep.equal({ send: true });
    });
    it("skips non-priority work above the ceiling, and work whose bounty is below cost × factor", function () {
      expect(
        decideSpend(quote(10, 10), 60_000n, { priority: false, ceilingWei: ceiling, minProfitFactor: 1 }).send,
      ).to.equal(false);
      // cost = 60,000 × 2 gwei = 1.2e14 wei; bounty 1e14 < 1.2e14
      const d = decideSpend(quote(1, 1), 60_000n, {
        priority: false,
        ceilingWei: ceiling,
        minProfitFactor: 1,
        rewardWei: 10n ** 14n,
      });
      expect(d).to.deep.equal({
        send: false,
        reason: "expected cost 120000000000000 wei exceeds the bounty 100000000000000 wei",
      });
      // factor 0.5 makes the same work acceptable
      expect(
        decideSpend(quote(1, 1), 60_000n, {
          priority: false,
          ceilingWei: ceiling,
          minProfitFactor: 0.5,
          rewardWei: 10n ** 14n,
        }).send,
      ).to.equal(true);
    });
    it("never skips priority work, even above the ceiling and at a loss", function () {
      const d = decideSpend(quote(100, 50), 500_000n, {
        priority: true,
        ceilingWei: ceiling,
        minProfitFactor: 1,
        rewardWei: 0n,
      });
      expect(d.send).to.equal(true);
      expect(d.reason).to.match(/priority work goes ahead/);
    });
    it("bumps replacement fees by at least the percentage and never below the current quote", function () {
      const last = { maxFeeWei: gwei(3), priorityFeeWei: gwei(1) };
      const b = bumpFees(last, quote(1, 1), 25);
      expect(b.maxFeeWei).to.equal(parseUnits("3.75", "gwei") + 1n);
      expect(b.priorityFeeWei).to.equal(parseUnits("1.25", "gwei") + 1n);
      const spiked = bumpFees(last, quote(10, 5), 25);
      expect(spiked.maxFeeWei).to.equal(gwei(25));
      expect(spiked.priorityFeeWei).to.equal(gwei(5));
    });
  });

  describe("errors", function () {
    it("classifies transport errors as retryable and answers (reverts, nonces) as final", function () {
      expect(isRetryable(Object.assign(new Error("bad response"), { code: "SERVER_ERROR" }))).to.equal(true);
      expect(isRetryable(new Error("socket hang up"))).to.equal(true);
      expect(isRetryable(Object.assign(new Error("x"), { code: "CALL_EXCEPTION" }))).to.equal(false);
      expect(isRetryable({ message: "boom", data: "0x12345678" })).to.equal(false);
      expect(isRetryable(new Error("Nonce too low. Expected nonce to be 1 but got 0."))).to.equal(false);
      expect(isRetryable(new Error("replacement transaction underpriced"))).to.equal(false);
    });
    it("decodes custom errors, Error(string) and Panic with the SDK's merged error ABI", function () {
      const dec = new ErrorDecoder();
      const iface = MockKeeperTarget__factory.createInterface();
      expect(dec.decodeData(iface.encodeErrorResult("KeeperTargetAlreadyDone", [7n]))).to.deep.include({
        name: "KeeperTargetAlreadyDone",
        text: "KeeperTargetAlreadyDone(id=7)",
      });
      expect(
        dec.decode({ info: { error: { data: iface.encodeErrorResult("KeeperTargetNotDue", [1n, 2n, 3n]) } } }).text,
      ).to.equal("KeeperTargetNotDue(id=1, dueAt=2, nowTs=3)");
      expect(
        dec.decodeData("0x08c379a0" + "0".repeat(62) + "20" + "0".repeat(63) + "2" + "6869" + "0".repeat(60)).text,
      ).to.equal('Error("hi")');
      expect(dec.decodeData("0x4e487b71" + "0".repeat(62) + "11").text).to.equal(
        "Panic(0x11: arithmetic overflow or underflow)",
      );
      expect(dec.decodeData("0xdeadbeef").text).to.equal("unknown custom error 0xdeadbeef");
      expect(dec.decode(new Error("plain failure\nwith detail")).text).to.equal("plain failure");
    });
  });

  describe("signer", function () {
    it("loads a hex key or an encrypted keystore, and says what is wrong otherwise", async function () {
      const w = Wallet.createRandom();
      const base = loadConfig({ network: "localhost" }, {});
      expect((await loadWallet({ ...base, privateKey: w.privateKey }, {})).address).to.equal(w.address);
      const dir = mkdtempSync(path.join(os.tmpdir(), "chx-keeper-ks-"));
      const ks = path.join(dir, "ks.json");
      writeFileSync(
        ks,
        await encryptKeystoreJson({ address: w.address, privateKey: w.privateKey }, "pw", { scrypt: { N: 1 << 10 } }),
      );
      expect((await loadWallet({ ...base, keystore: ks }, { CHX_KEEPER_KEYSTORE_PASSWORD: "pw" })).address).to.equal(
        w.address,
      );
      let msg = "";
      await loadWallet({ ...base, keystore: ks }, { CHX_KEEPER_KEYSTORE_PASSWORD: "nope" }).catch(
        (e: Error) => (msg = e.message),
      );
      expect(msg).to.equal(`Could not decrypt keystore ${ks} (wrong password or not a keystore).`);
      await loadWallet({ ...base, privateKey: "0x12" }, {}).catch((e: Error) => (msg = e.message));
      expect(msg).to.match(/is not a valid 32-byte hex private key/);
    });
  });

  describe("account set journal (reorgs)", function () {
    const A = "0x00000000000000000000000000000000000000aa";
    const B = "0x00000000000000000000000000000000000000bb";
    const M = "0x00000000000000000000000000000000000000cc";
    const snapshot = (s: AccountSet) =>
      JSON.stringify([...s.accounts].map(([a, t]) => [a, t.lastBlock, [...t.sizes].map(([m, v]) => [m, String(v)])]));

    it("rewind undoes exactly the later blocks: an account opened there is gone, one closed there is back", function () {
      const s = new AccountSet(64);
      s.apply(A, M, 10n, 5);
      s.commit(5, "0x05");
      s.apply(A, M, 20n, 7);
      s.commit(8, "0x08");
      const at8 = snapshot(s);
      // the blocks a reorg will replace: A closed (its last event), B opened
      s.apply(A, M, 0n, 9);
      s.apply(B, M, -5n, 9);
      s.apply(B, M, undefined, 10);
      s.commit(10, "0x10");
      expect(s.open().map((o) => o.account)).to.deep.equal([B]);
      expect(s.cursors().map((c) => c.block)).to.deep.equal([10, 8, 5]);
      const touched = s.rewind(8);
      expect([...touched].sort()).to.deep.equal([A, B]);
      expect(snapshot(s)).to.equal(at8);
      expect(s.scannedTo).to.equal(8);
      expect(s.open()).to.deep.equal([{ account: A, lastBlock: 7 }]);
      expect(s.cursors().map((c) => c.block)).to.deep.equal([8, 5]);
      expect(s.rewinds).to.equal(1);
    });

    it("the journal keeps `depth` blocks: a rewind further back throws (the job rebuilds), one within it works", function () {
      const s = new AccountSet(4);
      for (let b = 1; b <= 20; b++) {
        s.apply(A, M, BigInt(b), b);
        s.commit(b, `0x${b}`);
      }
      // the floor is 20 - 4 = 16: the page ends from 16 on are points to return to
      expect(s.cursors().map((c) => c.block)).to.deep.equal([20, 19, 18, 17, 16]);
      expect(() => s.rewind(15)).to.throw(/does not reach block 15/);
      s.rewind(16);
      expect(s.accounts.get(A)!.sizes.get(M)).to.equal(16n);
      expect(s.accounts.get(A)!.lastBlock).to.equal(16);
    });

    it("a restored checkpoint is a point to return to, but nothing before it is journaled", function () {
      const s = new AccountSet(64);
      s.accounts.set(A, { sizes: new Map([[M, 3n]]), lastBlock: 40 });
      s.restoredAt(50, "0x50");
      s.apply(B, M, 1n, 51);
      s.commit(52, "0x52");
      expect(() => s.rewind(49)).to.throw(/does not reach/);
      s.rewind(50);
      expect([...s.accounts.keys()]).to.deep.equal([A]);
      s.reset();
      expect(s.rebuilds).to.equal(1);
      expect(s.cursors()).to.deep.equal([]);
    });
  });

  it("mapLimit keeps input order and bounds concurrency", async function () {
    let live = 0;
    let peak = 0;
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (x) => {
      live++;
      peak = Math.max(peak, live);
      await new Promise((r) => setTimeout(r, x * 3));
      live--;
      return x * 10;
    });
    expect(out).to.deep.equal([50, 10, 40, 20, 30]);
    expect(peak).to.equal(2);
  });
});
