/**
 * EIP-712 messages of the protocol: the struct types come from the contracts' *_TYPEHASH constants (generated), the
 * domain from the verifying contract itself (ERC-5267 `eip712Domain()`) — see `domainOf`.
 */
import {
  Contract,
  Signature,
  TypedDataEncoder,
  type ContractRunner,
  type Provider,
  type Signer,
  type TypedDataDomain,
  type TypedDataField,
} from "ethers";
import {
  AttestationTypes,
  DealTypes,
  FuturesOrderTypes,
  OfferTypes,
  OrderTypes,
  ReceiptTypes,
} from "./generated/typed-data.js";

/** Contracts that verify EIP-712 signatures, and the primary types each verifies. */
export type SigningContract =
  "SpotMarket" | "FuturesMarket" | "OptionsMarket" | "ProviderRegistry" | "StreamTasks" | "ERC20Permit";

const ERC5267_ABI = [
  "function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)",
];

const domainCache = new Map<string, TypedDataDomain>();

/**
 * The EIP-712 domain of `address`, read from the contract (ERC-5267 `eip712Domain()`; every CHX signature verifier
 * implements it through OpenZeppelin's EIP712Upgradeable). A contract without `eip712Domain()` is an error naming the
 * contract: the SDK never guesses a domain. Cached per chain and address.
 */
