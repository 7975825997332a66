// OPS-03 checks for the task layer (TaskRegistry, StreamTasks). Signers 10-15 are fresh providers registered,
// staked and attested here (the node unlocks 20 accounts; 0-9 belong to the earlier parts), 16 is the client.
// Phase 1: a DPS task accepted by a council of 3 (fees claimed), a USDC task cancelled without bids, a CH task
// accepted (CH redeemed: burned against the executor's liability), a USDC task whose first council rejects, the
// executor appeals, the enlarged council accepts and the wrong first-round member is slashed; a USDC stream goes
// live, two receipts settle (one replayed, paying nothing), is topped up, loses a subscriber, reports a failed
// consensus. Phase 2 (2 days later): a USDC task expires (executor slashed, refunded), the stream is retracted and
// withdrawn, a DPS stream stays open. compare() checks every task and stream with getTask/councilOf/getStream/
// subscription, taskCount, totalEscrow and the token balances (TSK-02), and the daily sums against the totals.
import { AbiCoder, Contract, id, keccak256 } from "ethers";
import { domainOf, signReceipt } from "@chx/sdk";
import { attest } from "./30-compute.mjs";

const CH = 0;
const USDC = 1;
const DPS = 2;
const usdc = (n) => BigInt(Math.round(n * 1e6));
const STATUS = [
  "None",
  "Bidding",
  "Running",
  "Verifying",
  "Disputed",
  "Accepted",
  "Rejected",
  "Expired",
  "Cancelled",
  "Unresolved",
];
const STREAM_STATUS = ["None", "Open", "Live", "Interrupted", "Closed"];

const has = (ctx) => ctx.record.contracts.TaskRegistry && ctx.record.contracts.StreamTasks;

function erc20(ctx, name, signer) {
  return new Contract(
    ctx.record.contracts[name].address,
    [
      "function mint(address,uint256)",
      "function approve(address,uint256) returns (bool)",
      "function transfer(address,uint256) returns (bool)",
      "function balanceOf(address) view returns (uint256)",
    ],
    signer,
  );
}

