import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";
import { SIGNER_HELP } from "./help.js";

export const optionsTasks = [
  task(
    "chx:options:list",
    "List option series, or list a new one (governance, or --standard by the permissionless rule)",
  )
    .addOption({ name: "kind", description: "call or put (with --strike: list a new series)", defaultValue: "call" })
    .addOption({
      name: "strike",
      description: "Strike, USDC per CH (omit to print the listed series)",
      defaultValue: "",
    })
    .addOption({ name: "cap", description: "Call payoff cap per CH, USDC (governance listing)", defaultValue: "" })
    .addOption({ name: "expiry", description: "Unix seconds, or +<days> from now", defaultValue: "+7" })
    .addOption({
      name: "futures",
      description: "Futures series id (an option on futures; 0: none)",
      type: ArgumentType.BIGINT,
      defaultValue: 0n,
    })
    .addFlag({ name: "standard", description: "List by the permissionless rule (standard expiry and strike grid)" })
    .addFlag({ name: "json", description: "Print the listed series as JSON (for scripts; without --strike)" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/options/list.js"))
    .build(),
  task("chx:options:write", "Write options from your ClearingHouse collateral; optionally sign a sell offer for them")
    .addOption({ name: "series", description: "Series id (required)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({ name: "size", description: "Size, CH (required)", defaultValue: "" })
    .addOption({
      name: "premium",
      description: "Also sign a sell offer at this premium, USDC per CH",
      defaultValue: "",
    })
    .addOption({
      name: "expiry",
      description: "Seconds the offer stays valid",
      type: ArgumentType.INT,
      defaultValue: 86400,
    })
    .addOption({ name: "out", description: "Write the signed offer to this JSON file", defaultValue: "offer.json" })
    .addFlag({
      name: "margined",
      description: "Write margined by the ClearingHouse's portfolio margin instead of posting collateral",
    })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/options/write.js"))
    .build(),
  task(
    "chx:options:buy",
    "Fill a signed options offer from its JSON file (premium paid from your ClearingHouse account)",
  )
    .addOption({ name: "offer", description: "Signed offer JSON file", defaultValue: "offer.json" })
    .addOption({ name: "size", description: "Size to fill, CH (default: all that remains)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/options/buy.js"))
    .build(),
  task("chx:options:exercise", "Settle one account of a series whose price is final (exercise, or collateral release)")
    .addOption({ name: "series", description: "Series id (required)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({ name: "account", description: "Account (default: the signer)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/options/exercise.js"))
    .build(),
  task("chx:options:settle", "Fix an expired series' price, or settle one page of it (keeper work, paid a bounty)")
    .addOption({
      name: "series",
      description: "Series id (0: whatever the checker proposes)",
      type: ArgumentType.BIGINT,
      defaultValue: 0n,
    })
    .addOption({
      name: "steps",
      description: "Accounts (or pairs) per page",
      type: ArgumentType.INT,
      defaultValue: 100,
    })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/options/settle.js"))
    .build(),
  task("chx:options:status", "Print the options market's parameters, a series and, optionally, an account's position")
    .addOption({
      name: "series",
      description: "Series id (0: the market only)",
      type: ArgumentType.BIGINT,
      defaultValue: 0n,
    })
    .addOption({ name: "account", description: "Account", defaultValue: "" })
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/options/status.js"))
    .build(),
];
