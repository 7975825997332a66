import type { Scene } from "../types.js";
import { governanceScene } from "./governance.js";
import { providersScene } from "./providers.js";
import { spotScene } from "./spot.js";
import { tasksScene } from "./tasks.js";

/** The scripted market, in order. A scene whose modules are not deployed is reported as skipped. */
export const scenes: Scene[] = [governanceScene, providersScene, spotScene, tasksScene];

/** Scenes of modules that have not landed yet: listed in the report as skipped, never faked. */
export const pendingScenes: Array<{ title: string; requires: string[] }> = [
  { title: "LPs fund the perp vault, traders trade, funding flows", requires: ["PerpMarket"] },
  {
    title: "Alice buys futures and takes delivery; Bob sells futures and buys puts; Carol writes strangles",
    requires: ["FuturesMarket", "OptionsMarket"],
  },
  {
    title: "A 40 % CH price shock: liquidations walk the waterfall (margin → guarantor → insurance)",
    requires: ["LiquidationEngine", "InsuranceFund", "PerpMarket"],
  },
];
