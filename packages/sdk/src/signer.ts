/**
 * Signers from secrets kept encrypted: an Ethereum JSON keystore (scrypt, the format geth, MetaMask exports and
 * `ethers.Wallet.encrypt` write), or — for throw-away local keys only — a raw hex key.
 */
import { Wallet, type Provider } from "ethers";

export class SignerError extends Error {}

/** Decrypts a JSON keystore (text) with `password`. */
export async function signerFromKeystore(json: string, password: string, provider?: Provider): Promise<Wallet> {
  let w;
  try {
    w = await Wallet.fromEncryptedJson(json, password);
  } catch {
    throw new SignerError("Could not decrypt the keystore (wrong password, or not a JSON keystore).");
  }
  return new Wallet(w.privateKey, provider ?? null);
}

/** Reads and decrypts a JSON keystore file (Node only). */
export async function signerFromKeystoreFile(file: string, password: string, provider?: Provider): Promise<Wallet> {
  const { readFile } = await import("node:fs/promises");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new SignerError(`Keystore file ${file} cannot be read.`);
  }
  return signerFromKeystore(text, password, provider);
}

/** Encrypts a key into a JSON keystore (to create one: `encryptKeystore(Wallet.createRandom().privateKey, pw)`). */
export async function encryptKeystore(privateKey: string, password: string): Promise<string> {
  return new Wallet(privateKey).encrypt(password);
}

export interface SignerSource {
  /** A JSON keystore file … */
  keystore?: string;
  /** … and its password. */
  password?: string;
  /** A raw 32-byte hex key (local development only). */
  privateKey?: string;
}

/** A signer from a keystore (preferred) or a raw key; a SignerError says what is missing. */
export async function loadSigner(src: SignerSource, provider?: Provider): Promise<Wallet> {
  if (src.keystore !== undefined && src.keystore !== "") {
    if (src.password === undefined) throw new SignerError(`The keystore ${src.keystore} needs its password.`);
    return signerFromKeystoreFile(src.keystore, src.password, provider);
  }
  if (src.privateKey !== undefined && src.privateKey !== "") {
    try {
      return new Wallet(src.privateKey, provider ?? null);
    } catch {
      throw new SignerError("The key is not a valid 32-byte hex private key.");
    }
  }
  throw new SignerError("No signer: give a JSON keystore file and its password (or, locally, a private key).");
}
