/**
 * SEC-03 for the token signatures (EIP-2612 permit on DPS and CH, ERC-5805 delegateBySig on DPS): each is rejected
 * when replayed, signed for another chain or another token contract, past its deadline, or in malleable (high-s)
 * form. Attestations (test/unit/compute/registry.test.ts), spot orders and deals (test/unit/spot/orders.test.ts) and
 * stream receipts (test/unit/StreamReceiptReplay.t.sol) have their own cases.
 */
import { expect } from "chai";
import { Signature, type Signer } from "ethers";
import { connectionFor, deployAll, type Fixture } from "../../helpers/fixture.js";
import { signPermit } from "@chx/sdk";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The other valid-looking form of an ECDSA signature: s' = n − s with the parity flipped. */
function malleable(sig: Signature): { v: number; r: string; s: string } {
  const s = N - BigInt(sig.s);
  return { v: sig.v === 27 ? 28 : 27, r: sig.r, s: "0x" + s.toString(16).padStart(64, "0") };
}

const DELEGATION_TYPES = {
  Delegation: [
    { name: "delegatee", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "expiry", type: "uint256" },
  ],
};

describe("Token signatures: replay, chain, contract, deadline, malleability (SEC-03)", function () {
  let fx: Fixture;
  let chainId: bigint;
  let deadline: bigint;

  async function setup(): Promise<Fixture> {
    return deployAll(await connectionFor("security-signatures"));
  }

  beforeEach(async function () {
    fx = await (await connectionFor("security-signatures")).networkHelpers.loadFixture(setup);
    chainId = (await fx.connection.ethers.provider.getNetwork()).chainId;
    deadline = BigInt((await fx.connection.ethers.provider.getBlock("latest"))!.timestamp) + 3600n;
  });

  for (const tokenName of ["dps", "ch"] as const) {
    describe(`${tokenName.toUpperCase()} permit`, function () {
      it("accepts once, then rejects the replay", async function () {
        const token = fx.protocol[tokenName];
        const [owner, spender] = fx.users;
        const sig = await signPermit(owner!, token, spender!.address, 5n, deadline, chainId);
        await token.permit(owner!.address, spender!.address, 5n, deadline, sig.v, sig.r, sig.s);
        expect(await token.allowance(owner!.address, spender!.address)).to.equal(5n);
        await expect(
          token.permit(owner!.address, spender!.address, 5n, deadline, sig.v, sig.r, sig.s),
        ).to.be.revertedWithCustomError(token, "ERC2612InvalidSigner");
      });

      it("rejects a signature for another chain id", async function () {
        const token = fx.protocol[tokenName];
        const [owner, spender] = fx.users;
        const sig = await signPermit(owner!, token, spender!.address, 5n, deadline, chainId + 1n);
        await expect(
          token.permit(owner!.address, spender!.address, 5n, deadline, sig.v, sig.r, sig.s),
        ).to.be.revertedWithCustomError(token, "ERC2612InvalidSigner");
      });

      it("rejects a signature made for the other token contract", async function () {
        const token = fx.protocol[tokenName];
        const otherToken = fx.protocol[tokenName === "dps" ? "ch" : "dps"];
        const [owner, spender] = fx.users;
        // same owner, nonce 0 on both, but the domain names another verifying contract
        const sig = await signPermit(owner!, otherToken, spender!.address, 5n, deadline, chainId);
        await expect(
          token.permit(owner!.address, spender!.address, 5n, deadline, sig.v, sig.r, sig.s),
        ).to.be.revertedWithCustomError(token, "ERC2612InvalidSigner");
      });

      it("rejects a signature past its deadline", async function () {
        const token = fx.protocol[tokenName];
        const [owner, spender] = fx.users;
        const past = deadline - 7200n;
        const sig = await signPermit(owner!, token, spender!.address, 5n, past, chainId);
        await expect(token.permit(owner!.address, spender!.address, 5n, past, sig.v, sig.r, sig.s))
          .to.be.revertedWithCustomError(token, "ERC2612ExpiredSignature")
          .withArgs(past);
      });

      it("rejects the malleable (high-s) form of a valid signature", async function () {
        const token = fx.protocol[tokenName];
        const [owner, spender] = fx.users;
        const sig = await signPermit(owner!, token, spender!.address, 5n, deadline, chainId);
        const m = malleable(sig);
        await expect(token.permit(owner!.address, spender!.address, 5n, deadline, m.v, m.r, m.s))
          .to.be.revertedWithCustomError(token, "ECDSAInvalidSignatureS")
          .withArgs(m.s);
      });
    });
  }

  describe("DPS delegateBySig", function () {
    async function signDelegation(signer: Signer, delegatee: string, nonce: bigint, expiry: bigint, chain = chainId) {
      const dps = fx.protocol.dps;
      const domain = {
        name: await dps.name(),
        version: "1",
        chainId: chain,
        verifyingContract: await dps.getAddress(),
      };
      return Signature.from(await signer.signTypedData(domain, DELEGATION_TYPES, { delegatee, nonce, expiry }));
    }

    it("delegates once; the replay, an expired and a malleable signature are rejected", async function () {
      const { dps } = fx.protocol;
      const [owner, delegatee] = fx.users;
      const sig = await signDelegation(owner!, delegatee!.address, 0n, deadline);
      await dps.delegateBySig(delegatee!.address, 0n, deadline, sig.v, sig.r, sig.s);
      expect(await dps.delegates(owner!.address)).to.equal(delegatee!.address);
      await expect(dps.delegateBySig(delegatee!.address, 0n, deadline, sig.v, sig.r, sig.s))
        .to.be.revertedWithCustomError(dps, "InvalidAccountNonce")
        .withArgs(owner!.address, 1n);
      const past = deadline - 7200n;
      const expired = await signDelegation(owner!, delegatee!.address, 1n, past);
      await expect(dps.delegateBySig(delegatee!.address, 1n, past, expired.v, expired.r, expired.s))
        .to.be.revertedWithCustomError(dps, "VotesExpiredSignature")
        .withArgs(past);
      const fresh = await signDelegation(owner!, fx.deployer.address, 1n, deadline);
      const m = malleable(fresh);
      await expect(dps.delegateBySig(fx.deployer.address, 1n, deadline, m.v, m.r, m.s)).to.be.revertedWithCustomError(
        dps,
        "ECDSAInvalidSignatureS",
      );
    });

    it("a signature for another chain never acts for its signer", async function () {
      const { dps } = fx.protocol;
      const [owner, delegatee] = fx.users;
      const sig = await signDelegation(owner!, delegatee!.address, 0n, deadline, chainId + 1n);
      // it recovers to an unrelated address (whose nonce 0 matches) or reverts — either way the owner is untouched
      try {
        await (await dps.delegateBySig(delegatee!.address, 0n, deadline, sig.v, sig.r, sig.s)).wait();
      } catch {
        /* reverted: fine */
      }
      expect(await dps.delegates(owner!.address)).to.equal("0x0000000000000000000000000000000000000000");
      expect(await dps.nonces(owner!.address)).to.equal(0n);
    });
  });
});
