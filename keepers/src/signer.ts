/** The keeper's signer: a hex key (CHX_KEEPER_KEY) or an encrypted JSON keystore (password from the environment). */
import { readFileSync, existsSync } from "node:fs";
import { Wallet } from "ethers";
import { ConfigError, type KeeperConfig } from "./config.js";

export async function loadWallet(cfg: KeeperConfig, env: NodeJS.ProcessEnv = process.env): Promise<Wallet> {
  if (cfg.privateKey !== undefined && cfg.privateKey.length > 0) {
    try {
      return new Wallet(cfg.privateKey);
    } catch {
      throw new ConfigError("The keeper key (CHX_KEEPER_KEY or privateKey) is not a valid 32-byte hex private key.");
    }
  }
  if (cfg.keystore !== undefined) {
    if (!existsSync(cfg.keystore)) throw new ConfigError(`Keystore file ${cfg.keystore} does not exist.`);
    const password = env.CHX_KEEPER_KEYSTORE_PASSWORD;
    if (password === undefined) {
      throw new ConfigError("The keystore needs its password in CHX_KEEPER_KEYSTORE_PASSWORD.");
    }
    try {
      const w = await Wallet.fromEncryptedJson(readFileSync(cfg.keystore, "utf8"), password);
      return new Wallet(w.privateKey);
    } catch {
      throw new ConfigError(`Could not decrypt keystore ${cfg.keystore} (wrong password or not a keystore).`);
    }
  }
  throw new ConfigError("No keeper key: set CHX_KEEPER_KEY, or CHX_KEEPER_KEYSTORE with CHX_KEEPER_KEYSTORE_PASSWORD.");
}
