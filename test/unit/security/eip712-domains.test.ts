/**
 * SEC-03 for the protocol's own EIP-712 verifiers (SpotMarket, OptionsMarket, ProviderRegistry, StreamTasks): each
 * publishes its domain through ERC-5267 `eip712Domain()` (OpenZeppelin EIP712Upgradeable), the SDK's digest over that
 * domain is the digest the contract recovers from, and a signature made for another chain id or another verifying
 * contract is refused. The domains (name, version) are unchanged by the move to EIP712Upgradeable, so a signature
 * over the previously hand-rolled domain still verifies.
 */
import { expect } from "chai";
import { ZeroAddress, ZeroHash, recoverAddress, type TypedDataDomain } from "ethers";
import { connectionFor } from "../../helpers/fixture.js";
import { CH, OptionKind, WAD, list, offer, optionsSetup, type OptionsFixture } from "../options/helpers.js";
import {
  domainOf,
  hashTypedData,
  signOffer,
  signReceipt,
  typedData,
  type AttestationMessage,
  type SpotOrder,
  type StreamReceipt,
} from "@chx/sdk";

const KEY = "security-eip712";

/** The domains the contracts hand-rolled before EIP712Upgradeable (what wallets signed until then). */
const HAND_ROLLED = {
  SpotMarket: { name: "CHX Spot", version: "1" },
  OptionsMarket: { name: "CHX Options", version: "1" },
  ProviderRegistry: { name: "CHX ProviderRegistry", version: "1" },
  StreamTasks: { name: "CHX StreamTasks", version: "1" },
} as const;
type Verifier = keyof typeof HAND_ROLLED;

