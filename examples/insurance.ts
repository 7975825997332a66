/** Stake USDC in the insurance fund for shares, and read the position back. */
import { formatUsdc, parseUsdc } from "@chx/sdk";
import { check, exampleEnv, faucetUsdc, run } from "./_env.js";

run("insurance", async () => {
  const env = await exampleEnv();
  const staker = env.account(7);
  const me = env.as(7);
  const fund = await me.insuranceFund.getAddress();
  await faucetUsdc(env, staker.address, "250");
  const preview = await me.insuranceFund.previewStake(parseUsdc("250"));
  await (await me.usdc.approve(fund, parseUsdc("250"))).wait();
  await (await me.insuranceFund.stake(parseUsdc("250"))).wait();
  const shares = await me.insuranceFund.sharesOf(staker.address);
  const [cooldown, window] = await me.insuranceFund.cooldown();
  console.log(
    `staked 250 USDC for ${shares} shares (worth ${formatUsdc(await me.insuranceFund.previewWithdraw(shares))} USDC); withdrawals: ${cooldown} s cooldown, ${window} s window`,
  );
  check(shares === preview, "the fund minted what it previewed");
});
