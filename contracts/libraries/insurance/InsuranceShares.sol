// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IInsuranceFundErrors} from "../../interfaces/clearing/IInsuranceFundErrors.sol";
import {InsuranceFundStore} from "./InsuranceStorage.sol";

/// @title InsuranceShares
/// @notice The InsuranceFund's share ledger reads: conversions with the ERC-4626-style virtual offset (ACC-04, both
///         rounded down: ACC-05), a staker's shares in the current epoch, and a guarantor's floor (CLR-01).
library InsuranceShares {
    /// @dev Virtual shares: shares carry 6 more decimals than USDC (12 in all), as ERC-4626 `_decimalsOffset() = 6`.
    uint256 internal constant VIRTUAL_SHARES = 1e6;
    /// @dev Virtual assets: 1 USDC unit.
    uint256 internal constant VIRTUAL_ASSETS = 1;

    /// @dev Shares of `staker` in the current epoch (older epochs were wiped out by a near-total loss).
    function held(InsuranceFundStore.InsuranceFundStorage storage $, address staker) internal view returns (uint256) {
        InsuranceFundStore.StakerShares memory position = $.stakers[staker];
        return position.epoch == $.shareEpoch ? position.shares : 0;
    }

    /// @dev Reverts when `remainingUsdc` would leave a guarantor below its requirement in force.
    function checkFloor(
        InsuranceFundStore.InsuranceFundStorage storage $,
        address staker,
        uint256 remainingUsdc
    ) internal view {
        uint256 required = requirement($, staker);
        if (remainingUsdc < required)
            revert IInsuranceFundErrors.InsuranceGuarantorFloor(staker, required, remainingUsdc);
    }

    /// @dev The requirement in force: the governance floor or the pool's exposure-based requirement, the larger
    ///      (CLR-01: the stake backing cleared risk cannot be withdrawn).
    function requirement(
        InsuranceFundStore.InsuranceFundStorage storage $,
        address guarantor
    ) internal view returns (uint256) {
        uint256 floor = $.requirement[guarantor];
        IGuarantorPool pool = $.guarantorPool;
        if (address(pool) == address(0)) return floor;
        uint256 computed = pool.requiredInsuranceUsdc(guarantor);
        return computed > floor ? computed : floor;
    }

    /// @dev Shares credited for a stake: rounded DOWN (the staker gets no more than paid for; ACC-05).
    function toSharesDown(
        InsuranceFundStore.InsuranceFundStorage storage $,
        uint256 amountUsdc
    ) internal view returns (uint256) {
        return Math.mulDiv(amountUsdc, $.totalShares + VIRTUAL_SHARES, $.totalAssets + VIRTUAL_ASSETS);
    }

    /// @dev USDC paid for shares: rounded DOWN (the fund keeps the dust; ACC-03, ACC-05).
    function toAssetsDown(
        InsuranceFundStore.InsuranceFundStorage storage $,
        uint256 shares
    ) internal view returns (uint256) {
        return Math.mulDiv(shares, $.totalAssets + VIRTUAL_ASSETS, $.totalShares + VIRTUAL_SHARES);
    }
}
