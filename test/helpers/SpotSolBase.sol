// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {SpotMarket} from "../../contracts/core/markets/SpotMarket.sol";
import {ISpotMarket} from "../../contracts/interfaces/markets/ISpotMarket.sol";
import {MockInsuranceFund} from "../../contracts/mocks/MockInsuranceFund.sol";
import {MockERC20} from "../../contracts/mocks/MockERC20.sol";
import {MockAuthority} from "../../contracts/mocks/MockAuthority.sol";

/// @notice A SpotMarket proxy over mock tokens, a mock insurance fund and an allow-all authority, for Solidity
///         unit, fuzz and invariant tests of the market alone.
/// @dev Deliberately does not extend ChxSolBase: with the governance and token layers (AccessManager, DPS votes,
///      GFL) in the same compilation job, solc-js (wasm) runs out of memory on the invariant handler (HHE908).
///      The market only sees CH, USDC and DPS as ERC-20s, so mocks lose nothing here; access control is
///      tested in TypeScript against the real AccessManager.
abstract contract SpotSolBase is Test {
    SpotMarket internal spot;
    MockInsuranceFund internal fund;
    MockERC20 internal ch;
    MockERC20 internal usdc;
    MockERC20 internal dps;
    address internal treasury = makeAddr("treasury");

    function _deploySpot() internal {
        ch = new MockERC20("Compute Hour", "CH", 18);
        usdc = new MockERC20("USD Coin (mock)", "USDC", 6);
        dps = new MockERC20("CHX Reward Share", "DPS", 18);
        fund = new MockInsuranceFund(address(usdc));
        address authority = address(new MockAuthority());
        spot = SpotMarket(
            address(
                new ERC1967Proxy(
                    address(new SpotMarket()),
                    abi.encodeCall(
                        SpotMarket.initialize,
                        (authority, address(ch), address(usdc), address(dps), treasury, address(fund))
                    )
                )
            )
        );
    }

    /// @dev Funds `who` with CH, USDC and DPS and approves the market for all three.
    function _fund(address who) internal {
        ch.mint(who, 1e30);
        usdc.mint(who, 1e24);
        dps.mint(who, 100_000e18);
        vm.startPrank(who);
        ch.approve(address(spot), type(uint256).max);
        usdc.approve(address(spot), type(uint256).max);
        dps.approve(address(spot), type(uint256).max);
        vm.stopPrank();
    }

    function _sign(uint256 key, ISpotMarket.Order memory o) internal view returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, spot.orderDigest(o));
        return abi.encodePacked(r, s, v);
    }
}