describe("EIP-712 verifiers: ERC-5267 domains, chain and contract binding (SEC-03)", function () {
  let fx: OptionsFixture;
  let chainId: bigint;
  let addresses: Record<Verifier, string>;

  async function setup(): Promise<OptionsFixture> {
    return optionsSetup(await connectionFor(KEY));
  }

  beforeEach(async function () {
    fx = await (await connectionFor(KEY)).networkHelpers.loadFixture(setup);
    chainId = (await fx.connection.ethers.provider.getNetwork()).chainId;
    const p = fx.protocol;
    addresses = {
      SpotMarket: await p.spot.getAddress(),
      OptionsMarket: await p.options.getAddress(),
      ProviderRegistry: await p.providerRegistry.getAddress(),
      StreamTasks: await p.streamTasks.getAddress(),
    };
  });

  const order = (maker: string): SpotOrder => ({
    maker,
    isBuy: true,
    amountCh: 3n * CH,
    priceWad: 2n * WAD,
    nonce: 7n,
    expiry: 2n ** 40n,
    taker: ZeroAddress,
  });
  const attestation = (provider: string): AttestationMessage => ({
    provider,
    workloadClass: 1,
    standardVersion: 1,
    avgPflopsWad: 5n * WAD,
    factorsWad: [WAD, 2n * WAD],
    capacityPflopsWad: 4n * WAD,
    powerWattsWad: 700n * WAD,
    nonce: 0n,
    deadline: 2n ** 40n,
  });
  const receipt = (provider: string): StreamReceipt => ({ streamId: 1n, provider, answered: 3n, amount: 9n });

  /** The SDK digest of a sample message of `v` under `domain`, and the contract's own digest of it. */
  async function digests(v: Verifier, domain: TypedDataDomain): Promise<{ sdk: string; chain: string }> {
    const p = fx.protocol;
    const who = fx.alice.address;
    switch (v) {
      case "SpotMarket":
        return {
          sdk: hashTypedData(typedData("Order", domain, order(who))),
          chain: await p.spot.orderDigest(order(who)),
        };
      case "OptionsMarket":
        return {
          sdk: hashTypedData(typedData("Offer", domain, offer(who))),
          chain: await p.options.offerHash(offer(who)),
        };
      case "ProviderRegistry":
        return {
          sdk: hashTypedData(typedData("Attestation", domain, attestation(who))),
          chain: await p.providerRegistry.attestationDigest(attestation(who)),
        };
      case "StreamTasks":
        return {
          sdk: hashTypedData(typedData("Receipt", domain, receipt(who))),
          chain: await p.streamTasks.receiptDigest(receipt(who)),
        };
    }
  }

  for (const v of Object.keys(HAND_ROLLED) as Verifier[]) {
    describe(v, function () {
      it("eip712Domain() returns name, version, chain id and this proxy (fields 0x0f, no salt, no extensions)", async function () {
        const c =
          fx.protocol[
            {
              SpotMarket: "spot",
              OptionsMarket: "options",
              ProviderRegistry: "providerRegistry",
              StreamTasks: "streamTasks",
            }[v] as "spot" | "options" | "providerRegistry" | "streamTasks"
          ];
        const d = await c.eip712Domain();
        expect(d.fields).to.equal("0x0f");
        expect(d.name).to.equal(HAND_ROLLED[v].name);
        expect(d.version).to.equal(HAND_ROLLED[v].version);
        expect(d.chainId).to.equal(chainId);
        expect(d.verifyingContract).to.equal(addresses[v]);
        expect(d.salt).to.equal(ZeroHash);
        expect(d.extensions).to.deep.equal([]);
      });

      it("the SDK digest over domainOf() is the contract's digest", async function () {
        const domain = await domainOf(fx.deployer, v, addresses[v]);
        expect(domain).to.deep.equal({ ...HAND_ROLLED[v], chainId, verifyingContract: addresses[v] });
        const { sdk, chain } = await digests(v, domain);
        expect(sdk).to.equal(chain);
      });

      it("test_handRolledDomain_stillVerifies: a signature over the pre-upgrade domain keeps its digest", async function () {
        const { sdk, chain } = await digests(v, { ...HAND_ROLLED[v], chainId, verifyingContract: addresses[v] });
        expect(sdk).to.equal(chain);
      });

      it("test_otherChainOrContract_digestDiffers: another chain id or verifying contract gives another digest", async function () {
        const domain = await domainOf(fx.deployer, v, addresses[v]);
        const { chain } = await digests(v, domain);
        const other = await digests(v, { ...domain, chainId: chainId + 1n });
        expect(other.sdk).to.not.equal(chain);
        const elsewhere = await digests(v, { ...domain, verifyingContract: fx.bob.address });
        expect(elsewhere.sdk).to.not.equal(chain);
      });
    });
  }

  describe("refusal on chain (the call reverts, nothing is booked)", function () {
    let expiry: bigint;
    beforeEach(async function () {
      expiry = BigInt(await fx.connection.networkHelpers.time.latest()) + 7n * 86_400n;
      await list(fx, OptionKind.Put, 8n * WAD, 0n, expiry);
    });

    it("test_offerForOtherChain_refused: an options offer signed for chain id + 1 is refused", async function () {
      const { options } = fx.protocol;
      const domain = await domainOf(fx.carol, "OptionsMarket", addresses.OptionsMarket);
      const o = offer(fx.carol.address, { sizeCh: 5n * CH });
      const sig = await signOffer(fx.carol, { ...domain, chainId: chainId + 1n }, o);
      await expect(options.connect(fx.alice).fillOffer(o, sig, CH))
        .to.be.revertedWithCustomError(options, "OptionsInvalidSignature")
        .withArgs(fx.carol.address, await options.offerHash(o));
      const good = await signOffer(fx.carol, domain, o);
      await options.connect(fx.alice).fillOffer(o, good, CH);
      expect((await options.positionOf(1n, fx.alice.address)).longCh).to.equal(CH);
    });

    it("test_offerForOtherContract_refused: an options offer signed for the spot market is refused", async function () {
      const { options } = fx.protocol;
      const domain = await domainOf(fx.carol, "OptionsMarket", addresses.OptionsMarket);
      const o = offer(fx.carol.address, { sizeCh: 5n * CH });
      const sig = await signOffer(fx.carol, { ...domain, verifyingContract: addresses.SpotMarket }, o);
      await expect(options.connect(fx.alice).fillOffer(o, sig, CH)).to.be.revertedWithCustomError(
        options,
        "OptionsInvalidSignature",
      );
    });

    it("test_receiptForOtherChain_recoversAnotherSigner: a stream receipt signed for chain id + 1", async function () {
      const domain = await domainOf(fx.carol, "StreamTasks", addresses.StreamTasks);
      const r = receipt(fx.carol.address);
      const sig = await signReceipt(fx.carol, { ...domain, chainId: chainId + 1n }, r);
      const onChain = await fx.protocol.streamTasks.receiptDigest(r);
      expect(recoverAddress(onChain, sig)).to.not.equal(fx.carol.address);
      expect(recoverAddress(onChain, await signReceipt(fx.carol, domain, r))).to.equal(fx.carol.address);
    });
  });

  it("domainOf refuses a contract without eip712Domain(), naming it", async function () {
    const usdc = await fx.protocol.clearingHouse.getAddress(); // no EIP-712 domain
    let message = "";
    try {
      await domainOf(fx.deployer, "SpotMarket", usdc);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).to.contain("SpotMarket");
    expect(message).to.contain(usdc);
    expect(message).to.contain("eip712Domain()");
  });
});
