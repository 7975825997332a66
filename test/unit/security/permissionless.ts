/**
 * SEC-01: the documented permissionless list — every state-changing function of a deployed contract that a caller
 * holding no role may call, keyed `<Contract>.<signature>`, each with the reason it is safe to leave open. The
 * access test (access.test.ts) fails for an open function missing here and for an entry that is stale (gone, or
 * now access-controlled). Initialisers are not listed: the test checks separately that each is closed.
 *
 * A module that adds a permissionless function adds its line here, with the reason, in the same change.
 */
const entries: Array<[string[], string]> = [];

function open(contract: string, signatures: string[], reason: string): void {
  entries.push([signatures.map((s) => `${contract}.${s}`), reason]);
}

const ERC20 = ["approve(address,uint256)", "transfer(address,uint256)", "transferFrom(address,address,uint256)"];
const PERMIT = ["permit(address,address,uint256,uint256,uint8,bytes32,bytes32)"];
const HOLDER = "ERC-20 holder operation: moves or approves only the caller's own balance or granted allowance";
const SIGNED = "authorised by the holder's EIP-712 signature (nonce + deadline, SEC-03), not by the caller";

// Governance layer (OpenZeppelin's own checks inside: the AccessManager checks the caller per scheduled call)
open(
  "ChxAccessManager",
  ["cancel(address,address,bytes)"],
  "only the operation's scheduler, a guardian of the target function or an admin may cancel (checked inside)",
);
open(
  "ChxAccessManager",
  ["consumeScheduledOp(address,bytes)"],
  "only callable by the target of a scheduled operation (checked inside against msg.sender)",
);
open(
  "ChxAccessManager",
  ["multicall(bytes[])"],
  "delegatecalls the manager itself: every inner call checks its own caller",
);
open(
  "ChxAccessManager",
  ["renounceRole(uint64,address)"],
  "a caller may only renounce its own role (confirmation = msg.sender)",
);
open(
  "ChxTimelock",
  ["renounceRole(bytes32,address)"],
  "a caller may only renounce its own role (confirmation = msg.sender)",
);
open(
  "ChxTimelock",
  ["execute(address,uint256,bytes,bytes32,bytes32)", "executeBatch(address[],uint256[],bytes[],bytes32,bytes32)"],
  "executor role is open (address(0)) by design: only operations scheduled by the Governor and past the delay run",
);
open(
  "ChxTimelock",
  [
    "onERC1155BatchReceived(address,address,uint256[],uint256[],bytes)",
    "onERC1155Received(address,address,uint256,uint256,bytes)",
    "onERC721Received(address,address,uint256,bytes)",
  ],
  "token-receiver hooks: return the magic value, change no state",
);
open(
  "ChxGovernor",
  [
    "castVote(uint256,uint8)",
    "castVoteWithReason(uint256,uint8,string)",
    "castVoteWithReasonAndParams(uint256,uint8,string,bytes)",
  ],
  "voting: weight is the caller's own delegated DPS at the snapshot",
);
open(
  "ChxGovernor",
  [
    "castVoteBySig(uint256,uint8,address,bytes)",
    "castVoteWithReasonAndParamsBySig(uint256,uint8,address,string,bytes,bytes)",
  ],
  SIGNED,
);
open(
  "ChxGovernor",
  ["propose(address[],uint256[],bytes[],string)"],
  "anyone above the proposal threshold may propose; nothing runs without a vote and the timelock",
);
open(
  "ChxGovernor",
  ["queue(address[],uint256[],bytes[],bytes32)", "execute(address[],uint256[],bytes[],bytes32)"],
  "moves a proposal that already passed its vote along the timelock pipeline",
);
open(
  "ChxGovernor",
  ["cancel(address[],uint256[],bytes[],bytes32)"],
  "only the proposer, and only while the proposal is pending (checked inside)",
);
open(
  "ChxGovernor",
  [
    "onERC1155BatchReceived(address,address,uint256[],uint256[],bytes)",
    "onERC1155Received(address,address,uint256,uint256,bytes)",
    "onERC721Received(address,address,uint256,bytes)",
  ],
  "token-receiver hooks: refuse deposits unless the Governor executes itself (GovernorDisabledDeposit)",
);

