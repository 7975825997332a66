import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";
import { SIGNER_HELP } from "./help.js";

export const futuresTasks = [
  task("chx:futures:list", "List a futures series: the next standard expiry (anyone) or any expiry (governance)")
    .addOption({ name: "tenor", description: "daily, weekly, monthly or quarterly", defaultValue: "monthly" })
    .addOption({ name: "expiry", description: "Unix expiry for a governance listing (ADMIN)", defaultValue: "" })
    .addOption({ name: "cap", description: "Open-interest cap per side, CH (governance listing)", defaultValue: "0" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/futures/list.js"))
    .build(),
  task(
    "chx:futures:open",
    "Commit an order to buy (--side long) or sell (--side short) CH futures of a series against the vault; it fills after the order delay",
  )
    .addOption({ name: "series", description: "Series id (required)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({ name: "side", description: "long (buy) or short (sell) (required)", defaultValue: "" })
    .addOption({ name: "size", description: "Size in CH, e.g. 500 (required)", defaultValue: "" })
    .addOption({ name: "limit", description: "Worst price, USDC per CH (default: none)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .addOption({
      name: "wait",
      description: "Wait for the delay and execute the order yourself unless a keeper did (false: commit only)",
      type: ArgumentType.BOOLEAN,
      defaultValue: true,
    })
    .setAction(() => import("./actions/futures/open.js"))
    .build(),
  task("chx:futures:close", "Commit an order closing your whole position in a series; it fills after the order delay")
    .addOption({ name: "series", description: "Series id (required)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({ name: "limit", description: "Worst price, USDC per CH (default: none)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .addOption({
      name: "wait",
      description: "Wait for the delay and execute the order yourself unless a keeper did (false: commit only)",
      type: ArgumentType.BOOLEAN,
      defaultValue: true,
    })
    .setAction(() => import("./actions/futures/close.js"))
    .build(),
  task("chx:futures:roll", "Roll a position from one series into another in one transaction (one margin check)")
    .addOption({
      name: "from",
      description: "Series to roll from (required)",
      type: ArgumentType.BIGINT,
      defaultValue: 0n,
    })
    .addOption({
      name: "to",
      description: "Series to roll into (required)",
      type: ArgumentType.BIGINT,
      defaultValue: 0n,
    })
    .addOption({ name: "size", description: "CH to roll (default: the whole position)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/futures/roll.js"))
    .build(),
  task("chx:futures:order", "Sign a trader-against-trader order on one series (EIP-712, off chain) into a JSON file")
    .addOption({ name: "series", description: "Series id", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({ name: "side", description: "buy or sell (required)", defaultValue: "" })
    .addOption({ name: "size", description: "CH (required)", defaultValue: "" })
    .addOption({ name: "price", description: "Price, USDC per CH (required)", defaultValue: "" })
    .addOption({ name: "nonce", description: "Nonce (0: unix ms)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({ name: "expiry", description: "Seconds until it expires", type: ArgumentType.INT, defaultValue: 86400 })
    .addOption({ name: "taker", description: "Only this address may fill (default: anyone)", defaultValue: "" })
    .addOption({ name: "out", description: "JSON file to write", defaultValue: "futures-order.json" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/futures/order.js"))
    .build(),
  task("chx:futures:fill", "Fill a signed futures order (JSON from chx:futures:order) as the taker, at its price")
    .addOption({ name: "order", description: "Signed order JSON file", defaultValue: "futures-order.json" })
    .addOption({ name: "size", description: "CH to fill (default: all that is left)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/futures/fill.js"))
    .build(),
  task("chx:futures:match", "Match a signed buy against a signed sell of one series (each at its own price)")
    .addOption({ name: "buy", description: "Signed buy order JSON file (required)", defaultValue: "" })
    .addOption({ name: "sell", description: "Signed sell order JSON file (required)", defaultValue: "" })
    .addOption({ name: "size", description: "CH to match (default: all that is left of both)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/futures/match.js"))
    .build(),
  task("chx:futures:elect", "Elect physical delivery of part of a long position (0 revokes), before the cut-off")
    .addOption({ name: "series", description: "Series id (required)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({ name: "amount", description: "CH to take delivery of (0 revokes; required)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/futures/elect.js"))
    .build(),
  task("chx:futures:deliver", "Escrow CH for delivery against a short position (approves the market first)")
    .addOption({ name: "series", description: "Series id (required)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({
      name: "amount",
      description: "CH to escrow (default: what is still assigned or short)",
      defaultValue: "",
    })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/futures/deliver.js"))
    .build(),
  task("chx:futures:settle", "Do what an expired series needs next: fix the price, finalise, settle positions")
    .addOption({ name: "series", description: "Series id (required)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({ name: "account", description: "Account to settle (default: every settleable one)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/futures/settle.js"))
    .build(),
  task("chx:futures:status", "Print live series (price, premium, OI, expiry, delivery) and an account's positions")
    .addOption({
      name: "series",
      description: "Only this series (default: all)",
      type: ArgumentType.BIGINT,
      defaultValue: 0n,
    })
    .addOption({ name: "account", description: "Also show this account's positions", defaultValue: "" })
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/futures/status.js"))
    .build(),
];
