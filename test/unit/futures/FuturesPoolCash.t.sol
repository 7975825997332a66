// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSolBase} from "../../helpers/FuturesSolBase.sol";
import {IClearingHouseErrors} from "../../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/markets/IFuturesErrors.sol";

/// @notice The futures side of round 45's pool-cash fix (docs/clearing.md "Uncovered collateral and pool cash"): a
///         settlement that takes an account below zero credits the futures pool with more than the ClearingHouse
///         received; the market's withdrawable (what its vault may take back) counts only what was paid in.
contract FuturesPoolCashTest is FuturesSolBase {
    address internal trader = makeAddr("trader");
    address internal bystander = makeAddr("bystander");

    uint256 internal constant COLLATERAL = 1_000e6;
    uint256 internal constant DEFICIT = 250e6;

    function setUp() public {
        _deployFutures();
        _setupGuarantor(guarantor, false, 1_000_000e6);
        _setupTrader(trader, guarantor, COLLATERAL);
        _setupTrader(bystander, guarantor, 5_000e6);
    }

    /// @dev The market settles a loss of collateral + DEFICIT from `trader` into its pool.
    function _settleIntoDeficit() internal {
        vm.prank(address(futures));
        chouse.settle(trader, -int256(COLLATERAL + DEFICIT));
        assertEq(chouse.collateralOf(trader), -int256(DEFICIT));
        assertEq(chouse.uncoveredCollateralUsdc(), DEFICIT);
    }

    function test_withdrawable_countsOnlyWhatWasPaidIn() public {
        uint256 before = futures.withdrawableToVaultUsdc();
        _settleIntoDeficit();
        assertEq(futures.withdrawableToVaultUsdc(), before + COLLATERAL, "the deficit is not cash");
        _depositFor(trader, DEFICIT);
        assertEq(futures.withdrawableToVaultUsdc(), before + COLLATERAL + DEFICIT, "paid in: now cash");
    }

    /// The vault takes everything the market says it may, and no more; the bystander's margin stays whole.
    function test_vaultTakesAllItMay_bystanderStaysWhole() public {
        _settleIntoDeficit();
        uint256 free = futures.withdrawableToVaultUsdc();
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesVaultWithdrawTooLarge.selector, free + 1, free));
        vault.take(address(futures), free + 1);
        vault.take(address(futures), free);
        vm.prank(bystander);
        chouse.withdraw(5_000e6, bystander);
        assertEq(usdc.balanceOf(bystander), 5_000e6);
    }

    /// A pull by the market itself past the pool's cash is refused by the ClearingHouse.
    function test_marketPullPastCash_reverts() public {
        _settleIntoDeficit();
        (, int256 pool) = chouse.marketInfo(address(futures));
        uint256 cash = uint256(pool) - DEFICIT;
        vm.prank(address(futures));
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingPoolCashShort.selector,
                address(futures),
                cash + 1,
                pool,
                DEFICIT
            )
        );
        chouse.withdrawMarketPool(cash + 1, address(this));
    }
}