// Tokens
open("DPSToken", [...ERC20, "burn(uint256)", "burnFrom(address,uint256)", "delegate(address)"], HOLDER);
open("DPSToken", [...PERMIT, "delegateBySig(address,uint256,uint256,uint8,bytes32,bytes32)"], SIGNED);
open("CHToken", ERC20, HOLDER);
open("CHToken", PERMIT, SIGNED);

// Oracle
open(
  "ComputePriceOracle",
  ["pinIndexPrice()"],
  "ORC-02: caches this transaction's index price in transient storage; changes nothing that outlives the transaction",
);

// Insurance fund (stakers)
open(
  "InsuranceFund",
  ["stake(uint256)", "stakeFor(address,uint256)"],
  "staking USDC into the fund: the caller pays; shares are minted rounding down (ACC-04/05)",
);
open(
  "InsuranceFund",
  ["requestWithdraw(uint256)", "cancelWithdraw()", "withdraw(uint256,address)"],
  "a staker's own cooled-down exit (LIQ-06): only the caller's own shares",
);

// Compute layer (providers)
open(
  "ProviderRegistry",
  [
    "register(uint16,uint64,bytes32,string)",
    "updateProfile(uint16,uint64,bytes32,string)",
    "setAskPrice(uint128)",
    "stake(uint256)",
    "requestUnbond(uint256)",
    "withdrawUnbonded()",
    "mintCH(uint256,address)",
    "buyBack(uint256)",
  ],
  "a provider's own account (msg.sender is the provider): stake, unbond, mint CH within its collateral, buy back",
);
open(
  "ProviderRegistry",
  ["attest((address,uint16,uint16,uint256,uint256[],uint256,uint256,uint256,uint256),bytes)"],
  "authorised by an ATTESTER signature over the attestation (nonce + deadline, SEC-03), not by the caller",
);
open(
  "ProviderRegistry",
  ["refreshDrawProfile(address)"],
  "re-records a provider's draw profile from its own current state, at the current block only (TSK-07)",
);
open(
  "ProviderRegistry",
  ["heartbeat(uint256)"],
  "a provider's own liveness proof (msg.sender must hold a valid attestation)",
);

// Emission (keepers and claimants)
open(
  "Emission",
  [
    "closeEpoch()",
    "closeEpochs(uint256)",
    "collect(uint256)",
    "rebalance(uint256)",
    "rebalanceProvider(address)",
    "performUpkeep(bytes)",
  ],
  "permissionless keeper work with a bounded bounty (OPS-01): deterministic, idempotent, only when due " +
    "(collect: only after an epoch's end, each provider once, EmissionCollectionComplete when nothing is left)",
);
open("Emission", ["claim(address)"], "pays accrued rewards to the provider itself, whoever triggers it (EMI-02)");
open("Emission", ["fundKeeperBudget(uint256)"], "a donation of DPS into the keeper bounty budget: the caller pays");

