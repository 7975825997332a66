/**
 * The deploy engine behind scripts/deploy.ts: idempotent proxy deployment with OpenZeppelin storage-layout
 * validation, AccessManager wiring, and the deployments/<network>.json record. Every module of the protocol
 * is a DeployModule (scripts/deploy/modules/*) run in order by deployProtocol().
 */
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { keccak256, toUtf8Bytes, id as selectorHash, type Signer } from "ethers";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";
import { upgrades as upgradesFactory, type HardhatUpgrades } from "@openzeppelin/hardhat-upgrades";
import { ChxAccessManager__factory, type ChxAccessManager } from "../../types/ethers-contracts/index.js";
import type { ProtocolConfig } from "../deploy/config.js";
import { roleName } from "./roles.js";

export interface ContractRecord {
  /** Solidity contract name of the implementation (or of the plain contract). */
  contract: string;
  kind: "uups" | "plain";
  /** The address users call: the proxy for "uups", the contract itself for "plain". */
  address: string;
  implementation: string;
  deployBlock: number;
  /** keccak256 of the implementation ABI JSON: tells an indexer or UI its ABI copy is current. */
  abiHash: string;
}

export interface PendingOperation {
  target: string;
  data: string;
  description: string;
}

export interface DeploymentRecord {
  network: string;
  chainId: number;
  deployer: string;
  handover: boolean;
  contracts: Record<string, ContractRecord>;
  /**
   * External libraries linked into implementations (fully qualified name → address), e.g. ProviderRegistry's
   * `ProviderStake`. Stateless code run by delegatecall from the proxies; deployed once per build of the library.
   */
  libraries?: Record<string, string>;
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

type CodeRanges = Record<string, Array<{ start: number; length: number }>>;
type LinkReferences = Record<string, Record<string, Array<{ start: number; length: number }>>>;

/**
 * Compares runtime code with an artifact's, ignoring immutable slots (UUPS stores its own address there) and
 * linked-library addresses (`links`: the artifact's deployedLinkReferences).
 */
export function sameCode(
  onChain: string,
  built: string,
  immutables: CodeRanges | undefined,
  links: LinkReferences = {},
): boolean {
  const a = onChain.toLowerCase().replace(/^0x/, "");
  const b = built.toLowerCase().replace(/^0x/, "");
  if (a.length !== b.length) return false;
  const ranges = [...Object.values(immutables ?? {}), ...Object.values(links).flatMap((l) => Object.values(l))];
  const mask = (hex: string) => {
    let out = hex;
    for (const refs of ranges) {
      for (const { start, length } of refs) {
        out = out.slice(0, start * 2) + "0".repeat(length * 2) + out.slice((start + length) * 2);
      }
    }
    return out;
  };
  return mask(a) === mask(b);
}

/**
 * A contract factory with its external libraries linked: each library `contract` links against is deployed once
 * per build (reused while the recorded address still runs the same code) and recorded in `record.libraries`.
 * Returns the factory and whether anything is linked (upgrades validation then needs
 * `unsafeAllow: ["external-library-linking"]`: the libraries are stateless code the proxy delegatecalls).
 */
export async function linkedFactory(
  hre: HardhatRuntimeEnvironment,
  connection: NetworkConnection,
  contract: string,
  signer: Signer,
  record: DeploymentRecord,
  log: Logger = () => {},
  onDeploy: () => void = () => {},
): Promise<{ factory: Awaited<ReturnType<NetworkConnection["ethers"]["getContractFactory"]>>; linked: boolean }> {
  const artifact = await hre.artifacts.readArtifact(contract);
  const libraries: Record<string, string> = {};
  for (const [source, libs] of Object.entries(artifact.linkReferences ?? {})) {
    for (const lib of Object.keys(libs)) {
      // link references name sources as Hardhat 3 does internally ("project/contracts/…"); artifacts drop the prefix
      const fqn = `${source.replace(/^project\//, "")}:${lib}`;
      libraries[lib] = await deployLibrary(hre, connection, fqn, signer, record, log, onDeploy);
    }
  }
  const linked = Object.keys(libraries).length > 0;
  const factory = linked
    ? await connection.ethers.getContractFactory(contract, { signer, libraries })
    : await connection.ethers.getContractFactory(contract, signer);
  return { factory, linked };
}

async function deployLibrary(
  hre: HardhatRuntimeEnvironment,
  connection: NetworkConnection,
  fqn: string,
  signer: Signer,
  record: DeploymentRecord,
  log: Logger,
  onDeploy: () => void,
): Promise<string> {
  const known = record.libraries?.[fqn];
  const artifact = await hre.artifacts.readArtifact(fqn);
  if (known !== undefined) {
    // A library's runtime code starts with PUSH20 <its own address> (the delegatecall guard): not compared.
    const guard = { self: [{ start: 1, length: 20 }] };
    const code = await connection.ethers.provider.getCode(known);
    if (code !== "0x" && sameCode(code, artifact.deployedBytecode, guard, artifact.deployedLinkReferences)) {
      return known;
    }
  }
  const { factory } = await linkedFactory(hre, connection, fqn, signer, record, log, onDeploy);
  const lib = await factory.deploy();
  await lib.waitForDeployment();
  onDeploy();
  const address = await lib.getAddress();
  record.libraries = { ...record.libraries, [fqn]: address };
  log(`  library ${artifact.contractName}: deployed ${address}`);
  return address;
}

export function selectorOf(signature: string): string {
  return selectorHash(signature).slice(0, 10);
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

  private async hasCode(address: string): Promise<boolean> {
    const code = await this.ethers.provider.getCode(address);
    return code !== "0x";
  }

  /**
   * Deploys `contract` behind a UUPS proxy (validated by OpenZeppelin's upgrades plugin) unless the record
   * already holds a live proxy under `name`. Returns the proxy address.
   */
  async proxy(name: string, contract: string, initArgs: () => unknown[] | Promise<unknown[]>): Promise<string> {
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
    const { factory, linked } = await this.factory(contract);
    const args = await initArgs();
    const proxy = await this.upgrades.deployProxy(factory, args, {
      kind: "uups",
      initializer: "initialize",
      ...(linked ? { unsafeAllow: ["external-library-linking" as const] } : {}),
    });
    await proxy.waitForDeployment();
    const address = await proxy.getAddress();
    const receipt = await proxy.deploymentTransaction()?.wait();
    this.txCount += 2;
    this.record.contracts[name] = {
      contract,
      kind: "uups",
      address,
      implementation: await this.upgrades.erc1967.getImplementationAddress(address),
      deployBlock: receipt?.blockNumber ?? (await this.ethers.provider.getBlockNumber()),
      abiHash: await this.abiHash(contract),
    };
    this.log(`  ${name}: deployed proxy ${address}`);
    return address;
  }

  /** `contract`'s factory with its external libraries deployed (once) and linked; see linkedFactory. */
  async factory(contract: string): ReturnType<typeof linkedFactory> {
    return linkedFactory(this.hre, this.connection, contract, this.deployer, this.record, this.log, () => {
      this.txCount += 1;
    });
  }

  /** Deploys a non-upgradeable contract (mocks, stateless periphery) unless already recorded and live. */
  async plain(name: string, contract: string, args: unknown[] = []): Promise<string> {
    const existing = this.record.contracts[name];
    if (existing !== undefined && (await this.hasCode(existing.address))) {
      this.log(`  ${name}: up to date at ${existing.address}`);
      return existing.address;
    }
    const factory = await this.ethers.getContractFactory(contract, this.deployer);
    const c = await factory.deploy(...args);
    await c.waitForDeployment();
    const address = await c.getAddress();
    const receipt = await c.deploymentTransaction()?.wait();
    this.txCount += 1;
    this.record.contracts[name] = {
      contract,
      kind: "plain",
      address,
      implementation: address,
      deployBlock: receipt?.blockNumber ?? (await this.ethers.provider.getBlockNumber()),
      abiHash: await this.abiHash(contract),
    };
    this.log(`  ${name}: deployed ${address}`);
    return address;
  }

  /** Records an address deployed elsewhere (e.g. real USDC) under `name`. */
  external(name: string, contract: string, address: string): void {
    this.record.contracts[name] ??= {
      contract,
      kind: "plain",
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

export async function readDeployment(network: string, dir = "deployments"): Promise<DeploymentRecord | undefined> {
  const p = deploymentPath(network, dir);
  if (!existsSync(p)) return undefined;
  return JSON.parse(await readFile(p, "utf8")) as DeploymentRecord;
}

function serialise(record: DeploymentRecord): string {
  return JSON.stringify(record, null, 2) + "\n";
}

/**
 * Runs every module in order on `connection`. Idempotent: a second run on the same chain sends no
 * transaction and leaves the record file byte-identical.
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

  let record = opts.write ? await readDeployment(opts.networkName, dir) : undefined;
  if (record !== undefined && record.chainId !== chainId) {
    throw new Error(
      `deploy: ${deploymentPath(opts.networkName, dir)} is for chain ${record.chainId}, connected to ${chainId}`,
    );
  }
  // A record whose contracts no longer exist (a restarted local node) is started afresh.
  if (record !== undefined) {
    const first = Object.values(record.contracts)[0];
    if (first !== undefined && (await connection.ethers.provider.getCode(first.address)) === "0x") {
      log(`deploy: contracts in ${deploymentPath(opts.networkName, dir)} are gone from this chain — deploying afresh`);
      record = undefined;
    }
  }
  record ??= {
    network: opts.networkName,
    chainId,
    deployer: deployerAddress,
    handover: opts.config.handover,
    contracts: {},
  };
  const before = serialise(record);

  const upgrades = await upgradesFactory(hre, connection);
  const ctx = new DeployContext(hre, connection, upgrades, deployer, deployerAddress, record, opts.config, log);
  for (const m of modules) {
    log(`[${m.name}]`);
    await m.deploy(ctx);
  }

  if (opts.write) {
    const after = serialise(record);
    if (after !== before) {
      await mkdir(dir, { recursive: true });
      await writeFile(deploymentPath(opts.networkName, dir), after);
      log(`wrote ${deploymentPath(opts.networkName, dir)}`);
    }
    if (ctx.pending.length > 0) {
      const p = path.join(dir, `${opts.networkName}.pending.json`);
      await writeFile(p, JSON.stringify(ctx.pending, null, 2) + "\n");
      log(`${ctx.pending.length} wiring operation(s) need governance: proposal batch written to ${p}`);
    }
  }
  return ctx;
}
