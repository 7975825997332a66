/**
 * One real `hardhat node` on a free loopback port, in its own process group (always killed: on stop() and at process
 * exit). Shared by the keeper and relay test harnesses, which each keep the running node in their own global slot.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { JsonRpcProvider, Network } from "ethers";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const CHAIN_ID = 31337;

export interface LocalNode {
  url: string;
  port: number;
  provider: JsonRpcProvider;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Starts `hardhat node --hostname 127.0.0.1 --port <free>` and waits (up to `answerWithinMs`) for it to answer. */
export async function spawnLocalNode(answerWithinMs = 90_000): Promise<LocalNode> {
  const port = await freePort();
  const bin = path.join(ROOT, "node_modules", ".bin");
  const child: ChildProcess = spawn(
    path.join(bin, "hardhat"),
    ["node", "--hostname", "127.0.0.1", "--port", String(port)],
    {
      cwd: ROOT,
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const kill = (sig: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, sig);
    } catch {
      // already gone
    }
  };
  const onExit = () => kill("SIGKILL");
  process.once("exit", onExit);
  const url = `http://127.0.0.1:${port}`;
  const network = Network.from(CHAIN_ID);
  const provider = new JsonRpcProvider(url, network, { staticNetwork: network, cacheTimeout: -1, batchMaxCount: 1 });
  const deadline = Date.now() + answerWithinMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hardhat node exited (${child.exitCode}): ${output}`);
    try {
      await provider.send("eth_chainId", []);
      break;
    } catch {
      if (Date.now() > deadline) {
        kill("SIGKILL");
        throw new Error(`hardhat node did not answer on ${url} within ${answerWithinMs / 1000} s: ${output}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const stop = async () => {
    provider.destroy();
    process.removeListener("exit", onExit);
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    kill("SIGTERM");
    const t = setTimeout(() => kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(t);
  };
  return { url, port, provider, rpc: (m, p = []) => provider.send(m, p), stop };
}
