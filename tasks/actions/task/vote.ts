import { AbiCoder, keccak256 } from "ethers";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { hash32, requireTask } from "./common.js";

interface Args {
  id: bigint;
  result: string;
  salt: string;
  signer: string;
}

/**
 * A council member's answer, commit–reveal (issue 21 item 1): inside the commit window it commits
 * keccak256(abi.encode(id, member, result, salt)); after it (until the reveal window ends) the same call with the same
 * `--result` and `--salt` reveals.
 */
export default async function vote(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { protocol, signer, connection } = await openProtocol(hre, { signer: args.signer });
    const tasks = protocol.taskRegistry;
    await requireTask(tasks, args.id);
    const result = hash32(args.result);
    const salt = hash32(args.salt);
    const t = await tasks.getTask(args.id);
    const block = await connection.ethers.provider.getBlock("latest");
    const now = BigInt(block?.timestamp ?? 0);
    if (now <= t.commitEnds) {
      const commitment = keccak256(
        AbiCoder.defaultAbiCoder().encode(
          ["uint256", "address", "bytes32", "bytes32"],
          [args.id, signer.address, result, salt],
        ),
      );
      await (await tasks.commitResult(args.id, commitment)).wait();
      console.log(
        `Committed on task ${args.id} (${commitment}); reveal after ${t.commitEnds} with the same --result and --salt.`,
      );
      return;
    }
    await (await tasks.revealResult(args.id, result, salt)).wait();
    const after = await tasks.getTask(args.id);
    console.log(
      `Revealed ${result} on task ${args.id}: ${after.agree} equal to the executor's, ${after.disagree} other.`,
    );
  });
}
