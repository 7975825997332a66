/** Shared setup for the compute tests: deployed protocol plus helpers to register, stake and attest providers. */
import { parseUnits, type Signer } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { Fixture } from "../../helpers/fixture.js";
import { domainOf, signAttestation, type AttestationMessage } from "@chx/sdk";

export const WAD = 10n ** 18n;
export const wad = (x: string): bigint => parseUnits(x, 18);

/** Class 1 (ML training) genesis reference: 0.312 PFLOPS, weights [0.5, 0.3, 0.2]. */
export const ML = 1;

export async function now(fx: Fixture): Promise<bigint> {
  return BigInt((await fx.connection.ethers.provider.getBlock("latest"))!.timestamp);
}

export async function chainId(fx: Fixture): Promise<bigint> {
  return (await fx.connection.ethers.provider.getNetwork()).chainId;
}

export async function attestationFor(
  fx: Fixture,
  provider: string,
  over: Partial<AttestationMessage> = {},
): Promise<AttestationMessage> {
  const reg = fx.protocol.providerRegistry;
  return {
    provider,
    workloadClass: ML,
    standardVersion: Number(await fx.protocol.computeStandard.latestVersion(over.workloadClass ?? ML)),
    avgPflopsWad: wad("0.5"),
    factorsWad: [wad("1.2"), wad("0.9"), wad("1")],
    capacityPflopsWad: wad("0.5"),
    powerWattsWad: wad("700"),
    nonce: await reg.attestationNonce(provider),
    deadline: (await now(fx)) + 3600n,
    ...over,
  };
}

export async function sign(fx: Fixture, m: AttestationMessage, signer: Signer = fx.deployer): Promise<string> {
  return signAttestation(
    signer,
    await domainOf(signer, "ProviderRegistry", await fx.protocol.providerRegistry.getAddress()),
    m,
  );
}

/** Registers `p` in region 1 for classes 1–2, stakes `stakeDps` and posts a deployer-signed attestation. */
export async function onboard(
  fx: Fixture,
  p: HardhatEthersSigner,
  stakeDps = wad("10000"),
  over: Partial<AttestationMessage> = {},
): Promise<void> {
  const { providerRegistry: reg, dps } = fx.protocol;
  await reg.connect(p).register(1, 0b110n, "0x" + "11".repeat(32), "ipfs://hw");
  if (stakeDps > 0n) {
    await dps.transfer(p.address, stakeDps);
    await dps.connect(p).approve(await reg.getAddress(), stakeDps);
    await reg.connect(p).stake(stakeDps);
  }
  const m = await attestationFor(fx, p.address, over);
  await reg.attest(m, await sign(fx, m));
}

/** An ethers struct Result as a plain object (TypeChain's output types do not declare `toObject`). */
export function plain<T>(r: T): T {
  return (r as unknown as { toObject: () => T }).toObject();
}
