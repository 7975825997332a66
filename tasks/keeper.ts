import { task } from "hardhat/config";

/** Keepers (docs/keepers.md): what the keeper program would do on this network, read-only. */
export const keeperTasks = [
  task(
    "chx:keeper:status",
    "List each keeper job's due work on this network (the keeper's own scan, read-only: nothing is sent)",
  )
    .addOption({
      name: "keeperConfig",
      description: "Keeper config file (job selection and options; default CHX_KEEPER_CONFIG or none)",
      defaultValue: "",
    })
    .addFlag({ name: "json", description: "Print the report as JSON" })
    .setAction(() => import("./actions/keeper/status.js"))
    .build(),
];
