import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, printJson, runTask, defaultAccount } from "../../lib.js";
import { ch, px, usd } from "./common.js";

export default async function perpStatus(
  args: { account: string; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    const perp = protocol.perpMarket;
    const vault = protocol.liquidityVault;
    const m = await perp.getAddress();
    const st = await perp.marketState();
    const [index, rate] = await perp.currentFunding();
    const price = await protocol.oracle.indexPrice();
    const [, pool] = await protocol.clearingHouse.marketInfo(m);
    if (args.json) {
      const who = args.account !== "" ? args.account : undefined;
      printJson({
        market: m,
        indexPriceWad: price,
        longOiCh: st.longOiCh,
        shortOiCh: st.shortOiCh,
        fundingRateWad: rate,
        fundingIndexWad: index,
        poolUsdc: pool,
        burnReserveUsdc: st.burnReserveUsdc,
        keeperOwedUsdc: st.keeperOwedUsdc,
        vault: {
          address: await vault.getAddress(),
          totalAssetsUsdc: await vault.totalAssets(),
          idleUsdc: await vault.idleUsdc(),
          sharePriceWad: await vault.sharePriceWad(),
        },
        ...(who === undefined
          ? {}
          : {
              account: who,
              sizeCh: (await perp.accountState(who)).sizeCh,
              openNotionalUsdc: (await protocol.clearingHouse.positionOf(who, m)).openNotionalUsdc,
              fundingOwedUsdc: await perp.fundingOwedUsdc(who),
            }),
      });
      await connection.close();
      return;
    }
    console.log(`PerpMarket ${m}`);
    console.log(`  index price        ${px(price)} USDC/CH`);
    console.log(
      `  open interest      long ${ch(st.longOiCh)} / short ${ch(st.shortOiCh)} CH (skew ${ch(st.longOiCh - st.shortOiCh)})`,
    );
    console.log(`  funding            rate ${formatUnits(rate * 100n, 18)} %/day, index ${px(index)} USDC/CH`);
    console.log(
      `  PnL pool           ${usd(pool)} USDC (burn reserve ${usd(st.burnReserveUsdc)}, bounties ${usd(st.keeperOwedUsdc)})`,
    );
    console.log(
      `  vault equity here  ${usd(await perp.vaultEquityUsdc())} USDC, withdrawable ${usd(await perp.withdrawableToVaultUsdc())}`,
    );
    console.log(`LiquidityVault ${await vault.getAddress()}`);
    console.log(`  total assets       ${usd(await vault.totalAssets())} USDC (idle ${usd(await vault.idleUsdc())})`);
    console.log(
      `  share price        ${px(await vault.sharePriceWad())} USDC per share, supply ${formatUnits(await vault.totalSupply(), 12)}`,
    );
    const who = args.account !== "" ? args.account : (await defaultAccount(connection)).address;
    const a = await perp.accountState(who);
    const pos = await protocol.clearingHouse.positionOf(who, m);
    console.log(`Account ${who}`);
    console.log(`  position           ${ch(a.sizeCh)} CH, cost basis ${usd(pos.openNotionalUsdc)} USDC`);
    console.log(
      `  funding owed       ${usd(await perp.fundingOwedUsdc(who))} USDC (pending ${usd(a.pendingFundingUsdc)})`,
    );
    console.log(`  collateral         ${usd(await protocol.clearingHouse.collateralOf(who))} USDC`);
    const shares = await vault.balanceOf(who);
    if (shares > 0n) {
      console.log(
        `  vault shares       ${formatUnits(shares, 12)} (${usd(await vault.convertToAssets(shares))} USDC), locked ${formatUnits((await vault.lockOf(who))[0], 12)} until ${(await vault.lockOf(who))[1]}`,
      );
    }
    await connection.close();
  });
}
