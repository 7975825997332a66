// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IPerpMarket} from "../../contracts/interfaces/markets/IPerpMarket.sol";

/// @notice The perp parameters of scripts/deploy/modules/perps.ts, shared by the Solidity test bases that deploy a
///         PerpMarket (PerpSolBase, ProtocolSolBase) so both exercise the production configuration.
library PerpDefaults {
    /// @notice The PerpMarket.initialize signature with the PerpParams tuple spelled out (abi.encodeWithSignature).
    string internal constant INITIALIZE_SIG =
        "initialize(address,address,address,address,address,(uint96,uint64,uint64,uint16,uint16,uint96,uint96,uint16,uint16,uint16,uint16,uint96,uint64,uint32,uint32,uint32))";

    function params() internal pure returns (IPerpMarket.PerpParams memory) {
        return
            IPerpMarket.PerpParams({
                skewScaleCh: 1_000_000e18,
                maxFundingVelocityWad: 3e18,
                maxFundingRateWad: 0.1e18,
                makerFeeBps: 2,
                takerFeeBps: 5,
                maxOpenInterestCh: 100_000e18,
                maxPositionCh: 10_000e18,
                insuranceShareBps: 2_000,
                burnShareBps: 1_000,
                lpReserveBps: 1_000,
                minOrderDelaySec: 30,
                minTradeCh: 0.01e18,
                pokeBountyUsdc: 0.1e6,
                pokeIntervalSec: 1 hours,
                maxOrderDelaySec: 300,
                executionFeeUsdc: 0.5e6
            });
    }
}
