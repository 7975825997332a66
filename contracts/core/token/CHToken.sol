// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20PermitUpgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/extensions/ERC20PermitUpgradeable.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {ICHToken} from "../../interfaces/tokens/ICHToken.sol";

/// @title CHToken
/// @notice The Compute Hour: 1 CH = one hour of the reference system of a workload class (18 decimals).
/// @dev Mint and burn are `restricted` and mapped to Roles.CH_MINTER, held only by the ProviderRegistry, which
///      keeps every provider's delivery liability in step with supply (TSK-04).
contract CHToken is ChxUpgradeable, ERC20PermitUpgradeable, ICHToken {
    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    function initialize(address authority) external initializer {
        __ChxUpgradeable_init(authority);
        __ERC20_init("Compute Hour", "CH");
        __ERC20Permit_init("Compute Hour");
    }

    /// @inheritdoc ICHToken
    function mint(address to, uint256 amount) external restricted {
        _mint(to, amount);
        emit CHMinted(to, amount, totalSupply());
    }

    /// @inheritdoc ICHToken
    function burn(address from, uint256 amount) external restricted {
        _burn(from, amount);
        emit CHBurned(from, amount, totalSupply());
    }
}
