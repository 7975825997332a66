// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {MockClearingMarket} from "./MockClearingMarket.sol";

/// @title MockPerpFundingMarket
/// @notice Test-only: a MockClearingMarket with PerpMarket's funding surface for the keeper (`fundingOwedUsdc`,
///         permissionless `settleFunding(account)`), the owed amounts set by the test.
contract MockPerpFundingMarket is MockClearingMarket {
    /// @notice Funding each account owes (+) or is owed (−), USDC, as the test set it.
    mapping(address account => int256 owedUsdc) public owed;

    /// @param clearingHouse_ The ClearingHouse.
    /// @param oracle_ The index.
    /// @param usdc_ USDC.
    constructor(
        address clearingHouse_,
        address oracle_,
        address usdc_
    ) MockClearingMarket(clearingHouse_, oracle_, usdc_) {}

    /// @notice Test hook: sets what `account` owes.
    /// @param account The account.
    /// @param owedUsdc USDC owed (+) or due to it (−).
    function setOwed(address account, int256 owedUsdc) external {
        owed[account] = owedUsdc;
    }

    /// @notice As IPerpMarket.fundingOwedUsdc.
    /// @param account The account.
    /// @return owedUsdc USDC owed (+) or due (−).
    function fundingOwedUsdc(address account) external view returns (int256 owedUsdc) {
        return owed[account];
    }

    /// @notice As IPerpMarket.settleFunding: settles the owed funding through ClearingHouse.settle.
    /// @param account The account.
    /// @return fundingUsdc Amount credited (+) or debited (−).
    function settleFunding(address account) external returns (int256 fundingUsdc) {
        fundingUsdc = -owed[account];
        owed[account] = 0;
        if (fundingUsdc != 0) clearingHouse.settle(account, fundingUsdc);
    }
}
