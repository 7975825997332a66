import type { DeployModule } from "../../lib/deployer.js";
import { governanceModule } from "./governance.js";
import { tokensModule } from "./tokens.js";
import { handoverModule } from "./handover.js";
import { spotModule } from "./spot.js";

/**
 * Every module of the protocol in dependency order (tokens and governance first, markets after clearing).
 * A new module adds one line here, before `handoverModule`, which must stay last.
 */
export const modules: DeployModule[] = [
  governanceModule,
  tokensModule,
  // compute, emission, tasks, oracle, clearing, markets, periphery modules go here
  spotModule,
  handoverModule,
];
