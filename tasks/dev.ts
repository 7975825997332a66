import { task } from "hardhat/config";
import { SIGNER_HELP } from "./help.js";

/** Local chains only: a faucet for the mock tokens and the mock CH index (the deployer keeps ADMIN there). */
export const devTasks = [
  task("chx:dev:faucet", "Local chains: mint mock USDC and/or CH (and send ETH) to an address")
    .addOption({ name: "to", description: "Recipient (required)", defaultValue: "" })
    .addOption({ name: "usdc", description: "Mock USDC to mint", defaultValue: "0" })
    .addOption({ name: "ch", description: "CH to mint (the deployer grants itself CH_MINTER)", defaultValue: "0" })
    .addOption({ name: "eth", description: "ETH to send for gas", defaultValue: "0" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/dev/faucet.js"))
    .build(),
  task("chx:dev:set-price", "Local chains: set the mock CH/USD index feed (USDC per CH)")
    .addOption({ name: "price", description: "USDC per CH, e.g. 2.5 (required)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/dev/set-price.js"))
    .build(),
];
