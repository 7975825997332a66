// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IInsuranceFund} from "../../interfaces/clearing/IInsuranceFund.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";

/// @title InsuranceFundStore
/// @notice The InsuranceFund's ERC-7201 namespace, inherited by the fund (so the upgrade-safety gate sees it) and
///         used by InsuranceShares.
abstract contract InsuranceFundStore {
    /// @dev A staker's shares and the share epoch they belong to, in one slot.
    struct StakerShares {
        uint192 shares;
        uint64 epoch;
    }

    /// @dev totalAssets and totalShares share one slot (uint128 each: 3.4e38 ≫ any USDC amount × the 1e6 offset).
    /// @custom:storage-location erc7201:chx.storage.InsuranceFund
    struct InsuranceFundStorage {
        IERC20 usdc;
        uint128 totalAssets;
        uint128 totalShares;
        uint64 cooldownSec;
        uint64 windowSec;
        mapping(address staker => StakerShares position) stakers;
        mapping(address staker => IInsuranceFund.WithdrawRequest request) requests;
        mapping(address guarantor => uint256 requiredUsdc) requirement;
        uint64 shareEpoch;
        IGuarantorPool guarantorPool;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.InsuranceFund")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant INSURANCE_FUND_STORAGE_LOCATION =
        0x5cd561336037e996751fa0f3cf3683be1508f1d84e0861658b551353123ad400;

    function _getStorage() internal pure returns (InsuranceFundStorage storage $) {
        assembly {
            $.slot := INSURANCE_FUND_STORAGE_LOCATION
        }
    }
}
