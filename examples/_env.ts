/**
 * What every example starts from: a JSON-RPC provider, the deployment record and some funded keys. On a real network
 * a wallet brings its own signer (a browser wallet, `signerFromKeystoreFile`, …); here the examples use the local
 * node's well-known development accounts, and a few local-only helpers (mint mock USDC, set the mock CH index) that a
 * real network does not have.
 *
 *   CHX_RPC_URL      the node (default http://127.0.0.1:8545)
 *   CHX_DEPLOYMENT   the record file (default deployments/localhost.json)
 */
import { HDNodeWallet, JsonRpcProvider, Mnemonic, Wallet } from "ethers";
import { connectProtocol, parseUsdc, readDeploymentFile, Roles, type DeploymentRecord, type Protocol } from "@chx/sdk";

/** Hardhat's and anvil's development mnemonic: public, funded on every local node, worthless anywhere else. */
const DEV_MNEMONIC = "test test test test test test test test test test test junk";

export interface ExampleEnv {
  provider: JsonRpcProvider;
  record: DeploymentRecord;
  /** Development account `i` (0 deployed the protocol and keeps ADMIN on local networks). */
  account(i: number): Wallet;
  /** Handles signed by development account `i`. */
  as(i: number): Protocol;
}

export async function exampleEnv(): Promise<ExampleEnv> {
  const url = process.env.CHX_RPC_URL ?? "http://127.0.0.1:8545";
  const file = process.env.CHX_DEPLOYMENT ?? "deployments/localhost.json";
  // cacheTimeout -1: no 250 ms call cache, so back-to-back transactions never reuse a stale nonce
  const provider = new JsonRpcProvider(url, undefined, { cacheTimeout: -1 });
  const record = await readDeploymentFile(file);
  if (record === undefined)
    throw new Error(`${file} does not exist: deploy first (npm run deploy -- --network localhost)`);
  const mnemonic = Mnemonic.fromPhrase(DEV_MNEMONIC);
  const wallets = new Map<number, Wallet>();
  const account = (i: number): Wallet => {
    let w = wallets.get(i);
    if (w === undefined) {
      const hd = HDNodeWallet.fromMnemonic(mnemonic, `m/44'/60'/0'/0/${i}`);
      w = new Wallet(hd.privateKey, provider);
      wallets.set(i, w);
    }
    return w;
  };
  return { provider, record, account, as: (i) => connectProtocol(record, account(i)) };
}

// ───────────────────────────── local-only helpers (mock tokens and feed, the deployer's ADMIN)

/** Mints mock USDC to `to` (local networks: USDC is a MockERC20). */
export async function faucetUsdc(env: ExampleEnv, to: string, amount: string): Promise<void> {
  await (await env.as(0).usdc.mint(to, parseUsdc(amount))).wait();
}

/** Mints CH to `to` (local networks: the deployer grants itself CH_MINTER; providers mint CH on real networks). */
export async function faucetCh(env: ExampleEnv, to: string, amountWad: bigint): Promise<void> {
  const admin = env.as(0);
  const me = env.account(0).address;
  const [has] = await admin.accessManager.hasRole(Roles.CH_MINTER, me);
  if (!has) await (await admin.accessManager.grantRole(Roles.CH_MINTER, me, 0)).wait();
  await (await admin.ch.mint(to, amountWad)).wait();
}

/** Sets the mock CH/USD index (local networks). */
export async function setIndexPrice(env: ExampleEnv, priceWad: bigint): Promise<void> {
  const feed = env.as(0).chIndexFeed;
  if (feed === undefined) throw new Error("no mock CH index feed on this network");
  const decimals = await feed.decimals();
  await (await feed.setAnswer(priceWad / 10n ** (18n - decimals))).wait();
}

/** Moves the local chain's clock (evm_increaseTime + a block). */
export async function timeTravel(env: ExampleEnv, seconds: number): Promise<void> {
  await env.provider.send("evm_increaseTime", [seconds]);
  await env.provider.send("evm_mine", []);
}

/** A guarantor (development account `g`) that admits `trader` with a limit, capital and its DPS bond. */
export async function guarantorFor(env: ExampleEnv, g: number, trader: string): Promise<void> {
  const p = env.as(g);
  const gAddr = env.account(g).address;
  const info = await p.guarantorPool.guarantorInfo(gAddr);
  if (!info.registered) {
    const [minDps] = await p.guarantorPool.params();
    await (await env.as(0).dps.transfer(gAddr, minDps)).wait();
    await (await p.guarantorPool.registerGuarantor(true, parseUsdc("100000"))).wait();
    await (await p.dps.approve(await p.guarantorPool.getAddress(), minDps)).wait();
    await (await p.guarantorPool.stakeDps(minDps)).wait();
    await faucetUsdc(env, gAddr, "1000000");
    await (await p.usdc.approve(await p.guarantorPool.getAddress(), parseUsdc("1000000"))).wait();
    await (await p.guarantorPool.depositCapital(gAddr, parseUsdc("1000000"))).wait();
  }
  if ((await p.guarantorPool.guarantorOf(trader)) === "0x0000000000000000000000000000000000000000") {
    await (await p.guarantorPool.admitCustomer(trader, parseUsdc("100000"))).wait();
  }
}

/** Runs an example's main, printing one line; exit code 1 on failure. */
export function run(name: string, main: () => Promise<void>): void {
  main().then(
    () => console.log(`✔ example ${name}`),
    (e: unknown) => {
      console.error(`✖ example ${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      process.exitCode = 1;
    },
  );
}

export function check(cond: boolean, what: string): void {
  if (!cond) throw new Error(`check failed: ${what}`);
}
