import { task } from "hardhat/config";

export const statusTasks = [
  task("chx:status", "Print the CHX deployment on this network and its key parameters")
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/status.js"))
    .build(),
];
