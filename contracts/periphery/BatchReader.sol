// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title BatchReader
/// @notice Deployless batch of read-only calls (never deployed): `eth_call` the creation code with
///         `(targets, data, gasPerCall)` and decode the returned bytes as
///         `(uint256 blockNumber, uint256 timestamp, (bool ok, bytes data)[] results)`, one result per call, in order,
///         and the block they were read at (so a client reading at "latest" learns which block that was). Every call is a STATICCALL at the same block with at most `gasPerCall` gas, so one client
///         round trip reads many views (order states, nonces, balances, allowances, ERC-1271 checks) consistently,
///         and a call that reverts (or a wallet that burns its gas) yields `ok = false` with its revert data instead
///         of failing the batch. Holds nothing, writes nothing (STATICCALL, and an `eth_call` commits nothing).
///         The result is returned as the creation's "runtime code", so EIP-170 caps it at 24,576 bytes (about 150
///         one-word results): callers page their calls (the SDK's `batchRead` sends 100 per page).
contract BatchReader {
    /// @notice One call's outcome.
    /// @param ok Whether the call returned (false: it reverted or ran out of its gas).
    /// @param data Its return data, or its revert data.
    struct Result {
        bool ok;
        bytes data;
    }

    /// @notice `targets` and `data` differ in length.
    /// @param targets Number of targets.
    /// @param calls Number of calldata entries.
    error BatchReaderLengthMismatch(uint256 targets, uint256 calls);

    /// @param targets The contracts to call.
    /// @param data The calldata of each call (same length as `targets`).
    /// @param gasPerCall Gas forwarded to each call (a bound on what one hostile target can burn).
    constructor(address[] memory targets, bytes[] memory data, uint256 gasPerCall) {
        uint256 n = targets.length;
        if (data.length != n) revert BatchReaderLengthMismatch(n, data.length);
        Result[] memory out = new Result[](n);
        for (uint256 i; i < n; ++i) {
            (bool ok, bytes memory ret) = targets[i].staticcall{gas: gasPerCall}(data[i]);
            out[i] = Result(ok, ret);
        }
        bytes memory result = abi.encode(block.number, block.timestamp, out);
        assembly ("memory-safe") {
            return(add(result, 32), mload(result))
        }
    }
}
