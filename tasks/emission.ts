import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";

/** Emission: epochs, rebalancing, halvings and rewards (docs/emission.md). */
export const emissionTasks = [
  task("chx:emission:status", "Print the emission state: epoch, halvings, rates, pools, bound, rebalance progress")
    .addOption({ name: "provider", description: "Also print this provider's state", defaultValue: "" })
    .setAction(() => import("./actions/emission/status.js"))
    .build(),
  task("chx:emission:close", "Close every due epoch (pays the close bounty from the keeper budget)")
    .setAction(() => import("./actions/emission/close.js"))
    .build(),
  task("chx:emission:rebalance", "Rebalance every provider for the last closed epoch, in batches")
    .addOption({
      name: "batch",
      description: "Providers per transaction (≤ 200)",
      type: ArgumentType.INT,
      defaultValue: 100,
    })
    .setAction(() => import("./actions/emission/rebalance.js"))
    .build(),
  task("chx:emission:claim", "Claim the signer's DPS rewards")
    .addOption({ name: "to", description: "Recipient (default: the signer)", defaultValue: "" })
    .setAction(() => import("./actions/emission/claim.js"))
    .build(),
];