export async function domainOf(
  runner: ContractRunner,
  contract: SigningContract,
  address: string,
): Promise<TypedDataDomain> {
  const provider: Provider | null = runner.provider ?? null;
  if (provider === null) throw new Error("domainOf: the runner has no provider");
  const chainId = (await provider.getNetwork()).chainId;
  const key = `${chainId}:${address.toLowerCase()}`;
  const cached = domainCache.get(key);
  if (cached !== undefined) return cached;
  let r: unknown[];
  try {
    r = (await new Contract(address, ERC5267_ABI, runner).getFunction("eip712Domain").staticCall()) as unknown[];
  } catch (e) {
    throw new Error(
      `domainOf: ${contract} at ${address} has no eip712Domain() (ERC-5267): ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const fields = Number(r[0]);
  const domain: TypedDataDomain = {};
  if (fields & 0x01) domain.name = String(r[1]);
  if (fields & 0x02) domain.version = String(r[2]);
  if (fields & 0x04) domain.chainId = BigInt(r[3] as bigint);
  if (fields & 0x08) domain.verifyingContract = String(r[4]);
  if (fields & 0x10) domain.salt = String(r[5]);
  domainCache.set(key, domain);
  return domain;
}

// ───────────────────────────── message shapes

export interface SpotOrder {
  maker: string;
  isBuy: boolean;
  amountCh: bigint;
  priceWad: bigint;
  nonce: bigint;
  expiry: bigint;
  taker: string;
}

/** A signed futures order (IFuturesTypes.Order, FuturesMarket.fillOrder / matchOrders; issue 19's forward curve). */
export interface FuturesOrder {
  maker: string;
  seriesId: bigint;
  isBuy: boolean;
  sizeCh: bigint;
  priceWad: bigint;
  nonce: bigint;
  expiry: bigint;
  /** The only account that may fill it (ZeroAddress: anyone). */
  taker: string;
}

export interface SpotDeal {
  seller: string;
  buyer: string;
  amountCh: bigint;
  priceWad: bigint;
  nonce: bigint;
  expiry: bigint;
}

export interface OptionsOffer {
  maker: string;
  seriesId: bigint;
  isBuy: boolean;
  sizeCh: bigint;
  premiumWad: bigint;
  nonce: bigint;
  expiry: bigint;
  taker: string;
}

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

export interface StreamReceipt {
  streamId: bigint;
  provider: string;
  /** Answers delivered so far (cumulative). */
  answered: bigint;
  /** Owed for them so far, in the stream's currency (cumulative: answers × the subscriber's price). */
  amount: bigint;
}

export interface PermitMessage {
  owner: string;
  spender: string;
  value: bigint;
  nonce: bigint;
  deadline: bigint;
}

/** ERC-2612 `Permit` (OpenZeppelin ERC20Permit, the standard's type). */
export const PermitTypes = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

/** Every signed message: its primary type, its struct types and the contract that verifies it. */
export const typedMessages = {
  Order: { contract: "SpotMarket", types: OrderTypes },
  Deal: { contract: "SpotMarket", types: DealTypes },
  FuturesOrder: { contract: "FuturesMarket", types: FuturesOrderTypes },
  Offer: { contract: "OptionsMarket", types: OfferTypes },
  Attestation: { contract: "ProviderRegistry", types: AttestationTypes },
  Receipt: { contract: "StreamTasks", types: ReceiptTypes },
  Permit: { contract: "ERC20Permit", types: PermitTypes },
} as const;

export type PrimaryType = keyof typeof typedMessages;
type MessageOf<P extends PrimaryType> = P extends "Order"
  ? SpotOrder
  : P extends "Deal"
    ? SpotDeal
    : P extends "FuturesOrder"
      ? FuturesOrder
      : P extends "Offer"
        ? OptionsOffer
        : P extends "Attestation"
          ? AttestationMessage
          : P extends "Receipt"
            ? StreamReceipt
            : PermitMessage;

/** What a wallet shows and signs (`eth_signTypedData_v4` shape, bigints as bigints). */
export interface TypedData<M> {
  domain: TypedDataDomain;
  types: Record<string, TypedDataField[]>;
  primaryType: PrimaryType;
  message: M;
}

const mutableTypes = (t: object): Record<string, TypedDataField[]> =>
  JSON.parse(JSON.stringify(t)) as Record<string, TypedDataField[]>;

/** The typed data of `message` for `domain` (take the domain from `domainOf`). */
export function typedData<P extends PrimaryType>(
  primaryType: P,
  domain: TypedDataDomain,
  message: MessageOf<P>,
): TypedData<MessageOf<P>> {
  return { domain, types: mutableTypes(typedMessages[primaryType].types), primaryType, message };
}

/** The EIP-712 digest the contract recovers the signer from. */
export const hashTypedData = <M>(td: TypedData<M>): string =>
  TypedDataEncoder.hash(td.domain, td.types, td.message as Record<string, unknown>);

/** Signs typed data with an ethers signer (a wallet: `eth_signTypedData_v4`). */
export const signTypedData = <M>(signer: Signer, td: TypedData<M>): Promise<string> =>
  signer.signTypedData(td.domain, td.types, td.message as Record<string, unknown>);

/** Builds the typed data with the domain read from `verifyingContract` and signs it. */
export async function signMessage<P extends PrimaryType>(
  signer: Signer,
  primaryType: P,
  verifyingContract: string,
  message: MessageOf<P>,
): Promise<string> {
  const domain = await domainOf(signer, typedMessages[primaryType].contract, verifyingContract);
  return signTypedData(signer, typedData(primaryType, domain, message));
}

// ───────────────────────────── one helper per message, with an explicit domain

export const signOrder = (signer: Signer, domain: TypedDataDomain, order: SpotOrder): Promise<string> =>
  signTypedData(signer, typedData("Order", domain, order));
export const signDeal = (signer: Signer, domain: TypedDataDomain, deal: SpotDeal): Promise<string> =>
  signTypedData(signer, typedData("Deal", domain, deal));
export const signFuturesOrder = (signer: Signer, domain: TypedDataDomain, order: FuturesOrder): Promise<string> =>
  signTypedData(signer, typedData("FuturesOrder", domain, order));
export const signOffer = (signer: Signer, domain: TypedDataDomain, offer: OptionsOffer): Promise<string> =>
  signTypedData(signer, typedData("Offer", domain, offer));
export const signAttestation = (signer: Signer, domain: TypedDataDomain, m: AttestationMessage): Promise<string> =>
  signTypedData(signer, typedData("Attestation", domain, m));
export const signReceipt = (signer: Signer, domain: TypedDataDomain, r: StreamReceipt): Promise<string> =>
  signTypedData(signer, typedData("Receipt", domain, r));

/** An ERC-2612 token as far as a permit needs it. */
export interface PermitToken {
  getAddress(): Promise<string>;
  nonces(owner: string): Promise<bigint>;
}

/**
 * Signs an ERC-2612 permit at the owner's current nonce, with the token's own domain (`eip712Domain()`). `chainId`
 * overrides the domain's chain id (default: the token's).
 */
export async function signPermit(
  owner: Signer,
  token: PermitToken,
  spender: string,
  value: bigint,
  deadline: bigint,
  chainId?: bigint,
): Promise<Signature> {
  const address = await token.getAddress();
  const ownerAddress = await owner.getAddress();
  const domain = { ...(await domainOf(owner, "ERC20Permit", address)) };
  if (chainId !== undefined) domain.chainId = chainId;
  const message = { owner: ownerAddress, spender, value, nonce: await token.nonces(ownerAddress), deadline };
  return Signature.from(await signTypedData(owner, typedData("Permit", domain, message)));
}
