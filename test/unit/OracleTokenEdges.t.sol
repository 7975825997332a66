// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OracleInsuranceBase} from "../helpers/OracleInsuranceBase.sol";
import {MockAggregatorV3} from "../../contracts/mocks/MockAggregatorV3.sol";
import {ComputePriceOracle} from "../../contracts/core/oracle/ComputePriceOracle.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";
import {DPSToken} from "../../contracts/core/token/DPSToken.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IComputePriceOracleErrors} from "../../contracts/interfaces/oracle/IComputePriceOracleErrors.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";

/// @notice Configuration guards of the oracle and the DPS genesis the module suites do not reach: a feed with more
///         than 36 decimals (the WAD conversion would overflow) and a genesis mint without a recipient.
contract OracleTokenEdgesTest is OracleInsuranceBase {
    function setUp() public {
        _deployOracleAndFund();
    }

    function test_oracle_feedWithTooManyDecimalsRejected() public {
        MockAggregatorV3 wide = new MockAggregatorV3(37, "CH / USD", 2e8);
        IComputePriceOracle.Config memory c = oracle.config();
        c.feed = address(wide);
        vm.expectRevert(abi.encodeWithSelector(IComputePriceOracleErrors.OracleInvalidConfig.selector, "decimals"));
        new ComputePriceOracle(c);
        // 36 decimals is the largest accepted; the price stays the old feed's meanwhile.
        assertEq(oracle.indexPrice(), 2e18);
        MockAggregatorV3 widest = new MockAggregatorV3(36, "CH / USD", 3e36);
        c.feed = address(widest);
        UUPSUpgradeable(address(oracle)).upgradeToAndCall(_deployOracleImpl(c), "");
        assertEq(oracle.indexPrice(), 3e18);
    }

    function test_dps_genesisNeedsARecipient() public {
        address impl = address(new DPSToken());
        vm.expectRevert(IChxModule.ChxZeroAddress.selector);
        _proxy(impl, abi.encodeCall(DPSToken.initialize, (address(manager), address(0), 1e18)));
        // Without a genesis amount no recipient is needed.
        DPSToken t = DPSToken(_proxy(impl, abi.encodeCall(DPSToken.initialize, (address(manager), address(0), 0))));
        assertEq(t.totalSupply(), 0);
    }
}
