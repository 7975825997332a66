/**
 * Gas profile of one benchmarked transaction (`CHX_BENCH_TRACE=<regex over bench keys>`): replays it with
 * `debug_traceTransaction` and prints the call tree with each frame's inclusive gas, its own (exclusive) gas and
 * its storage work (cold/warm SLOADs, SSTOREs by cost), contracts named from the deployment record. The tool the
 * gas targets of issues 6 and 7 were worked with; it never changes a figure in bench/gas.json.
 */
import type { NetworkConnection } from "hardhat/types/network";

interface StructLog {
  depth: number;
  gas: number;
  gasCost: number;
  op: string;
  stack?: string[];
}

interface Frame {
  label: string;
  depth: number;
  startGas: number;
  inclusive: number;
  childGas: number;
  sloadCold: number;
  sloadWarm: number;
  sstore: number[];
  logs: number;
  children: Frame[];
}

const CALLS = new Set(["CALL", "STATICCALL", "DELEGATECALL", "CALLCODE"]);

function word(stack: string[], fromTop: number): string {
  const v = stack[stack.length - 1 - fromTop] ?? "0x0";
  return v.startsWith("0x") ? v : `0x${v}`;
}

/** Prints the gas profile of `hash`; `names` maps lower-case addresses to contract names. */
export async function traceGas(
  connection: NetworkConnection,
  hash: string,
  names: Map<string, string>,
  gasUsed: bigint,
): Promise<void> {
  const res = (await connection.provider.request({
    method: "debug_traceTransaction",
    params: [hash, { disableMemory: true, disableStorage: true }],
  })) as { structLogs: StructLog[] };
  const logs = res.structLogs;
  const first = logs[0];
  if (first === undefined) return;
  const root: Frame = {
    label: "tx",
    depth: 1,
    startGas: first.gas,
    inclusive: 0,
    childGas: 0,
    sloadCold: 0,
    sloadWarm: 0,
    sstore: [],
    logs: 0,
    children: [],
  };
  const stack: Frame[] = [root];
  for (let i = 0; i < logs.length; i++) {
    const s = logs[i] as StructLog;
    let top = stack[stack.length - 1] as Frame;
    while (s.depth < top.depth && stack.length > 1) {
      stack.pop();
      const parent = stack[stack.length - 1] as Frame;
      parent.childGas += top.inclusive;
      top = parent;
    }
    if (s.op === "SLOAD") {
      if (s.gasCost >= 2100) top.sloadCold++;
      else top.sloadWarm++;
    } else if (s.op === "SSTORE") top.sstore.push(s.gasCost);
    else if (s.op.startsWith("LOG")) top.logs += s.gasCost;
    if (CALLS.has(s.op) && s.stack !== undefined) {
      const next = logs[i + 1];
      if (next !== undefined && next.depth === s.depth + 1) {
        // inclusive cost = gas before the call op − gas left when the caller resumes
        let j = i + 1;
        while (j < logs.length && (logs[j] as StructLog).depth > s.depth) j++;
        const resume = logs[j];
        const to = word(s.stack, 1).slice(-40).padStart(40, "0").toLowerCase();
        const name = names.get(`0x${to}`) ?? `0x${to.slice(0, 8)}…`;
        const frame: Frame = {
          label: `${s.op === "DELEGATECALL" ? "⤷ " : ""}${name}`,
          depth: s.depth + 1,
          startGas: s.gas,
          inclusive: resume === undefined ? 0 : s.gas - resume.gas,
          childGas: 0,
          sloadCold: 0,
          sloadWarm: 0,
          sstore: [],
          logs: 0,
          children: [],
        };
        top.children.push(frame);
        stack.push(frame);
      }
    }
  }
  while (stack.length > 1) {
    const f = stack.pop() as Frame;
    (stack[stack.length - 1] as Frame).childGas += f.inclusive;
  }
  const last = logs[logs.length - 1] as StructLog;
  root.inclusive = first.gas - last.gas + last.gasCost;
  const intrinsic = Number(gasUsed) - root.inclusive;
  console.log(`    gas profile: ${gasUsed} used = ${intrinsic} intrinsic+refund-adjusted + ${root.inclusive} executed`);
  const print = (f: Frame, indent: string): void => {
    const own = f.inclusive - f.childGas;
    const sst = f.sstore.length > 0 ? ` sstore[${f.sstore.join(",")}]` : "";
    console.log(
      `    ${indent}${f.label.padEnd(34 - indent.length)} incl ${String(f.inclusive).padStart(7)}  own ${String(own).padStart(6)}` +
        `  sload ${f.sloadCold}c/${f.sloadWarm}w${sst}${f.logs > 0 ? ` log ${f.logs}` : ""}`,
    );
    for (const c of f.children) print(c, `${indent}  `);
  };
  print(root, "");
}
