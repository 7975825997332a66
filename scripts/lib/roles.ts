/** The AccessManager role ids for the deploy modules: the SDK's, generated from contracts/core/governance/Roles.sol. */
export { Roles, roleName, type RoleName } from "@chx/sdk";
