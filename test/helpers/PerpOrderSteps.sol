// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Vm} from "forge-std/Vm.sol";
import {IPerpMarket} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {IDelayedOrders} from "../../contracts/interfaces/markets/IDelayedOrders.sol";

/// @dev The round reads of the CH index (ComputePriceOracle and MockRiskPriceIndex both have them).
interface IIndexRounds {
    function roundAt(uint256 time) external view returns (uint80);
}

/// @notice A perp trade in the tests, the way it happens on chain (IDelayedOrders): the trader commits, time passes
///         to the order's price time + 1, the caller (test contract or handler) executes it at the round in force.
library PerpOrderSteps {
    Vm internal constant VM = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    /// @notice Commits `sizeCh` as `account`, waits, executes. `filled` false with the reason when the commit reverted
    ///         or the execution cancelled the order (an execution that reverts leaves the order to expire: it is then
    ///         cancelled, time moves past the expiry, and the revert is returned).
    function trade(
        IPerpMarket perp,
        address account,
        int256 sizeCh,
        uint256 limit
    ) internal returns (bool filled, bytes memory reason) {
        VM.prank(account);
        try perp.commitOrder(sizeCh, limit) returns (uint256 t) {
            return execute(perp, account, t);
        } catch (bytes memory err) {
            return (false, err);
        }
    }

    /// @notice The same for a close order (`closePosition`).
    function close(
        IPerpMarket perp,
        address account,
        uint256 limit
    ) internal returns (bool filled, bytes memory reason) {
        VM.prank(account);
        try perp.closePosition(limit) returns (uint256 t) {
            return execute(perp, account, t);
        } catch (bytes memory err) {
            return (false, err);
        }
    }

    /// @notice Waits to `priceTime + 1` and executes `account`'s order at the round in force then.
    function execute(IPerpMarket perp, address account, uint256 priceTime) internal returns (bool, bytes memory) {
        if (VM.getBlockTimestamp() <= priceTime) VM.warp(priceTime + 1);
        (, address oracle, , , ) = perp.modules();
        uint80 roundId = IIndexRounds(oracle).roundAt(priceTime);
        VM.recordLogs();
        try perp.executeOrder(account, roundId) {
            Vm.Log[] memory logs = VM.getRecordedLogs();
            for (uint256 i; i < logs.length; ++i) {
                if (logs[i].emitter == address(perp) && logs[i].topics[0] == IDelayedOrders.OrderCancelled.selector) {
                    (, bytes memory why, ) = abi.decode(logs[i].data, (uint256, bytes, uint256));
                    return (false, why);
                }
            }
            return (true, "");
        } catch (bytes memory err) {
            VM.warp(perp.pendingOrder(account).expiresAt + 1);
            perp.cancelOrder(account);
            return (false, err);
        }
    }

    /// @notice `trade` that must fill: reverts with the reason otherwise.
    function mustTrade(IPerpMarket perp, address account, int256 sizeCh) internal {
        (bool ok, bytes memory reason) = trade(perp, account, sizeCh, 0);
        if (!ok) _bubble(reason);
    }

    function _bubble(bytes memory reason) private pure {
        assembly {
            revert(add(reason, 32), mload(reason))
        }
    }
}
