// OPS-03 checks for the token layer (DPSToken, CHToken, GFLToken). Loaded by scripts/e2e.mjs in file-name order:
// `scenario(ctx)` acts on the chain, `compare(ctx)` runs at every checkpoint block. Signers 0-3 are used here
// (0 = deployer: ADMIN, GUARDIAN, genesis holder); later modules should use signers 4 and up.

/** Phase 1: roles, emission, CH mint/burn, GFL capacity. Phase 2 (next day): transfers, burns, delegation, pauses. */
export async function scenario(ctx) {
  const { Roles, wad, keccakId, send, mine, checkpoint } = ctx;
  const [deployer, alice, bob, carol] = ctx.signers;
  const d = ctx.as(deployer);
  const [a, b, c] = [ctx.as(alice), ctx.as(bob), ctx.as(carol)];

  await send(d("AccessManager").grantRole(Roles.EMISSION, alice.address, 0));
  await send(d("AccessManager").grantRole(Roles.CH_MINTER, bob.address, 0));
  await send(d("AccessManager").labelRole(Roles.EMISSION, "EMISSION"));
  await send(a("DPSToken").mint(alice.address, wad(1000)));
  await send(a("DPSToken").mint(bob.address, wad(500)));
  await send(a("GFLToken").mint(carol.address, wad(120)));
  await send(a("GFLToken").setBalance(carol.address, wad(80)));
  await send(a("GFLToken").setBalance(bob.address, wad(40)));
  await send(a("GFLToken").burn(bob.address, wad(10)));
  await send(b("CHToken").mint(carol.address, wad(25)));
  await send(b("CHToken").mint(bob.address, wad(10)));
  await send(b("CHToken").burn(carol.address, wad(5)));
  await checkpoint();

  await mine(86_400);
  await send(d("DPSToken").transfer(carol.address, wad(2000)));
  await send(c("DPSToken").transfer(alice.address, wad(300)));
  await send(c("CHToken").transfer(alice.address, wad(5)));
  await send(a("DPSToken").burn(wad(100)));
  await send(c("DPSToken").approve(bob.address, wad(50)));
  await send(b("DPSToken").burnFrom(carol.address, wad(50)));
  await send(d("DPSToken").delegate(deployer.address));
  await send(a("DPSToken").delegate(bob.address));
  await send(c("DPSToken").delegate(carol.address));
  await send(d("CHToken").pauseFeature(keccakId("ch.transfer")));
  await send(d("CHToken").unpauseFeature(keccakId("ch.transfer")));
  await send(d("GFLToken").pauseFeature(keccakId("gfl.rebalance")));
  await send(a("DPSToken").mint(carol.address, wad(42)));
  await send(d("AccessManager").revokeRole(Roles.CH_MINTER, bob.address));
  await checkpoint();
}

const TOKENS = [
  ["DPS", "DPSToken"],
  ["CH", "CHToken"],
  ["GFL", "GFLToken"],
];

export async function compare(ctx) {
  const { replay, at, tag, eq, check, contract } = ctx;
  const tok = (name) => replay.entity("Token", ctx.address(name)) ?? {};
  const dps = tok("DPSToken");
  const k = (name) => contract(name);
  eq(`DPS minted by emission ${tag}`, dps.totalEmitted, await k("DPSToken").totalEmitted(at));
  eq(`DPS burned ${tag}`, dps.totalBurned, await k("DPSToken").totalBurned(at));
  eq(`DPS genesis ${tag}`, dps.genesisSupply, await k("DPSToken").genesisSupply(at));
  eq(`DPS supply ${tag}`, dps.totalSupply, await k("DPSToken").totalSupply(at));
  eq(`CH outstanding ${tag}`, tok("CHToken").totalSupply, await k("CHToken").totalSupply(at));
  eq(`total GFL ${tag}`, tok("GFLToken").totalSupply, await k("GFLToken").totalSupply(at));

  // every indexed balance equals balanceOf at the block; holder counts match the non-zero balances
  let bad = [];
  for (const [symbol, name] of TOKENS) {
    const balances = replay.entities("TokenBalance").filter((x) => x.token === ctx.address(name));
    for (const x of balances) {
      const chain = await k(name).balanceOf(x.account, at);
      if (BigInt(x.balance) !== chain) bad.push(`${symbol} ${x.account}: ${x.balance} ≠ ${chain}`);
    }
    const holders = balances.filter((x) => BigInt(x.balance) !== 0n).length;
    const t = tok(name);
    if (t.holderCount !== undefined && t.holderCount !== holders)
      bad.push(`${symbol} holderCount ${t.holderCount} ≠ ${holders}`);
  }
  check(`balances and holders ${tag}`, bad.length === 0, bad.join("; "));

  // DPS voting power and delegates of every indexed account
  bad = [];
  for (const acc of replay.entities("Account")) {
    const votes = await k("DPSToken").getVotes(acc.id, at);
    if (BigInt(acc.dpsVotes) !== votes) bad.push(`votes ${acc.id}: ${acc.dpsVotes} ≠ ${votes}`);
    const delegate = (await k("DPSToken").delegates(acc.id, at)).toLowerCase();
    const indexed = acc.dpsDelegate ?? "0x0000000000000000000000000000000000000000";
    if (indexed !== delegate) bad.push(`delegate ${acc.id}: ${indexed} ≠ ${delegate}`);
  }
  check(`DPS votes and delegates ${tag}`, bad.length === 0, bad.join("; "));

  // daily / hourly aggregates add up to the totals and close at the supply of the block
  bad = [];
  for (const [symbol, name] of TOKENS) {
    const t = tok(name);
    const supply = await k(name).totalSupply(at);
    for (const type of ["TokenDayData", "TokenHourData"]) {
      const rows = replay.entities(type).filter((x) => x.token === ctx.address(name));
      if (rows.length === 0) continue;
      const sum = (f) => rows.reduce((s, x) => s + BigInt(x[f]), 0n);
      const start = (x) => x.date ?? x.periodStartUnix;
      const latest = rows.reduce((m, x) => (start(x) > start(m) ? x : m));
      for (const [f, total] of [
        ["minted", t.totalMinted],
        ["burned", t.totalBurned],
        ["emitted", t.totalEmitted],
      ])
        if (sum(f) !== BigInt(total)) bad.push(`${symbol} ${type} ${f} ${sum(f)} ≠ ${total}`);
      if (BigInt(latest.totalSupply) !== supply) bad.push(`${symbol} ${type} close ${latest.totalSupply} ≠ ${supply}`);
      for (const x of rows)
        if (BigInt(x.supplyLow) > BigInt(x.totalSupply) || BigInt(x.supplyHigh) < BigInt(x.totalSupply))
          bad.push(`${symbol} ${type} ${start(x)} high/low`);
    }
  }
  check(`daily and hourly aggregates ${tag}`, bad.length === 0, bad.join("; "));

  // per-feature pauses of every indexed ChxUpgradeable contract
  bad = [];
  for (const p of replay.entities("FeaturePause")) {
    const name = ctx.nameOf(p.contract);
    if (!name) continue;
    const paused = await k(name).isFeaturePaused(p.feature, at);
    if (paused !== p.paused) bad.push(`${name} ${p.feature}: ${p.paused} ≠ ${paused}`);
  }
  check(`feature pauses ${tag}`, bad.length === 0, bad.join("; "));
}
