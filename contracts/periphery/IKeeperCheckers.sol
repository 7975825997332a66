// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IKeeperChecker, IKeeperUpkeep} from "../interfaces/keepers/IKeeperCompatible.sol";

/// @title ILiquidationChecker
/// @notice Vendor automation (Gelato, Chainlink Automation) for liquidations (docs/keepers.md, "Vendor adapters").
///         The ClearingHouse keeps no enumerable account list, so the candidate accounts come with the call: Gelato's
///         resolver data is `checker(accounts)` and Chainlink's `checkData` is `abi.encode(accounts)`, one
///         registration per shard of accounts (`npm run keeper:gelato` builds them from the ClearingHouse's events).
///         The checks are the LiquidationEngine's own `isLiquidatable` views; `performUpkeep` liquidates through the
///         engine and forwards the bounty (USDC the ClearingHouse pays the caller) to `beneficiary`.
///         Periphery: not upgradeable, no storage, holds nothing between calls.
interface ILiquidationChecker is IKeeperUpkeep {
    /// @notice Thrown when every account of a `performUpkeep` was healthy or already liquidated (a racing keeper or
    ///         vendor won): the "already done" of a lost race (OPS-01).
    /// @param accounts How many accounts were tried.
    error LiquidationCheckerAlreadyDone(uint256 accounts);
    /// @notice Thrown when a call carries more accounts than one view or transaction may handle.
    /// @param count Accounts given.
    /// @param max The limit.
    error LiquidationCheckerTooManyAccounts(uint256 count, uint256 max);

    /// @notice Emitted after a `performUpkeep`.
    /// @param caller The vendor's executor (or anyone).
    /// @param liquidated Accounts liquidated.
    /// @param forwardedUsdc Bounty forwarded to the beneficiary.
    event LiquidationUpkeepPerformed(address indexed caller, uint256 liquidated, uint256 forwardedUsdc);

    /// @notice Gelato resolver: the liquidatable accounts among `accounts` (at most `MAX_PER_CALL` of them).
    /// @param accounts Candidates (at most `MAX_ACCOUNTS`).
    /// @return canExec True when at least one is liquidatable now.
    /// @return execPayload `performUpkeep(abi.encode(liquidatable))` for this contract; empty when `canExec` is false.
    function checker(address[] calldata accounts) external view returns (bool canExec, bytes memory execPayload);

    /// @notice Sends any USDC this contract holds (e.g. sent to it by mistake) to the beneficiary. Permissionless.
    /// @return amountUsdc Forwarded.
    function sweep() external returns (uint256 amountUsdc);

    /// @notice The LiquidationEngine.
    function engine() external view returns (address);

    /// @notice Receives the bounties.
    function beneficiary() external view returns (address);
}

/// @title IVolatilityChecker
/// @notice Vendor automation for the RiskEngine's EWMA volatility update: due once `minUpdateInterval` has passed
///         since the last update AND the oracle's index can be read (a stale oracle would make the update revert:
///         the checker says "not now" instead of letting a vendor pay for a revert). `performUpkeep` calls
///         `updateVolatility()` and forwards its USDC bounty to `beneficiary`. Periphery: not upgradeable, no storage.
interface IVolatilityChecker is IKeeperChecker, IKeeperUpkeep {
    /// @notice Thrown by `performUpkeep` when the update is not due (someone else made it): "already done".
    /// @param nextUpdateAt When it is due next (unix seconds).
    error VolatilityCheckerAlreadyDone(uint256 nextUpdateAt);

    /// @notice Emitted after a `performUpkeep`.
    /// @param caller The vendor's executor (or anyone).
    /// @param sigmaWad σ after the update.
    /// @param forwardedUsdc Bounty forwarded to the beneficiary.
    event VolatilityUpkeepPerformed(address indexed caller, uint256 sigmaWad, uint256 forwardedUsdc);

    /// @notice Whether the update is due now and, if not, why.
    /// @return due True when `updateVolatility()` would succeed now.
    /// @return nextUpdateAt When the interval allows the next update (0: never updated).
    /// @return oracleOk Whether the oracle's index can be read now.
    function status() external view returns (bool due, uint256 nextUpdateAt, bool oracleOk);

    /// @notice The RiskEngine.
    function riskEngine() external view returns (address);

    /// @notice Receives the bounties.
    function beneficiary() external view returns (address);
}
