/**
 * SEC-01 machinery: scans every state-changing function of every contract in a deployment record, calling each
 * (eth_call, no state change) as `caller` with zero-valued arguments, and classifies the outcome as an
 * authorisation revert or not. The function-role map is read from the AccessManager at runtime.
 */
import { AbiCoder, Interface, type FunctionFragment, type ParamType, ZeroAddress } from "ethers";
import type { NetworkConnection } from "hardhat/types/network";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { type DeploymentRecord } from "@chx/sdk";

/**
 * Revert errors that mean "you may not call this": OpenZeppelin's (AccessManaged, AccessManager, AccessControl,
 * Ownable, Governor, Timelock) and any custom error whose name says the caller is the wrong one
 * (`…Unauthorized…`, `…Only<Caller>`), which is how modules that check their one caller by address name it, and
 * the ClearingHouse's `ClearingMarketNotRegistered` (its market entry points admit registered markets only).
 */
export const AUTH_ERROR = /Unauthori[sz]ed|Only[A-Z]|RequiredDelay|NotAuthori[sz]ed|MarketNotRegistered/;

export type Outcome =
  | { kind: "auth"; error: string }
  /** `initialize` of a proxy that is already initialised (SEC-02): closed to everyone, forever. */
  | { kind: "initialized"; error: string }
  | { kind: "open"; error?: string }; // succeeded, or reverted for a reason other than authorisation

export interface ScannedFunction {
  /** Deployment record name (e.g. "ClearingHouse"). */
  name: string;
  /** Solidity contract name of the implementation. */
  contract: string;
  address: string;
  signature: string;
  selector: string;
  /** AccessManager role of the selector when the target is AccessManaged (else undefined). */
  role?: bigint;
  outcome: Outcome;
}

/** A zero-valued argument of any ABI type (nonzero address so "zero address" checks are not what reverts). */
export function zeroValue(p: ParamType): unknown {
  if (p.baseType === "tuple") return (p.components ?? []).map(zeroValue);
  if (p.baseType === "array") {
    if (p.arrayLength === -1 || p.arrayLength === null) return [];
    return Array.from({ length: p.arrayLength }, () => zeroValue(p.arrayChildren!));
  }
  if (p.type === "address") return "0x000000000000000000000000000000000000dEaD";
  if (p.type === "bool") return false;
  if (p.type === "string") return "";
  if (p.type === "bytes") return "0x00000000"; // a zero selector: AccessManager reads the first four bytes
  if (p.type.startsWith("bytes")) return "0x" + "00".repeat(Number(p.type.slice(5)));
  return 0n; // uint*/int*
}

export function stateChanging(iface: Interface): FunctionFragment[] {
  const out: FunctionFragment[] = [];
  iface.forEachFunction((f) => {
    if (f.stateMutability !== "view" && f.stateMutability !== "pure") out.push(f);
  });
  return out;
}

function revertData(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 6 && cur !== undefined && cur !== null; i++) {
    const o = cur as { data?: unknown; error?: unknown; cause?: unknown; info?: { error?: unknown } };
    if (typeof o.data === "string" && o.data.startsWith("0x")) return o.data;
    if (typeof o.data === "object" && o.data !== null && typeof (o.data as { data?: unknown }).data === "string") {
      return (o.data as { data: string }).data;
    }
    cur = o.error ?? o.info?.error ?? o.cause;
  }
  return undefined;
}

/** Calls `data` on `to` as `from` (eth_call) and classifies the result. */
export async function probe(
  connection: NetworkConnection,
  iface: Interface,
  from: string,
  to: string,
  data: string,
): Promise<Outcome> {
  try {
    await connection.ethers.provider.call({ from, to, data });
    return { kind: "open" };
  } catch (e) {
    const raw = revertData(e);
    if (raw === undefined || raw === "0x") return { kind: "open", error: raw === "0x" ? "empty revert" : String(e) };
    let name: string;
    try {
      const parsed = iface.parseError(raw);
      name = parsed === null ? `unknown ${raw.slice(0, 10)}` : parsed.name;
    } catch {
      name = `unknown ${raw.slice(0, 10)}`;
    }
    if (AUTH_ERROR.test(name)) return { kind: "auth", error: name };
    if (name === "InvalidInitialization") return { kind: "initialized", error: name };
    return { kind: "open", error: name };
  }
}

