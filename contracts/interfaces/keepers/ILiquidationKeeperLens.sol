// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ILiquidationKeeperLens
/// @notice Types of the deployless liquidation probe (contracts/periphery/LiquidationKeeperLens.sol). The lens is
///         never deployed: a keeper `eth_call`s its creation code with `(engine, accounts)` as constructor
///         arguments, and the constructor returns `abi.encode(Probe[])` as the call's result. For each account it
///         tries `LiquidationEngine.liquidate(account)` in a call frame that always reverts, so nothing changes
///         and every attempt starts from the same state with cold storage (EIP-2929 access sets are rolled back
///         with the frame): one call tells a keeper which accounts are liquidatable AND the gas each liquidation
///         needs, instead of one `isLiquidatable` and one `eth_estimateGas` per account (docs/keepers.md).
interface ILiquidationKeeperLens {
    /// @notice What a liquidation attempt did.
    enum Outcome {
        Healthy,
        Liquidatable,
        Failed
    }

    /// @notice One account's probe.
    /// @param account The account.
    /// @param outcome Healthy (liquidate reverted LiquidationAccountHealthy), Liquidatable (it succeeded), Failed
    ///        (it reverted otherwise: `revertData` holds the error for the keeper's decoder).
    /// @param gasUsed Gas the liquidation used inside the probe (execution only, without the 21,000 intrinsic).
    /// @param equityUsdc Equity (Healthy only; from the revert).
    /// @param maintenanceMarginUsdc Maintenance margin (Healthy only; from the revert).
    /// @param revertData The revert data (Failed only).
    struct Probe {
        address account;
        Outcome outcome;
        uint256 gasUsed;
        int256 equityUsdc;
        uint256 maintenanceMarginUsdc;
        bytes revertData;
    }

    /// @notice The probe frame's revert that carries a result out (internal to the lens).
    /// @param ok Whether liquidate succeeded.
    /// @param gasUsed Gas it used.
    /// @param revertData Its revert data when it failed.
    error LiquidationLensResult(bool ok, uint256 gasUsed, bytes revertData);
}
