/**
 * Per-job profit: the bounties a keeper's own transaction earned, read from its receipt's logs, against the gas it
 * paid. Every CHX bounty event names the keeper and the amount (`AccountLiquidated(…, keeper, …, bountyUsdc, …)`,
 * `VolatilityUpdated(keeper, …, bountyUsdc)`, `EpochClosed(…, closedBy, bountyDps)`, `RebalanceBatch(…, keeper,
 * bountyDps)`, `FundingPoked(keeper, …, bountyUsdc)`, futures `BountyCredited(keeper, amountUsdc, …)`, options
 * `KeeperPaid(keeper, …, bountyUsdc)`), so the events are decoded with the SDK's ABIs and no per-job code. The asset
 * comes from the amount's name (`…Usdc` → USDC, 6 decimals; `…Dps` → DPS, 18). Events that restate a bounty
 * another event of the same transaction reports are left out (`LiquidationBountyPaid` restates the engine's
 * `AccountLiquidated`; where a contract emits `BountyCredited`, its other events' amounts are the same credit).
 * Profit in wei needs a price per asset (config `prices`); without one the bounty is reported in its own units.
 */
import { Interface, type EventFragment } from "ethers";
import { abis } from "@chx/sdk";

export interface Bounty {
  asset: "USDC" | "DPS" | "ETH" | "CH";
  /** In the asset's smallest unit. */
  amount: bigint;
  event: string;
  contract: string;
}

const DECIMALS: Record<Bounty["asset"], number> = { USDC: 6, DPS: 18, ETH: 18, CH: 18 };
/** TaskRegistry's `KeeperBountyPaid(…, currency, amount, …)`: the asset is the task's currency (ITaskRegistry.Currency). */
const TASK_CURRENCY: ReadonlyArray<Bounty["asset"]> = ["CH", "USDC", "DPS"];
const RESTATED = new Set(["LiquidationBountyPaid", "KeeperBountyClaimed", "RewardsClaimed"]);
const KEEPER_ARGS = new Set(["keeper", "closedBy", "caller", "by"]);

let merged: Interface | undefined;
function events(): Interface {
  if (merged !== undefined) return merged;
  const seen = new Set<string>();
  const frags: EventFragment[] = [];
  for (const abi of Object.values(abis as Record<string, readonly unknown[]>)) {
    const iface = new Interface(abi as never);
    iface.forEachEvent((ev) => {
      if (!seen.has(ev.topicHash)) {
        seen.add(ev.topicHash);
        frags.push(ev);
      }
    });
  }
  merged = new Interface(frags);
  return merged;
}

function assetOf(name: string): Bounty["asset"] | undefined {
  if (/Usdc$/.test(name)) return "USDC";
  if (/Dps$/.test(name)) return "DPS";
  if (/Wei$/.test(name)) return "ETH";
  return undefined;
}

/** The bounties `keeper` earned in a transaction's logs. */
export function bountiesIn(
  logs: ReadonlyArray<{ address: string; topics: ReadonlyArray<string>; data: string }>,
  keeper: string,
): Bounty[] {
  const me = keeper.toLowerCase();
  const found: Bounty[] = [];
  for (const l of logs) {
    let ev;
    try {
      ev = events().parseLog({ topics: [...l.topics], data: l.data });
    } catch {
      continue;
    }
    if (ev === null || RESTATED.has(ev.name)) continue;
    const inputs = ev.fragment.inputs;
    const mine = inputs.some(
      (p, i) => p.type === "address" && KEEPER_ARGS.has(p.name) && String(ev.args[i]).toLowerCase() === me,
    );
    if (!mine) continue;
    if (ev.name === "KeeperBountyPaid" && ev.args.currency !== undefined) {
      const asset = TASK_CURRENCY[Number(ev.args.currency)];
      const amount = ev.args.amount as bigint;
      if (asset !== undefined && amount > 0n)
        found.push({ asset, amount, event: ev.name, contract: l.address.toLowerCase() });
      continue;
    }
    inputs.forEach((p, i) => {
      const isAmount = /^bounty/.test(p.name) || (ev.name === "BountyCredited" && p.name === "amountUsdc");
      const asset = assetOf(p.name);
      if (!isAmount || asset === undefined || !p.type.startsWith("uint")) return;
      const amount = ev.args[i] as bigint;
      if (amount > 0n) found.push({ asset, amount, event: ev.name, contract: l.address.toLowerCase() });
    });
  }
  // A contract that credits through BountyCredited reports the same credit in its other events: count it once.
  const crediting = new Set(found.filter((b) => b.event === "BountyCredited").map((b) => b.contract));
  return found.filter((b) => !crediting.has(b.contract) || b.event === "BountyCredited");
}

/** Value of `b` in wei at `prices` (wei per whole unit), or undefined without a price. */
export function valueWei(b: Bounty, prices: Record<string, bigint>): bigint | undefined {
  if (b.asset === "ETH") return b.amount;
  const p = prices[b.asset];
  return p === undefined ? undefined : (b.amount * p) / 10n ** BigInt(DECIMALS[b.asset]);
}

/** `amount` as a decimal of whole units (for metrics and logs). */
export function units(b: Bounty): number {
  return Number(b.amount) / 10 ** DECIMALS[b.asset];
}

/** USDC the keeper claimed to its wallet in a transaction (bounty claims and margin withdrawals), 6 decimals. */
export function claimsIn(
  logs: ReadonlyArray<{ address: string; topics: ReadonlyArray<string>; data: string }>,
  keeper: string,
): bigint {
  const me = keeper.toLowerCase();
  let total = 0n;
  for (const l of logs) {
    let ev;
    try {
      ev = events().parseLog({ topics: [...l.topics], data: l.data });
    } catch {
      continue;
    }
    if (ev === null) continue;
    const who = ev.name === "MarginWithdrawn" ? ev.args.account : /Claimed$/.test(ev.name) ? ev.args.keeper : undefined;
    if (typeof who !== "string" || who.toLowerCase() !== me) continue;
    const amount = ev.args.amountUsdc as bigint | undefined;
    if (typeof amount === "bigint") total += amount;
  }
  return total;
}
