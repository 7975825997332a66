import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, runTask, resolveSigner } from "../../lib.js";
import { PERF, wad } from "./common.js";
import { signAttestation, domainOf } from "@chx/sdk";

interface Args {
  provider: string;
  workload: number;
  pflops: string;
  factors: string;
  capacity: string;
  watts: string;
  signer: string;
}

/** Signs with the configured account, which must hold the ATTESTER role (the deployer on local networks). */
export default async function attest(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const { providerRegistry: reg, computeStandard: std } = protocol;
    const signer = await resolveSigner(connection, args.signer);
    const provider = args.provider === "" ? await signer!.getAddress() : args.provider;
    const workloadClass = args.workload;
    const block = await connection.ethers.provider.getBlock("latest");
    const m = {
      provider,
      workloadClass,
      standardVersion: Number(await std.latestVersion(workloadClass)),
      avgPflopsWad: wad(args.pflops, "PFLOPS"),
      factorsWad: args.factors.split(",").map((f) => wad(f.trim(), "factor")),
      capacityPflopsWad: wad(args.capacity === "" ? args.pflops : args.capacity, "capacity"),
      powerWattsWad: wad(args.watts, "power"),
      nonce: await reg.attestationNonce(provider),
      deadline: BigInt(block!.timestamp) + 3600n,
    };
    const sig = await signAttestation(signer!, await domainOf(signer!, "ProviderRegistry", await reg.getAddress()), m);
    await (await reg.attest(m, sig)).wait();
    const info = await reg.providerInfo(provider);
    console.log(
      `✔ attested ${provider}: ${formatUnits(info.chPerHourWad, 18)} CH per hour, grade ${PERF[Number(info.performanceGrade)]}`,
    );
    await connection.close();
  });
}
