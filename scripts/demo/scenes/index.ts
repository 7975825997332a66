import type { Scene } from "../types.js";
import { governanceScene } from "./governance.js";
import { providersScene } from "./providers.js";
import { spotScene } from "./spot.js";
import { tasksScene } from "./tasks.js";
import { futuresScene } from "./futures.js";
import { optionsScene } from "./options.js";
import { launchScene, perpsScene } from "./perps.js";
import { shockScene } from "./shock.js";
import { castScene } from "./cast.js";
import { castOptionsScene } from "./cast-options.js";

/** The scripted market, in order. A scene whose modules are not deployed is reported as skipped. */
export const scenes: Scene[] = [
  launchScene,
  governanceScene,
  providersScene,
  spotScene,
  tasksScene,
  futuresScene,
  optionsScene,
  perpsScene,
  shockScene,
  // last: it moves the chain more than six months on (Alice's first need)
  castScene,
  // after the cast: options on one of the futures series Bob sold Alice there (Bob's puts, Carol's strangle)
  castOptionsScene,
];

/** Scenes of modules that have not landed yet: listed in the report as skipped, never faked. */
export const pendingScenes: Array<{ title: string; requires: string[] }> = [];
