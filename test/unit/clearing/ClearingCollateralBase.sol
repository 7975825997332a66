// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../../helpers/ClearingUnitBase.sol";
import {IClearingHouseCollateral} from "../../../contracts/interfaces/clearing/IClearingHouseCollateral.sol";
import {MockERC20} from "../../../contracts/mocks/MockERC20.sol";
import {MockAggregatorV3} from "../../../contracts/mocks/MockAggregatorV3.sol";

/// @notice Token collateral set-up: CH (a mock 18-decimal token standing in for CHToken) valued at the index with
///         h = 10 % + 1·σ (σ = 2 % → 12 %, ceiling 50 %), DPS listed with a feed-priced config but no feed (off).
///         At the index 10: 1 CH counts 8.8 USDC; with the DPS feed at 2 USD: 1 DPS counts 2 × (1 − 24 %) = 1.52.
abstract contract ClearingCollateralBase is ClearingUnitBase {
    IClearingHouseCollateral internal coll;
    MockERC20 internal chTok;
    MockAggregatorV3 internal dpsFeed;

    uint64 internal constant CH_BASE = 0.1e18;
    uint64 internal constant CH_K = 1e18;
    uint64 internal constant CH_MAX = 0.5e18;
    uint64 internal constant DPS_BASE = 0.2e18;
    uint64 internal constant DPS_K = 2e18;
    uint64 internal constant DPS_MAX = 0.6e18;
    uint32 internal constant HEARTBEAT = 1 hours;
    uint128 internal constant CAP = 1_000_000e18;

    function setUp() public virtual override {
        super.setUp();
        coll = IClearingHouseCollateral(address(chouse));
        chTok = MockERC20(deployCode("MockERC20.sol:MockERC20", abi.encode("Compute Hour (mock)", "CH", uint8(18))));
        dpsFeed = MockAggregatorV3(
            deployCode("MockAggregatorV3.sol:MockAggregatorV3", abi.encode(8, "DPS / USD", 2e8))
        );
        coll.setCollateralToken(address(chTok), _chConfig());
        coll.setCollateralToken(address(dps), _dpsConfig(address(0)));
    }

    function _chConfig() internal pure returns (IClearingHouseCollateral.CollateralTokenConfig memory) {
        return IClearingHouseCollateral.CollateralTokenConfig(address(0), 0, true, CH_BASE, CH_K, CH_MAX, CAP);
    }

    function _dpsConfig(address feed) internal pure returns (IClearingHouseCollateral.CollateralTokenConfig memory) {
        return IClearingHouseCollateral.CollateralTokenConfig(feed, HEARTBEAT, false, DPS_BASE, DPS_K, DPS_MAX, CAP);
    }

    function _depositCh(address who, uint256 amount) internal {
        chTok.mint(who, amount);
        vm.startPrank(who);
        chTok.approve(address(chouse), amount);
        coll.depositToken(address(chTok), amount);
        vm.stopPrank();
    }

    function _depositDps(address who, uint256 amount) internal {
        dps.transfer(who, amount);
        vm.startPrank(who);
        dps.approve(address(chouse), amount);
        coll.depositToken(address(dps), amount);
        vm.stopPrank();
    }

    /// @dev The token ledger identity: Σ recorded balances of `accounts` = recorded total ≤ balanceOf(ClearingHouse).
    function _assertTokenLedger(address token, address[] memory accounts) internal view {
        (, , uint256 total) = coll.collateralToken(token);
        uint256 sum;
        for (uint256 i; i < accounts.length; ++i) sum += coll.tokenCollateralOf(accounts[i], token);
        assertEq(sum, total, "token ledger: sum of balances");
        assertLe(total, MockERC20(token).balanceOf(address(chouse)), "token ledger: held");
    }

    /// @dev ACC-01 for USDC: balance = Σ collateral (≥ 0 parts here) + market pool + fees.
    function _assertUsdcLedger(address[] memory accounts) internal view {
        int256 sum;
        for (uint256 i; i < accounts.length; ++i) sum += chouse.collateralOf(accounts[i]);
        (, int256 poolUsdc) = chouse.marketInfo(address(market));
        (uint256 fees, ) = chouse.totals();
        assertEq(int256(usdc.balanceOf(address(chouse))), sum + poolUsdc + int256(fees), "ACC-01");
    }
}
