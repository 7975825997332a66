// Hook handlers of the `chx-test-outputs` plugin (hardhat.config.ts): with CHX_TEST_OUTPUTS_ONLY=1 a solc job is asked
// for contract outputs (bytecode, ABI, source maps …) of the test sources only — files under `test/` and `*.t.sol`.
//
// Why: Hardhat asks solc for every output of every contract in a job (`outputSelection["*"]["*"]`), so the job that
// builds the Solidity tests (`--no-contracts`) also generated the bytecode of every contract the tests import — a
// second full codegen of the protocol, 538 s of the instrumented tree's 1,752 s critical path in round 38. The
// contracts' artifacts already come from the contracts' own job; the tests deploy them with `deployCode`, and solc
// still generates the creation code a test embeds with `new X(...)` (a dependency of the test's own bytecode, not an
// output). Every source keeps its AST (Hardhat's build info and the coverage metadata need nothing more), and the
// test sources get every output but the opcode listings (below).
// scripts/build.mjs sets the switch for the tests' job of the instrumented tree only; see docs/toolchain.md.
import type { HardhatHooks } from "hardhat/types/hooks";

/** A test source: the roots of a `--no-contracts` job and the helpers they import from test/. */
export function isTestSource(sourceName: string): boolean {
  return sourceName.startsWith("project/test/") || sourceName.endsWith(".t.sol");
}

export default async (): Promise<Partial<HardhatHooks["solidity"]>> => ({
  invokeSolc: async (context, compiler, solcInput, solcConfig, next) => {
    if (process.env.CHX_TEST_OUTPUTS_ONLY !== "1") return next(context, compiler, solcInput, solcConfig);
    const all = solcInput.settings.outputSelection ?? {};
    const fileLevel = all["*"]?.[""] ?? ["ast"];
    // no opcode listings: the textual disassembly is the bulk of the tests' JSON output, which solc-js must hold in
    // its wasm heap ("Error writing output JSON" when it does not fit); Hardhat and EDR read the bytecode objects and
    // source maps, never the listings
    const contractLevel = (all["*"]?.["*"] ?? []).filter((o) => !o.endsWith(".opcodes"));
    const outputSelection: Record<string, Record<string, string[]>> = { "*": { "": fileLevel } };
    for (const sourceName of Object.keys(solcInput.sources)) {
      if (isTestSource(sourceName)) outputSelection[sourceName] = { "": fileLevel, "*": contractLevel };
    }
    return next(context, compiler, { ...solcInput, settings: { ...solcInput.settings, outputSelection } }, solcConfig);
  },
});
