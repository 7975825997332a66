// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IRiskEngine} from "../interfaces/clearing/IRiskEngine.sol";
import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../interfaces/oracle/IComputePriceOracle.sol";
import {IVolatilityChecker} from "./IKeeperCheckers.sol";

/// @notice The RiskEngine views the checker reads beyond IRiskEngine.
interface IRiskEngineVolatilityParams {
    /// @notice The volatility model.
    /// @return lambdaWad EWMA decay.
    /// @return minUpdateInterval Seconds between updates.
    /// @return bountyUsdc Max bounty per update.
    function volatilityParams()
        external
        view
        returns (uint256 lambdaWad, uint256 minUpdateInterval, uint256 bountyUsdc);
}

/// @title VolatilityChecker
/// @notice Gelato `checker()` and Chainlink `checkUpkeep` / `performUpkeep` for `RiskEngine.updateVolatility()`
///         (see IVolatilityChecker). Not upgradeable, no storage.
contract VolatilityChecker is IVolatilityChecker {
    using SafeERC20 for IERC20;

    IRiskEngine private immutable _risk;
    IClearingHouse private immutable _clearingHouse;
    address private immutable _beneficiary;

    /// @param riskEngine_ The RiskEngine.
    /// @param clearingHouse_ The ClearingHouse (its `modules()` name the oracle and the USDC).
    /// @param beneficiary_ Receives the bounties.
    constructor(address riskEngine_, address clearingHouse_, address beneficiary_) {
        _risk = IRiskEngine(riskEngine_);
        _clearingHouse = IClearingHouse(clearingHouse_);
        _beneficiary = beneficiary_;
    }

    /// @inheritdoc IVolatilityChecker
    function riskEngine() external view returns (address) {
        return address(_risk);
    }

    /// @inheritdoc IVolatilityChecker
    function beneficiary() external view returns (address) {
        return _beneficiary;
    }

    /// @inheritdoc IVolatilityChecker
    function status() public view returns (bool due, uint256 nextUpdateAt, bool oracleOk) {
        (, , , uint256 lastUpdate) = _risk.volatility();
        (, uint256 interval, ) = IRiskEngineVolatilityParams(address(_risk)).volatilityParams();
        nextUpdateAt = lastUpdate == 0 ? 0 : lastUpdate + interval;
        (, address oracle, , , , ) = _clearingHouse.modules();
        try IComputePriceOracle(oracle).indexPrice() returns (uint256) {
            oracleOk = true;
        } catch {
            oracleOk = false;
        }
        due = oracleOk && block.timestamp >= nextUpdateAt;
    }

    /// @notice Gelato resolver.
    /// @return canExec True when the update is due and the oracle can be read.
    /// @return execPayload `performUpkeep("")` for this contract; empty when `canExec` is false.
    function checker() external view returns (bool canExec, bytes memory execPayload) {
        (bool due, , ) = status();
        if (!due) return (false, "");
        return (true, abi.encodeCall(this.performUpkeep, ("")));
    }

    /// @notice Chainlink: `checkData` is unused.
    /// @return upkeepNeeded True when the update is due and the oracle can be read.
    /// @return performData Empty.
    function checkUpkeep(bytes calldata) external view returns (bool upkeepNeeded, bytes memory performData) {
        (upkeepNeeded, , ) = status();
        return (upkeepNeeded, "");
    }

    /// @notice Calls `updateVolatility()` and forwards its bounty. Reverts VolatilityCheckerAlreadyDone when the
    ///         update is not due (someone else made it).
    function performUpkeep(bytes calldata) external {
        (, uint256 nextUpdateAt, ) = status();
        if (block.timestamp < nextUpdateAt) revert VolatilityCheckerAlreadyDone(nextUpdateAt);
        uint256 sigma = _risk.updateVolatility();
        (address usdc, , , , , ) = _clearingHouse.modules();
        uint256 balance = IERC20(usdc).balanceOf(address(this));
        if (balance > 0) IERC20(usdc).safeTransfer(_beneficiary, balance);
        emit VolatilityUpkeepPerformed(msg.sender, sigma, balance);
    }
}
