// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Vm} from "forge-std/Vm.sol";
import {IFuturesMarket} from "../../contracts/interfaces/markets/IFuturesMarket.sol";
import {IFuturesTypes} from "../../contracts/interfaces/markets/IFuturesTypes.sol";

/// @dev The round reads of the CH index (ComputePriceOracle and MockFuturesIndex both have them).
interface IFuturesIndexRounds {
    function roundAt(uint256 time) external view returns (uint80);
}

/// @notice A futures trade against the vault in the tests, the way it happens on chain (IDelayedOrders): the trader
///         commits, time passes to the order's price time + 1, the caller executes it at the round in force.
library FuturesOrderSteps {
    Vm internal constant VM = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    /// @notice Commits `sizeCh` on `seriesId` as `account`, waits, executes. `filled` false with the reason when the
    ///         commit reverted or the execution cancelled the order (an execution that reverts leaves the order to
    ///         expire: it is then cancelled, time moves past the expiry, and the revert is returned).
    function trade(
        IFuturesMarket futures,
        address account,
        uint256 seriesId,
        int256 sizeCh,
        uint256 limit
    ) internal returns (bool filled, bytes memory reason) {
        VM.prank(account);
        try futures.commitOrder(seriesId, sizeCh, limit) returns (uint256 t) {
            return execute(futures, account, seriesId, t);
        } catch (bytes memory err) {
            return (false, err);
        }
    }

    /// @notice The same for a close order (`closePosition`).
    function close(
        IFuturesMarket futures,
        address account,
        uint256 seriesId,
        uint256 limit
    ) internal returns (bool filled, bytes memory reason) {
        VM.prank(account);
        try futures.closePosition(seriesId, limit) returns (uint256 t) {
            return execute(futures, account, seriesId, t);
        } catch (bytes memory err) {
            return (false, err);
        }
    }

    /// @notice Waits to `priceTime + 1` and executes `account`'s order on `seriesId` at the round in force then.
    function execute(
        IFuturesMarket futures,
        address account,
        uint256 seriesId,
        uint256 priceTime
    ) internal returns (bool, bytes memory) {
        if (VM.getBlockTimestamp() <= priceTime) VM.warp(priceTime + 1);
        (, address oracle, , , ) = futures.modules();
        uint80 roundId = IFuturesIndexRounds(oracle).roundAt(priceTime);
        VM.recordLogs();
        try futures.executeOrder(account, seriesId, roundId) {
            Vm.Log[] memory logs = VM.getRecordedLogs();
            for (uint256 i; i < logs.length; ++i) {
                if (logs[i].emitter == address(futures) && logs[i].topics[0] == IFuturesTypes.OrderCancelled.selector) {
                    (, bytes memory why, ) = abi.decode(logs[i].data, (uint256, bytes, uint256));
                    return (false, why);
                }
            }
            return (true, "");
        } catch (bytes memory err) {
            VM.warp(futures.pendingOrder(seriesId, account).expiresAt + 1);
            futures.cancelOrder(account, seriesId);
            return (false, err);
        }
    }

    /// @notice `trade` that must fill: reverts with the reason otherwise.
    function mustTrade(IFuturesMarket futures, address account, uint256 seriesId, int256 sizeCh) internal {
        (bool ok, bytes memory reason) = trade(futures, account, seriesId, sizeCh, 0);
        if (!ok) _bubble(reason);
    }

    /// @notice `close` that must fill.
    function mustClose(IFuturesMarket futures, address account, uint256 seriesId) internal {
        (bool ok, bytes memory reason) = close(futures, account, seriesId, 0);
        if (!ok) _bubble(reason);
    }

    function _bubble(bytes memory reason) private pure {
        assembly {
            revert(add(reason, 32), mload(reason))
        }
    }
}
