// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title MockAuthority
/// @notice Test-only AccessManager stand-in that allows every call, so a Solidity test can drive a module's
///         restricted setters without compiling the whole governance layer into its job. Never deployed to a real
///         network.
contract MockAuthority {
    /// @notice Allows every caller on every target, immediately.
    /// @return immediate Always true.
    /// @return delay Always 0.
    function canCall(address, address, bytes4) external pure returns (bool immediate, uint32 delay) {
        return (true, 0);
    }
}
