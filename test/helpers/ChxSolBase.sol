// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {ChxAccessManager} from "../../contracts/core/governance/ChxAccessManager.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {DPSToken} from "../../contracts/core/token/DPSToken.sol";
import {CHToken} from "../../contracts/core/token/CHToken.sol";
import {GFLToken} from "../../contracts/core/token/GFLToken.sol";
import {MockERC20} from "../../contracts/mocks/MockERC20.sol";

/// @notice Base for Solidity unit, fuzz and invariant tests: the governance and token layers behind real
///         ERC1967 proxies, with this test contract as the bootstrap admin (it plays the timelock).
abstract contract ChxSolBase is Test {
    ChxAccessManager internal manager;
    DPSToken internal dps;
    CHToken internal ch;
    GFLToken internal gfl;
    MockERC20 internal usdc;

    uint256 internal constant GENESIS_DPS = 10_000_000e18;

    function _proxy(address impl, bytes memory init) internal returns (address) {
        return address(new ERC1967Proxy(impl, init));
    }

    function _deployBase() internal {
        manager = ChxAccessManager(
            _proxy(address(new ChxAccessManager()), abi.encodeWithSignature("initialize(address)", address(this)))
        );
        dps = DPSToken(
            _proxy(
                address(new DPSToken()),
                abi.encodeCall(DPSToken.initialize, (address(manager), address(this), GENESIS_DPS))
            )
        );
        ch = CHToken(_proxy(address(new CHToken()), abi.encodeCall(CHToken.initialize, (address(manager)))));
        gfl = GFLToken(_proxy(address(new GFLToken()), abi.encodeCall(GFLToken.initialize, (address(manager)))));
        usdc = new MockERC20("USD Coin (mock)", "USDC", 6);

        _setRole(address(dps), DPSToken.mint.selector, Roles.EMISSION);
        _setRole(address(ch), CHToken.mint.selector, Roles.CH_MINTER);
        _setRole(address(ch), CHToken.burn.selector, Roles.CH_MINTER);
        _setRole(address(gfl), GFLToken.mint.selector, Roles.EMISSION);
        _setRole(address(gfl), GFLToken.burn.selector, Roles.EMISSION);
        _setRole(address(gfl), GFLToken.setBalance.selector, Roles.EMISSION);
    }

    /// @dev Maps one function of `target` to `role` in the AccessManager.
    function _setRole(address target, bytes4 selector, uint64 role) internal {
        bytes4[] memory sels = new bytes4[](1);
        sels[0] = selector;
        manager.setTargetFunctionRole(target, sels, role);
    }

    function _grant(uint64 role, address account) internal {
        manager.grantRole(role, account, 0);
    }
}
