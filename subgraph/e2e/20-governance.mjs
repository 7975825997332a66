// OPS-03 checks for governance (ChxAccessManager, ChxGovernor, ChxTimelock). See 10-tokens.mjs for the contract.

/** A proposal voted for/against/abstain, queued in the timelock and executed, days after the token phases. */
export async function scenario(ctx) {
  const { Roles, keccakId, send, mine, checkpoint } = ctx;
  const [deployer, , bob, carol] = ctx.signers;
  const d = ctx.as(deployer);
  await mine(3 * 86_400);
  const manager = d("AccessManager");
  const targets = [ctx.record.contracts.AccessManager.address];
  const values = [0n];
  const calldatas = [manager.interface.encodeFunctionData("labelRole", [Roles.CH_MINTER, "CH_MINTER"])];
  const description = "Label the CH_MINTER role";
  const descriptionHash = keccakId(description);
  await send(d("Governor").propose(targets, values, calldatas, description));
  const proposalId = await d("Governor").hashProposal(targets, values, calldatas, descriptionHash);
  await mine(2);
  await send(d("Governor").castVote(proposalId, 1));
  await send(ctx.as(bob)("Governor").castVoteWithReason(proposalId, 0, "not needed"));
  await send(ctx.as(carol)("Governor").castVote(proposalId, 2));
  await checkpoint();
  await mine(3_601);
  await send(d("Governor").queue(targets, values, calldatas, descriptionHash));
  await checkpoint();
  await mine(3_601);
  await send(d("Governor").execute(targets, values, calldatas, descriptionHash));
  await checkpoint();
}

// Governor.state(): Pending 0, Active 1, Canceled 2, Defeated 3, Succeeded 4, Queued 5, Expired 6, Executed 7
const STATES = { Created: [0n, 1n, 3n, 4n, 6n], Queued: [5n], Executed: [7n], Canceled: [2n] };

export async function compare(ctx) {
  const { replay, at, tag, check, contract } = ctx;
  const manager = contract("AccessManager");
  const governor = contract("Governor");
  const timelock = contract("Timelock");

  let bad = [];
  for (const m of replay.entities("RoleMember")) {
    const roleId = BigInt(replay.entity("Role", m.role).roleId);
    const [isMember, delay] = await manager.hasRole(roleId, m.account, at);
    if (isMember !== m.active) bad.push(`role ${roleId} ${m.account}: active ${m.active} ≠ ${isMember}`);
    if (isMember && BigInt(delay) !== BigInt(m.executionDelay)) bad.push(`role ${roleId} ${m.account}: delay`);
  }
  for (const f of replay.entities("TargetFunctionRole")) {
    const role = await manager.getTargetFunctionRole(f.target, f.selector, at);
    if (role !== BigInt(replay.entity("Role", f.role).roleId)) bad.push(`function role ${f.target}.${f.selector}`);
  }
  for (const t of replay.entities("AccessTarget")) {
    if ((await manager.isTargetClosed(t.id, at)) !== t.closed) bad.push(`target ${t.id} closed`);
  }
  check(`roles, function roles and targets ${tag}`, bad.length === 0, bad.join("; "));

  bad = [];
  for (const p of replay.entities("Proposal")) {
    const [against, forVotes, abstain] = await governor.proposalVotes(p.proposalId, at);
    if (BigInt(p.forVotes) !== forVotes || BigInt(p.againstVotes) !== against || BigInt(p.abstainVotes) !== abstain)
      bad.push(`proposal ${p.id} tallies`);
    const state = await governor.state(p.proposalId, at);
    if (!STATES[p.status].includes(state)) bad.push(`proposal ${p.id}: status ${p.status}, state() ${state}`);
    if (p.eta != null && BigInt(p.eta) !== (await governor.proposalEta(p.proposalId, at)))
      bad.push(`proposal ${p.id} eta`);
  }
  for (const op of replay.entities("TimelockOperation")) {
    const done = await timelock.isOperationDone(op.id, at);
    const pending = await timelock.isOperationPending(op.id, at);
    if (done !== (op.status === "Executed") || pending !== (op.status === "Scheduled"))
      bad.push(`timelock ${op.id} ${op.status}`);
    if (op.status === "Scheduled" && BigInt(op.readyAt) !== (await timelock.getTimestamp(op.id, at)))
      bad.push(`timelock ${op.id} readyAt`);
  }
  for (const m of replay.entities("TimelockRoleMember")) {
    if ((await timelock.hasRole(m.role, m.account, at)) !== m.active) bad.push(`timelock role ${m.role} ${m.account}`);
  }
  check(`proposals, votes and timelock operations ${tag}`, bad.length === 0, bad.join("; "));
}