// Clearing layer
open(
  "ClearingHouse",
  ["deposit(uint256)", "withdraw(uint256,address)"],
  "a trader's own margin (SEC-05 exit liveness)",
);
open(
  "ClearingHouse",
  ["flushFees()"],
  "moves accrued fees to their fixed recipients (insurance fund); no choice of destination",
);
open(
  "ClearingHouse",
  ["depositToken(address,uint256)", "withdrawToken(address,uint256,address)"],
  "a trader's own token collateral (recorded balances; the withdrawal runs the margin check)",
);
open("ClearingHouse", ["syncExposure(address)"], "recomputes an account's guarantor exposure from state; idempotent");
open("RiskEngine", ["updateVolatility()"], "permissionless EWMA update at most once per interval, with a fixed bounty");
open(
  "RiskEngine",
  ["updateMarketVolatility(address)"],
  "permissionless per-market EWMA update (markets with a governance-set model only), at most once per interval per market, fixed bounty",
);
open(
  "RiskEngine",
  ["updateTenorVolatility(address,uint256)"],
  "permissionless per-tenor-bucket EWMA update (buckets with a governance-set model only), at most once per interval per bucket, fixed bounty",
);
open(
  "GuarantorPool",
  [
    "registerGuarantor(bool,uint256)",
    "configureGuarantor(bool,uint256)",
    "stakeDps(uint256)",
    "unstakeDps(uint256)",
    "depositCapital(address,uint256)",
    "withdrawCapital(address,uint256,address)",
    "requestCapitalWithdrawal(address,uint256)",
    "cancelCapitalWithdrawal(address)",
    "admitCustomer(address,uint256)",
    "removeCustomer(address)",
    "joinOpenGuarantor(address)",
  ],
  "a guarantor's or customer's own relationship and capital (msg.sender is the guarantor/customer; checked inside)",
);
open(
  "GuarantorPool",
  ["creditIncome(address,uint256)"],
  "pays income into a guarantor's capital: the caller pays, no one is debited but the caller",
);
open(
  "GuarantorPool",
  ["collectIncome(address)"],
  "moves a guarantor's funded fee income into its own vesting; no destination choice, nothing leaves the pool",
);
open(
  "GuarantorPool",
  ["flagShortfall(address)", "slashShortfall(address)"],
  "apply the insurance-requirement rule to state (flag when short, slash a bounded share of the bond to the " +
    "configured sink after the grace period): the caller chooses nothing",
);
open(
  "LiquidationEngine",
  ["liquidate(address)"],
  "anyone may liquidate an unhealthy account (LIQ-01: reverts when healthy)",
);
open(
  "LiquidationEngine",
  ["nominateAdl(address,address)", "executeAdl(address)"],
  "auto-deleveraging (docs/clearing.md): nominations are scored and ranked on-chain; execution only after the window, after the insurance fund, best-ranked first",
);
open(
  "LiquidationEngine",
  ["syncModules()"],
  "copies the ClearingHouse's own guarantor pool and insurance fund (liquidationModules): the caller chooses nothing",
);

// Spot market
open(
  "SpotMarket",
  [
    "fillOrder((address,bool,uint256,uint256,uint256,uint64,address),bytes,uint256)",
    "matchOrders((address,bool,uint256,uint256,uint256,uint64,address),bytes,(address,bool,uint256,uint256,uint256,uint64,address),bytes,uint256)",
    "settleDeal((address,address,uint256,uint256,uint256,uint64),bytes,bytes)",
  ],
  "trading on EIP-712 signed orders/deals (MKT-06, SEC-03): the makers' signatures authorise the transfer",
);
open(
  "SpotMarket",
  [
    "cancelOrder((address,bool,uint256,uint256,uint256,uint64,address))",
    "cancelDeal((address,address,uint256,uint256,uint256,uint64))",
    "raiseMinNonce(uint256)",
  ],
  "a maker cancelling its own orders (SpotNotOwner otherwise)",
);
open(
  "SpotMarket",
  ["stakeSeat(uint256)", "requestUnstake(uint256)", "withdrawUnstaked()"],
  "a seat holder's own DPS stake",
);
open("SpotMarket", ["distributeFees()"], "sends accrued fees to the fixed treasury/insurance recipients");

