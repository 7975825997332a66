import { task } from "hardhat/config";

export const oracleTasks = [
  task("chx:oracle:status", "Print the CH index, its feed, bounds, sequencer and deviation gates")
    .setAction(() => import("./actions/oracle/status.js"))
    .build(),
];
