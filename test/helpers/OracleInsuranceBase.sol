// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ChxSolBase} from "./ChxSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {ComputePriceOracle} from "../../contracts/core/oracle/ComputePriceOracle.sol";
import {InsuranceFund} from "../../contracts/core/clearing/InsuranceFund.sol";
import {MockAggregatorV3} from "../../contracts/mocks/MockAggregatorV3.sol";

/// @notice ChxSolBase plus the oracle (over a MockAggregatorV3 at 2 USDC/CH, 8 decimals) and the insurance fund
///         (7-day cooldown, 2-day window), wired as the deploy module wires them.
abstract contract OracleInsuranceBase is ChxSolBase {
    ComputePriceOracle internal oracle;
    InsuranceFund internal fund;
    MockAggregatorV3 internal feed;

    uint32 internal constant HEARTBEAT = 3600;
    uint256 internal constant MIN_PRICE = 0.01e18;
    uint256 internal constant MAX_PRICE = 1000e18;
    uint64 internal constant COOLDOWN = 7 days;
    uint64 internal constant WINDOW = 2 days;
    uint256 internal constant T0 = 1_700_000_000;

    address internal clearing = address(0xC1EA);
    address internal guardian = address(0x6A2D);

    function _deployOracleAndFund() internal {
        vm.warp(T0);
        _deployBase();
        feed = MockAggregatorV3(_deployFeed(2e8));
        oracle = ComputePriceOracle(_deployComputeOracle(address(feed), HEARTBEAT, MIN_PRICE, MAX_PRICE));
        fund = InsuranceFund(_deployInsuranceFund(address(usdc), COOLDOWN, WINDOW));
        _guardPause(address(fund));
        _guardPause(address(oracle));
        _grant(Roles.CLEARING, clearing);
        _grant(Roles.FEE_SOURCE, clearing);
        _grant(Roles.GUARDIAN, guardian);
    }

    /// @dev AccessManaged's revert for a caller without the role.
    function _unauthorized(address caller) internal pure returns (bytes memory) {
        return abi.encodeWithSignature("AccessManagedUnauthorized(address)", caller);
    }

    /// @dev Mints `amount` mock USDC to `who`, approves the fund and stakes it.
    function _stakeAs(address who, uint256 amount) internal returns (uint256 shares) {
        usdc.mint(who, amount);
        vm.startPrank(who);
        usdc.approve(address(fund), amount);
        shares = fund.stake(amount);
        vm.stopPrank();
    }

    /// @dev The clearing role deposits `amount` of fee income.
    function _fees(uint256 amount) internal {
        usdc.mint(clearing, amount);
        vm.startPrank(clearing);
        usdc.approve(address(fund), amount);
        fund.depositFees(amount);
        vm.stopPrank();
    }

    /// @dev The clearing role covers `amount` of bad debt to itself.
    function _cover(uint256 amount) internal returns (uint256 covered) {
        vm.prank(clearing);
        covered = fund.coverBadDebt(amount, clearing);
    }

    /// @dev Requests, waits the configured cooldown and withdraws every share of `who`.
    function _exitAll(address who) internal returns (uint256 amountUsdc) {
        uint256 shares = fund.sharesOf(who);
        vm.prank(who);
        fund.requestWithdraw(shares);
        (uint64 cooldownSec, ) = fund.cooldown();
        vm.warp(block.timestamp + cooldownSec);
        vm.prank(who);
        amountUsdc = fund.withdraw(shares, who);
    }
}
