import { createRequire } from "node:module";
import { configVariable, defineConfig } from "hardhat/config";
import type { HardhatPlugin } from "hardhat/types/plugins";
import hardhatToolboxMochaEthers from "@nomicfoundation/hardhat-toolbox-mocha-ethers";
import hardhatUpgrades from "@openzeppelin/hardhat-upgrades";
import { chxTasks } from "./tasks/index.js";

const require = createRequire(import.meta.url);
// The compiler is solc-js from the pinned npm package: nothing is downloaded, and the version label
// can never drift from the compiler actually used (Hardhat does not cross-check `path` and `version`).
const SOLC_VERSION: string = (require("solc/package.json") as { version: string }).version;
const SOLCJS_PATH = require.resolve("solc/soljson.js");

const optimizer = { enabled: true, runs: 200 };
const LIGHT_OPTIMIZER = {
  enabled: false,
  runs: 200,
  details: {
    yul: true,
    peephole: true,
    inliner: false,
    jumpdestRemover: true,
    orderLiterals: false,
    deduplicate: false,
    cse: false,
    constantOptimizer: false,
  },
};

// CHX_BUILD_DIR: a second build tree (artifacts, cache, TypeChain output) beside the plain one. scripts/coverage.mjs
// runs the instrumented suite in `.coverage-build/`, so `npm test` can run it alongside the steps that need the
// plain contracts (subgraph, keepers) without either seeing the other's bytecode.
const BUILD_DIR = process.env.CHX_BUILD_DIR;

// Real networks: the URL and the deployer key are configuration variables, resolved from Hardhat's encrypted keystore
// (`npx hardhat keystore set CHX_DEPLOYER_KEY`) or else the environment. Nothing falls back to 127.0.0.1: without
// CHX_RPC_URL the network refuses to start. `chainId` is checked against the node before a deploy sends anything.
const remote = (chainId: number) => ({
  type: "http" as const,
  chainId,
  url: configVariable("CHX_RPC_URL"),
  accounts: [configVariable("CHX_DEPLOYER_KEY")],
});

// CHX_TEST_OUTPUTS_ONLY=1 (scripts/build.mjs, the instrumented tree's test job): solc generates contract outputs for
// the test sources only, not a second copy of every contract the tests import (scripts/hardhat/test-outputs.ts).
const testOutputsOnly: HardhatPlugin = {
  id: "chx-test-outputs",
  hookHandlers: { solidity: () => import("./scripts/hardhat/test-outputs.js") },
};

export default defineConfig({
  plugins: [hardhatToolboxMochaEthers, hardhatUpgrades, testOutputsOnly],
  tasks: chxTasks,
  solidity: {
    profiles: {
      default: {
        version: SOLC_VERSION,
        path: SOLCJS_PATH,
        settings: { evmVersion: "cancun", optimizer, viaIR: false },
      },
      // The instrumented tree's Solidity tests (scripts/build.mjs under CHX_BUILD_COVERAGE=1 builds them with
      // `--build-profile coverageTests --no-contracts`). A test file's job recompiles every contract it imports, so the
      // tests are most of that tree's solc-js time; a light optimizer (Yul and peephole only — with none at all the ABI
      // coder hits "stack too deep") roughly halves it. The contracts' own artifacts, which the mocha tests and the
      // deploy script use, still come from the default profile: OpenZeppelin's upgrades plugin refused light-optimizer
      // bytecode in 37 mocha tests ("Bytecode is not a valid hex string"; docs/toolchain.md).
      coverageTests: {
        version: SOLC_VERSION,
        path: SOLCJS_PATH,
        settings: { evmVersion: "cancun", optimizer: LIGHT_OPTIMIZER, viaIR: false },
      },
      production: {
        version: SOLC_VERSION,
        path: SOLCJS_PATH,
        isolated: true,
        settings: { evmVersion: "cancun", optimizer, viaIR: false },
      },
    },
    npmFilesToBuild: ["@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol"],
  },
  paths: {
    tests: { mocha: "test", solidity: "test" },
    ...(BUILD_DIR === undefined ? {} : { artifacts: `${BUILD_DIR}/artifacts`, cache: `${BUILD_DIR}/cache` }),
  },
  // TypeChain's own default is types/ethers-contracts (what scripts and tests import)
  typechain: BUILD_DIR === undefined ? {} : { outDir: `${BUILD_DIR}/types/ethers-contracts` },
  // `npm test` runs the hardhat tests instrumented (scripts/coverage.mjs); test doubles are not instrumented (the
  // floor is on contracts/core, and uninstrumented mocks compile faster and stay under EIP-170).
  coverage: {
    skipFiles: ["contracts/mocks/**"],
  },
  test: {
    // `default` is the CI profile. `deep` is the long local profile (docs/invariants.md):
    // `HARDHAT_TEST_PROFILE=deep npx hardhat test solidity test/invariant/Protocol.t.sol` (or `npm run test:deep`).
    solidity: {
      profiles: {
        default: {
          fuzz: { runs: 256 },
          invariant: { runs: 32, depth: 100, failOnRevert: false },
        },
        // `CHX_FUZZ_SEED=0x…` re-runs the deep campaigns from another seed (the default seed is Hardhat's fixed one);
        // a failing deep campaign's call sequence is kept under cache/invariant and replayed first on the next run.
        deep: {
          fuzz: { runs: 10_000, ...(process.env.CHX_FUZZ_SEED ? { seed: process.env.CHX_FUZZ_SEED } : {}) },
          invariant: { runs: 500, depth: 200, failOnRevert: false, failurePersistDir: "cache/invariant" },
        },
      },
    },
    mocha: { timeout: 120_000 },
  },
  networks: {
    hardhatMainnet: { type: "edr-simulated", chainType: "l1" },
    localhost: { type: "http", chainType: "l1", url: process.env.CHX_LOCAL_RPC ?? "http://127.0.0.1:8545" },
    sepolia: { ...remote(11_155_111), chainType: "l1" },
    arbitrumSepolia: { ...remote(421_614), chainType: "generic" },
  },
  // `npm run verify -- --network <name>`: source verification of every recorded contract (scripts/verify.ts).
  verify: {
    etherscan: { apiKey: configVariable("CHX_ETHERSCAN_API_KEY") },
  },
});
