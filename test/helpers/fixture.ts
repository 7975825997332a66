/**
 * Shared fixtures: the whole protocol deployed through the real deploy script on Hardhat's in-process
 * network. Use `loadFixture` so each test starts from the same snapshot.
 */
import hre from "hardhat";
import type { NetworkConnection } from "hardhat/types/network";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { deployProtocol } from "../../scripts/deploy/index.js";
import type { ProtocolConfig } from "../../scripts/deploy/config.js";
import { type DeployContext } from "../../scripts/deploy/index.js";
import { connectProtocol, type Protocol } from "@chx/sdk";

export interface Fixture {
  connection: NetworkConnection;
  ctx: DeployContext;
  protocol: Protocol;
  deployer: HardhatEthersSigner;
  users: HardhatEthersSigner[];
}

const connections = new Map<string, NetworkConnection>();

/** One in-process chain per fixture key (so parallel test files do not share state). */
export async function connectionFor(key = "default"): Promise<NetworkConnection> {
  let c = connections.get(key);
  if (c === undefined) {
    c = await hre.network.create();
    connections.set(key, c);
  }
  return c;
}

export async function deployAll(connection: NetworkConnection, config: Partial<ProtocolConfig> = {}): Promise<Fixture> {
  const ctx = await deployProtocol(hre, connection, { write: false, quiet: true, config });
  const [deployer, ...users] = await connection.ethers.getSigners();
  if (deployer === undefined) throw new Error("no signers");
  return { connection, ctx, protocol: connectProtocol(ctx.record, deployer), deployer, users };
}
