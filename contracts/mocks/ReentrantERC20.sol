// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title ReentrantERC20
/// @notice Test-only malicious token (SEC-04): while armed, every transfer calls `target` with `data` and bubbles up
///         that call's revert, so a reentrancy guard in the target makes the outer call revert.
contract ReentrantERC20 is ERC20 {
    address public reentryTarget;
    bytes public data;
    bool public armed;

    constructor() ERC20("Reentrant USD", "rUSD") {}

    /// @notice Token decimals (USDC-like).
    /// @return 6.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Mints freely.
    /// @param to Recipient.
    /// @param amount Amount.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Arms the re-entry.
    /// @param target_ Contract to call back.
    /// @param data_ Calldata.
    function arm(address target_, bytes calldata data_) external {
        reentryTarget = target_;
        data = data_;
        armed = true;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (armed) {
            armed = false;
            (bool ok, bytes memory ret) = reentryTarget.call(data);
            armed = true;
            if (!ok) {
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
        }
    }
}
