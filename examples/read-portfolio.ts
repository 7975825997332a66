/** Read an account's whole state in one call (AccountLens), the markets, and the open guarantors a new account may join. */
import { formatCh, formatUsdc, formatWad, openGuarantors, PositionKindNames } from "@chx/sdk";
import { check, exampleEnv, run } from "./_env.js";

run("read-portfolio", async () => {
  const env = await exampleEnv();
  const p = env.as(0);
  if (p.accountLens === undefined) throw new Error("this deployment has no AccountLens");
  const who = env.account(1).address;
  const pf = await p.accountLens.portfolio(who);
  console.log(
    `account ${who}: equity ${formatUsdc(pf.margin.equityUsdc)} USDC, withdrawable ${formatUsdc(pf.maxWithdrawableUsdc)}`,
  );
  for (const r of pf.positions) {
    console.log(
      `  ${PositionKindNames[Number(r.kind)]} ${r.seriesId > 0n ? `#${r.seriesId} ` : ""}${formatCh(r.sizeCh)} CH, uPnL ${formatUsdc(r.unrealisedPnlUsdc)} USDC`,
    );
  }
  if (pf.liquidationPriceWad > 0n) {
    console.log(
      `  liquidated if the index ${pf.liquidationBelow ? "falls" : "rises"} to ${formatWad(pf.liquidationPriceWad)} USDC/CH`,
    );
  }
  const m = await p.accountLens.markets(1, 50);
  console.log(
    `index ${formatWad(m.indexPriceWad)} USDC/CH, perp skew ${formatCh(m.perpSkewCh)} CH, vault share ${formatWad(m.vaultSharePriceWad)} USDC`,
  );
  const open = await openGuarantors(p.accountLens, p.guarantorPool, p.record.contracts.GuarantorPool!.deployBlock);
  console.log(`${open.length} open guarantor(s)`);
  for (const g of open) console.log(`  ${g.guarantor}: room ${formatUsdc(g.remainingCapacityUsdc)} USDC`);
  const classes = await p.accountLens.workloadClasses(16);
  check(classes.length > 0, "the genesis workload classes are published");
  check(pf.account === who, "the portfolio is the account's");
});