// Tasks
open(
  "TaskRegistry",
  [
    "submit((uint8,uint8,uint8,uint8,uint8,uint8,uint16,uint16,uint32,uint40,uint128,uint128,uint256),(bytes32,bytes32,bytes32,bytes32,bytes32,string))",
    "bid(uint256,uint128)",
    "withdrawBid(uint256,uint32)",
    "commit(uint256,uint8,bytes32)",
    "commitResult(uint256,bytes32)",
    "revealResult(uint256,bytes32,bytes32)",
    "openDispute(uint256)",
    "claimCouncilFee(uint256)",
    "reportRedemptionFailure(uint256)",
  ],
  "task lifecycle by its parties (client, bidding provider, drawn council member): each checks msg.sender's part",
);
open(
  "TaskRegistry",
  ["closeBidding(uint256)", "drawCouncil(uint256)", "finalize(uint256)", "expire(uint256)", "performUpkeep(bytes)"],
  "permissionless state-machine steps, valid only when due (TSK-01/02); no caller-chosen outcome",
);
open(
  "TaskRegistry",
  [
    "commitChain(uint256,bytes32,uint32,bytes32[])",
    "openBisection(uint256,bytes32,bytes32,bytes32[],bytes32,bytes32[])",
    "bisect(uint256,bytes32,bytes32[],bytes32,bytes32[])",
  ],
  "bisection by its parties (executor's chain, a dissenting member or the client bonding, the party to move): each checks msg.sender's part",
);
open(
  "TaskRegistry",
  ["timeoutDispute(uint256)"],
  "permissionless step, valid only after a bisection move lapsed; the keeper's bounty comes from the lapsed side",
);
open(
  "TaskRegistry",
  ["claimKeeperCredits(uint8,address)"],
  "pays only msg.sender's own credited keeper bounties (zeroed before the transfer; issue 21 item 6)",
);
open(
  "TaskRegistry",
  ["appeal(uint256,bytes32,bytes32,bytes32[],bytes32,bytes32[])"],
  "the client's appeal of its accepted task (issue 21): client only, inside the appeal window, bonded",
);
open(
  "TaskRegistry",
  ["closeAppeal(uint256)"],
  "permissionless step, valid only after an unused appeal window ended; releases the executor's lock and records its completion, moves no funds",
);
open(
  "TaskRegistry",
  ["releaseSeat(uint256,address)"],
  "permissionless step, valid once per seat after a verdict (TSK-08, issue 18 item 4); frees only that member's own duty lock, moves no funds",
);
open(
  "TaskRegistry",
  ["flushReplenishment()"],
  "accounts DPS already at the reward pool whose replenish failed (item 17); the amount is the stored backlog",
);
open(
  "StreamTasks",
  [
    "open((uint8,uint8,uint8,uint64,uint128,uint8,uint128,bytes32,bytes32))",
    "fund(uint256,uint128)",
    "retract(uint256)",
    "updateSpec(uint256,bytes32,bytes32)",
    "withdraw(uint256)",
    "reportFailedConsensus(uint256)",
    "resume(uint256)",
  ],
  "a stream's client managing its own stream (StreamNotClient otherwise)",
);
open(
  "StreamTasks",
  ["subscribe(uint256,uint128)", "unsubscribe(uint256)"],
  "a provider's own subscription to a stream",
);
open(
  "StreamTasks",
  ["settle((uint256,address,uint64,uint128)[],bytes[])"],
  "settles receipts signed by the stream's client (EIP-712, SEC-03): the signatures authorise payment",
);
open(
  "StreamTasks",
  ["request(uint256,bytes32)"],
  "a stream's client asking its own stream's council (StreamNotClient otherwise)",
);
open(
  "StreamTasks",
  [
    "answer(uint256,uint32,bytes32)",
    "commitAnswer(uint256,uint32,bytes32)",
    "revealAnswer(uint256,uint32,bytes32,bytes32)",
    "claimUnpaid(uint256,uint32[])",
  ],
  "a council member's own answer or claim (StreamNotMember / StreamAnswerRejected otherwise)",
);
open(
  "StreamTasks",
  ["challenge(uint256,uint32)"],
  "anyone may dispute an optimistic first answer by posting the bond, which answers for a false challenge",
);
open(
  "StreamTasks",
  ["resolve(uint256,uint32)", "slashFaulty(uint256,uint32,address)", "releaseDutyLock(uint256,address)"],
  "deadline-driven maintenance: the outcome is fixed by the recorded answers and windows, not by the caller (TSK-03)",
);

