import { task } from "hardhat/config";
import { SIGNER_HELP } from "./help.js";

/** Margin accounts, guarantors and liquidation (docs/clearing.md). Amounts are in USDC (decimal strings). */
export const clearingTasks = [
  task("chx:margin:deposit", "Deposit USDC collateral into your ClearingHouse account")
    .addOption({ name: "amount", description: "USDC to deposit, e.g. 100.5", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/clearing/margin-deposit.js"))
    .build(),
  task("chx:margin:withdraw", "Withdraw USDC collateral from your ClearingHouse account")
    .addOption({ name: "amount", description: "USDC to withdraw", defaultValue: "" })
    .addOption({ name: "to", description: "Recipient (default: you)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/clearing/margin-withdraw.js"))
    .build(),
  task("chx:margin:status", "Show an account's collateral, positions, equity and margin requirements")
    .addOption({ name: "account", description: "Account (default: you)", defaultValue: "" })
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/clearing/margin-status.js"))
    .build(),
  task("chx:guarantor:register", "Register as a guarantor (clearing member)")
    .addFlag({ name: "open", description: "Accept outside capital and let any wallet join" })
    .addOption({
      name: "defaultLimit",
      description: "Exposure limit of self-admitted customers, USDC",
      defaultValue: "0",
    })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/clearing/guarantor-register.js"))
    .build(),
  task("chx:guarantor:stake", "Stake DPS as your guarantor bond")
    .addOption({ name: "amount", description: "DPS to stake", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/clearing/guarantor-stake.js"))
    .build(),
  task("chx:guarantor:deposit", "Deposit USDC capital into a guarantor for shares")
    .addOption({ name: "guarantor", description: "Guarantor address (default: you)", defaultValue: "" })
    .addOption({ name: "amount", description: "USDC to deposit", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/clearing/guarantor-deposit.js"))
    .build(),
  task("chx:guarantor:withdraw", "Give notice for, then redeem, guarantor shares for USDC")
    .addOption({ name: "guarantor", description: "Guarantor address (default: you)", defaultValue: "" })
    .addOption({ name: "shares", description: "Shares to redeem (default: all)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/clearing/guarantor-withdraw.js"))
    .build(),
  task("chx:guarantor:admit", "Admit a customer (or change its limit) as the calling guarantor")
    .addOption({ name: "customer", description: "Customer address", defaultValue: "" })
    .addOption({ name: "limit", description: "Exposure limit, USDC", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/clearing/guarantor-admit.js"))
    .build(),
  task("chx:guarantor:join", "Join an open guarantor with its default limit")
    .addOption({ name: "guarantor", description: "Guarantor address", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/clearing/guarantor-join.js"))
    .build(),
  task("chx:guarantor:status", "Show a guarantor's capital, shares, exposure, DPS bond and a withdrawal notice")
    .addOption({ name: "guarantor", description: "Guarantor address (default: you)", defaultValue: "" })
    .addOption({
      name: "holder",
      description: "Capital provider whose withdrawal notice to show (default: the guarantor)",
      defaultValue: "",
    })
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/clearing/guarantor-status.js"))
    .build(),
  task("chx:adl:status", "Show a bankrupt account's open auto-deleveraging claim, its window and nominees")
    .addOption({ name: "account", description: "Bankrupt account", defaultValue: "" })
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/clearing/adl-status.js"))
    .build(),
  task("chx:liquidate", "Liquidate an account below maintenance margin (earns the bounty)")
    .addOption({ name: "account", description: "Account to liquidate", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/clearing/liquidate.js"))
    .build(),
];
