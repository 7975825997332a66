// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSecuritySetup} from "./FuturesSecuritySetup.sol";
import {IFuturesTypes} from "../../../contracts/interfaces/markets/IFuturesTypes.sol";
import {signDigest} from "../../utils/Signatures.sol";

/// @notice The signed-order and storage helpers the futures order, roll and series-word tests share (round 43: one
///         copy instead of four): a maker with a known key, a third trader, the fill as a taker, and the raw
///         locations of the series and position mappings (storage-layouts/FuturesMarket.json).
abstract contract FuturesMakerSetup is FuturesSecuritySetup {
    /// @dev FuturesBase.FUTURES_MARKET_STORAGE_LOCATION and the `series` / `positions` mappings' slots in it.
    uint256 internal constant FUTURES_LOCATION = 0xaedf0e92e643f6546d7bf0c18856bdec666471a589991542784308c09d9dbd00;
    uint256 internal constant SERIES_SLOT = 11;
    uint256 internal constant POSITIONS_SLOT = 13;

    address internal maker;
    uint256 internal makerKey;
    address internal carol = makeAddr("carol");

    /// The maker's key and margin account (`collateral` USDC under the set-up guarantor).
    function _setUpMaker(uint256 collateral) internal {
        (maker, makerKey) = makeAddrAndKey("maker");
        _setupTrader(maker, guarantor, collateral);
    }

    /// The maker's EIP-712 signature of `o`.
    function _sign(IFuturesTypes.Order memory o) internal view returns (bytes memory) {
        return signDigest(makerKey, futures.orderDigest(o));
    }

    /// `taker` takes `size` of the signed order `o`; returns what the market reports filled.
    function _fill(
        address taker,
        IFuturesTypes.Order memory o,
        bytes memory sig,
        uint256 size
    ) internal returns (uint256) {
        vm.prank(taker);
        return futures.fillOrder(o, sig, size);
    }

    /// How many accounts `seriesId`'s settlement list holds.
    function _listed(uint256 seriesId) internal view returns (uint256 total) {
        (, total) = futures.seriesAccounts(seriesId, 0, 100);
    }

    function _size(uint256 seriesId, address who) internal view returns (int256) {
        return futures.positionOf(seriesId, who).sizeCh;
    }
}
