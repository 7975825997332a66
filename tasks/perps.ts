import { task } from "hardhat/config";

export const perpsTasks = [
  task(
    "chx:perp:open",
    "Order on the CH perpetual: open, increase, reduce or flip by a signed size (+ long, − short); it fills after the delay",
  )
    .addOption({ name: "size", description: "Signed size change in CH, e.g. 100 or -25.5", defaultValue: "1" })
    .addOption({ name: "slippage", description: "Worst accepted fill vs the quote, bps", defaultValue: "100" })
    .addOption({ name: "signer", description: "Index of the local account that trades", defaultValue: "0" })
    .addOption({
      name: "wait",
      description: "Wait for the delay and execute the order yourself unless a keeper did (false: commit only)",
      defaultValue: "true",
    })
    .setAction(() => import("./actions/perps/open.js"))
    .build(),
  task("chx:perp:close", "Close your whole perpetual position after the order delay (allowed while new risk is paused)")
    .addOption({ name: "slippage", description: "Worst accepted fill vs the quote, bps", defaultValue: "100" })
    .addOption({ name: "signer", description: "Index of the local account", defaultValue: "0" })
    .addOption({
      name: "wait",
      description: "Wait for the delay and execute the order yourself unless a keeper did (false: commit only)",
      defaultValue: "true",
    })
    .setAction(() => import("./actions/perps/close.js"))
    .build(),
  task("chx:perp:status", "Print the perpetual's skew, funding, open interest, vault and, optionally, one account")
    .addOption({ name: "account", description: "Address to show (default: the signer)", defaultValue: "" })
    .addOption({ name: "signer", description: "Index of the local account", defaultValue: "0" })
    .setAction(() => import("./actions/perps/status.js"))
    .build(),
  task("chx:vault:deposit", "Deposit USDC into the LP vault (approves it) and receive vault shares")
    .addOption({ name: "amount", description: "USDC to deposit", defaultValue: "100" })
    .addOption({ name: "signer", description: "Index of the local account", defaultValue: "0" })
    .setAction(() => import("./actions/perps/deposit.js"))
    .build(),
  task(
    "chx:vault:withdraw",
    "Withdraw USDC from the LP vault (after the lock), or redeem every share with --amount all",
  )
    .addOption({ name: "amount", description: "USDC to withdraw, or `all`", defaultValue: "all" })
    .addOption({ name: "signer", description: "Index of the local account", defaultValue: "0" })
    .setAction(() => import("./actions/perps/withdraw.js"))
    .build(),
];
