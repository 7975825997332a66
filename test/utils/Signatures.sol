// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Vm} from "forge-std/Vm.sol";

/// @dev forge-std's cheat-code address (`keccak256("hevm cheat code")`), reachable from a free function.
Vm constant CHEATS = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

/// @notice The 65-byte `r ‖ s ‖ v` signature of `digest` by `key`, the form every CHX verifier takes (spot orders and
///         deals, futures orders, provider attestations, stream receipts). One place for the tests and handlers.
function signDigest(uint256 key, bytes32 digest) pure returns (bytes memory) {
    (uint8 v, bytes32 r, bytes32 s) = CHEATS.sign(key, digest);
    return abi.encodePacked(r, s, v);
}
