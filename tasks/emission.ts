import { task } from "hardhat/config";
import { SIGNER_HELP } from "./help.js";
import { ArgumentType } from "hardhat/types/arguments";

/** Emission: epochs, rebalancing, halvings and rewards (docs/emission.md). */
export const emissionTasks = [
  task("chx:emission:status", "Print the emission state: epoch, halvings, rates, pools, bound, rebalance progress")
    .addOption({ name: "provider", description: "Also print this provider's state", defaultValue: "" })
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/emission/status.js"))
    .build(),
  task("chx:emission:close", "Close every due epoch (pays the close bounty from the keeper budget)")
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/emission/close.js"))
    .build(),
  task("chx:emission:rebalance", "Rebalance every provider for the last closed epoch, in batches")
    .addOption({
      name: "batch",
      description: "Providers per transaction (≤ 200)",
      type: ArgumentType.INT,
      defaultValue: 100,
    })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/emission/rebalance.js"))
    .build(),
  task("chx:emission:claim", "Claim the signer's DPS rewards")
    .addOption({ name: "to", description: "Recipient (default: the signer)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/emission/claim.js"))
    .build(),
];
