import { task } from "hardhat/config";

export const oracleTasks = [
  task("chx:oracle:status", "Print the CH index, its feed, bounds, sequencer and deviation gates")
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/oracle/status.js"))
    .build(),
];
