import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";
import { SIGNER_HELP } from "./help.js";

export const perpsTasks = [
  task(
    "chx:perp:open",
    "Order on the CH perpetual: buy (--side long) or sell (--side short) --size CH; opens, increases, reduces or flips after the order delay",
  )
    .addOption({ name: "side", description: "long (buy) or short (sell) (required)", defaultValue: "" })
    .addOption({ name: "size", description: "Size in CH, e.g. 100 or 25.5 (required)", defaultValue: "" })
    .addOption({
      name: "slippage",
      description: "Worst accepted fill vs the quote, bps",
      type: ArgumentType.INT,
      defaultValue: 100,
    })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .addOption({
      name: "wait",
      description: "Wait for the delay and execute the order yourself unless a keeper did (false: commit only)",
      type: ArgumentType.BOOLEAN,
      defaultValue: true,
    })
    .setAction(() => import("./actions/perps/open.js"))
    .build(),
  task("chx:perp:close", "Close your whole perpetual position after the order delay (allowed while new risk is paused)")
    .addOption({
      name: "slippage",
      description: "Worst accepted fill vs the quote, bps",
      type: ArgumentType.INT,
      defaultValue: 100,
    })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .addOption({
      name: "wait",
      description: "Wait for the delay and execute the order yourself unless a keeper did (false: commit only)",
      type: ArgumentType.BOOLEAN,
      defaultValue: true,
    })
    .setAction(() => import("./actions/perps/close.js"))
    .build(),
  task("chx:perp:status", "Print the perpetual's skew, funding, open interest, vault and, optionally, one account")
    .addOption({ name: "account", description: "Address to show (default: the signer)", defaultValue: "" })
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/perps/status.js"))
    .build(),
  task("chx:vault:deposit", "Deposit USDC into the LP vault (approves it) and receive vault shares")
    .addOption({ name: "amount", description: "USDC to deposit (required)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/perps/deposit.js"))
    .build(),
  task(
    "chx:vault:withdraw",
    "Withdraw USDC from the LP vault (after the lock), or redeem every share with --amount all",
  )
    .addOption({ name: "amount", description: "USDC to withdraw, or `all` (required)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/perps/withdraw.js"))
    .build(),
];