export async function scenario(ctx) {
  if (!has(ctx)) return;
  const { wad, send, mine, checkpoint } = ctx;
  const deployer = ctx.signers[0];
  const extra = await Promise.all([10, 11, 12, 13, 14, 15, 16].map((i) => ctx.provider.getSigner(i)));
  const providers = extra.slice(0, 6);
  const client = extra[6];
  const bySigner = new Map([...ctx.signers, ...extra].map((s) => [s.address.toLowerCase(), s]));
  const signerOf = (a) => {
    const s = bySigner.get(a.toLowerCase());
    if (!s) throw new Error(`e2e tasks: no signer for council member ${a}`);
    return s;
  };
  const d = ctx.as(deployer);
  const registry = await d("ProviderRegistry").getAddress();
  const tasksAddr = ctx.record.contracts.TaskRegistry.address;
  const streamsAddr = ctx.record.contracts.StreamTasks.address;
  const tasks = (s) => ctx.as(s)("TaskRegistry");
  const now = async () => BigInt((await ctx.provider.getBlock("latest")).timestamp);

  // Providers: register for class 1, stake 2 000 DPS, attested at 0.4 PFLOPS with 1 PFLOPS capacity, one beat.
  for (const [i, p] of providers.entries()) {
    await send(d("DPSToken").transfer(p.address, wad(2000)));
    const a = ctx.as(p);
    await send(
      a("ProviderRegistry").register(1, 0b10n, "0x" + (0xb0 + i).toString(16).repeat(32), `ipfs://p${10 + i}`),
    );
    await send(a("DPSToken").approve(registry, wad(2000)));
    await send(a("ProviderRegistry").stake(wad(2000)));
    await attest(ctx, deployer, p, { avg: wad("0.4"), capacity: wad(1), power: wad(900) });
    await send(a("ProviderRegistry").heartbeat(wad(1)));
  }
  // The client's money: DPS, USDC, and 20 CH minted by provider 10 (who then owes 20 CH).
  await send(d("DPSToken").transfer(client.address, wad(2000)));
  await send(erc20(ctx, "USDC", deployer).mint(client.address, usdc(10_000)));
  await send(ctx.as(providers[0])("ProviderRegistry").mintCH(wad(20), client.address));
  for (const [name, amount] of [
    ["DPSToken", wad(2000)],
    ["USDC", usdc(10_000)],
    ["CHToken", wad(20)],
  ]) {
    await send(erc20(ctx, name, client).approve(tasksAddr, amount));
    await send(erc20(ctx, name, client).approve(streamsAddr, amount));
  }

  const prescription = (tag) => ({
    dataHash: id(`D${tag}`),
    modelHash: id(`M${tag}`),
    inputHash: id(`I${tag}`),
    outputFnHash: id(`f${tag}`),
    evalHash: id(`e${tag}`),
    uri: `ipfs://task-${tag}`,
  });
  const submit = async (currency, councilSize, quorum, maxBids, maxPayment, tag) => {
    await send(
      tasks(client).submit(
        {
          currency,
          responseMode: 0,
          councilSize,
          quorum,
          checkpoints: 2,
          maxBids,
          workloadClass: 1,
          region: 0,
          bidWindowSec: 3600,
          deadline: (await now()) + 86_400n,
          maxPayment,
          capacityPflopsWad: wad("0.1"),
          // issue 21 item 5: PROPORTIONAL over 1 item with no threshold (pays the bid for any nonzero result word, so
          // the amounts stay FLAT's while TaskPriced is replayed); CH tasks must be FLAT
          paymentParams: currency === CH ? 0n : 2n | (1n << 8n),
        },
        prescription(tag),
      ),
    );
    return tasks(client).taskCount();
  };
  // closeBidding seals the bids (commits the seed block); once that block is mined it selects the executor
  const close = async (taskId) => {
    await send(tasks(deployer).closeBidding(taskId));
    if ((await tasks(deployer).getTask(taskId)).status !== 1n) return; // cancelled at the seal (no bid)
    await mine(1);
    await send(tasks(deployer).closeBidding(taskId));
  };
  const draw = async (taskId) => {
    await mine(1); // the seed block must be mined
    await send(tasks(deployer).drawCouncil(taskId));
    const t = await tasks(deployer).getTask(taskId);
    return tasks(deployer).councilOf(taskId, t.round);
  };
  const execute = async (taskId, result) => {
    const t = await tasks(deployer).getTask(taskId);
    const ex = signerOf(t.executor);
    await send(tasks(ex).commit(taskId, 0, id(`${result}-half`)));
    await send(tasks(ex).commit(taskId, 1, id(result)));
    return ex;
  };

  // Commit–reveal (issue 21 item 1): every member commits its salted result (the executor's when `agrees(i)`), time
  // moves past the commit window, every member reveals.
  const answer = async (taskId, members, agrees) => {
    const t = await tasks(deployer).getTask(taskId);
    const coder = AbiCoder.defaultAbiCoder();
    const resultOf = (i) => (agrees(i) ? t.resultHash : id("another result"));
    for (const [i, m] of members.entries()) {
      const c = keccak256(
        coder.encode(["uint256", "address", "bytes32", "bytes32"], [taskId, m, resultOf(i), id(`salt-${m}`)]),
      );
      await send(tasks(signerOf(m)).commitResult(taskId, c));
    }
    const gap = Number(t.commitEnds - (await now())) + 1;
    if (gap > 0) await ctx.provider.send("evm_increaseTime", [gap]);
    await mine(1);
    for (const [i, m] of members.entries()) {
      await send(tasks(signerOf(m)).revealResult(taskId, resultOf(i), id(`salt-${m}`)));
    }
  };

  // Task 1 (DPS, council 3 of quorum 2, best of 2 bids): accepted 2-1, the two agreeing members claim their fee.
  const t1 = await submit(DPS, 3, 2, 2, wad(1000), 1);
  await send(tasks(providers[0]).bid(t1, wad(480)));
  await send(tasks(providers[1]).bid(t1, wad(500)));
  await close(t1);
  const c1 = await draw(t1);
  await execute(t1, "right");
  await answer(t1, c1, (i) => i !== 1);
  await send(tasks(deployer).finalize(t1));
  for (const [i, m] of c1.entries()) if (i !== 1) await send(tasks(signerOf(m)).claimCouncilFee(t1));

  // Task 2 (USDC): no bid; cancelled once the window ends.
  const t2 = await submit(USDC, 1, 1, 0, usdc(50), 2);

  // Task 3 (CH, council 1): provider 10 owes 20 CH and redeems 8 through the task.
  const t3 = await submit(CH, 1, 1, 1, wad(10), 3);
  await send(tasks(providers[0]).bid(t3, wad(8)));
  await close(t3);
  const c3 = await draw(t3);
  await execute(t3, "ch");
  await answer(t3, c3, () => true);
  await send(tasks(deployer).finalize(t3));

  // Task 4 (USDC, council 1): rejected by the first member, appealed by the executor, accepted 2-1 by the enlarged
  // council of 3; the first-round member is slashed, the winners claim.
  const t4 = await submit(USDC, 1, 1, 1, usdc(100), 4);
  await send(tasks(providers[2]).bid(t4, usdc(60)));
  await close(t4);
  const c4 = await draw(t4);
  const ex4 = await execute(t4, "disputed");
  await answer(t4, c4, () => false);
  await send(tasks(ex4).openDispute(t4));
  const c4b = await draw(t4);
  await answer(t4, c4b, (i) => i !== 2);
  await send(tasks(deployer).finalize(t4));
  for (const [i, m] of c4b.entries()) if (i !== 2) await send(tasks(signerOf(m)).claimCouncilFee(t4));

  // Task 5 (USDC): the executor never commits (expired in phase 2).
  const t5 = await submit(USDC, 1, 1, 1, usdc(30), 5);
  await send(tasks(providers[3]).bid(t5, usdc(20)));
  await close(t5);

  // Stream 1 (USDC, weighted ½ of 2): two subscribers, receipts, top-up, one leaves, a failed consensus.
  const streams = (s) => ctx.as(s)("StreamTasks");
  const terms = (currency, mode, deposit) => ({
    currency,
    mode,
    executors: 2,
    weightWad: wad("0.5"),
    maxPrice: currency === DPS ? wad(5) : usdc(5),
    maxFailures: 3,
    deposit,
    inputHash: id("stream-in"),
    fnHash: id("stream-fn"),
  });
  await send(streams(client).open(terms(USDC, 1, usdc(1000))));
  const s1 = 1n;
  await send(streams(providers[0]).subscribe(s1, usdc(3)));
  await send(streams(providers[1]).subscribe(s1, usdc(2)));
  const domain = await domainOf(ctx.provider, "StreamTasks", streamsAddr);
  // cumulative count and amount (at the subscriber's price: the price of an answer is fixed in the receipt)
  const receipt = async (streamId, provider, answered) => {
    const [price] = await streams(deployer).subscription(streamId, provider.address);
    const r = { streamId, provider: provider.address, answered, amount: answered * price };
    return [r, await signReceipt(client, domain, r)];
  };
  const r1 = await receipt(s1, providers[0], 10n);
  const r2 = await receipt(s1, providers[1], 4n);
  await send(streams(deployer).settle([r1[0], r2[0]], [r1[1], r2[1]]));
  const r3 = await receipt(s1, providers[0], 15n);
  await send(streams(providers[0]).settle([r1[0], r3[0]], [r1[1], r3[1]])); // r1 again pays nothing
  await send(streams(client).fund(s1, usdc(50)));
  await send(streams(client).updateSpec(s1, id("stream-in-2"), id("stream-fn-2")));
  await send(streams(client).reportFailedConsensus(s1));
  await send(streams(providers[1]).unsubscribe(s1));
  await checkpoint();

  // Phase 2: two days later the cancel, the expiry, the stream's retraction and withdrawal; a DPS stream opens.
  await mine(2 * 86_400);
  await close(t2);
  await send(tasks(providers[4]).expire(t5));
  await send(streams(client).retract(s1));
  await mine(86_401);
  await send(streams(client).withdraw(s1));
  await send(streams(client).open(terms(DPS, 0, wad(100))));
  await send(streams(providers[2]).subscribe(2n, wad(1)));
  await checkpoint();
}

