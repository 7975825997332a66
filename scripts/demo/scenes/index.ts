import type { Scene } from "../types.js";
import { governanceScene } from "./governance.js";

/** The scripted market, in order. A scene whose modules are not deployed is reported as skipped. */
export const scenes: Scene[] = [governanceScene];

/** Scenes of modules that have not landed yet: listed in the report as skipped, never faked. */
export const pendingScenes: Array<{ title: string; requires: string[] }> = [
  {
    title: "Providers join, are attested and graded (A–D, 1–4, X–Z), mint CH",
    requires: ["ProviderRegistry", "ComputeStandard"],
  },
  { title: "Epochs pass: GFL rebalances on the median, DPS is claimed, a halving happens", requires: ["Emission"] },
  {
    title: "Clients submit batch and stream tasks; a cheating executor is caught and slashed",
    requires: ["TaskRegistry"],
  },
  { title: "LPs fund the perp vault, traders trade, funding flows", requires: ["PerpMarket"] },
  {
    title: "Alice buys futures and takes delivery; Bob sells futures and buys puts; Carol writes strangles",
    requires: ["FuturesMarket", "OptionsMarket"],
  },
  {
    title: "A 40 % CH price shock: liquidations walk the waterfall (margin → guarantor → insurance)",
    requires: ["LiquidationEngine", "InsuranceFund"],
  },
];
