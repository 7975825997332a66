import { expect } from "chai";
import { parseUnits } from "ethers";
import { connectionFor, deployAll, type Fixture } from "../helpers/fixture.js";
import { Roles, signPermit } from "@chx/sdk";

describe("Tokens (DPS, CH, GFL)", function () {
  let fx: Fixture;
  let loadFixture: <T>(f: () => Promise<T>) => Promise<T>;

  async function setup(): Promise<Fixture> {
    const connection = await connectionFor("tokens");
    return deployAll(connection);
  }

  beforeEach(async function () {
    const connection = await connectionFor("tokens");
    loadFixture = connection.networkHelpers.loadFixture;
    fx = await loadFixture(setup);
  });

  describe("GFLToken", function () {
    it("reverts transfer, transferFrom and approve with GFLNonTransferable (EMI-03)", async function () {
      const { gfl } = fx.protocol;
      const [a, b] = fx.users;
      await fx.protocol.accessManager.grantRole(Roles.EMISSION, fx.deployer.address, 0);
      await gfl.mint(a!.address, 100n);
      await expect(gfl.connect(a!).transfer(b!.address, 1n)).to.be.revertedWithCustomError(gfl, "GFLNonTransferable");
      await expect(gfl.connect(a!).approve(b!.address, 1n)).to.be.revertedWithCustomError(gfl, "GFLNonTransferable");
      await expect(gfl.connect(b!).transferFrom(a!.address, b!.address, 1n)).to.be.revertedWithCustomError(
        gfl,
        "GFLNonTransferable",
      );
      expect(await gfl.balanceOf(a!.address)).to.equal(100n);
    });

    it("lets only the EMISSION role mint, burn and set balances (SEC-01)", async function () {
      const { gfl } = fx.protocol;
      const [a] = fx.users;
      await expect(gfl.connect(a!).mint(a!.address, 1n)).to.be.revertedWithCustomError(
        gfl,
        "AccessManagedUnauthorized",
      );
      await expect(gfl.connect(a!).setBalance(a!.address, 1n)).to.be.revertedWithCustomError(
        gfl,
        "AccessManagedUnauthorized",
      );
      await fx.protocol.accessManager.grantRole(Roles.EMISSION, a!.address, 0);
      await expect(gfl.connect(a!).setBalance(a!.address, 99n))
        .to.emit(gfl, "GFLRebalanced")
        .withArgs(a!.address, 0n, 99n, 99n);
      await expect(gfl.connect(a!).setBalance(a!.address, 40n))
        .to.emit(gfl, "GFLRebalanced")
        .withArgs(a!.address, 99n, 40n, 40n);
      expect(await gfl.totalSupply()).to.equal(40n);
    });
  });

  describe("CHToken", function () {
    it("lets only CH_MINTER mint and burn, with post-state events (SEC-01)", async function () {
      const { ch } = fx.protocol;
      const [a, registry] = fx.users;
      await expect(ch.connect(a!).mint(a!.address, 1n)).to.be.revertedWithCustomError(ch, "AccessManagedUnauthorized");
      await fx.protocol.accessManager.grantRole(Roles.CH_MINTER, registry!.address, 0);
      await expect(ch.connect(registry!).mint(a!.address, 500n))
        .to.emit(ch, "CHMinted")
        .withArgs(a!.address, 500n, 500n);
      await expect(ch.connect(registry!).burn(a!.address, 200n))
        .to.emit(ch, "CHBurned")
        .withArgs(a!.address, 200n, 300n);
      await expect(ch.connect(a!).burn(a!.address, 1n)).to.be.revertedWithCustomError(ch, "AccessManagedUnauthorized");
    });
  });

  describe("DPSToken", function () {
    it("mints genesis to the deployer and emission only through the EMISSION role", async function () {
      const { dps } = fx.protocol;
      const [a, emission] = fx.users;
      const genesis = parseUnits("10000000", 18);
      expect(await dps.genesisSupply()).to.equal(genesis);
      expect(await dps.balanceOf(fx.deployer.address)).to.equal(genesis);
      await expect(dps.connect(a!).mint(a!.address, 1n)).to.be.revertedWithCustomError(
        dps,
        "AccessManagedUnauthorized",
      );
      await fx.protocol.accessManager.grantRole(Roles.EMISSION, emission!.address, 0);
      await expect(dps.connect(emission!).mint(a!.address, 7n))
        .to.emit(dps, "DPSEmitted")
        .withArgs(a!.address, 7n, 7n, genesis + 7n);
      expect(await dps.totalEmitted()).to.equal(7n);
    });

    it("burns by holders and through allowance, counting totalBurned", async function () {
      const { dps } = fx.protocol;
      const [a] = fx.users;
      await dps.transfer(a!.address, 1000n);
      const supply = await dps.totalSupply();
      await expect(dps.connect(a!).burn(400n))
        .to.emit(dps, "DPSBurned")
        .withArgs(a!.address, 400n, 400n, supply - 400n);
      await expect(dps.burnFrom(a!.address, 1n)).to.be.revertedWithCustomError(dps, "ERC20InsufficientAllowance");
      await dps.connect(a!).approve(fx.deployer.address, 100n);
      await dps.burnFrom(a!.address, 100n);
      expect(await dps.totalBurned()).to.equal(500n);
      expect(await dps.balanceOf(a!.address)).to.equal(500n);
    });

    it("accepts an EIP-2612 permit once and rejects its replay (SEC-03)", async function () {
      const { dps } = fx.protocol;
      const [owner, spender] = fx.users;
      const { chainId } = await fx.connection.ethers.provider.getNetwork();
      const deadline = BigInt((await fx.connection.ethers.provider.getBlock("latest"))!.timestamp) + 3600n;
      const sig = await signPermit(owner!, dps, spender!.address, 123n, deadline, chainId);
      await dps.permit(owner!.address, spender!.address, 123n, deadline, sig.v, sig.r, sig.s);
      expect(await dps.allowance(owner!.address, spender!.address)).to.equal(123n);
      await expect(
        dps.permit(owner!.address, spender!.address, 123n, deadline, sig.v, sig.r, sig.s),
      ).to.be.revertedWithCustomError(dps, "ERC2612InvalidSigner");
    });

    it("tracks votes after delegation with a timestamp clock", async function () {
      const { dps } = fx.protocol;
      const [a, b] = fx.users;
      expect(await dps.CLOCK_MODE()).to.equal("mode=timestamp");
      await dps.transfer(a!.address, 1000n);
      expect(await dps.getVotes(a!.address)).to.equal(0n);
      await expect(dps.connect(a!).delegate(b!.address))
        .to.emit(dps, "DelegateVotesChanged")
        .withArgs(b!.address, 0n, 1000n);
      expect(await dps.getVotes(b!.address)).to.equal(1000n);
      await dps.connect(a!).transfer(fx.deployer.address, 400n);
      expect(await dps.getVotes(b!.address)).to.equal(600n);
    });
  });
});
