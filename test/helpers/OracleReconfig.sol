// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {Deployers} from "../utils/Deployers.sol";

/// @notice How governance changes the oracle's configuration now that it is implementation immutables
///         (docs/oracle.md "Configuration by upgrade"): an upgrade to an implementation built with the new
///         configuration, announced by `announceConfig`. The test contract plays the timelock. One helper per former
///         setter, so a test reads as before.
abstract contract OracleReconfig is Deployers {
    /// @notice Governance's configuration change (the caller plays the timelock): upgrades `oracle` to an
    ///         implementation built with `c` and announces it.
    function _reconfigureOracle(address oracle, IComputePriceOracle.Config memory c) internal {
        UUPSUpgradeable(oracle).upgradeToAndCall(
            _deployOracleImpl(c),
            abi.encodeCall(IComputePriceOracle.announceConfig, ())
        );
    }

    /// @notice `_reconfigureOracle` with a new primary feed and heartbeat.
    function _oracleSetFeed(address oracle, address feed, uint32 heartbeatSec) internal {
        IComputePriceOracle.Config memory c = IComputePriceOracle(oracle).config();
        (c.feed, c.heartbeatSec) = (feed, heartbeatSec);
        _reconfigureOracle(oracle, c);
    }

    /// @notice `_reconfigureOracle` with new price bounds.
    function _oracleSetBounds(address oracle, uint256 minPriceWad, uint256 maxPriceWad) internal {
        IComputePriceOracle.Config memory c = IComputePriceOracle(oracle).config();
        (c.minPriceWad, c.maxPriceWad) = (minPriceWad, maxPriceWad);
        _reconfigureOracle(oracle, c);
    }

    /// @notice `_reconfigureOracle` with a new (or no: zero) sequencer-uptime feed.
    function _oracleSetSequencer(address oracle, address sequencerFeed, uint32 gracePeriodSec) internal {
        IComputePriceOracle.Config memory c = IComputePriceOracle(oracle).config();
        (c.sequencerFeed, c.gracePeriodSec) = (sequencerFeed, gracePeriodSec);
        _reconfigureOracle(oracle, c);
    }

    /// @notice `_reconfigureOracle` with a new (or no: zero) spot source for the deviation check.
    function _oracleSetSpot(address oracle, address source, uint32 windowSec, uint16 maxDeviationBps) internal {
        IComputePriceOracle.Config memory c = IComputePriceOracle(oracle).config();
        (c.spotSource, c.spotWindowSec, c.maxDeviationBps) = (source, windowSec, maxDeviationBps);
        _reconfigureOracle(oracle, c);
    }
}
