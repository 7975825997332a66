/**
 * Hardhat tasks: one file per user-facing area, each exporting its task definitions. Actions are lazy
 * (imported only when the task runs), so the config never loads generated TypeChain code at start-up.
 */
import { statusTasks } from "./status.js";
import { emissionTasks } from "./emission.js";
import { providerTasks } from "./provider.js";
import { keeperTasks } from "./keeper.js";
import { oracleTasks } from "./oracle.js";
import { insuranceTasks } from "./insurance.js";
import { clearingTasks } from "./clearing.js";
import { spotTasks } from "./spot.js";
import { taskTasks } from "./task.js";
import { perpsTasks } from "./perps.js";
import { futuresTasks } from "./futures.js";
import { optionsTasks } from "./options.js";
import { devTasks } from "./dev.js";

export const chxTasks = [
  ...statusTasks,
  ...providerTasks,
  ...emissionTasks,
  ...keeperTasks,
  ...oracleTasks,
  ...insuranceTasks,
  ...clearingTasks,
  ...spotTasks,
  ...taskTasks,
  ...perpsTasks,
  ...futuresTasks,
  ...optionsTasks,
  ...devTasks,
];
