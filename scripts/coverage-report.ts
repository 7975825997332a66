// `hardhat --coverage run scripts/coverage-report.ts` (scripts/coverage.mjs): one coverage report over the data the
// instrumented test runs left in coverage/data/<runner>/ — the Solidity and mocha runs go side by side as two
// processes, each saving its own runner's data, and this writes the one lcov.info + html over both.
//
// The statements' metadata (which tag is which source range) is gathered while Hardhat builds the instrumented tree:
// this builds its contracts first (a cache hit, "No contracts to compile", but every project file is still
// preprocessed), so the report sees every instrumented contract, hit or not. It runs under `--no-compile` and builds
// the contracts only: `hardhat run`'s own build would compile the Solidity tests with the default profile.
import hre from "hardhat";

/** Hardhat's coverage manager, installed on the HRE under `--coverage` (hardhat 3.x internal: pinned by the lock). */
interface CoverageManager {
  report(...ids: string[]): Promise<void>;
}

const RUNNERS = ["solidity", "mocha"];
const manager = (hre as unknown as { _coverage?: CoverageManager })._coverage;
if (manager === undefined || typeof manager.report !== "function") {
  throw new Error(
    "coverage-report: run it as `hardhat --coverage run scripts/coverage-report.ts` (no coverage manager)",
  );
}
await hre.tasks.getTask("build").run({ quiet: true, noTests: true });
await manager.report(...RUNNERS);