open(
  "ClearingHouse",
  [
    "syncVolatility(uint256)",
    "syncMarketRisk(address,(uint64,uint64,uint64,uint64))",
    "syncMarketVolatility(address,uint256,uint256,uint256)",
  ],
  "margin-rate copy pushed by the RiskEngine: applied only when the caller is the configured RiskEngine, a no-op for anyone else (a replaced engine's push must not revert its own update)",
);

// Perpetuals and the LP vault
open(
  "LiquidityVault",
  [
    "deposit(uint256,address)",
    "mint(uint256,address)",
    "withdraw(uint256,address,address)",
    "redeem(uint256,address,address)",
  ],
  "ERC-4626 entry points: a caller deposits its own USDC, or withdraws its own (or allowed) shares",
);
open("LiquidityVault", ERC20, HOLDER);
open(
  "PerpMarket",
  ["commitOrder(int256,uint256)", "closePosition(uint256)"],
  "a trader commits an order on its own position (paying its own execution fee); filled later at a price nobody picks",
);
open(
  "PerpMarket",
  ["executeOrder(address,uint80)", "cancelOrder(address)"],
  "keeper work on a committed order: fills only at the oracle round in force at its price time, cancels only after expiry",
);
open(
  "PerpMarket",
  ["pokeFunding()", "performUpkeep(bytes)", "settleFunding(address)"],
  "keeper work (MKT-03): accrues the funding index or settles an account's owed funding; no caller-chosen amount",
);
open(
  "PerpMarket",
  ["claimKeeperBounty()", "flushBurnReserve()"],
  "pays the caller's own accrued bounty / sends the burn reserve to the configured burn sink only",
);
// Futures
open(
  "FuturesMarket",
  [
    "commitOrder(uint256,int256,uint256)",
    "closePosition(uint256,uint256)",
    "roll(uint256,uint256,uint256)",
    "electDelivery(uint256,uint256)",
    "deliver(uint256,uint256)",
    "withdrawEscrow(uint256,uint256)",
  ],
  "a trader acting on its own position or its own CH escrow (margin checked by the ClearingHouse; an order pays its own fee and escrows its own margin; a roll moves the caller's own position between series with one margin check at the end)",
);
open(
  "FuturesMarket",
  ["takeDelivery(uint256,address,address)"],
  "only the configured DeliveryOrders contract (or, with none set, the settled long itself) takes a settled long's delivery claim, once (checked inside: FuturesNotDeliveryOrders)",
);
open(
  "FuturesMarket",
  ["executeOrder(address,uint256,uint80)", "cancelOrder(address,uint256)"],
  "keeper work on a committed order: fills only at the oracle round in force at its price time, cancels only after expiry",
);
open(
  "FuturesMarket",
  [
    "listStandardSeries(uint8)",
    "listStandardSeriesAt(uint8,uint64)",
    "fixSettlementPrice(uint256)",
    "finalizeSettlement(uint256)",
    "settlePosition(uint256,address)",
    "settlePositions(uint256,address[])",
    "performUpkeep(bytes)",
  ],
  "listing on the fixed standard grid (monthly/quarterly up to 366 days ahead, pausable) and expiry steps valid only when due (MKT-04), priced by the oracle",
);
open("FuturesMarket", ["claimBounties(address)"], "pays bounties accrued to the given keeper, to that keeper");
open(
  "FuturesMarket",
  ["fillOrder((address,uint256,bool,uint256,uint256,uint256,uint64,address),bytes,uint256)"],
  "trader-against-trader fill of a maker's EIP-712 signed order (issue 19): the maker's signature authorises its leg, the caller is the other leg; both margin-checked, pausable for new risk",
);
open(
  "FuturesMarket",
  ["cancelSignedOrder((address,uint256,bool,uint256,uint256,uint256,uint64,address))", "raiseMinNonce(uint256)"],
  "a maker voids its own signed orders (checked inside against msg.sender)",
);
open(
  "FuturesMarket",
  ["demandDeliveryProof(uint256,address)", "closeUnproven(uint256,address)"],
  "the short's own guarantor demands proof (checked inside); closing an unproven short after the window only reduces risk",
);
open(
  "DeliveryOrders",
  [
    "submitTask(uint256,(uint8,uint8,uint8,uint8,uint8,uint8,uint16,uint16,uint32,uint40,uint128,uint128,uint256),(bytes32,bytes32,bytes32,bytes32,bytes32,string))",
    "close(uint256)",
  ],
  "the order's owner consumes or closes its own order (checked inside); anyone closes it only after its window, returning the CH to the owner",
);
open(
  "DeliveryOrders",
  ["assign(uint256,address[])", "claimTask(uint256)", "reportFailure(uint256)"],
  "keeper work: assignment ranks the page with the ProviderMatcher's Delivery mode; task accounting and failure reports only move value to the order's owner",
);
// Options
open(
  "OptionsMarket",
  [
    "write(uint256,uint256)",
    "close(uint256,uint256)",
    "transferLong(uint256,address,uint256)",
    "exercise(uint256,address)",
  ],
  "a writer or holder acting on its own collateral or options; exercise pays the holder only after expiry",
);
open(
  "OptionsMarket",
  [
    "fillOffer((address,uint256,bool,uint256,uint256,uint256,uint64,address),bytes,uint256)",
    "cancelOffer((address,uint256,bool,uint256,uint256,uint256,uint64,address))",
    "raiseMinNonce(uint256)",
  ],
  SIGNED,
);
open(
  "OptionsMarket",
  [
    "listStandardSeries(uint8,uint128,uint64)",
    "listStandardFuturesSeries(uint8,uint128,uint64,uint64)",
    "delistSeries(uint256)",
    "fixSettlementPrice(uint256)",
    "settleSeries(uint256,uint256)",
    "performUpkeep(bytes)",
  ],
  "listing on the standard strike/expiry grid (bonded), removing an unused listing after its grace day, and settlement steps valid only when due, priced by the oracle",
);
open("OptionsMarket", ["withdrawFees()"], "sends accrued fees to the configured fee recipient only");
open(
  "OptionsMarket",
  ["writeMargined(uint256,uint256)"],
  "a writer adding shorts to its own ClearingHouse account, which must still cover initial margin (portfolio margin)",
);