const MANAGER_ABI = [
  "function getTargetFunctionRole(address target, bytes4 selector) view returns (uint64)",
  "event RoleGranted(uint64 indexed roleId, address indexed account, uint32 delay, uint48 since, bool newMember)",
  "event RoleRevoked(uint64 indexed roleId, address indexed account)",
];

/** Current members of every AccessManager role, from its RoleGranted/RoleRevoked history. */
export async function roleMembers(connection: NetworkConnection, manager: string): Promise<Map<bigint, Set<string>>> {
  const iface = new Interface(MANAGER_ABI);
  const logs = await connection.ethers.provider.getLogs({ address: manager, fromBlock: 0, toBlock: "latest" });
  const members = new Map<bigint, Set<string>>();
  for (const log of logs) {
    const ev = iface.parseLog(log);
    if (ev === null) continue;
    const role = ev.args.roleId as bigint;
    const account = (ev.args.account as string).toLowerCase();
    if (!members.has(role)) members.set(role, new Set());
    if (ev.name === "RoleGranted") members.get(role)!.add(account);
    else members.get(role)!.delete(account);
  }
  return members;
}

/** Whether an artifact is test-only (contracts/mocks) — never deployed on a real network. */
export function isMock(sourceName: string): boolean {
  return sourceName.startsWith("contracts/mocks/");
}

/**
 * Whether a record entry is a delegate module: an AccessManaged core contract deployed plain (not behind a proxy),
 * whose code only ever runs by delegatecall from its market's proxy (FuturesDelivery behind FuturesMarket,
 * OptionsSettlement behind OptionsMarket). Its functions are part of the proxy's ABI and scanned there; called
 * directly it runs on its own empty storage (no authority, no roles, no funds), so it is not scanned itself.
 */
export function isDelegateModule(kind: string, sourceName: string, managed: boolean): boolean {
  return kind === "plain" && managed && sourceName.startsWith("contracts/core/");
}

/** Scans every non-mock contract of `record` as `caller` (delegate modules through their proxy). */
export async function scanRecord(
  hre: HardhatRuntimeEnvironment,
  connection: NetworkConnection,
  record: DeploymentRecord,
  caller: string,
): Promise<ScannedFunction[]> {
  const managerAddr = record.contracts.AccessManager?.address;
  const manager =
    managerAddr === undefined
      ? undefined
      : new connection.ethers.Contract(managerAddr, MANAGER_ABI, connection.ethers.provider);
  const out: ScannedFunction[] = [];
  for (const [name, rec] of Object.entries(record.contracts)) {
    if (rec.abiHash === "") continue; // an external address (real USDC, a Chainlink feed)
    const artifact = await hre.artifacts.readArtifact(rec.contract);
    if (isMock(artifact.sourceName)) continue;
    const iface = new Interface(artifact.abi);
    const managed = iface.getFunction("authority") !== null && name !== "AccessManager";
    if (isDelegateModule(rec.kind, artifact.sourceName, managed)) continue;
    for (const f of stateChanging(iface)) {
      const data = iface.encodeFunctionData(f, f.inputs.map(zeroValue));
      const outcome = await probe(connection, iface, caller, rec.address, data);
      const role =
        managed && manager !== undefined
          ? ((await manager.getFunction("getTargetFunctionRole")(rec.address, f.selector)) as bigint)
          : undefined;
      out.push({
        name,
        contract: rec.contract,
        address: rec.address,
        signature: f.format("sighash"),
        selector: f.selector,
        role,
        outcome,
      });
    }
  }
  return out;
}

export { AbiCoder, ZeroAddress };
