/**
 * The `chx:spot:*` Hardhat tasks through the relay (issue 23 item 6), each run as a user runs it (`npx hardhat …
 * --network localhost`, the test node, the test deployment): sign and post, read the book and a maker's orders,
 * fill by hash from the relay, send a cancel notice, read the order's status.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { expect } from "chai";
import { account, CH, deployed, fund, node, relay, ROOT, until } from "./harness.js";

function hardhat(args: string[]): Promise<{ code: number; out: string }> {
  const { file } = deployedFile;
  return new Promise((resolve) => {
    execFile(
      path.join(ROOT, "node_modules", ".bin", "hardhat"),
      [...args, "--network", "localhost"],
      {
        cwd: ROOT,
        env: { ...process.env, CHX_LOCAL_RPC: node().url, CHX_DEPLOYMENTS_DIR: path.dirname(file) },
        timeout: 120_000,
      },
      (err, stdout, stderr) => resolve({ code: err === null ? 0 : 1, out: `${stdout}${stderr}` }),
    );
  });
}
const deployedFile = { file: "" };

describe("tasks: chx:spot:* through the relay", function () {
  this.timeout(300_000);
  it("order → book → orders → fill --hash → cancel --notice → status --hash", async function () {
    const { file } = await deployed();
    deployedFile.file = file;
    const maker = account(5);
    const taker = account(6);
    await fund(maker, { ch: CH(100) });
    await fund(taker, { usdc: 1_000n * 10n ** 6n });
    const r = await relay("sqlite");
    try {
      const posted = await hardhat([
        "chx:spot:order",
        "--side",
        "sell",
        "--amount",
        "3",
        "--price",
        "2.5",
        "--signer",
        "5",
        "--relay",
        r.url,
      ]);
      expect(posted.out).to.match(/relay .*: accepted — open, fillable 3\.0 CH/);
      const book = await hardhat(["chx:spot:book", "--relay", r.url, "--json"]);
      expect(book.code, book.out).to.equal(0);
      const snap = JSON.parse(book.out.slice(book.out.indexOf("{"))) as {
        asks: Array<{ price: string; amount: string }>;
      };
      expect(snap.asks).to.deep.include({ price: (25n * 10n ** 17n).toString(), amount: CH(3).toString(), orders: 1 });
      const orders = await hardhat(["chx:spot:orders", "--relay", r.url, "--maker", maker.address, "--json"]);
      const list = JSON.parse(orders.out.slice(orders.out.indexOf("["))) as Array<{ hash: string }>;
      expect(list).to.have.length(1);
      const hash = list[0]!.hash;
      const filled = await hardhat([
        "chx:spot:fill",
        "--hash",
        hash,
        "--amount",
        "1",
        "--signer",
        "6",
        "--relay",
        r.url,
      ]);
      expect(filled.out, filled.out).to.match(/filled 1\.0 CH of/);
      await until(
        async () => (await r.engine.store.order(hash))?.filled === CH(1).toString().padStart(78, "0"),
        20_000,
        "the fill on the relay",
      );
      const notice = await hardhat(["chx:spot:cancel", "--hash", hash, "--notice", "--signer", "5", "--relay", r.url]);
      expect(notice.out, notice.out).to.match(/relay no longer serves/);
      const status = await hardhat(["chx:spot:status", "--hash", hash, "--relay", r.url]);
      expect(status.out, status.out).to.match(/open; filled 1\.0, fillable 2\.0; 1 fill\(s\); cancel notice sent/);
      const wrong = await hardhat([
        "chx:spot:fill",
        "--hash",
        "0x" + "00".repeat(32),
        "--signer",
        "6",
        "--relay",
        r.url,
      ]);
      expect(wrong.out).to.match(/relay refused .*NOT_FOUND/);
    } finally {
      await r.stop();
    }
  });
});