// Vendor automation periphery (contracts/periphery: no storage, no roles, holds nothing between calls)
open(
  "LiquidationChecker",
  ["performUpkeep(bytes)"],
  "liquidates through the permissionless LiquidationEngine, which re-checks each account; forwards the bounty to the fixed beneficiary",
);
open("LiquidationChecker", ["sweep()"], "sends any USDC the checker holds to its fixed beneficiary only");
open(
  "VolatilityChecker",
  ["performUpkeep(bytes)"],
  "calls the permissionless RiskEngine.updateVolatility (reverts before the interval); forwards the bounty to the fixed beneficiary",
);
open(
  "FuturesMarket",
  ["fixSettlementPriceAt(uint256,uint80,uint64[])"],
  "expiry step valid only when due (MKT-04): the index TWAP over the hour before expiry from caller-named feed rounds, each proven in force by the oracle (none can be skipped, added or moved)",
);
open(
  "FuturesMarket",
  [
    "matchOrders((address,uint256,bool,uint256,uint256,uint256,uint64,address),bytes,(address,uint256,bool,uint256,uint256,uint256,uint64,address),bytes,uint256)",
  ],
  "matches two makers' EIP-712 signed orders (issue 19): each signature authorises its own leg at its own limit, both margin-checked, pausable for new risk; the caller only earns the spread",
);
open(
  "FuturesMarket",
  ["fixSettlementPriceFallback(uint256,uint80,uint64,uint80,uint64)"],
  "expiry step valid only when due (expiry + FALLBACK_DELAY_SEC) and only for a window proven stale by the oracle: the price is the one first round after expiry (no choice of round or time), disputable like the TWAP",
);

export const PERMISSIONLESS: Record<string, string> = Object.fromEntries(
  entries.flatMap(([keys, reason]) => keys.map((k) => [k, reason])),
);