const big = (x) => BigInt(x ?? 0);
const low = (x) => String(x ?? "").toLowerCase();

export async function compare(ctx) {
  if (!has(ctx)) return;
  const { replay, at, tag, check, eq } = ctx;
  const reg = ctx.contract("TaskRegistry");
  const str = ctx.contract("StreamTasks");
  const taskEntities = replay.entities("Task");
  const streamEntities = replay.entities("Stream");
  const state = replay.entity("TaskRegistryState", ctx.address("TaskRegistry"));
  const count = await reg.taskCount(at);
  eq(`tasks taskCount ${tag}`, state?.taskCount ?? 0, count);
  eq(`tasks indexed Task entities ${tag}`, taskEntities.length, count);
  const p = await reg.params(at);
  const bad = [];
  if (state) {
    for (const f of ["councilFeeBps", "dpsDiscountBps", "dpsReplenishBps", "maxCouncil", "councilWindow"])
      if (big(state[f]) !== big(p[f])) bad.push(`params.${f} ${state[f]} ≠ ${p[f]}`);
    for (const f of ["verifyWindowSec", "disputeWindowSec", "redemptionGraceSec", "slashDps"])
      if (big(state[f]) !== big(p[f])) bad.push(`params.${f} ${state[f]} ≠ ${p[f]}`);
  }

  // Every task's post-state, as getTask returns it.
  let closedCount = 0;
  for (const t of taskEntities) {
    const c = await reg.getTask(big(t.taskId), at);
    const pairs = [
      ["price", t.price, c.price],
      ["escrow", t.escrow, c.escrow],
      ["bidCount", t.bidCount, c.bidCount],
      ["agree", t.agree, c.agree],
      ["disagree", t.disagree, c.disagree],
      ["commits", t.commits, c.commits],
      ["round", t.round, c.round],
      ["councilFee", t.councilFee, c.councilFee],
      ["targetBlock", t.targetBlock, c.targetBlock],
      ["assignmentId", t.assignmentId, c.assignmentId],
      ["votingEnds", t.votingEnds, c.votingEnds],
      ["deadline", t.deadline, c.deadline],
      ["biddingEnds", t.biddingEnds, c.biddingEnds],
      ["maxPayment", t.maxPayment, c.maxPayment],
      ["capacityPflopsWad", t.capacityPflopsWad, c.capacityPflopsWad],
      ["councilSize", t.councilSize, c.councilSize],
      ["quorum", t.quorum, c.quorum],
    ];
    for (const [f, x, y] of pairs) if (big(x) !== big(y)) bad.push(`task ${t.taskId} ${f} ${x} ≠ ${y}`);
    if (t.status !== STATUS[Number(c.status)])
      bad.push(`task ${t.taskId} status ${t.status} ≠ ${STATUS[Number(c.status)]}`);
    if (low(t.client) !== low(c.client)) bad.push(`task ${t.taskId} client`);
    if (low(t.executor ?? "0x0000000000000000000000000000000000000000") !== low(c.executor))
      bad.push(`task ${t.taskId} executor ${t.executor} ≠ ${c.executor}`);
    if (low(t.resultHash ?? "0x" + "00".repeat(32)) !== low(c.resultHash)) bad.push(`task ${t.taskId} resultHash`);
    if (low(t.prescriptionHash) !== low(c.prescriptionHash)) bad.push(`task ${t.taskId} prescriptionHash`);
    for (const round of [0, 1]) {
      const members = await reg.councilOf(big(t.taskId), round, at);
      const council = replay.entities("TaskCouncil").find((x) => x.task === t.id && Number(x.round) === round);
      const indexed = (council?.members ?? []).map(low);
      if (indexed.join() !== members.map(low).join())
        bad.push(`task ${t.taskId} council ${round}: ${indexed.length} indexed ≠ ${members.length} on chain`);
    }
    if (["Accepted", "Rejected", "Expired", "Cancelled", "Unresolved"].includes(t.status)) closedCount++;
  }
  const stateClosed = state
    ? state.accepted + state.rejected + state.expired + state.cancelled + (state.unresolved ?? 0)
    : 0;
  if (stateClosed !== closedCount) bad.push(`closed tasks ${stateClosed} ≠ ${closedCount}`);

  // TSK-02: per-currency escrow = totalEscrow(currency) = the registry's token balance; stream deposits = StreamTasks'.
  const tokens = ["CHToken", "USDC", "DPSToken"];
  for (const cur of [CH, USDC, DPS]) {
    const s = replay.entities("TaskCurrencyStats").find((x) => x.currency === ["CH", "USDC", "DPS"][cur]);
    eq(`tasks totalEscrow(${cur}) ${tag}`, s?.escrow ?? 0, await reg.totalEscrow(cur, at));
    const token = erc20(ctx, tokens[cur], reg.runner); // compare's ctx has no provider: the contracts' runner is it
    eq(
      `tasks ${tokens[cur]} held by TaskRegistry ${tag}`,
      s?.escrow ?? 0,
      await token.balanceOf(ctx.address("TaskRegistry"), at),
    );
    eq(
      `streams ${tokens[cur]} held by StreamTasks ${tag}`,
      s?.streamDeposit ?? 0,
      await token.balanceOf(ctx.address("StreamTasks"), at),
    );
  }

  // Streams and subscriptions.
  for (const s of streamEntities) {
    const c = await str.getStream(big(s.streamId), at);
    const pairs = [
      ["deposit", s.deposit, c.deposit],
      ["subscribers", s.subscribers, c.subscribers],
      ["failures", s.failures, c.failures],
      ["specVersion", s.specVersion, c.specVersion],
      ["closesAt", s.closesAt, c.closesAt],
      ["weightWad", s.weightWad, c.weightWad],
      ["maxPrice", s.maxPrice, c.maxPrice],
      ["executors", s.executors, c.executors],
    ];
    for (const [f, x, y] of pairs) if (big(x) !== big(y)) bad.push(`stream ${s.streamId} ${f} ${x} ≠ ${y}`);
    if (s.status !== STREAM_STATUS[Number(c.status)]) bad.push(`stream ${s.streamId} status ${s.status} ≠ ${c.status}`);
    if (low(s.inputHash) !== low(c.inputHash) || low(s.fnHash) !== low(c.fnHash)) bad.push(`stream ${s.streamId} spec`);
  }
  for (const sub of replay.entities("StreamSubscription")) {
    const s = streamEntities.find((x) => x.id === sub.stream);
    const [price, paid, paidAmount, lockedDps] = await str.subscription(big(s.streamId), sub.provider, at);
    if (big(sub.price) !== price || big(sub.paidRequests) !== paid)
      bad.push(`subscription ${sub.id} price/paid ${sub.price}/${sub.paidRequests} ≠ ${price}/${paid}`);
    if (big(sub.amountPaid) !== paidAmount || big(sub.lockedDps) !== lockedDps)
      bad.push(`subscription ${sub.id} amount/lock ${sub.amountPaid}/${sub.lockedDps} ≠ ${paidAmount}/${lockedDps}`);
  }

  // Daily aggregates sum to the totals.
  const days = replay.entities("TaskDayData");
  const sum = (f) => days.reduce((a, x) => a + big(x[f]), 0n);
  if (state) {
    if (sum("tasksSubmitted") !== big(state.taskCount))
      bad.push(`Σ day tasksSubmitted ${sum("tasksSubmitted")} ≠ ${state.taskCount}`);
    if (sum("slashedDps") !== big(state.slashedDps)) bad.push(`Σ day slashedDps ≠ ${state.slashedDps}`);
    if (sum("chRedeemed") !== big(state.chRedeemed)) bad.push(`Σ day chRedeemed ≠ ${state.chRedeemed}`);
    if (sum("votes") !== big(state.voteCount)) bad.push(`Σ day votes ≠ ${state.voteCount}`);
  }
  const receipts = replay.entities("StreamReceipt");
  if (sum("streamReceipts") !== BigInt(receipts.length)) bad.push(`Σ day streamReceipts ≠ ${receipts.length}`);
  check(
    `tasks and streams match getTask/councilOf/getStream/subscription/params ${tag}`,
    bad.length === 0,
    bad.join("; "),
  );
}
