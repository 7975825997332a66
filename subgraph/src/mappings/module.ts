// Handlers every CHX module has (ChxUpgradeable: per-feature pauses, ERC-1967 upgrades), written once. Each mapping
// re-exports them (`export { handleFeaturePauseSet, handleUpgraded } from "./module";`) and manifest.mjs adds their
// event handlers to every data source whose ABI declares the events. The contract's name is the data source's name,
// which manifest.mjs puts into the data source's context (`name`).
import { dataSource, ethereum } from "@graphprotocol/graph-ts";
import { recordFeaturePause, recordUpgrade } from "../lib/common";

function contractName(): string {
  const name = dataSource.context().get("name");
  return name == null ? "unknown" : name.toString();
}

/** FeaturePauseSet(bytes32 indexed feature, bool paused, address indexed by) */
export function handleFeaturePauseSet(event: ethereum.Event): void {
  const p = event.parameters;
  recordFeaturePause(event, contractName(), p[0].value.toBytes(), p[1].value.toBoolean(), p[2].value.toAddress());
}

/** Upgraded(address indexed implementation) */
export function handleUpgraded(event: ethereum.Event): void {
  recordUpgrade(event, contractName(), event.parameters[0].value.toAddress());
}
