/**
 * The deploy engine behind scripts/deploy.ts: idempotent proxy deployment with OpenZeppelin storage-layout
 * validation, AccessManager wiring, and the deployments/<network>.json record (deployments/deployment.schema.json).
 * Every module of the protocol is a DeployModule (scripts/deploy/modules/*) run in order by deployProtocol().
 *
 * The record is a journal: it is written after every contract the run deploys (`complete: false` until the last
 * module ran), with the contract's ABI in deployments/<network>/abi/. A run that stopped half way (a crash, a
 * killed process, an RPC outage) is resumed by running the deploy again: recorded contracts that are live are kept,
 * and every wiring step checks the chain before it sends anything. At most the one contract whose transaction was in
 * flight at the crash is deployed again (the orphan holds nothing and is never wired).
 */
import { writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { AbiCoder, keccak256, toUtf8Bytes, type Interface, type Signer } from "ethers";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";
import { upgrades as upgradesFactory, type HardhatUpgrades } from "@openzeppelin/hardhat-upgrades";
import {
  DeploymentError,
  readDeploymentFile,
  roleName,
  selectorOf,
  type ContractRecord,
  type DeploymentRecord,
} from "@chx/sdk";
import { ChxAccessManager__factory, type ChxAccessManager } from "../../types/ethers-contracts/index.js";
import type { ProtocolConfig } from "../deploy/config.js";

export type { ContractRecord, DeploymentRecord };
export { selectorOf };

export interface PendingOperation {
  target: string;
  data: string;
  description: string;
}

export interface DeployModule {
  name: string;
  deploy(ctx: DeployContext): Promise<void>;
}

type Logger = (msg: string) => void;

export interface DeployOptions {
  networkName: string;
  config: ProtocolConfig;
  /** Write deployments/<network>.json (false in tests on the in-process network). */
  write: boolean;
  log?: Logger;
  /** Directory of deployment records (default deployments/). */
  dir?: string;
}

type CodeRefs = Record<string, Array<{ start: number; length: number }>>;

/**
 * Compares runtime code with an artifact's, ignoring immutable slots (UUPS stores its own address there) and the
 * addresses of linked libraries (`deployedLinkReferences`: placeholders in the artifact).
 */
export function sameCode(
  onChain: string,
  built: string,
  immutables: CodeRefs | undefined,
  links?: Record<string, CodeRefs>,
): boolean {
  const a = onChain.toLowerCase().replace(/^0x/, "");
  const b = built.toLowerCase().replace(/^0x/, "");
  if (a.length !== b.length) return false;
  const slots = [...Object.values(immutables ?? {}), ...Object.values(links ?? {}).flatMap((l) => Object.values(l))];
  const mask = (hex: string) => {
    let out = hex;
    for (const refs of slots) {
      for (const { start, length } of refs) {
        out = out.slice(0, start * 2) + "0".repeat(length * 2) + out.slice((start + length) * 2);
      }
    }
    return out;
  };
  return mask(a) === mask(b);
}

/**
 * The external libraries `contract` links (its artifact's `linkReferences`), as getContractFactory's `libraries`
 * option, from addresses recorded under each library's name (the deploy records them when it deploys them).
 */
export async function linkedLibraries(
  hre: HardhatRuntimeEnvironment,
  record: DeploymentRecord,
  contract: string,
): Promise<Record<string, string>> {
  const artifact = await hre.artifacts.readArtifact(contract);
  const out: Record<string, string> = {};
  for (const libs of Object.values(artifact.linkReferences ?? {})) {
    for (const lib of Object.keys(libs)) {
      const rec = record.contracts[lib];
      if (rec === undefined) throw new Error(`deploy: ${contract} links ${lib}, which is not deployed`);
      out[lib] = rec.address;
    }
  }
  return out;
}

export class DeployContext {
  readonly pending: PendingOperation[] = [];
  /** Number of transactions this run sent: 0 on a no-op re-run. */
  txCount = 0;
  private manager?: ChxAccessManager;

  constructor(
    readonly hre: HardhatRuntimeEnvironment,
    readonly connection: NetworkConnection,
    readonly upgrades: HardhatUpgrades,
    readonly deployer: Signer,
    readonly deployerAddress: string,
    readonly record: DeploymentRecord,
    readonly config: ProtocolConfig,
    readonly log: Logger,
    /** Writes the journal (the record so far); a no-op when the run does not write files. */
    private readonly journal: (contract: string) => Promise<void> = async () => {},
  ) {}

  get ethers() {
    return this.connection.ethers;
  }

  address(name: string): string {
    const rec = this.record.contracts[name];
    if (rec === undefined) throw new Error(`deploy: "${name}" is not deployed yet (module order?)`);
    return rec.address;
  }

  has(name: string): boolean {
    return this.record.contracts[name] !== undefined;
  }

  accessManager(): ChxAccessManager {
    this.manager ??= ChxAccessManager__factory.connect(this.address("AccessManager"), this.deployer);
    return this.manager;
  }

  private async abiHash(contract: string): Promise<string> {
    const artifact = await this.hre.artifacts.readArtifact(contract);
    return keccak256(toUtf8Bytes(JSON.stringify(artifact.abi)));
  }

  private async source(contract: string): Promise<string> {
    return (await this.hre.artifacts.readArtifact(contract)).sourceName;
  }

  private async hasCode(address: string): Promise<boolean> {
    const code = await this.ethers.provider.getCode(address);
    return code !== "0x";
  }

  /**
   * Deploys `contract` behind a UUPS proxy (validated by OpenZeppelin's upgrades plugin) unless the record
   * already holds a live proxy under `name`. Returns the proxy address. `constructorArgs`: the implementation's
   * constructor arguments, for a contract whose configuration is implementation immutables (ComputePriceOracle).
   */
  async proxy(
    name: string,
    contract: string,
    initArgs: () => unknown[] | Promise<unknown[]>,
    constructorArgs: () => unknown[] | Promise<unknown[]> = () => [],
  ): Promise<string> {
    const existing = this.record.contracts[name];
    if (existing !== undefined && (await this.hasCode(existing.address))) {
      const impl = await this.upgrades.erc1967.getImplementationAddress(existing.address);
      const artifact = await this.hre.artifacts.readArtifact(contract);
      const onChain = await this.ethers.provider.getCode(impl);
      if (
        !sameCode(onChain, artifact.deployedBytecode, artifact.immutableReferences, artifact.deployedLinkReferences)
      ) {
        this.log(`  ${name}: deployed implementation differs from this build — run \`npm run upgrade\``);
      } else {
        this.log(`  ${name}: up to date at ${existing.address}`);
      }
      return existing.address;
    }
    const libraries = await this.libraries(contract);
    const factory = await this.ethers.getContractFactory(contract, { signer: this.deployer, libraries });
    const args = await initArgs();
    const ctorArgs = await constructorArgs();
    const proxy = await this.upgrades.deployProxy(factory, args, {
      kind: "uups",
      initializer: "initialize",
      ...(ctorArgs.length > 0 ? { constructorArgs: ctorArgs } : {}),
      // linked libraries hold no state and are called by delegatecall only (docs/upgrades.md)
      ...(Object.keys(libraries).length > 0 ? { unsafeAllow: ["external-library-linking" as const] } : {}),
    });
    await proxy.waitForDeployment();
    const address = await proxy.getAddress();
    const tx = proxy.deploymentTransaction();
    const receipt = await tx?.wait();
    this.txCount += 2;
    const implementation = await this.upgrades.erc1967.getImplementationAddress(address);
    this.record.contracts[name] = {
      contract,
      source: await this.source(contract),
      kind: "uups",
      address,
      implementation,
      deployBlock: receipt?.blockNumber ?? (await this.ethers.provider.getBlockNumber()),
      abiHash: await this.abiHash(contract),
      ...(tx?.hash !== undefined ? { txHash: tx.hash } : {}),
      // ERC1967Proxy(implementation, initializer call): what source verification of the proxy needs
      constructorArgs: AbiCoder.defaultAbiCoder().encode(
        ["address", "bytes"],
        [implementation, factory.interface.encodeFunctionData("initialize", args)],
      ),
      // the implementation's own constructor arguments (configuration as immutables): verification needs them
      ...(ctorArgs.length > 0 ? { implementationArgs: factory.interface.encodeDeploy(ctorArgs) } : {}),
    };
    this.log(`  ${name}: deployed proxy ${address}`);
    await this.journal(contract);
    return address;
  }

  /**
   * Deploys the external libraries `contract` links (each once, recorded under its name as a plain contract) and
   * returns them for getContractFactory's `libraries` option.
   */
  async libraries(contract: string): Promise<Record<string, string>> {
    const artifact = await this.hre.artifacts.readArtifact(contract);
    for (const [source, libs] of Object.entries(artifact.linkReferences ?? {})) {
      for (const lib of Object.keys(libs)) {
        // recorded under the bare name when it is unique in the build (the ABI file is then abi/<name>.json, as for
        // every other contract), else under its fully qualified name
        const fqn = `${source.replace(/^project\//, "")}:${lib}`;
        const unique = await this.hre.artifacts.artifactExists(lib).catch(() => false);
        await this.plain(lib, unique ? lib : fqn);
      }
    }
    return linkedLibraries(this.hre, this.record, contract);
  }

  /**
   * Deploys a non-upgradeable contract (mocks, stateless periphery, modules, linked libraries) unless recorded and
   * live, linking (and first deploying) the external libraries it links.
   */
  async plain(name: string, contract: string, args: unknown[] = []): Promise<string> {
    const existing = this.record.contracts[name];
    if (existing !== undefined && (await this.hasCode(existing.address))) {
      this.log(`  ${name}: up to date at ${existing.address}`);
      return existing.address;
    }
    // a delegate-called module may link external libraries too (FuturesDelivery: FuturesRisk, FuturesOrders)
    const libraries = await this.libraries(contract);
    const factory = await this.ethers.getContractFactory(contract, { signer: this.deployer, libraries });
    const c = await factory.deploy(...args);
    await c.waitForDeployment();
    const address = await c.getAddress();
    const tx = c.deploymentTransaction();
    const receipt = await tx?.wait();
    this.txCount += 1;
    this.record.contracts[name] = {
      contract,
      source: await this.source(contract),
      kind: "plain",
      address,
      implementation: address,
      deployBlock: receipt?.blockNumber ?? (await this.ethers.provider.getBlockNumber()),
      abiHash: await this.abiHash(contract),
      ...(tx?.hash !== undefined ? { txHash: tx.hash } : {}),
      constructorArgs: factory.interface.encodeDeploy(args),
    };
    this.log(`  ${name}: deployed ${address}`);
    await this.journal(contract);
    return address;
  }

  /** Records an address deployed elsewhere (e.g. real USDC) under `name`. */
  external(name: string, contract: string, address: string): void {
    this.record.contracts[name] ??= {
      contract,
      kind: "external",
      address,
      implementation: address,
      deployBlock: 0,
      abiHash: "",
    };
  }

  async isAdmin(): Promise<boolean> {
    const [member] = await this.accessManager().hasRole(0n, this.deployerAddress);
    return member;
  }

  /** Sends `data` to `target` now if the deployer may (ADMIN), or queues it as a governance operation. */
  async adminCall(target: string, data: string, description: string): Promise<void> {
    if (await this.isAdmin()) {
      const tx = await this.deployer.sendTransaction({ to: target, data });
      await tx.wait();
      this.txCount += 1;
      this.log(`  ${description}`);
    } else {
      this.pending.push({ target, data, description });
      this.log(`  pending governance: ${description}`);
    }
  }

  /** Maps functions of a deployed contract to an AccessManager role (no-op where already mapped). */
  async setFunctionRole(name: string, signatures: string[], role: bigint): Promise<void> {
    const manager = this.accessManager();
    const target = this.address(name);
    const missing: string[] = [];
    for (const sig of signatures) {
      const sel = selectorOf(sig);
      if ((await manager.getTargetFunctionRole(target, sel)) !== role) missing.push(sel);
    }
    if (missing.length === 0) return;
    const data = manager.interface.encodeFunctionData("setTargetFunctionRole", [target, missing, role]);
    await this.adminCall(
      await manager.getAddress(),
      data,
      `${name}: ${signatures.filter((s) => missing.includes(selectorOf(s))).join(", ")} → ${roleName(role)}`,
    );
  }

  /** Grants `role` to `account` with no execution delay (no-op where already granted). */
  async grantRole(role: bigint, account: string, label = account): Promise<void> {
    const manager = this.accessManager();
    const [member] = await manager.hasRole(role, account);
    if (member) return;
    const data = manager.interface.encodeFunctionData("grantRole", [role, account, 0]);
    await this.adminCall(await manager.getAddress(), data, `grant ${roleName(role)} to ${label}`);
  }

  /** Maps `pauseFeature(bytes32)` of a module to the GUARDIAN role. */
  async guardianMayPause(name: string, guardianRole: bigint): Promise<void> {
    await this.setFunctionRole(name, ["pauseFeature(bytes32)"], guardianRole);
  }
}

export function deploymentPath(network: string, dir = "deployments"): string {
  return path.join(dir, `${network}.json`);
}

/** Reads and validates deployments/<network>.json (undefined when there is none). */
export async function readDeployment(network: string, dir = "deployments"): Promise<DeploymentRecord | undefined> {
  return readDeploymentFile(deploymentPath(network, dir));
}

function serialise(record: DeploymentRecord): string {
  return JSON.stringify(record, null, 2) + "\n";
}

/**
 * Runs every module in order on `connection`. Idempotent: a second run on the same chain sends no transaction and
 * leaves the record byte-identical. With `write`, the record is journaled after every deployed contract and a run
 * that stopped half way is resumed.
 */
export async function runDeploy(
  hre: HardhatRuntimeEnvironment,
  connection: NetworkConnection,
  modules: DeployModule[],
  opts: DeployOptions,
): Promise<DeployContext> {
  const log = opts.log ?? ((m: string) => console.log(m));
  const [deployer] = await connection.ethers.getSigners();
  if (deployer === undefined) throw new Error("deploy: no signer configured for this network (set CHX_DEPLOYER_KEY)");
  const deployerAddress = await deployer.getAddress();
  const chainId = Number((await connection.ethers.provider.getNetwork()).chainId);
  const dir = opts.dir ?? "deployments";
  const file = deploymentPath(opts.networkName, dir);

  let record: DeploymentRecord | undefined;
  if (opts.write) {
    try {
      record = await readDeployment(opts.networkName, dir);
    } catch (e) {
      if (e instanceof DeploymentError) throw new Error(`deploy: ${e.message} (fix or remove it)`);
      throw e;
    }
  }
  if (record !== undefined && record.chainId !== chainId) {
    throw new Error(`deploy: ${file} is for chain ${record.chainId}, connected to ${chainId}`);
  }
  // A record whose contracts no longer exist (a restarted local node) is started afresh.
  if (record !== undefined) {
    const first = Object.values(record.contracts).find((c) => c.kind !== "external");
    if (first !== undefined && (await connection.ethers.provider.getCode(first.address)) === "0x") {
      log(`deploy: contracts in ${file} are gone from this chain — deploying afresh`);
      record = undefined;
    } else if (!record.complete) {
      log(
        `deploy: resuming the interrupted deploy in ${file} (${Object.keys(record.contracts).length} contracts recorded)`,
      );
    }
  }
  record ??= {
    schemaVersion: 1,
    network: opts.networkName,
    chainId,
    deployer: deployerAddress,
    handover: opts.config.handover,
    complete: false,
    abiDir: `${opts.networkName}/abi`,
    contracts: {},
  };
  const rec: DeploymentRecord = record;
  const before = serialise(rec);
  const abiDir = path.join(dir, rec.abiDir);

  const writeAbi = async (contract: string) => {
    const { abi } = await hre.artifacts.readArtifact(contract);
    const target = path.join(abiDir, `${contract}.json`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, JSON.stringify(abi, null, 2) + "\n");
  };
  const journal = async (contract: string) => {
    if (!opts.write) return;
    rec.complete = false;
    await mkdir(dir, { recursive: true });
    await writeAbi(contract);
    await writeFile(file, serialise(rec));
  };

  const upgrades = await upgradesFactory(hre, connection);
  const ctx = new DeployContext(
    hre,
    connection,
    upgrades,
    deployer,
    deployerAddress,
    record,
    opts.config,
    log,
    journal,
  );
  for (const m of modules) {
    log(`[${m.name}]`);
    await m.deploy(ctx);
  }
  record.complete = true;

  if (opts.write) {
    const after = serialise(record);
    if (after !== before) {
      await mkdir(dir, { recursive: true });
      for (const c of new Set(
        Object.values(record.contracts)
          .filter((r) => r.kind !== "external")
          .map((r) => r.contract),
      )) {
        await writeAbi(c);
      }
      await writeFile(file, after);
      log(`wrote ${file} (ABIs in ${abiDir})`);
    }
    if (ctx.pending.length > 0) {
      const p = path.join(dir, `${opts.networkName}.pending.json`);
      await writeFile(p, JSON.stringify(ctx.pending, null, 2) + "\n");
      log(`${ctx.pending.length} wiring operation(s) need governance: proposal batch written to ${p}`);
    }
  }
  return ctx;
}

/**
 * The constructor arguments of a new implementation for the proxy `rec` (scripts/upgrade.ts): `given` when the
 * operator passed them (CHX_UPGRADE_ARGS), else the recorded `implementationArgs` decoded by the new constructor (a
 * code-only upgrade of a contract configured by immutables, e.g. ComputePriceOracle), else none. Throws when the
 * constructor takes arguments and neither is there, so nothing is deployed with a guessed configuration.
 */
export function upgradeConstructorArgs(
  rec: ContractRecord | undefined,
  iface: Interface,
  given?: unknown[],
): unknown[] {
  if (given !== undefined) return given;
  const inputs = iface.deploy.inputs;
  if (inputs.length === 0) return [];
  const recorded = rec?.implementationArgs;
  if (recorded === undefined || recorded === "0x")
    throw new Error(`the implementation takes constructor arguments: give them in CHX_UPGRADE_ARGS`);
  // plain (writable) arrays: a decoded Result is read-only and contract factories rewrite their arguments
  return AbiCoder.defaultAbiCoder().decode(inputs, recorded).toArray(true);
}
