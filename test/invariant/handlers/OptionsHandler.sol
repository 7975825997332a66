// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {IOptionsMarket, IOptionsMarketTypes} from "../../../contracts/interfaces/markets/IOptionsMarket.sol";
import {MockPriceIndex} from "../../../contracts/mocks/MockPriceIndex.sol";

/// @notice Drives writers and holders through writes, transfers, closes, price moves, expiry, price fixing, pull
///         exercise and paged settlement of two series (a put and a capped call).
contract OptionsHandler is CommonBase, StdCheats, StdUtils {
    IOptionsMarket internal options;
    MockPriceIndex internal oracle;
    address[4] public actors;
    uint64 public immutable expiry;
    uint256 public calls;

    constructor(IOptionsMarket options_, MockPriceIndex oracle_, address[4] memory actors_, uint64 expiry_) {
        options = options_;
        oracle = oracle_;
        actors = actors_;
        expiry = expiry_;
    }

    function _actor(uint256 seed) private view returns (address) {
        return actors[seed % 4];
    }

    function _series(uint256 seed) private pure returns (uint256) {
        return 1 + (seed % 2);
    }

    function write(uint256 actorSeed, uint256 seriesSeed, uint256 sizeCh) external {
        sizeCh = bound(sizeCh, 1, 2_000e18);
        vm.prank(_actor(actorSeed));
        try options.write(_series(seriesSeed), sizeCh) {
            ++calls;
        } catch {}
    }

    function transferLong(uint256 fromSeed, uint256 toSeed, uint256 seriesSeed, uint256 sizeCh) external {
        address from = _actor(fromSeed);
        address to = _actor(toSeed);
        uint256 id = _series(seriesSeed);
        uint256 held = options.positionOf(id, from).longCh;
        if (held == 0 || from == to) return;
        sizeCh = bound(sizeCh, 1, held);
        vm.prank(from);
        try options.transferLong(id, to, sizeCh) {
            ++calls;
        } catch {}
    }

    function close(uint256 actorSeed, uint256 seriesSeed, uint256 sizeCh) external {
        address a = _actor(actorSeed);
        uint256 id = _series(seriesSeed);
        IOptionsMarketTypes.Position memory p = options.positionOf(id, a);
        uint256 max = p.longCh < p.shortCh ? p.longCh : p.shortCh;
        if (max == 0) return;
        sizeCh = bound(sizeCh, 1, max);
        vm.prank(a);
        try options.close(id, sizeCh) {
            ++calls;
        } catch {}
    }

    function movePrice(uint256 priceWad) external {
        oracle.setPrice(bound(priceWad, 1e17, 40e18));
    }

    function expireAndFix(uint256 priceWad) external {
        if (block.timestamp < expiry) vm.warp(expiry);
        oracle.setPrice(bound(priceWad, 1e17, 40e18));
        for (uint256 id = 1; id <= 2; ++id) {
            try options.fixSettlementPrice(id) {} catch {}
        }
        vm.warp(block.timestamp + 1 hours);
    }

    function exercise(uint256 actorSeed, uint256 seriesSeed) external {
        try options.exercise(_series(seriesSeed), _actor(actorSeed)) {
            ++calls;
        } catch {}
    }

    function settlePage(uint256 seriesSeed, uint256 steps) external {
        try options.settleSeries(_series(seriesSeed), bound(steps, 1, 5)) {
            ++calls;
        } catch {}
    }
}
