/**
 * The keeper's signer through the SDK's loaders (`@chx/sdk` signer.ts): an encrypted JSON keystore (CHX_KEEPER_KEYSTORE,
 * password from CHX_KEEPER_KEYSTORE_PASSWORD — the recommended form) or a raw hex key (CHX_KEEPER_KEY, local use).
 * A dry run needs no key: it simulates from `dryRunFrom` (default the zero address) and signs nothing.
 */
import { existsSync } from "node:fs";
import { type Wallet } from "ethers";
import { loadSigner, SignerError } from "@chx/sdk";
import { ConfigError, type KeeperConfig } from "./config.js";
import type { KeeperSigner } from "./chain/sender.js";

export async function loadWallet(cfg: KeeperConfig, env: NodeJS.ProcessEnv = process.env): Promise<Wallet> {
  if (cfg.privateKey !== undefined && cfg.privateKey.length > 0) {
    try {
      return await loadSigner({ privateKey: cfg.privateKey });
    } catch {
      throw new ConfigError("The keeper key (CHX_KEEPER_KEY or privateKey) is not a valid 32-byte hex private key.");
    }
  }
  if (cfg.keystore !== undefined && cfg.keystore.length > 0) {
    if (!existsSync(cfg.keystore)) throw new ConfigError(`Keystore file ${cfg.keystore} does not exist.`);
    const password = env.CHX_KEEPER_KEYSTORE_PASSWORD;
    if (password === undefined) {
      throw new ConfigError("The keystore needs its password in CHX_KEEPER_KEYSTORE_PASSWORD.");
    }
    try {
      return await loadSigner({ keystore: cfg.keystore, password });
    } catch (e) {
      if (e instanceof SignerError) {
        throw new ConfigError(`Could not decrypt keystore ${cfg.keystore} (wrong password or not a keystore).`);
      }
      throw e;
    }
  }
  throw new ConfigError("No keeper key: set CHX_KEEPER_KEY, or CHX_KEEPER_KEYSTORE with CHX_KEEPER_KEYSTORE_PASSWORD.");
}

/** A signer that signs nothing (a keyless dry run): simulations run from `address`. */
export function dryRunSigner(address = "0x0000000000000000000000000000000000000000"): KeeperSigner {
  return {
    address,
    signTransaction: () => Promise.reject(new Error("a dry run has no key and sends nothing")),
  };
}

/** The signer a config runs with: its key, or (dry run without one) a keyless signer. */
export async function signerFor(cfg: KeeperConfig, env: NodeJS.ProcessEnv = process.env): Promise<KeeperSigner> {
  const hasKey = (cfg.privateKey ?? "") !== "" || (cfg.keystore ?? "") !== "";
  if (cfg.dryRun && !hasKey) return dryRunSigner(cfg.dryRunFrom);
  return loadWallet(cfg, env);
}
