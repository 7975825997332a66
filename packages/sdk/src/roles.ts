/** AccessManager role ids, generated from contracts/core/governance/Roles.sol. */
import { id } from "ethers";
import { Roles } from "./generated/roles.js";

export { Roles };
export type RoleName = keyof typeof Roles;

/** "GUARDIAN" for 1n; `role#<id>` for an id the protocol does not name. */
export function roleName(id: bigint): string {
  for (const [name, value] of Object.entries(Roles)) if (value === id) return name;
  return `role#${id}`;
}

/** The 4-byte selector of a function signature: `selectorOf("pauseFeature(bytes32)")`. */
export function selectorOf(signature: string): string {
  return id(signature).slice(0, 10);
}
