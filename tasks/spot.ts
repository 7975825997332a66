import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";
import { SIGNER_HELP } from "./help.js";

export const spotTasks = [
  task("chx:spot:order", "Sign a CH/USDC limit order (off chain) and print or save it as JSON")
    .addOption({ name: "side", description: "buy or sell (CH) (required)", defaultValue: "" })
    .addOption({ name: "amount", description: "CH amount (required)", defaultValue: "" })
    .addOption({ name: "price", description: "Limit price, USDC per CH (required)", defaultValue: "" })
    .addOption({
      name: "nonce",
      description: "Order nonce (0: the current unix time in ms)",
      type: ArgumentType.BIGINT,
      defaultValue: 0n,
    })
    .addOption({
      name: "expiry",
      description: "Seconds until the order expires",
      type: ArgumentType.INT,
      defaultValue: 86400,
    })
    .addOption({ name: "taker", description: "Only this address may fill (default: anyone)", defaultValue: "" })
    .addOption({ name: "out", description: "Write the signed order to this JSON file", defaultValue: "" })
    .addOption({
      name: "relay",
      description: "Post the signed order to this order relay (default: CHX_RELAY_URL if set)",
      defaultValue: "",
    })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/spot/order.js"))
    .build(),
  task("chx:spot:fill", "Fill a signed order from the relay (--hash) or its JSON file (approves what you pay)")
    .addOption({ name: "order", description: "Signed order JSON file", defaultValue: "order.json" })
    .addOption({ name: "hash", description: "Order hash: take the signed order from the relay", defaultValue: "" })
    .addOption({ name: "relay", description: "Order relay URL (default: CHX_RELAY_URL)", defaultValue: "" })
    .addOption({ name: "amount", description: "CH to fill (default: all that remains)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/spot/fill.js"))
    .build(),
  task("chx:spot:cancel", "Cancel a signed order on chain, send the relay a cancel notice, or void nonces")
    .addOption({ name: "order", description: "Signed order JSON file", defaultValue: "" })
    .addOption({ name: "hash", description: "Order hash on the relay", defaultValue: "" })
    .addFlag({ name: "notice", description: "Only ask the relay to stop serving it (off chain; needs --hash)" })
    .addOption({ name: "relay", description: "Order relay URL (default: CHX_RELAY_URL)", defaultValue: "" })
    .addOption({
      name: "minNonce",
      description: "Void every nonce below this instead (0: not this)",
      type: ArgumentType.BIGINT,
      defaultValue: 0n,
    })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/spot/cancel.js"))
    .build(),
  task("chx:spot:status", "Print the spot market's fees, TWAP, pending fees and, optionally, an order's state")
    .addOption({ name: "order", description: "Signed order JSON file", defaultValue: "" })
    .addOption({ name: "hash", description: "Order hash: its status on the relay", defaultValue: "" })
    .addOption({ name: "relay", description: "Order relay URL (default: CHX_RELAY_URL)", defaultValue: "" })
    .addOption({ name: "window", description: "TWAP window, seconds", type: ArgumentType.INT, defaultValue: 3600 })
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/spot/status.js"))
    .build(),
  task("chx:spot:book", "The order relay's book: price levels, best first")
    .addOption({ name: "relay", description: "Order relay URL (default: CHX_RELAY_URL)", defaultValue: "" })
    .addOption({ name: "book", description: "spot, or option:<seriesId>", defaultValue: "spot" })
    .addOption({ name: "depth", description: "Levels per side", type: ArgumentType.INT, defaultValue: 20 })
    .addFlag({ name: "json", description: "Print the book as JSON (for scripts)" })
    .setAction(() => import("./actions/spot/book.js"))
    .build(),
  task("chx:spot:orders", "A maker's orders on the order relay (live, or --all)")
    .addOption({ name: "relay", description: "Order relay URL (default: CHX_RELAY_URL)", defaultValue: "" })
    .addOption({ name: "maker", description: "Maker address (required)", defaultValue: "" })
    .addFlag({ name: "all", description: "Every status, not only live orders" })
    .addFlag({ name: "json", description: "Print the orders as JSON (for scripts)" })
    .setAction(() => import("./actions/spot/orders.js"))
    .build(),
];
