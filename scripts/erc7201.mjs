#!/usr/bin/env node
// Prints the ERC-7201 storage slot for each namespace id given, e.g.
//   node scripts/erc7201.mjs chx.storage.ProviderRegistry
// slot = keccak256(abi.encode(uint256(keccak256(id)) - 1)) & ~bytes32(uint256(0xff))
import { keccak256, toUtf8Bytes, AbiCoder } from "ethers";

export function erc7201Slot(id) {
  const inner = BigInt(keccak256(toUtf8Bytes(id))) - 1n;
  const outer = BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(["uint256"], [inner])));
  return "0x" + (outer & ~0xffn).toString(16).padStart(64, "0");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const id of process.argv.slice(2)) console.log(`${id} ${erc7201Slot(id)}`);
}
