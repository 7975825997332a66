import type { DeployModule } from "../../lib/deployer.js";
import { governanceModule } from "./governance.js";
import { tokensModule } from "./tokens.js";
import { computeModule } from "./compute.js";
import { oracleModule } from "./oracle.js";
import { insuranceModule } from "./insurance.js";
import { handoverModule } from "./handover.js";
import { wiringModule } from "./wiring.js";
import { emissionModule } from "./emission.js";
import { clearingModule } from "./clearing.js";
import { spotModule } from "./spot.js";
import { tasksModule } from "./tasks.js";
import { perpsModule } from "./perps.js";
import { futuresModule } from "./futures.js";
import { optionsModule } from "./options.js";
import { deliveryModule } from "./delivery.js";
import { peripheryModule } from "./periphery.js";

/**
 * Every module of the protocol in dependency order (tokens and governance first, markets after clearing).
 * A new module adds one line here, before `handoverModule`, which must stay last.
 */
export const modules: DeployModule[] = [
  governanceModule,
  tokensModule,
  oracleModule,
  insuranceModule,
  computeModule,
  emissionModule,
  clearingModule,
  spotModule,
  tasksModule,
  // markets, periphery modules go here
  perpsModule,
  futuresModule,
  deliveryModule,
  optionsModule,
  peripheryModule,
  wiringModule,
  handoverModule,
];
