import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";
import { SIGNER_HELP } from "./help.js";

export const providerTasks = [
  task("chx:provider:register", "Register the configured account as a compute provider")
    .addOption({ name: "region", description: "Region code", type: ArgumentType.INT, defaultValue: 1 })
    .addOption({ name: "classes", description: "Workload classes, comma-separated (e.g. 1,2)", defaultValue: "1" })
    .addOption({ name: "hardware", description: "Hardware description URI", defaultValue: "" })
    .addOption({ name: "price", description: "Ask price, USDC per CH (optional)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/provider/register.js"))
    .build(),
  task("chx:provider:stake", "Stake DPS as a provider (approves the registry first)")
    .addOption({ name: "amount", description: "DPS to stake (required)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/provider/stake.js"))
    .build(),
  task("chx:provider:attest", "Sign (as an ATTESTER) and submit a benchmark attestation for a provider")
    .addOption({
      name: "provider",
      description: "Provider address (default: the configured account)",
      defaultValue: "",
    })
    .addOption({ name: "workload", description: "Workload class", type: ArgumentType.INT, defaultValue: 1 })
    .addOption({ name: "pflops", description: "Measured average PFLOPS", defaultValue: "0.5" })
    .addOption({ name: "factors", description: "Normalised factors, comma-separated", defaultValue: "1,1,1" })
    .addOption({ name: "capacity", description: "Capacity, PFLOPS (default: pflops)", defaultValue: "" })
    .addOption({ name: "watts", description: "Average power draw, watts", defaultValue: "700" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/provider/attest.js"))
    .build(),
  task("chx:provider:heartbeat", "Send a provider heartbeat with the current capacity")
    .addOption({ name: "capacity", description: "Available capacity, PFLOPS", defaultValue: "0.5" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/provider/heartbeat.js"))
    .build(),
  task("chx:provider:mint-ch", "Mint CH against verified, staked capacity")
    .addOption({ name: "amount", description: "CH to mint (required)", defaultValue: "" })
    .addOption({ name: "to", description: "Recipient (default: the provider)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/provider/mint-ch.js"))
    .build(),
  task("chx:provider:status", "Show a provider's stake, attestation, grades, uptime and CH liability")
    .addOption({
      name: "provider",
      description: "Provider address (default: the configured account)",
      defaultValue: "",
    })
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/provider/status.js"))
    .build(),
];
