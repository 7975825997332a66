// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ILiquidationEngine} from "../interfaces/clearing/ILiquidationEngine.sol";
import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";
import {ILiquidationChecker} from "./IKeeperCheckers.sol";

/// @title LiquidationChecker
/// @notice Gelato `checker(accounts)` and Chainlink `checkUpkeep(abi.encode(accounts))` / `performUpkeep` for
///         liquidations, on the LiquidationEngine's own views (see ILiquidationChecker). Not upgradeable, no storage.
contract LiquidationChecker is ILiquidationChecker {
    using SafeERC20 for IERC20;

    /// @notice Most candidate accounts per view (≈ 15k gas each: far under a node's eth_call cap).
    uint256 public constant MAX_ACCOUNTS = 500;
    /// @notice Most liquidations per `performUpkeep` (≈ 300k gas each: far under the 16,777,216 cap).
    uint256 public constant MAX_PER_CALL = 20;

    ILiquidationEngine private immutable _engine;
    IClearingHouse private immutable _clearingHouse;
    address private immutable _beneficiary;

    /// @param engine_ The LiquidationEngine.
    /// @param clearingHouse_ The ClearingHouse (it pays the bounties in its USDC, named by its `modules()`).
    /// @param beneficiary_ Receives the bounties (the treasury, or the operator who registers the upkeeps).
    constructor(address engine_, address clearingHouse_, address beneficiary_) {
        _engine = ILiquidationEngine(engine_);
        _clearingHouse = IClearingHouse(clearingHouse_);
        _beneficiary = beneficiary_;
    }

    /// @inheritdoc ILiquidationChecker
    function engine() external view returns (address) {
        return address(_engine);
    }

    /// @inheritdoc ILiquidationChecker
    function beneficiary() external view returns (address) {
        return _beneficiary;
    }

    /// @inheritdoc ILiquidationChecker
    function checker(address[] calldata accounts) external view returns (bool canExec, bytes memory execPayload) {
        address[] memory due = _due(accounts);
        if (due.length == 0) return (false, "");
        return (true, abi.encodeCall(this.performUpkeep, (abi.encode(due))));
    }

    /// @notice Chainlink: `checkData` is `abi.encode(address[] accounts)`; `performData` the liquidatable ones.
    /// @param checkData The registration's accounts.
    /// @return upkeepNeeded True when at least one is liquidatable.
    /// @return performData `abi.encode(address[] liquidatable)`.
    function checkUpkeep(bytes calldata checkData) external view returns (bool upkeepNeeded, bytes memory performData) {
        address[] memory due = _due(abi.decode(checkData, (address[])));
        if (due.length == 0) return (false, "");
        return (true, abi.encode(due));
    }

    /// @notice Liquidates each account of `performData` (`abi.encode(address[])`) that is still liquidatable (the
    ///         engine re-checks: anyone may call this with anything), then forwards the bounties. Reverts
    ///         LiquidationCheckerAlreadyDone when none was.
    /// @param performData `abi.encode(address[] accounts)`, at most MAX_PER_CALL.
    function performUpkeep(bytes calldata performData) external {
        address[] memory accounts = abi.decode(performData, (address[]));
        if (accounts.length > MAX_PER_CALL) revert LiquidationCheckerTooManyAccounts(accounts.length, MAX_PER_CALL);
        uint256 done;
        for (uint256 i; i < accounts.length; ++i) {
            try _engine.liquidate(accounts[i]) {
                ++done;
            } catch {
                // healthy now, or liquidated by someone else: skip it
            }
        }
        if (done == 0) revert LiquidationCheckerAlreadyDone(accounts.length);
        emit LiquidationUpkeepPerformed(msg.sender, done, _forward());
    }

    /// @inheritdoc ILiquidationChecker
    function sweep() external returns (uint256 amountUsdc) {
        return _forward();
    }

    /// @dev The liquidatable accounts among `accounts`, at most MAX_PER_CALL.
    function _due(address[] memory accounts) private view returns (address[] memory due) {
        if (accounts.length > MAX_ACCOUNTS) revert LiquidationCheckerTooManyAccounts(accounts.length, MAX_ACCOUNTS);
        due = new address[](MAX_PER_CALL);
        uint256 n;
        for (uint256 i; i < accounts.length && n < MAX_PER_CALL; ++i) {
            try _engine.isLiquidatable(accounts[i]) returns (bool liquidatable, int256, uint256) {
                if (liquidatable) due[n++] = accounts[i];
            } catch {
                // unreadable (e.g. a stale oracle): not liquidatable now either
            }
        }
        assembly ("memory-safe") {
            mstore(due, n)
        }
    }

    /// @dev Sends the USDC this contract holds (the bounties the ClearingHouse paid it) to the beneficiary.
    function _forward() private returns (uint256 amountUsdc) {
        (address usdc, , , , , ) = _clearingHouse.modules();
        amountUsdc = IERC20(usdc).balanceOf(address(this));
        if (amountUsdc > 0) IERC20(usdc).safeTransfer(_beneficiary, amountUsdc);
    }
}
