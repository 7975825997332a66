// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ILiquidationEngine} from "../interfaces/clearing/ILiquidationEngine.sol";
import {ILiquidationKeeperLens} from "../interfaces/keepers/ILiquidationKeeperLens.sol";

/// @title LiquidationKeeperLens
/// @notice Deployless keeper probe (never deployed; see ILiquidationKeeperLens): `eth_call` the creation code with
///         `(engine, accounts)` and decode the result as `ILiquidationKeeperLens.Probe[]`. Read-only in effect:
///         every liquidation attempt runs in a frame that reverts, and an `eth_call` commits nothing anyway.
contract LiquidationKeeperLens is ILiquidationKeeperLens {
    /// @param engine The LiquidationEngine.
    /// @param accounts The accounts to probe (a page: each costs about one liquidation's gas at most).
    constructor(address engine, address[] memory accounts) {
        LiquidationAttempt attempt = new LiquidationAttempt();
        bytes4 healthy = ILiquidationEngine.LiquidationAccountHealthy.selector;
        Probe[] memory out = new Probe[](accounts.length);
        for (uint256 i; i < accounts.length; ++i) {
            Probe memory p = out[i];
            p.account = accounts[i];
            (bool ok, uint256 gasUsed, bytes memory err) = attempt.probe(engine, accounts[i]);
            p.gasUsed = gasUsed;
            if (ok) {
                p.outcome = Outcome.Liquidatable;
            } else if (err.length == 100 && bytes4(err) == healthy) {
                assembly ("memory-safe") {
                    mstore(add(p, 96), mload(add(err, 68)))
                    mstore(add(p, 128), mload(add(err, 100)))
                }
            } else {
                p.outcome = Outcome.Failed;
                p.revertData = err;
            }
        }
        bytes memory result = abi.encode(out);
        assembly ("memory-safe") {
            return(add(result, 32), mload(result))
        }
    }
}

/// @notice The reverting frame: tries the liquidation, measures it, and reverts with the result so nothing it did
///         (state, warm slots) outlives the attempt.
contract LiquidationAttempt is ILiquidationKeeperLens {
    /// @notice Runs `attempt` and decodes the result it reverts with.
    /// @param engine The LiquidationEngine.
    /// @param account The account.
    /// @return ok Whether the liquidation succeeded.
    /// @return gasUsed Gas it used.
    /// @return err Its revert data when it failed.
    function probe(address engine, address account) external returns (bool ok, uint256 gasUsed, bytes memory err) {
        try this.attempt(engine, account) {
            // unreachable: attempt always reverts
        } catch (bytes memory r) {
            if (r.length >= 4 && bytes4(r) == LiquidationLensResult.selector) {
                bytes memory body = new bytes(r.length - 4);
                for (uint256 i; i < body.length; ++i) body[i] = r[i + 4];
                (ok, gasUsed, err) = abi.decode(body, (bool, uint256, bytes));
            } else {
                err = r;
            }
        }
    }

    /// @notice Liquidates `account` and reverts with the outcome (never returns).
    /// @param engine The LiquidationEngine.
    /// @param account The account.
    function attempt(address engine, address account) external {
        uint256 before = gasleft();
        (bool ok, bytes memory ret) = engine.call(abi.encodeCall(ILiquidationEngine.liquidate, (account)));
        uint256 used = before - gasleft();
        revert LiquidationLensResult(ok, used, ok ? bytes("") : ret);
    }
}
