// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Deployers} from "../utils/Deployers.sol";
import {SpotMarket} from "../../contracts/core/markets/SpotMarket.sol";
import {ISpotMarket} from "../../contracts/interfaces/markets/ISpotMarket.sol";
import {MockInsuranceFund} from "../../contracts/mocks/MockInsuranceFund.sol";
import {MockERC20} from "../../contracts/mocks/MockERC20.sol";
import {MockAuthority} from "../../contracts/mocks/MockAuthority.sol";
import {signDigest} from "../utils/Signatures.sol";

/// @notice A SpotMarket proxy over mock tokens, a mock insurance fund and an allow-all authority, for Solidity
///         unit, fuzz and invariant tests of the market alone.
/// @dev Uses only Deployers' proxy step: no AccessManager or real tokens (the market only sees CH, USDC and DPS as
///      ERC-20s, so mocks lose nothing here; access control is tested in TypeScript against the real AccessManager).
abstract contract SpotSolBase is Deployers {
    SpotMarket internal spot;
    MockInsuranceFund internal fund;
    MockERC20 internal ch;
    MockERC20 internal usdc;
    MockERC20 internal dps;
    address internal treasury = makeAddr("treasury");

    function _deploySpot() internal {
        ch = new MockERC20("Compute Hour", "CH", 18);
        usdc = MockERC20(_deployUsdc());
        dps = new MockERC20("CHX Reward Share", "DPS", 18);
        fund = new MockInsuranceFund(address(usdc));
        address authority = address(new MockAuthority());
        spot = SpotMarket(
            _deploySpotMarket(authority, [address(ch), address(usdc), address(dps)], treasury, address(fund))
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
        return signDigest(key, spot.orderDigest(o));
    }
}
