import { task } from "hardhat/config";
import { SIGNER_HELP } from "./help.js";

export const spotTasks = [
  task("chx:spot:order", "Sign a CH/USDC limit order (off chain) and print or save it as JSON")
    .addOption({ name: "side", description: "buy or sell (CH) (required)", defaultValue: "" })
    .addOption({ name: "amount", description: "CH amount (required)", defaultValue: "" })
    .addOption({ name: "price", description: "Limit price, USDC per CH (required)", defaultValue: "" })
    .addOption({ name: "nonce", description: "Order nonce (default: current unix time in ms)", defaultValue: "" })
    .addOption({ name: "expiry", description: "Seconds until the order expires", defaultValue: "86400" })
    .addOption({ name: "taker", description: "Only this address may fill (default: anyone)", defaultValue: "" })
    .addOption({ name: "out", description: "Write the signed order to this JSON file", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/spot/order.js"))
    .build(),
  task("chx:spot:fill", "Fill a signed order from its JSON file (approves the market for what you pay)")
    .addOption({ name: "order", description: "Signed order JSON file", defaultValue: "order.json" })
    .addOption({ name: "amount", description: "CH to fill (default: all that remains)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/spot/fill.js"))
    .build(),
  task("chx:spot:cancel", "Cancel a signed order, or every order below a minimum nonce")
    .addOption({ name: "order", description: "Signed order JSON file", defaultValue: "" })
    .addOption({ name: "minNonce", description: "Void every nonce below this instead", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/spot/cancel.js"))
    .build(),
  task("chx:spot:status", "Print the spot market's fees, TWAP, pending fees and, optionally, an order's state")
    .addOption({ name: "order", description: "Signed order JSON file", defaultValue: "" })
    .addOption({ name: "window", description: "TWAP window, seconds", defaultValue: "3600" })
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/spot/status.js"))
    .build(),
];
