// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title LinkedCall
/// @notice How the ClearingHouse runs a cold entry point in one of its linked libraries: the call's own argument bytes
///         (calldata after the selector) under the library function's selector, by delegatecall, with the library's
///         return or revert data passed back unchanged (docs/clearing.md "Linked entry points").
/// @dev Internal: compiled into the ClearingHouse. The library function must take exactly the entry point's arguments
///      (no storage pointer: it reads ClearingStorage.layout()); `lib` is always a linked library address, i.e. code
///      fixed in the ClearingHouse's bytecode, never a stored address.
library LinkedCall {
    /// @dev Runs this call's arguments (calldata after the selector) in the linked library `lib`'s function
    ///      `selector` by delegatecall and reverts with its revert data.
    /// @custom:oz-upgrades-unsafe-allow delegatecall
    function forward(address lib, bytes4 selector) internal {
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, selector)
            calldatacopy(add(p, 4), 4, sub(calldatasize(), 4))
            if iszero(delegatecall(gas(), lib, p, calldatasize(), 0, 0)) {
                returndatacopy(p, 0, returndatasize())
                revert(p, returndatasize())
            }
        }
    }

    /// @dev forward under the call's own selector (the library function has the entry point's name and argument
    ///      types, so the same selector): the callers' bodies are identical and the optimizer keeps one copy.
    /// @custom:oz-upgrades-unsafe-allow delegatecall
    function forwardSame(address lib) internal {
        assembly ("memory-safe") {
            let p := mload(0x40)
            calldatacopy(p, 0, calldatasize())
            if iszero(delegatecall(gas(), lib, p, calldatasize(), 0, 0)) {
                returndatacopy(p, 0, returndatasize())
                revert(p, returndatasize())
            }
        }
    }

    /// @dev forward, then returns the library's return data as this call's (only where no modifier has work after
    ///      the body: it ends the call in assembly).
    /// @custom:oz-upgrades-unsafe-allow delegatecall
    function forwardReturn(address lib, bytes4 selector) internal {
        forward(lib, selector);
        assembly {
            returndatacopy(0, 0, returndatasize())
            return(0, returndatasize())
        }
    }

    /// @dev forwardReturn for a view: the library function is a view, run by delegatecall like Solidity's own library
    ///      view calls (the compiler cannot see that through assembly, hence the cast).
    /// @custom:oz-upgrades-unsafe-allow delegatecall
    function forwardView(address lib, bytes4 selector) internal view {
        function(address, bytes4) internal run = forwardReturn;
        function(address, bytes4) internal view asView;
        assembly {
            asView := run
        }
        asView(lib, selector);
    }

    /// @dev forwardView under the call's own selector (see forwardSame).
    /// @custom:oz-upgrades-unsafe-allow delegatecall
    function forwardViewSame(address lib) internal view {
        function(address) internal run = _forwardSameReturn;
        function(address) internal view asView;
        assembly {
            asView := run
        }
        asView(lib);
    }

    /// @dev forwardSame, then returns the library's return data as this call's.
    function _forwardSameReturn(address lib) private {
        forwardSame(lib);
        assembly {
            returndatacopy(0, 0, returndatasize())
            return(0, returndatasize())
        }
    }

    /// @dev forward, then the library's return data as bytes (for a caller whose modifiers still have work to do).
    /// @custom:oz-upgrades-unsafe-allow delegatecall
    function forwardData(address lib, bytes4 selector) internal returns (bytes memory data) {
        forward(lib, selector);
        assembly ("memory-safe") {
            data := mload(0x40)
            mstore(data, returndatasize())
            returndatacopy(add(data, 32), 0, returndatasize())
            mstore(0x40, and(add(add(data, 63), returndatasize()), not(31)))
        }
    }
}
