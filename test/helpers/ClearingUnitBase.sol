// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingSolBase} from "./ClearingSolBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {MockPriceIndex} from "../../contracts/mocks/MockPriceIndex.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";

/// @notice Shared set-up of the clearing unit tests: one closed guarantor with 1,000 USDC, a funded market.
abstract contract ClearingUnitBase is ClearingSolBase {
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    address internal keeper = makeAddr("keeper");

    function setUp() public virtual {
        _deployClearing();
        _setupGuarantor(guarantor, false, 1_000e6);
        _fundMarket(1_000e6);
    }

    // ───────────── deposit / withdraw ─────────────

    function _aliceLong50() internal {
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        market.trade(50e18); // notional 500 at 10
    }
}
