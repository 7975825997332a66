/**
 * AccessManager role ids, mirroring contracts/core/governance/Roles.sol (a unit test parses the Solidity
 * file and checks every value here against it).
 */
export const Roles = {
  ADMIN: 0n,
  GUARDIAN: 1n,
  ATTESTER: 2n,
  CH_MINTER: 3n,
  EMISSION: 4n,
  PROVIDER_SLASHER: 5n,
  KEEPER: 6n,
  MARKET: 7n,
  CLEARING: 8n,
  COMPUTE: 9n,
  TREASURY: 10n,
  FEE_SOURCE: 11n,
  GUARANTOR_SLASHER: 12n,
  CAPACITY_RECORDER: 13n,
  REWARD_SOURCE: 14n,
  STAKE_LOCKER: 15n,
  PUBLIC: 2n ** 64n - 1n,
} as const;

export type RoleName = keyof typeof Roles;

export function roleName(id: bigint): string {
  for (const [name, value] of Object.entries(Roles)) if (value === id) return name;
  return `role#${id}`;
}
