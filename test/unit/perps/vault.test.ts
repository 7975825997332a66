import { expect } from "chai";
import { keccak256, toUtf8Bytes } from "ethers";
import { connectionFor } from "../../helpers/fixture.js";
import { setupTrader } from "../../helpers/clearing.js";
import { emptyVaultFixture, perpFixture, usdc, wad, type PerpFixture } from "./helpers.js";
import { perpParams, vaultParams } from "../../../scripts/deploy/modules/perps.js";
import { MockVaultMarket__factory } from "../../../types/ethers-contracts/index.js";

describe("LiquidityVault", function () {
  let fx: PerpFixture;

  const load = async (f: () => Promise<PerpFixture>, key: string) => {
    const connection = await connectionFor(key);
    fx = await connection.networkHelpers.loadFixture(f);
  };
  const time = () => fx.connection.networkHelpers.time;

  describe("share math", function () {
    beforeEach(async () => load(perpFixture, "perps"));

    it("mints 10^6 virtual-offset shares per USDC wei at par and reports a share price of 1 (ACC-05)", async function () {
      const { liquidityVault: v } = fx.protocol;
      expect(await v.decimals()).to.equal(12n);
      expect(await v.balanceOf(fx.lp.address)).to.equal(usdc("1000000") * 10n ** 6n);
      expect(await v.totalAssets()).to.equal(usdc("1000000"));
      expect(await v.idleUsdc()).to.equal(usdc("500000"));
      expect(await v.sharePriceWad()).to.equal(wad("1"));
    });

    it("emits Deposit and VaultStateUpdated with the post-state; locks the receiver's shares", async function () {
      const { liquidityVault: v, usdc: token } = fx.protocol;
      const x = fx.traders[0]!;
      await (await token.mint(x.address, usdc("100"))).wait();
      await (await token.connect(x).approve(await v.getAddress(), usdc("100"))).wait();
      const tx = v.connect(x).deposit(usdc("100"), x.address);
      await expect(tx)
        .to.emit(v, "Deposit")
        .withArgs(x.address, x.address, usdc("100"), usdc("100") * 10n ** 6n);
      await expect(tx)
        .to.emit(v, "VaultStateUpdated")
        .withArgs(usdc("1000100"), usdc("1000100") * 10n ** 6n, usdc("500100"), wad("1"));
      const [locked, unlock] = await v.lockOf(x.address);
      expect(locked).to.equal(usdc("100") * 10n ** 6n);
      await expect(v.connect(x).withdraw(usdc("1"), x.address, x.address))
        .to.be.revertedWithCustomError(v, "VaultSharesLocked")
        .withArgs(x.address, usdc("1") * 10n ** 6n, 0n, unlock);
      expect(await v.maxWithdraw(x.address)).to.equal(0n);
      // moving the shares does not shed the lock
      await expect(v.connect(x).transfer(fx.keeper.address, 1n))
        .to.emit(v, "SharesLocked")
        .withArgs(fx.keeper.address, 1n, unlock);
      expect((await v.lockOf(fx.keeper.address))[1]).to.equal(unlock);
      await time().increase(vaultParams.lockPeriodSec);
      await fx.setPrice(wad("10"));
      await expect(v.connect(x).redeem(usdc("100") * 10n ** 6n - 1n, x.address, x.address)).to.emit(v, "Withdraw");
    });

    it("mint charges assets rounded up, redeem pays assets rounded down; maxRedeem is capped by liquidity (ACC-05)", async function () {
      const { liquidityVault: v, usdc: token, perpMarket } = fx.protocol;
      const x = fx.traders[0]!;
      await (await fx.trade(fx.traders[1]!, wad("1000"))).wait(); // fees make the price > 1
      await (await token.mint(x.address, usdc("1000"))).wait();
      await (await token.connect(x).approve(await v.getAddress(), usdc("1000"))).wait();
      const shares = 123_456_789_000n;
      const ta = await v.totalAssets();
      const supply = await v.totalSupply();
      const expectIn = (shares * (ta + 1n) + (supply + 10n ** 6n) - 1n) / (supply + 10n ** 6n);
      expect(await v.previewMint(shares)).to.equal(expectIn);
      const before = await token.balanceOf(x.address);
      await (await v.connect(x).mint(shares, x.address)).wait();
      expect(before - (await token.balanceOf(x.address))).to.equal(expectIn);
      await time().increase(vaultParams.lockPeriodSec);
      await fx.setPrice(wad("10"));
      // a day of funding from the long went to LPs meanwhile; the payout is the floor at the current price
      const ta2 = await v.totalAssets();
      const out = (shares * (ta2 + 1n)) / ((await v.totalSupply()) + 10n ** 6n);
      expect(await v.previewRedeem(shares)).to.equal(out);
      await expect(v.connect(x).redeem(shares, x.address, x.address))
        .to.emit(v, "Withdraw")
        .withArgs(x.address, x.address, x.address, out, shares);
      const lpShares = await v.balanceOf(fx.lp.address);
      expect(await v.maxRedeem(fx.lp.address)).to.be.lt(lpShares); // the pool keeps the reserve behind open positions
    });

    it("share price follows the traders' unrealised PnL: LPs cannot leave ahead of a loss already on the books", async function () {
      const { liquidityVault: v, perpMarket } = fx.protocol;
      const t = fx.traders[0]!;
      await (await fx.trade(t, wad("1000"))).wait();
      const before = await v.totalAssets();
      await fx.setPrice(wad("12"));
      // the index move is already out of LP equity, exactly: positions are marked at what closing them all would
      // pay, 1000 × index × (1 + 1000 / (2 · skewScale)), so a move of 2 costs LPs 2000 × 1.0005 = 2001
      const after = await v.totalAssets();
      expect(before - after).to.equal(usdc("2001"));
      // withdrawable keeps the traders' net profit and 10 % of gross notional in the pool
      const w = await perpMarket.withdrawableToVaultUsdc();
      const [, pool] = await fx.protocol.clearingHouse.marketInfo(await perpMarket.getAddress());
      expect(pool - BigInt(w)).to.be.gte(usdc("1995") + usdc("1200"));
    });

    it("keeps a week of poke bounties in the pool while positions are open, so a keeper's credit stays payable", async function () {
      const { liquidityVault: v, perpMarket, perpMarket: m, clearingHouse: ch, usdc: token } = fx.protocol;
      const market = await m.getAddress();
      // no open interest: no bounty can accrue, nothing is held back for keepers
      const [, poolEmpty] = await ch.marketInfo(market);
      const s0 = await m.marketState();
      expect(await m.withdrawableToVaultUsdc()).to.equal(poolEmpty - s0.burnReserveUsdc - s0.keeperOwedUsdc);
      await (await fx.trade(fx.traders[0]!, wad("1"))).wait(); // dust open interest
      await (await v.deallocate(market, await m.withdrawableToVaultUsdc())).wait();
      const [, pool] = await ch.marketInfo(market);
      const st = await m.marketState();
      const runway =
        perpParams.pokeBountyUsdc *
        ((7n * 86_400n + BigInt(perpParams.pokeIntervalSec) - 1n) / BigInt(perpParams.pokeIntervalSec));
      expect(runway).to.equal(usdc("16.8")); // 168 hourly bounties of 0.1 USDC
      // what stays: reserves, the runway and the 10 % buffer of the gross notional (10 USDC, rounded up)
      expect(pool - st.burnReserveUsdc - st.keeperOwedUsdc).to.be.gte(runway + usdc("1"));
      await time().increase(perpParams.pokeIntervalSec);
      await fx.setPrice(wad("10"));
      const k = fx.keeper;
      await (await m.connect(k).pokeFunding()).wait();
      // the keeper executed the dust trade too: its execution fee is credited with the bounty (issue 18 item 4)
      const credit = perpParams.pokeBountyUsdc + perpParams.executionFeeUsdc;
      const before = await token.balanceOf(k.address);
      await expect(m.connect(k).claimKeeperBounty()).to.emit(m, "KeeperBountyClaimed").withArgs(k.address, credit);
      expect((await token.balanceOf(k.address)) - before).to.equal(credit);
    });

    it("withdrawals pull the shortfall from the markets, never beyond what they can return", async function () {
      const { liquidityVault: v, usdc: token } = fx.protocol;
      await time().increase(vaultParams.lockPeriodSec);
      await fx.setPrice(wad("10"));
      const lp = fx.lp;
      const liquid = await v.liquidUsdc();
      expect(liquid).to.be.lte(usdc("1000000"));
      const before = await token.balanceOf(lp.address);
      await expect(v.connect(lp).withdraw(usdc("700000"), lp.address, lp.address))
        .to.emit(v, "CapitalReturned")
        .withArgs(await fx.protocol.perpMarket.getAddress(), usdc("200000"), usdc("700000"));
      expect((await token.balanceOf(lp.address)) - before).to.equal(usdc("700000"));
      expect(await v.idleUsdc()).to.equal(0n);
    });

    it("refuses deposits while the traders' profit exceeds LP equity (VaultInsolvent); totalAssets floors at 0", async function () {
      const { liquidityVault: v, perpMarket, usdc: token } = fx.protocol;
      await (await fx.trade(fx.traders[0]!, wad("5000"))).wait();
      await fx.setPrice(wad("300")); // traders' unrealised ≈ 5000 × 290 = 1.45M > the LPs' 1M
      expect(await v.totalAssets()).to.equal(0n);
      const x = fx.traders[1]!;
      await (await token.mint(x.address, usdc("100"))).wait();
      await (await token.connect(x).approve(await v.getAddress(), usdc("100"))).wait();
      await expect(v.connect(x).deposit(usdc("100"), x.address)).to.be.revertedWithCustomError(v, "VaultInsolvent");
    });

    it("backs several markets (IVaultMarket): equity nets across markets, withdrawals pull from each in order", async function () {
      const { liquidityVault: v, usdc: token, perpMarket } = fx.protocol;
      const va = await v.getAddress();
      const other = await new MockVaultMarket__factory(fx.deployer).deploy(await token.getAddress(), va);
      const o = await other.getAddress();
      const before = BigInt((await v.markets()).length); // the perp, and the futures market the deploy wiring adds
      await expect(v.addMarket(o))
        .to.emit(v, "VaultMarketAdded")
        .withArgs(o, before + 1n);
      await (await v.allocate(o, usdc("400000"))).wait();
      expect(await v.idleUsdc()).to.equal(usdc("100000"));
      const ta = await v.totalAssets();
      await (await other.setEquityOffset(-usdc("50000"))).wait(); // that market's traders are up 50,000
      expect(ta - (await v.totalAssets())).to.equal(usdc("50000"));
      // a withdrawal beyond idle drains the perp market's withdrawable first, then the other market
      await time().increase(vaultParams.lockPeriodSec);
      await fx.setPrice(wad("10"));
      const perpFree = await perpMarket.withdrawableToVaultUsdc();
      const want = usdc("100000") + perpFree + usdc("1000");
      const tx = v.connect(fx.lp).withdraw(want, fx.lp.address, fx.lp.address);
      await expect(tx)
        .to.emit(v, "CapitalReturned")
        .withArgs(await perpMarket.getAddress(), perpFree, usdc("100000") + perpFree);
      await expect(tx).to.emit(v, "CapitalReturned").withArgs(o, usdc("1000"), want);
      await (await other.setWithdrawCap(0)).wait();
      const liquid = await v.liquidUsdc();
      await expect(v.connect(fx.lp).withdraw(liquid + 1n, fx.lp.address, fx.lp.address)).to.be.revertedWithCustomError(
        v,
        "ERC4626ExceededMaxWithdraw",
      );
      await expect(v.removeMarket(o)).to.be.revertedWithCustomError(v, "VaultMarketNotEmpty");
      await (await other.setWithdrawCap(2n ** 255n)).wait();
      await (await other.setEquityOffset(0)).wait();
      await (await v.deallocate(o, await other.withdrawableToVaultUsdc())).wait();
      await expect(v.removeMarket(o)).to.emit(v, "VaultMarketRemoved").withArgs(o, before);
      for (let i = Number(before); i < 8; i++) {
        const m = await new MockVaultMarket__factory(fx.deployer).deploy(await token.getAddress(), va);
        await (await v.addMarket(await m.getAddress())).wait();
      }
      await expect(v.addMarket(fx.traders[0]!.address))
        .to.be.revertedWithCustomError(v, "VaultTooManyMarkets")
        .withArgs(8n);
    });

    it("keeper allocation: allocate/deallocate, idle checks and access control", async function () {
      const { liquidityVault: v, perpMarket } = fx.protocol;
      const m = await perpMarket.getAddress();
      await expect(v.allocate(m, usdc("600000")))
        .to.be.revertedWithCustomError(v, "VaultInsufficientIdle")
        .withArgs(usdc("600000"), usdc("500000"));
      await expect(v.connect(fx.traders[0]!).allocate(m, 1n)).to.be.revertedWithCustomError(
        v,
        "AccessManagedUnauthorized",
      );
      await expect(v.allocate(fx.traders[0]!.address, 1n))
        .to.be.revertedWithCustomError(v, "VaultMarketUnknown")
        .withArgs(fx.traders[0]!.address);
      await expect(v.allocate(m, usdc("100")))
        .to.emit(v, "CapitalAllocated")
        .withArgs(m, usdc("100"), usdc("499900"));
      await expect(v.deallocate(m, usdc("100")))
        .to.emit(v, "CapitalReturned")
        .withArgs(m, usdc("100"), usdc("500000"));
      const w = await perpMarket.withdrawableToVaultUsdc();
      await expect(v.deallocate(m, w + 1n))
        .to.be.revertedWithCustomError(perpMarket, "PerpWithdrawableTooLow")
        .withArgs(w + 1n, w);
      await expect(v.addMarket(m)).to.be.revertedWithCustomError(v, "VaultMarketAlreadyAdded").withArgs(m);
      await expect(v.connect(fx.traders[0]!).addMarket(m)).to.be.revertedWithCustomError(
        v,
        "AccessManagedUnauthorized",
      );
      await expect(v.removeMarket(m)).to.be.revertedWithCustomError(v, "VaultMarketNotEmpty");
    });

    it("pausing vault.deposit stops deposits, not withdrawals; the deposit cap binds", async function () {
      const { liquidityVault: v, usdc: token } = fx.protocol;
      const x = fx.traders[1]!;
      await (await token.mint(x.address, usdc("20000000"))).wait();
      await (await token.connect(x).approve(await v.getAddress(), usdc("20000000"))).wait();
      const cap = vaultParams.depositCapUsdc - (await v.totalAssets());
      await expect(v.connect(x).deposit(cap + 1n, x.address))
        .to.be.revertedWithCustomError(v, "ERC4626ExceededMaxDeposit")
        .withArgs(x.address, cap + 1n, cap);
      const feature = keccak256(toUtf8Bytes("vault.deposit"));
      await (await v.pauseFeature(feature)).wait();
      await expect(v.connect(x).deposit(1n, x.address)).to.be.revertedWithCustomError(v, "ChxFeaturePaused");
      expect(await v.maxDeposit(x.address)).to.equal(0n);
      await time().increase(vaultParams.lockPeriodSec);
      await fx.setPrice(wad("10"));
      await (await v.connect(fx.lp).withdraw(usdc("1"), fx.lp.address, fx.lp.address)).wait();
    });

    it("liquidation through the LiquidationEngine: the vault takes over the closed size, OI and funding follow", async function () {
      const p = fx.protocol;
      const weak = fx.users[7]!;
      await setupTrader(p, fx.guarantor, weak, usdc("1100"));
      await (await fx.trade(weak, wad("1000"))).wait();
      await time().increase(3_600);
      await fx.setPrice(wad("9.2")); // equity ≈ 1100 − 5 − 805 < maintenance 460
      // the hook never reverts: not even with the market's new-risk feature paused (LIQ-05)
      await (await p.perpMarket.pauseFeature(keccak256(toUtf8Bytes("perp.trade")))).wait();
      const tx = p.liquidationEngine.connect(fx.keeper).liquidate(weak.address);
      await expect(tx).to.emit(p.perpMarket, "PerpLiquidated");
      const m = await p.perpMarket.getAddress();
      const pos = await p.clearingHouse.positionOf(weak.address, m);
      const acct = await p.perpMarket.accountState(weak.address);
      expect(acct.sizeCh).to.equal(pos.sizeCh);
      const st = await p.perpMarket.marketState();
      expect(st.longOiCh).to.equal(pos.sizeCh);
      expect(st.sumOpenNotionalUsdc).to.equal(pos.openNotionalUsdc);
      // one hour of funding on 1000 CH long was carried as pending and is settled by anyone
      expect(acct.pendingFundingUsdc).to.be.gt(0n);
      await expect(p.perpMarket.settleFunding(weak.address)).to.emit(p.perpMarket, "FundingSettled");
      expect((await p.perpMarket.accountState(weak.address)).pendingFundingUsdc).to.equal(0n);
    });
  });

  describe("attacks", function () {
    beforeEach(async () => load(emptyVaultFixture, "perps-empty"));

    it("ACC-04: 1 wei first deposit + 1e24 donation cannot dilute a victim (internal ledger + virtual offset)", async function () {
      const { liquidityVault: v, usdc: token } = fx.protocol;
      const [attacker, victim] = fx.traders;
      const va = await v.getAddress();
      await (await token.mint(attacker!.address, 10n ** 24n + 1n)).wait();
      await (await token.connect(attacker!).approve(va, 1n)).wait();
      await (await v.connect(attacker!).deposit(1n, attacker!.address)).wait();
      await (await token.connect(attacker!).transfer(va, 10n ** 24n)).wait(); // donation
      expect(await v.totalAssets()).to.equal(1n);
      const V = usdc("1000");
      await (await token.mint(victim!.address, V)).wait();
      await (await token.connect(victim!).approve(va, V)).wait();
      await (await v.connect(victim!).deposit(V, victim!.address)).wait();
      const worth = await v.convertToAssets(await v.balanceOf(victim!.address));
      expect(worth).to.be.gte(V - V / 1_000_000n);
      expect(await v.convertToAssets(await v.balanceOf(attacker!.address))).to.be.lte(1n);
    });

    it("ACC-04: a donation through trading losses into the pool moves the price but the victim keeps ≥ V(1 − 1e-6)", async function () {
      const { liquidityVault: v, usdc: token, perpMarket } = fx.protocol;
      const [attacker, victim] = fx.traders;
      const va = await v.getAddress();
      await (await token.mint(attacker!.address, 1n)).wait();
      await (await token.connect(attacker!).approve(va, 1n)).wait();
      await (await v.connect(attacker!).deposit(1n, attacker!.address)).wait();
      await (await fx.trade(attacker!, wad("1000"))).wait();
      await fx.setPrice(wad("9"));
      await (await fx.close(attacker!)).wait();
      const ta = await v.totalAssets();
      expect(ta).to.be.gt(usdc("1000"));
      const V = usdc("1000");
      await (await token.mint(victim!.address, V)).wait();
      await (await token.connect(victim!).approve(va, V)).wait();
      await (await v.connect(victim!).deposit(V, victim!.address)).wait();
      const worth = await v.convertToAssets(await v.balanceOf(victim!.address));
      expect(worth).to.be.gte(V - V / 1_000_000n);
      // the attacker's 1 wei of shares can never return its trading loss
      expect(await v.convertToAssets(await v.balanceOf(attacker!.address))).to.be.lt(ta);
    });

    it("ACC-03: deposit then immediate full redemption returns ≤ the deposit; 1-wei round trips never gain", async function () {
      const { liquidityVault: v, usdc: token } = fx.protocol;
      await (await v.setLimits(vaultParams.depositCapUsdc, 0)).wait();
      const x = fx.traders[2]!;
      const va = await v.getAddress();
      await (await token.mint(x.address, usdc("1000"))).wait();
      await (await token.connect(x).approve(va, usdc("1000"))).wait();
      const start = await token.balanceOf(x.address);
      await (await v.connect(x).deposit(usdc("123.456789"), x.address)).wait();
      await (await v.connect(x).redeem(await v.balanceOf(x.address), x.address, x.address)).wait();
      expect(await token.balanceOf(x.address)).to.be.lte(start);
      for (let i = 0; i < 30; i++) {
        await (await v.connect(x).deposit(1n, x.address)).wait();
        const sh = await v.balanceOf(x.address);
        const out = await v.previewRedeem(sh);
        if (out > 0n) await (await v.connect(x).redeem(sh, x.address, x.address)).wait();
      }
      expect(await token.balanceOf(x.address)).to.be.lte(start);
    });
  });
});
