/**
 * EIP-712 benchmark attestations for the ProviderRegistry: the typed-data shape an ATTESTER signs. Used by the
 * provider tasks, tests, bench and demo so the struct is written down once on the TypeScript side.
 */
import type { Signer, TypedDataDomain } from "ethers";

export interface AttestationMessage {
  provider: string;
  workloadClass: number;
  standardVersion: number;
  avgPflopsWad: bigint;
  factorsWad: bigint[];
  capacityPflopsWad: bigint;
  powerWattsWad: bigint;
  nonce: bigint;
  deadline: bigint;
}

export const ATTESTATION_TYPES = {
  Attestation: [
    { name: "provider", type: "address" },
    { name: "workloadClass", type: "uint16" },
    { name: "standardVersion", type: "uint16" },
    { name: "avgPflopsWad", type: "uint256" },
    { name: "factorsWad", type: "uint256[]" },
    { name: "capacityPflopsWad", type: "uint256" },
    { name: "powerWattsWad", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
};

export function registryDomain(chainId: bigint, registry: string): TypedDataDomain {
  return { name: "CHX ProviderRegistry", version: "1", chainId, verifyingContract: registry };
}

/** Signs `message` as `attester` for the registry at `registry` on `chainId`. */
export async function signAttestation(
  attester: Signer,
  chainId: bigint,
  registry: string,
  message: AttestationMessage,
): Promise<string> {
  return attester.signTypedData(registryDomain(chainId, registry), ATTESTATION_TYPES, message);
}
