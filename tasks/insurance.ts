import { task } from "hardhat/config";
import { SIGNER_HELP } from "./help.js";

export const insuranceTasks = [
  task("chx:insurance:stake", "Stake USDC in the insurance fund (approves the fund first)")
    .addOption({ name: "amount", description: "USDC to stake (e.g. 1000 or 2.5; required)", defaultValue: "" })
    .addOption({
      name: "for",
      description: "Credit the shares to this address (default: the configured account)",
      defaultValue: "",
    })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/insurance/stake.js"))
    .build(),
  task("chx:insurance:request-withdraw", "Start the withdrawal cooldown for some or all of your shares")
    .addOption({ name: "shares", description: "Shares to withdraw later (default: all)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/insurance/request-withdraw.js"))
    .build(),
  task("chx:insurance:withdraw", "Withdraw a cooled-down request at the current share price")
    .addOption({ name: "shares", description: "Shares to withdraw (default: the whole request)", defaultValue: "" })
    .addOption({ name: "to", description: "Receiver of the USDC (default: the configured account)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/insurance/withdraw.js"))
    .build(),
  task("chx:insurance:status", "Print the insurance fund and one staker's position")
    .addOption({ name: "account", description: "Staker (default: the configured account)", defaultValue: "" })
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/insurance/status.js"))
    .build(),
];
