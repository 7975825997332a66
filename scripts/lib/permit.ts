/** EIP-2612 permit signing for CHX's ERC-20s (DPS, CH): one place for the typed-data shape. */
import { Signature, type Signer } from "ethers";

export interface PermitToken {
  getAddress(): Promise<string>;
  name(): Promise<string>;
  nonces(owner: string): Promise<bigint>;
}

export const PERMIT_TYPES = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
};

/** Signs a permit for `token` at the owner's current nonce; returns the split signature. */
export async function signPermit(
  owner: Signer,
  token: PermitToken,
  chainId: bigint,
  spender: string,
  value: bigint,
  deadline: bigint,
): Promise<Signature> {
  const ownerAddress = await owner.getAddress();
  const domain = { name: await token.name(), version: "1", chainId, verifyingContract: await token.getAddress() };
  const message = { owner: ownerAddress, spender, value, nonce: await token.nonces(ownerAddress), deadline };
  return Signature.from(await owner.signTypedData(domain, PERMIT_TYPES, message));
}
